// binary_format_test.cpp — .tcpb round trips of the lowered samples; truncated, corrupt and foreign input.
#include "BinaryFormat.h"
#include "BinaryReader.h"
#include "BinaryWriter.h"
#include "Driver.h"

#include <gtest/gtest.h>
#include <llvm/Support/raw_ostream.h>

#include <filesystem>
#include <iostream>
#include <random>
#include <unistd.h>

namespace tcp::testing {
namespace {

namespace fs = std::filesystem;

const char *const kSamples[] = {
    "samples/hello/gemm.tcp",
    "samples/hello/gemv.tcp",
    "tests/conformance/manual/002_kernel.tcp",
    "tests/conformance/manual/003_kernel.tcp",
    "tests/conformance/manual/004_kernel.tcp",
};

// Runs every phase on a source file; fails the test on diagnostics.
LoweredProgram lowerFile(const std::string &relative) {
  std::string diags;
  llvm::raw_string_ostream os(diags);
  Compilation comp(os);
  bool ok = comp.load((fs::path(TCP_SOURCE_DIR) / relative).string()) && comp.run(Phase::Config, nullptr);
  os.flush();
  EXPECT_TRUE(ok) << relative << ":\n" << diags;
  return comp.lowered();
}

std::string printed(const LoweredProgram &p) {
  std::string s;
  llvm::raw_string_ostream os(s);
  printConfig(p, os);
  os.flush();
  return s;
}

uint32_t get32(const std::string &b, size_t at) {
  uint32_t v = 0;
  for (int k = 3; k >= 0; --k) v = v << 8 | uint8_t(b[at + k]);
  return v;
}
void put32(std::string &b, size_t at, uint32_t v) {
  for (int k = 0; k < 4; ++k) b[at + k] = char(v >> (8 * k));
}
// Rewrites the total size and the checksum so that only the structure can reject the bytes.
void reseal(std::string &b) {
  put32(b, binfmt::kTotalSizeOffset, uint32_t(b.size()));
  put32(b, binfmt::kChecksumOffset,
        binfmt::crc32(reinterpret_cast<const uint8_t *>(b.data()) + binfmt::kChecksummedFrom,
                      b.size() - binfmt::kChecksummedFrom));
}

BinaryReadResult decode(const std::string &b) { return decodeBinary(b, "x.tcpb"); }

// The smallest binary of the samples: the subject of the exhaustive truncation and flip tests.
std::string smallestSample() {
  std::string best;
  for (const char *s : kSamples) {
    std::string b = encodeBinary(lowerFile(s));
    if (best.empty() || b.size() < best.size()) best = b;
  }
  return best;
}

// A hand-made program with what the samples lack: negative strides, a base offset, an unknown
// context, a stage, an empty TU and an engine with neither sequencer nor fields.
LoweredProgram handMade() {
  LoweredProgram p;
  FunctionConfig k{"k", true, {}};
  TuConfig t0;
  t0.chain = 0;
  t0.ctx = Ctx::Sub;
  t0.line = 7;
  t0.timeSize = 1ull << 40;
  EngineConfig fetch{"fetch", SeqConfig{{{3, -64, "A % 3", false}, {16, 1, "B # 16", true}}, 16, -2}, {{"a", "b = c"}}};
  t0.engines = {fetch, EngineConfig{"switch", std::nullopt, {}}};
  TuConfig t1;
  t1.chain = 1;
  t1.ctx = Ctx::Unknown;
  t1.line = 9;
  t1.engines = {EngineConfig{"", std::nullopt, {}}};
  k.tus = {t0, t1};
  p.functions = {k, FunctionConfig{"stage_fn", false, {}}};
  return p;
}

class BinaryRoundTrip : public ::testing::TestWithParam<const char *> {};

TEST_P(BinaryRoundTrip, EncodeDecodePrintsTheSameConfig) {
  LoweredProgram p = lowerFile(GetParam());
  ASSERT_FALSE(p.functions.empty());
  std::string bytes = encodeBinary(p);
  BinaryReadResult r = decode(bytes);
  ASSERT_TRUE(r.ok()) << r.error;
  EXPECT_EQ(printed(*r.program), printed(p));
  EXPECT_EQ(encodeBinary(*r.program), bytes);  // nothing lost, including what printConfig omits
  EXPECT_EQ(r.producer, std::string("tcpc ") + TCP_VERSION);
  std::cout << "      " << GetParam() << ": " << bytes.size() << " bytes\n";
}

INSTANTIATE_TEST_SUITE_P(Samples, BinaryRoundTrip, ::testing::ValuesIn(kSamples));

TEST(BinaryFormat, HandMadeProgramRoundTrips) {
  LoweredProgram p = handMade();
  std::string bytes = encodeBinary(p);
  BinaryReadResult r = decode(bytes);
  ASSERT_TRUE(r.ok()) << r.error;
  EXPECT_EQ(printed(*r.program), printed(p));
  EXPECT_EQ(encodeBinary(*r.program), bytes);
  EXPECT_EQ(r.program->functions[0].tus[0].timeSize, 1ull << 40);
  EXPECT_EQ(r.program->functions[0].tus[0].engines[0].sequencer->baseOffset, -2);
  EXPECT_EQ(r.program->functions[0].tus[0].engines[0].sequencer->entries[0].stride, -64);
  EXPECT_EQ(r.program->functions[0].tus[1].ctx, Ctx::Unknown);
  EXPECT_FALSE(r.program->functions[1].isDevice);
}

TEST(BinaryFormat, Crc32CheckValue) {
  const char *check = "123456789";
  EXPECT_EQ(binfmt::crc32(reinterpret_cast<const uint8_t *>(check), 9), 0xCBF43926u);
}

TEST(BinaryFormat, HeaderLayout) {
  std::string b = encodeBinary(LoweredProgram{});
  ASSERT_GE(b.size(), binfmt::kHeaderSize);
  EXPECT_EQ(b.substr(0, 4), "TCPB");
  EXPECT_EQ(get32(b, 4), binfmt::kVersion);
  EXPECT_EQ(get32(b, 8), b.size());
  EXPECT_EQ(get32(b, 16), 2u);  // META and PROG
  EXPECT_EQ(get32(b, 20), 0u);
  BinaryReadResult r = decode(b);
  ASSERT_TRUE(r.ok()) << r.error;
  EXPECT_TRUE(r.program->functions.empty());
}

TEST(BinaryFormat, EveryTruncationFails) {
  std::string b = smallestSample();
  for (size_t len = 0; len < b.size(); ++len) {
    BinaryReadResult r = decode(b.substr(0, len));
    ASSERT_FALSE(r.ok()) << "a prefix of " << len << " bytes decoded";
    EXPECT_NE(r.error.find("'x.tcpb' is truncated: "), std::string::npos) << len << ": " << r.error;
  }
  EXPECT_EQ(decode(b.substr(0, 10)).error, "'x.tcpb' is truncated: the header needs 24 bytes but 10 remain");
  EXPECT_EQ(decode(b.substr(0, 100)).error,
            "'x.tcpb' is truncated: its header gives " + std::to_string(b.size()) + " bytes but the file has 100");
}

// With the size and checksum rewritten, the structure alone must reject every cut.
TEST(BinaryFormat, EveryResealedTruncationFails) {
  std::string b = smallestSample();
  for (size_t len = binfmt::kHeaderSize; len < b.size(); ++len) {
    std::string cut = b.substr(0, len);
    reseal(cut);
    BinaryReadResult r = decode(cut);
    ASSERT_FALSE(r.ok()) << "a resealed prefix of " << len << " bytes decoded";
    EXPECT_FALSE(r.error.empty());
  }
}

TEST(BinaryFormat, EverySingleByteFlipIsRejected) {
  std::string b = smallestSample();
  std::mt19937 rng(1234);
  for (size_t at = 0; at < b.size(); ++at) {
    std::string bad = b;
    bad[at] = char(uint8_t(bad[at]) ^ uint8_t(1 + rng() % 255));
    BinaryReadResult r = decode(bad);
    ASSERT_FALSE(r.ok()) << "a flip at offset " << at << " was accepted";
    const char *want = at < 4 ? "bad magic" : at < 8 ? "unsupported format version" : at < 12 ? "is " : "checksum mismatch";
    EXPECT_NE(r.error.find(want), std::string::npos) << at << ": " << r.error;
  }
}

TEST(BinaryFormat, RandomMultiByteFlipsAreRejectedByTheChecksum) {
  std::string b = smallestSample();
  std::mt19937 rng(99);
  for (int iter = 0; iter < 2000; ++iter) {
    std::string bad = b;
    int flips = 1 + rng() % 8;
    for (int k = 0; k < flips; ++k) {
      size_t at = binfmt::kChecksummedFrom + rng() % (b.size() - binfmt::kChecksummedFrom);
      bad[at] = char(uint8_t(bad[at]) ^ uint8_t(1 + rng() % 255));
    }
    if (bad == b) continue;
    BinaryReadResult r = decode(bad);
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error.find("checksum mismatch"), std::string::npos) << r.error;
  }
}

// Resealed random corruption reaches the structural checks: it may decode, but never crashes and
// never allocates beyond the input (counts are checked against the remaining bytes).
TEST(BinaryFormat, ResealedRandomCorruptionNeverCrashes) {
  std::string b = encodeBinary(handMade());
  std::mt19937 rng(7);
  int rejected = 0;
  for (int iter = 0; iter < 5000; ++iter) {
    std::string bad = b;
    int flips = 1 + rng() % 4;
    for (int k = 0; k < flips; ++k) {
      size_t at = binfmt::kHeaderSize + rng() % (b.size() - binfmt::kHeaderSize);
      bad[at] = char(rng() % 3 == 0 ? 0xFF : rng());
    }
    reseal(bad);
    BinaryReadResult r = decode(bad);
    if (r.ok()) {
      printed(*r.program);
    } else {
      ++rejected;
      EXPECT_FALSE(r.error.empty());
    }
  }
  EXPECT_GT(rejected, 0);
}

TEST(BinaryFormat, VersionMismatch) {
  std::string b = encodeBinary(handMade());
  put32(b, 4, 3);
  EXPECT_EQ(decode(b).error, "'x.tcpb' has unsupported format version 3 (this tcpc reads version 2)");
}

TEST(BinaryFormat, BadMagic) {
  std::string b = encodeBinary(handMade());
  b[0] = 'X';
  EXPECT_EQ(decode(b).error, "'x.tcpb' is not a tcpc binary: bad magic (expected \"TCPB\")");
  EXPECT_EQ(decode("kernel k {}\n").error, "'x.tcpb' is not a tcpc binary: bad magic (expected \"TCPB\")");
}

TEST(BinaryFormat, ChecksumMismatchNamesBothValues) {
  std::string b = encodeBinary(handMade());
  b.back() ^= 0x40;
  std::string e = decode(b).error;
  EXPECT_EQ(e.rfind("'x.tcpb' is corrupt: checksum mismatch (stored 0x", 0), 0u) << e;
}

TEST(BinaryFormat, TrailingBytes) {
  std::string b = encodeBinary(handMade()) + "!";
  EXPECT_EQ(decode(b).error, "'x.tcpb' is corrupt: 1 unexpected byte after the " + std::to_string(b.size() - 1) +
                                 " bytes its header gives");
}

// Offsets in the hand-made program: header, META section, PROG section header, then the table.
size_t progStart(const std::string &b) { return binfmt::kHeaderSize + 8 + get32(b, binfmt::kHeaderSize + 4) + 8; }

TEST(BinaryFormat, HugeCountsAreTruncationErrorsNotAllocations) {
  std::string b = encodeBinary(handMade());
  size_t prog = progStart(b);
  std::string bad = b;
  put32(bad, prog, 0xFFFFFFFFu);  // the function count
  reseal(bad);
  EXPECT_EQ(decode(bad).error, "'x.tcpb' is truncated: the function table needs " +
                                   std::to_string(uint64_t(0xFFFFFFFFu) * binfmt::kMinFunction) + " bytes but " +
                                   std::to_string(b.size() - prog - 4) + " remain");
  bad = b;
  put32(bad, prog + 4, 0x7FFFFFFFu);  // the length of the first function's name
  reseal(bad);
  EXPECT_EQ(decode(bad).error.rfind("'x.tcpb' is truncated: the name of function 0 needs 2147483647 bytes but ", 0), 0u)
      << decode(bad).error;
}

TEST(BinaryFormat, EngineTableOfTuOneTooLarge) {
  LoweredProgram p = handMade();
  p.functions.resize(1);
  std::string b = encodeBinary(p);
  // function "k": count 4, name 4+1, flag 1, tu count 4; tu 0: 22 fixed bytes, then its engines.
  size_t tu0 = progStart(b) + 4 + 5 + 1 + 4;
  size_t tu1Engines = b.size() - 9 - 4;  // tu 1 ends with its engine count and one 9-byte engine
  ASSERT_EQ(get32(b, tu0 + 18), 2u);
  ASSERT_EQ(get32(b, tu1Engines), 1u);
  put32(b, tu1Engines, 10);
  reseal(b);
  EXPECT_EQ(decode(b).error, "'x.tcpb' is truncated: the engine table of tu 1 of function 'k' needs 90 bytes but 9 remain");
}

TEST(BinaryFormat, MalformedFlagsContextsAndStrings) {
  LoweredProgram p = handMade();
  p.functions.resize(1);
  std::string b = encodeBinary(p);
  size_t fn = progStart(b) + 4;
  std::string bad = b;
  bad[fn + 5] = 2;  // is_device of function 'k'
  reseal(bad);
  EXPECT_EQ(decode(bad).error, "'x.tcpb' is corrupt: the kernel flag of function 'k' is 2 (expected 0 or 1)");
  bad = b;
  bad[fn + 10 + 4] = 5;  // the context of tu 0
  reseal(bad);
  EXPECT_EQ(decode(bad).error, "'x.tcpb' is corrupt: the context of tu 0 of function 'k' is 5 (expected 0, 1 or 2)");
  bad = b;
  bad[fn + 10 + 5] = 3;  // the stage flag of tu 0
  reseal(bad);
  EXPECT_EQ(decode(bad).error.rfind("'x.tcpb' is corrupt: the stage flag of tu 0 of function 'k' is 3", 0), 0u) << decode(bad).error;
  bad = b;
  bad[fn + 4] = '\n';  // the name "k"
  reseal(bad);
  EXPECT_EQ(decode(bad).error, "'x.tcpb' is corrupt: the name of function 0 contains the control byte 0x0a at offset 0");
}

TEST(BinaryFormat, SectionTable) {
  std::string b = encodeBinary(handMade());
  size_t metaEnd = binfmt::kHeaderSize + 8 + get32(b, binfmt::kHeaderSize + 4);
  std::string prog = b.substr(metaEnd);
  // An unknown section (a later writer's optional data) is skipped.
  std::string extra = b.substr(0, metaEnd) + "XTRA" + std::string("\3\0\0\0abc", 7) + prog;
  put32(extra, 16, 3);
  reseal(extra);
  BinaryReadResult r = decode(extra);
  ASSERT_TRUE(r.ok()) << r.error;
  EXPECT_EQ(printed(*r.program), printed(handMade()));
  // PROG is required, once.
  std::string none = b.substr(0, metaEnd);
  put32(none, 16, 1);
  reseal(none);
  EXPECT_EQ(decode(none).error, "'x.tcpb' is corrupt: no PROG section (the function table)");
  std::string twice = b + prog;
  put32(twice, 16, 3);
  reseal(twice);
  EXPECT_EQ(decode(twice).error, "'x.tcpb' is corrupt: a second PROG section (section 2 (PROG))");
  // The section count must match the sections.
  std::string fewer = b;
  put32(fewer, 16, 1);
  reseal(fewer);
  EXPECT_EQ(decode(fewer).error, "'x.tcpb' is corrupt: " + std::to_string(prog.size()) + " unexpected bytes after the last section");
  std::string more = b;
  put32(more, 16, 3);
  reseal(more);
  EXPECT_EQ(decode(more).error, "'x.tcpb' is truncated: the header of section 2 needs 4 bytes but 0 remain");
  put32(more, 16, 0x10000000);
  reseal(more);
  EXPECT_EQ(decode(more).error, "'x.tcpb' is truncated: the section table needs 2147483648 bytes but " +
                                    std::to_string(b.size() - binfmt::kHeaderSize) + " remain");
}

TEST(BinaryFormat, FileIo) {
  fs::path path = fs::temp_directory_path() / ("binary_format_test_" + std::to_string(::getpid()) + ".tcpb");
  std::string error;
  ASSERT_TRUE(writeBinaryFile(handMade(), path.string(), error)) << error;
  BinaryReadResult r = readBinaryFile(path.string());
  ASSERT_TRUE(r.ok()) << r.error;
  EXPECT_EQ(printed(*r.program), printed(handMade()));
  fs::remove(path);
  EXPECT_EQ(readBinaryFile(path.string()).error.rfind("cannot read '" + path.string() + "': ", 0), 0u);
  EXPECT_EQ(readBinaryFile(fs::temp_directory_path().string()).error,
            "cannot read '" + fs::temp_directory_path().string() + "': it is a directory");
  EXPECT_FALSE(writeBinaryFile(handMade(), (fs::temp_directory_path() / "no-such-dir" / "x.tcpb").string(), error));
  EXPECT_EQ(error.rfind("cannot write '", 0), 0u) << error;
}

}  // namespace
}  // namespace tcp::testing

// binary_format_test.cpp — .tcpb round trips of the lowered samples; truncated, corrupt and foreign input.
#include "BinaryFormat.h"
#include "BinaryReader.h"
#include "BinaryWriter.h"
#include "Driver.h"
#include "EngineFields.h"
#include "EngineRecord.h"

#include <gtest/gtest.h>
#include <llvm/Support/raw_ostream.h>

#include <filesystem>
#include <fstream>
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

// A hand-made program with what the samples lack: negative strides, a base offset, per-index
// masking, a sub context, an unknown context, a stage, an empty TU, a DMA across chips.
LoweredProgram handMade() {
  LoweredProgram p;
  FunctionConfig k{"k", true, {}};
  TuConfig t0;
  t0.chain = 0;
  t0.ctx = Ctx::Sub;
  t0.line = 7;
  FetchConfig fetch;
  fetch.dmAddress = 4096;
  fetch.sequencer = SeqConfig{{{3, -64, "A % 3", false}, {16, 1, "B # 16", true}}, 16, -2};
  fetch.timeSize = 1ull << 40;
  fetch.inType = num::DType::i8;
  fetch.outType = num::DType::i32;
  fetch.masking = FetchMasking{true, 0, 1, 0, {16, 16, 1, 0}};
  fetch.zeroPoints = FetchZeroPoints{false, {-7}};
  fetch.packetBytes = 16;
  fetch.contiguousBytes = 16;
  fetch.fetchSize = 8;
  CommitConfig commit;
  commit.dmAddress = 512;
  commit.sequencer = SeqConfig{{{4, 8, "M", false}, {8, 1, "W", true}}, 8, 0};
  commit.dtype = num::DType::i8;
  commit.commitInSize = 8;
  commit.contiguousBytes = 64;
  commit.commitSize = 8;
  commit.writeOffsets = {0};
  commit.sliceBitmap = SliceBitmap();
  commit.sliceBitmap->set(0).set(255);
  SwitchEngineConfig forward;  // Forwarding: every slice snoops itself
  forward.inputTime = 3;
  forward.inputPacketBytes = 40;
  forward.snoop.resize(kSlicesPerCluster);
  for (size_t o = 0; o < kSlicesPerCluster; ++o) forward.snoop[o].set(o);
  t0.engines = {fetch, forward, CollectConfig{40}, commit};
  TuConfig t1;
  t1.chain = 1;
  t1.ctx = Ctx::Unknown;
  t1.line = 9;
  VectorConfig vector;
  VectorStep init, branch, add, mul, fin;
  branch.stage = VeStage::Branch;
  add.stage = mul.stage = VeStage::Fxp;
  add.operands = {{VeOperandKind::Constant, -2147483648LL}};
  mul.op = uint8_t(FxpOp::MulInt);
  mul.operands = {{VeOperandKind::Vrf}};
  fin.stage = VeStage::Final;
  vector.steps = {init, branch, add, mul, fin};
  t1.engines = {vector};
  TuConfig dma;
  dma.chain = -1;
  dma.line = 11;
  DmaConfig d;
  d.src = DmaMedia::Hbm;
  d.dst = DmaMedia::Hbm;
  d.chips = 2;
  d.shared = DmaCommand{{{2, 4096, -4096, "A", 0}, {4096, 1, 1, "B", -1}}, 0, int64_t(1) << 40, 4096};
  d.srcParam = "x";
  d.engines = {DmaEngineWork{0, 0, {d.shared}}};
  d.chipWrites = {DmaChipWrite{true, 0, 0, 4096, {1}}, DmaChipWrite{true, 1, 0, 0, {1}}};
  dma.engines = {d};
  TuConfig empty;
  empty.chain = 2;
  k.tus = {t0, t1, dma, empty};
  FunctionConfig stage{"stage_fn", false, {}};
  TuConfig st;
  st.chain = -1;
  st.stage = true;
  st.ctx = Ctx::Main;
  st.engines = {CollectConfig{32}};
  stage.tus = {st};
  p.functions = {k, stage};
  return p;
}

// Where each engine field lies in `b` (decodeBinary's layout).
std::vector<FieldLocation> layoutOf(const std::string &b) {
  std::vector<FieldLocation> layout;
  BinaryReadResult r = decodeBinary(b, "x.tcpb", &layout);
  EXPECT_TRUE(r.ok()) << r.error;
  return layout;
}
const FieldLocation &locate(const std::vector<FieldLocation> &layout, EngineKind kind, const std::string &field) {
  for (const FieldLocation &l : layout)
    if (l.kind == kind && l.field == field) return l;
  ADD_FAILURE() << "no field " << field << " of a " << engineName(kind) << " engine";
  static FieldLocation none;
  return none;
}
// Overwrites a field (little-endian, its width) and reseals the file.
std::string patched(std::string b, const FieldLocation &at, uint64_t value) {
  for (unsigned k = 0; k < at.width; ++k) b[at.offset + k] = char(value >> (8 * k));
  reseal(b);
  return b;
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
  const FetchConfig *f = r.program->functions[0].tus[0].find<FetchConfig>();
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->timeSize, 1ull << 40);
  EXPECT_EQ(f->sequencer.baseOffset, -2);
  EXPECT_EQ(f->sequencer.entries[0].stride, -64);
  EXPECT_EQ(f->masking->validCounts, (std::vector<uint64_t>{16, 16, 1, 0}));
  EXPECT_EQ(f->zeroPoints->values, std::vector<int64_t>{-7});
  EXPECT_EQ(r.program->functions[0].tus[0].find<CommitConfig>()->sliceBitmap->count(), 2u);
  EXPECT_EQ(r.program->functions[0].tus[1].find<VectorConfig>()->steps[2].operands.at(0).constant, -2147483648LL);
  EXPECT_EQ(r.program->functions[0].tus[2].find<DmaConfig>()->shared.dstBase, int64_t(1) << 40);
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
  put32(b, 4, 2);
  EXPECT_EQ(decode(b).error, "'x.tcpb' has unsupported format version 2 (this tcpc reads version 5)");
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
  p.functions[0].tus.resize(2);
  p.functions[0].tus[1].engines = {CollectConfig{64}};
  std::string b = encodeBinary(p);
  // tu 1 ends with its engine count and one collect record: kind, size 4, u32 input_packet_bytes.
  size_t tu1Engines = b.size() - 9 - 4;
  ASSERT_EQ(get32(b, tu1Engines), 1u);
  put32(b, tu1Engines, 10);
  reseal(b);
  EXPECT_EQ(decode(b).error, "'x.tcpb' is truncated: the engine table of tu 1 of function 'k' needs 50 bytes but 9 remain");
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

// ---- typed engine records (format version 3)

// A corrupted field is refused with the engine and the field named.
TEST(BinaryEngineRecords, OutOfRangePacketSize) {
  std::string b = encodeBinary(handMade());
  auto layout = layoutOf(b);
  std::string bad = patched(b, locate(layout, EngineKind::Fetch, "packet_bytes"), 1u << 20);
  EXPECT_EQ(decode(bad).error, "'x.tcpb' is corrupt: the field packet_bytes of engine 0 (fetch) of tu 0 of function 'k' "
                               "is 1048576 (expected 1 to 262144)");
  bad = patched(b, locate(layout, EngineKind::Fetch, "sequencer.packet_size"), 0);
  EXPECT_EQ(decode(bad).error, "'x.tcpb' is corrupt: the field sequencer.packet_size of engine 0 (fetch) of tu 0 of "
                               "function 'k' is 0 (expected 1 to 65536)");
}

TEST(BinaryEngineRecords, UnknownTopology) {
  std::string b = encodeBinary(handMade());
  std::string bad = patched(b, locate(layoutOf(b), EngineKind::Switch, "topology"), 9);
  EXPECT_EQ(decode(bad).error, "'x.tcpb' is corrupt: the field topology of engine 1 (switch) of tu 0 of function 'k' is 9 "
                               "(expected 0 to 5: Forwarding, Broadcast01, Broadcast1, Transpose, InterTranspose, CustomBroadcast)");
}

TEST(BinaryEngineRecords, BadBitmapWidth) {
  std::string b = encodeBinary(handMade());
  auto layout = layoutOf(b);
  std::string bad = patched(b, locate(layout, EngineKind::Switch, "snoop[3].width"), 255);
  EXPECT_EQ(decode(bad).error, "'x.tcpb' is corrupt: the field snoop[3] of engine 1 (switch) of tu 0 of function 'k' has "
                               "width 255 (expected 256: one bit per slice of a cluster)");
  bad = patched(b, locate(layout, EngineKind::Commit, "slice_bitmap.width"), 512);
  EXPECT_EQ(decode(bad).error, "'x.tcpb' is corrupt: the field slice_bitmap of engine 3 (commit) of tu 0 of function 'k' "
                               "has width 512 (expected 256: one bit per slice of a cluster)");
}

TEST(BinaryEngineRecords, FieldsThatDisagree) {
  std::string b = encodeBinary(handMade());
  auto layout = layoutOf(b);
  // A snoop bitmap reaching outside its ring (Forwarding: a ring of one slice).
  const FieldLocation &snoop = locate(layout, EngineKind::Switch, "snoop[2]");  // its first byte of bits
  std::string bad = b;
  bad[snoop.offset] = 0x06;  // slice 2 snoops slices 1 and 2
  reseal(bad);
  EXPECT_EQ(decode(bad).error, "'x.tcpb' is corrupt: the field snoop[2] of engine 1 (switch) of tu 0 of function 'k' "
                               "accepts slice 1 (expected slices of its ring of 1, 2 to 2)");
  // fetch_size 16 is a main-context size; tu 0 runs in the sub context.
  bad = patched(b, locate(layout, EngineKind::Fetch, "fetch_size"), 16);
  EXPECT_EQ(decode(bad).error, "'x.tcpb' is corrupt: the field fetch_size of engine 0 (fetch) of tu 0 of function 'k' is "
                               "16 (expected 4 or 8 in the sub context)");
  // last_dim names an entry the sequencer does not have.
  bad = patched(b, locate(layout, EngineKind::Fetch, "masking.last_dim"), 5);
  EXPECT_EQ(decode(bad).error, "'x.tcpb' is corrupt: the field masking.last_dim of engine 0 (fetch) of tu 0 of function "
                               "'k' is 5 (expected an entry of the sequencer's 2)");
  // One write offset per commit_size write of the packet.
  bad = patched(b, locate(layout, EngineKind::Commit, "commit_in_size"), 16);
  EXPECT_EQ(decode(bad).error, "'x.tcpb' is corrupt: the field write_offsets of engine 3 (commit) of tu 0 of function 'k' "
                               "has 1 offsets (expected commit_in_size / commit_size = 2)");
}

TEST(BinaryEngineRecords, EnumsKindsAndRecordSizes) {
  std::string b = encodeBinary(handMade());
  auto layout = layoutOf(b);
  std::string bad = patched(b, locate(layout, EngineKind::Vector, "steps[2].op"), 11);
  EXPECT_EQ(decode(bad).error.rfind("'x.tcpb' is corrupt: the field steps[2].op of engine 0 (vector) of tu 1 of function "
                                    "'k' is 11 (expected 0 to 10: AddFxp, ", 0), 0u) << decode(bad).error;
  bad = patched(b, locate(layout, EngineKind::Fetch, "in_type"), 200);
  EXPECT_NE(decode(bad).error.find("the field in_type of engine 0 (fetch) of tu 0 of function 'k' is 200 (expected 0 to 10: i4, "),
            std::string::npos) << decode(bad).error;
  // The kind byte and the size precede the first field.
  const FieldLocation &first = locate(layout, EngineKind::Collect, "input_packet_bytes");
  bad = b;
  bad[first.offset - 5] = 12;
  reseal(bad);
  EXPECT_EQ(decode(bad).error, "'x.tcpb' is corrupt: the kind of engine 2 of tu 0 of function 'k' is 12 (expected 0 to 11: "
                               "fetch, switch, collect, trf_load, vrf_load, aligner, reducer, vector, cast, transpose, commit, dma)");
  bad = b;
  put32(bad, first.offset - 4, 5);  // one byte more than the collect's u32 field
  reseal(bad);
  EXPECT_NE(decode(bad).error.find("1 unexpected byte after the fields of engine 2 (collect) of tu 0 of function 'k'"),
            std::string::npos) << decode(bad).error;
}

TEST(BinaryEngineRecords, HugeListCountsAreRefusedBeforeAllocating) {
  std::string b = encodeBinary(handMade());
  std::string bad = patched(b, locate(layoutOf(b), EngineKind::Dma, "engines[0].commands"), 65536);
  EXPECT_NE(decode(bad).error.find("'x.tcpb' is truncated: the field engines[0].commands of engine 0 (dma) of tu 2 of "
                                   "function 'k' needs 65536 bytes but "),
            std::string::npos) << decode(bad).error;
  bad = patched(b, locate(layoutOf(b), EngineKind::Dma, "engines[0].commands"), 65537);
  EXPECT_EQ(decode(bad).error, "'x.tcpb' is corrupt: the field engines[0].commands of engine 0 (dma) of tu 2 of function "
                               "'k' has 65537 elements (expected at most 65536)");
}

// docs/binary-format.md shows every engine's record exactly as the field declarations define it.
TEST(BinaryEngineRecords, DocumentedLayoutMatchesTheDeclarations) {
  std::ifstream in(fs::path(TCP_SOURCE_DIR) / "docs" / "binary-format.md");
  std::string doc((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  ASSERT_FALSE(doc.empty());
  for (unsigned k = 0; k < kEngineKinds; ++k) {
    std::string table = engineLayoutTable(EngineKind(k));
    EXPECT_NE(doc.find(table), std::string::npos) << "docs/binary-format.md lacks the record of "
                                                  << engineName(EngineKind(k)) << ":\n" << table;
  }
}

// Every program of the goldens, the manual's listings and the samples that compiles: its binary
// decodes (every field within its range) and prints exactly what --emit=config prints, and
// re-encodes to the same bytes.
class EveryProgramRoundTrips : public ::testing::TestWithParam<const char *> {};

TEST_P(EveryProgramRoundTrips, DisassemblyIsTheConfig) {
  std::vector<fs::path> files;
  for (const auto &e : fs::recursive_directory_iterator(fs::path(TCP_SOURCE_DIR) / GetParam()))
    if (e.path().extension() == ".tcp") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  size_t compiled = 0;
  for (const fs::path &file : files) {
    std::ifstream in(file);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::string diags;
    llvm::raw_string_ostream os(diags);
    Compilation comp(os);
    comp.setRngdS(text.find("--target=rngd-s") != std::string::npos);
    if (!comp.load(file.string()) || !comp.run(Phase::Config, nullptr)) continue;  // fail_* tests and the like
    ++compiled;
    std::string bytes = encodeBinary(comp.lowered());
    BinaryReadResult r = decode(bytes);
    ASSERT_TRUE(r.ok()) << file << ": " << r.error;
    EXPECT_EQ(printed(*r.program), printed(comp.lowered())) << file;
    EXPECT_EQ(encodeBinary(*r.program), bytes) << file;
  }
  std::cout << "      " << GetParam() << ": " << compiled << " of " << files.size() << " programs compile and round-trip\n";
  EXPECT_GT(compiled, 0u);
}

INSTANTIATE_TEST_SUITE_P(Corpus, EveryProgramRoundTrips,
                         ::testing::Values("samples", "tests/conformance/manual", "tests/golden/binary", "tests/golden/parse", "tests/golden/resolve", "tests/golden/compute",
                                           "tests/golden/config", "tests/golden/contract", "tests/golden/cycles",
                                           "tests/golden/dma", "tests/golden/moving", "tests/golden/run",
                                           "tests/golden/switch", "tests/golden/typed"));

}  // namespace
}  // namespace tcp::testing

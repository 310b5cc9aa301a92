// sequencer_test.cpp — sequencer configurations of the manual's "Sequencer" page, merging and failures.
#include "MappingTestUtil.h"
#include "Sequencer.h"

#include <gtest/gtest.h>

namespace tcp::testing {
namespace {

SeqResult derive(const Axes &ax, const char *buf, const char *time, const char *packet, unsigned bits,
                 SeqOptions opt = {}) {
  return tcp::derive(M(ax, buf), M(ax, time), M(ax, packet), bits, opt);
}

std::string config(const SeqResult &r) {
  if (!r.ok()) return "!" + (r.diagnostics.empty() ? std::string("?") : r.diagnostics[0]);
  return r.config->verbose();
}

std::string entries(const std::vector<SeqEntry> &v) {
  std::string s;
  for (const SeqEntry &e : v) s += (s.empty() ? "" : ", ") + e.term + " -> " + std::to_string(e.size) + " : " + std::to_string(e.stride);
  return s;
}

TEST(SequencerDerive, AxisReorderingNchwToWhcn) {
  Axes ax{{"N", 4}, {"C", 3}, {"H", 8}, {"W", 8}};
  SeqResult r = derive(ax, "N, C, H, W", "W, H, C, N", "1", 16);
  ASSERT_TRUE(r.ok()) << r.diagnostics[0];
  EXPECT_EQ(r.config->str(), "[8 : 1, 8 : 8, 3 : 64, 4 : 192] : 1");
  EXPECT_EQ(r.config->verbose(), "[W -> 8 : 1, H -> 8 : 8, C -> 3 : 64, N -> 4 : 192] : 1");
  EXPECT_EQ(r.config->baseOffset, 0);
  EXPECT_EQ(r.timeSize, 768u);
  EXPECT_EQ(r.packetElems, 1u);
  // Writing the stream back derives the identical configuration.
  SeqOptions commit;
  commit.use = SeqUse::Commit;
  EXPECT_EQ(derive(ax, "N, C, H, W", "W, H, C, N", "1", 16, commit).config->str(), r.config->str());
}

TEST(SequencerDerive, RearrangingAxes) {
  Axes ax{{"A", 8}, {"B", 8}, {"C", 8}};
  SeqResult r = derive(ax, "A, B, C # 32", "B, A", "C # 16", 8);
  EXPECT_EQ(config(r), "[B -> 8 : 32, A -> 8 : 256, C # 16 -> 16 : 1] : 16");
  EXPECT_EQ(r.config->str(), "[8 : 32, 8 : 256, 16 : 1] : 16");
}

TEST(SequencerDerive, SplittingAxes) {
  Axes ax{{"A", 8}, {"B", 8}, {"C", 4}};
  SeqResult r = derive(ax, "A, B, C # 8", "A % 2, B % 4, A / 2, B / 4", "C # 32", 8);
  EXPECT_EQ(config(r), "[A % 2 -> 2 : 64, B % 4 -> 4 : 8, A / 2 -> 4 : 128, B / 4 -> 2 : 32, C # 32 -> 32 : 1] : 32");
}

TEST(SequencerDerive, SlicingAxes) {
  Axes ax{{"A", 16}, {"B", 8}, {"C", 8}};
  SeqResult r = derive(ax, "A, B, C", "A / 4, A % 4 = 3, B / 4, B % 4 = 2", "C", 8);
  EXPECT_EQ(config(r),
            "[A / 4 -> 4 : 256, A % 4 = 3 -> 3 : 64, B / 4 -> 2 : 32, B % 4 = 2 -> 2 : 8, C -> 8 : 1] : 8");
  EXPECT_EQ(r.timeSize, 4u * 3 * 2 * 2);
}

TEST(SequencerDerive, BroadcastingAxes) {
  Axes ax{{"A", 16}, {"T", 4}, {"P", 4}};
  SeqResult r = derive(ax, "A", "T, A", "P", 8);
  EXPECT_EQ(config(r), "[T -> 4 : 0, A -> 16 : 1, P -> 4 : 0] : 4");
}

TEST(SequencerDerive, InterfaceExamples) {
  {  // Strided access: 8 x 512 bf16 as 128 packets of 32 elements (64 bytes: the fetch adapter batches).
    Axes ax{{"A", 8}, {"B", 512}};
    SeqOptions fetch;
    fetch.use = SeqUse::Fetch;
    SeqResult r = derive(ax, "A, B", "A, B / 32", "B % 32", 16, fetch);
    EXPECT_EQ(config(r), "[A -> 8 : 512, B / 32 -> 16 : 32, B % 32 -> 32 : 1] : 32");
    EXPECT_EQ(r.timeSize, 128u);
    // As a raw sequencer packet, 64 bytes is not a packet size.
    EXPECT_EQ(config(derive(ax, "A, B", "A, B / 32", "B % 32", 16)),
              "!bad packet: a packet of 32 elements is 64 bytes; sequencer packets are 1, 2, 4, 8, 16 or 32 bytes");
  }
  {  // Tiling: A into 2 x 4, B into 4 x 128, C padded to 32 per packet.
    Axes ax{{"A", 8}, {"B", 512}, {"C", 3}};
    SeqResult r = derive(ax, "A, B, C # 8", "A % 2, B % 4, A / 2, B / 4", "C # 32", 8);
    EXPECT_EQ(config(r), "[A % 2 -> 2 : 4096, B % 4 -> 4 : 8, A / 2 -> 4 : 8192, B / 4 -> 128 : 32, C # 32 -> 32 : 1] : 32");
  }
}

TEST(SequencerDerive, TermsSpanningBufferTermsSplit) {
  Axes ax{{"A", 16}, {"B", 2}};
  SeqResult r = derive(ax, "A / 4, B, A % 4", "B, A", "1", 8);
  EXPECT_EQ(config(r), "[B -> 2 : 4, A / 4 -> 4 : 8, A % 4 -> 4 : 1] : 1");
}

TEST(SequencerDerive, ConstantCoordinatesBecomeBaseOffsets) {
  Axes ax{{"A", 8}, {"B", 16}};
  SeqResult r = derive(ax, "A, B", "A @ 3", "B", 8);
  ASSERT_TRUE(r.ok()) << r.diagnostics[0];
  EXPECT_EQ(r.config->str(), "[5 : 16, 16 : 1] : 16 @ base_addr = 48");
  EXPECT_EQ(r.config->baseOffset, 48);
  // The buffer holding A from 2 on cannot give A from 0.
  SeqResult late = derive(ax, "A @ 2, B", "A = 4", "B", 8);
  ASSERT_FALSE(late.ok());
  EXPECT_EQ(late.diagnostics[0],
            "insufficient input: `Time` reads `A = 4` from coordinate 0 of axis `A` but the buffer `m![A @ 2, B]` "
            "holds only `A @ 2`");
}

TEST(SequencerMerge, NineEntriesMergeToSix) {
  Axes ax{{"N", 8}, {"C", 8}, {"H", 8}, {"W", 32}};
  SeqOptions fetch;
  fetch.use = SeqUse::Fetch;
  SeqResult r = derive(ax, "N, C, H, W", "W / 16, H % 2, H / 2, C / 2, C % 2, N / 2, N % 2, W / 8 % 2", "W % 8", 8);
  EXPECT_EQ(entries(r.initial),
            "W / 16 -> 2 : 16, H % 2 -> 2 : 32, H / 2 -> 4 : 64, C / 2 -> 4 : 512, C % 2 -> 2 : 256, "
            "N / 2 -> 4 : 4096, N % 2 -> 2 : 2048, W / 8 % 2 -> 2 : 8, W % 8 -> 8 : 1");
  EXPECT_EQ(config(r), "[W / 16 -> 2 : 16, H % 2 -> 2 : 32, H / 2 -> 4 : 64, C -> 8 : 256, N -> 8 : 2048, W % 16 -> 16 : 1] : 16");
  EXPECT_EQ(r.config->entries.size(), 6u);
  // The last merge took a temporal entry into the packet entry: the packet grew from 8 to 16.
  EXPECT_EQ(r.packetElems, 8u);
  EXPECT_EQ(r.config->packetSize, 16u);
  EXPECT_TRUE(r.config->entries.back().packet);
  EXPECT_FALSE(r.config->entries[4].packet);
}

TEST(SequencerMerge, OnlyContiguousPairsAndOnlyBeyondTheLimit) {
  // H % 2 (2 : 32), H / 2 (4 : 64): 32 != 4 * 64, not merged.
  std::vector<SeqEntry> v{{2, 32, "H % 2", false}, {4, 64, "H / 2", false}};
  EXPECT_EQ(entries(mergeContiguous(v)), "H % 2 -> 2 : 32, H / 2 -> 4 : 64");
  // Unnamed merges spell both terms; broadcasts merge with broadcasts.
  std::vector<SeqEntry> w{{4, 8, "X", false}, {8, 1, "Y", true}, {2, 0, "P", true}};
  EXPECT_EQ(entries(mergeContiguous(w)), "[X, Y] -> 32 : 1, P -> 2 : 0");
  std::vector<SeqEntry> b{{3, 0, "T", false}, {4, 0, "U", false}};
  EXPECT_EQ(entries(mergeContiguous(b)), "[T, U] -> 12 : 0");
  // A merge past the entry size limit is skipped.
  std::vector<SeqEntry> big{{512, 256, "X", false}, {256, 1, "Y", true}};
  EXPECT_EQ(mergeContiguous(big).size(), 2u);
  // At most 8 entries: nothing merges (the manual's batching configuration keeps H / 2, H % 2).
  Axes ax{{"N", 4}, {"C", 3}, {"H", 4}, {"W", 8}};
  SeqOptions fetch;
  fetch.use = SeqUse::Fetch;
  SeqResult r = derive(ax, "N, C, H, W", "N, C, H / 2", "H % 2, W", 4, fetch);
  EXPECT_EQ(config(r), "[N -> 4 : 96, C -> 3 : 32, H / 2 -> 2 : 16, H % 2 -> 2 : 8, W -> 8 : 1] : 8");
}

TEST(SequencerFailures, InsufficientInput) {
  Axes ax{{"N", 2048}};
  SeqResult r = derive(ax, "N % 512", "N / 512", "N % 512", 8);
  ASSERT_FALSE(r.ok());
  ASSERT_EQ(r.diagnostics.size(), 1u);
  EXPECT_EQ(r.diagnostics[0],
            "insufficient input: `Time` iterates `N / 512` but the buffer `m![N % 512]` holds only `N % 512`");
}

TEST(SequencerFailures, IncompatibleShapes) {
  Axes ax{{"A", 15}};
  SeqResult r = derive(ax, "A % 5, A / 5", "1", "A % 3, A / 3", 8);
  ASSERT_FALSE(r.ok());
  ASSERT_EQ(r.diagnostics.size(), 1u);
  EXPECT_EQ(r.diagnostics[0],
            "incompatible shapes: `Packet` iterates `A / 3` but the buffer `m![A % 5, A / 5]` splits axis `A` as "
            "`A % 5, A / 5`; no single configuration reads one as the other");
}

TEST(SequencerFailures, TooManyEntries) {
  Axes ax{{"A", 2}, {"B", 2}, {"C", 2}, {"D", 2}, {"E", 2}, {"F", 2}, {"G", 2}, {"H", 2}, {"I", 2}};
  SeqResult r = derive(ax, "A, B, C, D, E, F, G, H, I", "I, H, G, F, E, D, C, B, A", "1", 8);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.diagnostics[0],
            "too many entries: the configuration needs 9 entries after merging (`I`, `H`, `G`, `F`, `E`, `D`, `C`, "
            "`B`, `A`), the sequencer has 8");
  EXPECT_EQ(r.initial.size(), 9u);
  // In order, the same nine entries are contiguous and merge into one.
  SeqResult in = derive(ax, "A, B, C, D, E, F, G, H, I", "A, B, C, D, E, F, G, H, I", "1", 8);
  EXPECT_EQ(config(in), "[[A, B, C, D, E, F, G, H, I] -> 512 : 1] : 1");
}

TEST(SequencerFailures, EntryTooLarge) {
  Axes ax{{"N", 131072}};
  SeqResult r = derive(ax, "N", "N", "1", 8);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.diagnostics[0], "entry too large: `N` iterates 131072 times, the limit is 65,536 per entry");
  EXPECT_TRUE(derive(ax, "N", "N / 2", "N % 2", 8).ok());
}

TEST(SequencerFailures, BadPacket) {
  Axes ax{{"A", 3}, {"B", 8}};
  EXPECT_EQ(config(derive(ax, "B, A", "B", "A", 8)),
            "!bad packet: a packet of 3 elements is 3 bytes; sequencer packets are 1, 2, 4, 8, 16 or 32 bytes");
  EXPECT_EQ(config(derive(ax, "B, A", "B, A", "1", 4)),
            "!bad packet: a packet of 1 element of 4 bits is not a whole number of bytes");
  // A strided packet term reads single-element packets (discrete access).
  SeqResult strided = derive(ax, "A, B", "B", "A", 8);
  EXPECT_EQ(config(strided), "[B -> 8 : 1, A -> 3 : 8] : 1");
  // The innermost-entry rule on a configuration built by hand.
  SeqConfig c;
  c.entries = {{4, 8, "X", true}};
  c.packetSize = 4;
  std::vector<std::string> d = checkLimits(c, 8);
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0],
            "bad packet: the innermost entry `X` (4 : 8) is not contiguous: it needs stride 0 or 1 and a size that is "
            "a multiple of packet_size 4, or packet_size 1");
  c.entries = {{6, 1, "X", true}};
  EXPECT_EQ(checkLimits(c, 8).size(), 1u);  // 6 % 4 != 0
  c.entries = {{8, 1, "X", true}};
  EXPECT_TRUE(checkLimits(c, 8).empty());
}

TEST(SequencerFailures, UnsupportedParts) {
  Axes ax{{"A", 4}, {"B", 90}};
  SeqResult r = derive(ax, "A, # 2 + B + # 4", "A", "B", 8);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.diagnostics[0],
            "unsupported mapping: `Packet` iterates `B`: axis `B` sits in the buffer part `2# + B + 4#`, which does "
            "not decompose into axis terms");
  SeqResult two = derive(ax, "A, B", "1", "A + B", 8);
  ASSERT_FALSE(two.ok());
  EXPECT_EQ(two.diagnostics[0],
            "unsupported mapping: the concatenation `A + B` joins several data parts; a sequencer reads one strided range");
}

TEST(SequencerDerive, CommitTruncatesAPaddedPacketToTheElement) {
  // The dot product's `cast::<bf16, m![1 # 16]>().commit::<m![1 # 8]>()`: 16 lanes, 8 positions.
  SeqOptions commit;
  commit.use = SeqUse::Commit;
  Axes ax{{"A", 8}};
  SeqResult r = derive(ax, "1 # 8", "1", "1 # 16", 16, commit);
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(r.truncated);
  EXPECT_EQ(r.packetElems, 8u);  // commit_in_size = 8 × 2 bytes = 16
}

TEST(SequencerDerive, CommitTruncatesTheMajorPacketTerm) {
  SeqOptions commit;
  commit.use = SeqUse::Commit;
  Axes ax{{"M", 4}, {"K", 2}, {"W", 8}, {"N", 16}};
  SeqResult pad = derive(ax, "M, K, W", "M, K", "W # 32", 8, commit);
  EXPECT_EQ(config(pad), "[M -> 4 : 16, K -> 2 : 8, W -> 8 : 1] : 8");
  EXPECT_TRUE(pad.truncated);
  EXPECT_EQ(pad.packetElems, 8u);
  SeqResult cut = derive(ax, "K, M, N = 8", "M, K", "N", 16, commit);
  EXPECT_EQ(config(cut), "[M -> 4 : 8, K -> 2 : 32, N = 8 -> 8 : 1] : 8");
  EXPECT_EQ(cut.packetElems, 8u);
  // Reads do not truncate: the same stream from that buffer lacks N's upper half.
  EXPECT_EQ(config(derive(ax, "K, M, N = 8", "M, K", "N", 16)),
            "!insufficient input: `Packet` iterates `N` but the buffer `m![K, M, N = 8]` holds only `N % 8`");
  // Commit does not write padding past the buffer's layout.
  SeqResult over = derive(ax, "M, W", "M", "K, W # 16", 8, commit);
  ASSERT_FALSE(over.ok());
  EXPECT_EQ(over.diagnostics[0],
            "commit writes padding beyond the data: `Packet` iterates `W # 16` (16 positions) past the buffer's `W`");
}

}  // namespace
}  // namespace tcp::testing

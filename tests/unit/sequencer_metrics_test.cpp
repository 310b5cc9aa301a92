// sequencer_metrics_test.cpp — fetch/commit figures of the manual's Fetch and Commit Engine pages.
#include "MappingTestUtil.h"
#include "SequencerMetrics.h"

#include <gtest/gtest.h>

namespace tcp::testing {
namespace {

SeqOptions use(SeqUse u, bool keepUnitTerms = false) {
  SeqOptions o;
  o.use = u;
  o.keepUnitTerms = keepUnitTerms;
  return o;
}

SeqResult derive(const Axes &ax, const char *buf, const char *time, const char *packet, unsigned bits, SeqOptions opt,
                 const std::map<std::string, MappingRef> *aliases = nullptr) {
  return tcp::derive(M(ax, buf, aliases), M(ax, time, aliases), M(ax, packet, aliases), bits, opt);
}

TEST(SequencerMetrics, ContiguousSramAccessSize) {
  Axes ax{{"N", 4}, {"C", 3}, {"H", 4}, {"W", 8}};
  SeqOptions fetch = use(SeqUse::Fetch);
  SeqResult full = derive(ax, "N, C, H, W", "N, C, H", "W", 8, fetch);
  ASSERT_TRUE(full.ok()) << full.diagnostics[0];
  EXPECT_EQ(full.config->verbose(), "[N -> 4 : 96, C -> 3 : 32, H -> 4 : 8, W -> 8 : 1] : 8");
  EXPECT_EQ(contiguousSramAccessBytes(*full.config, 8), 384u);
  SeqResult three = derive(ax, "N, C, H, W", "C", "N, H, W", 8, fetch);
  ASSERT_TRUE(three.ok()) << three.diagnostics[0];
  EXPECT_EQ(three.config->verbose(), "[C -> 3 : 32, N -> 4 : 96, H -> 4 : 8, W -> 8 : 1] : 8");
  EXPECT_EQ(contiguousSramAccessBytes(*three.config, 8), 32u);
  SeqResult four = derive(ax, "N, C, H, W", "1", "N, H, C, W", 8, fetch);
  ASSERT_TRUE(four.ok()) << four.diagnostics[0];
  EXPECT_EQ(four.config->verbose(), "[N -> 4 : 96, H -> 4 : 8, C -> 3 : 32, W -> 8 : 1] : 8");
  EXPECT_EQ(contiguousSramAccessBytes(*four.config, 8), 8u);
  // Strided innermost entries access one element; broadcasts count their size.
  SeqConfig c;
  c.entries = {{8, 1, "W", false}, {4, 192, "N", false}};
  EXPECT_EQ(contiguousSramAccessElems(c), 1u);
  c.entries = {{16, 1, "A", false}, {4, 0, "P", true}};
  EXPECT_EQ(contiguousSramAccessElems(c), 4u);
  EXPECT_EQ(contiguousSramAccessBytes(c, 4), 2u);
}

TEST(SequencerMetrics, MaximumFetchSizeOfTheConfigurationExamples) {
  Axes rearranging{{"A", 8}, {"B", 8}, {"C", 8}}, splitting{{"A", 8}, {"B", 8}, {"C", 4}},
      slicing{{"A", 16}, {"B", 8}, {"C", 8}}, broadcasting{{"A", 16}, {"T", 4}, {"P", 4}};
  auto fetchOf = [](const Axes &ax, const char *buf, const char *time, const char *packet) {
    SeqResult r = derive(ax, buf, time, packet, 8, use(SeqUse::Fetch));
    return planFetch(r, 8, Context::Main).fetchSize;
  };
  EXPECT_EQ(fetchOf(rearranging, "A, B, C # 32", "B, A", "C # 16"), 16u);
  EXPECT_EQ(fetchOf(splitting, "A, B, C # 8", "A % 2, B % 4, A / 2, B / 4", "C # 32"), 32u);
  EXPECT_EQ(fetchOf(slicing, "A, B, C", "A / 4, A % 4 = 3, B / 4, B % 4 = 2", "C"), 8u);
  EXPECT_EQ(fetchOf(broadcasting, "A", "T, A", "P"), 4u);
}

TEST(SequencerMetrics, PaddingPackets) {
  Axes ax{{"A", 3}, {"B", 5}, {"C", 2}};
  SeqOptions fetch = use(SeqUse::Fetch);
  SeqResult c = derive(ax, "A, B, C", "A, B", "C", 8, fetch);
  FetchPlan pc = planFetch(c, 8, Context::Main);
  ASSERT_TRUE(pc.ok()) << pc.diagnostics[0];
  EXPECT_EQ(pc.packetBytes, 2u);
  EXPECT_EQ(pc.fetchSize, 2u);
  EXPECT_EQ(pc.cycles, 15u);
  SeqResult bc = derive(ax, "A, B, C", "A", "[B, C] # 16", 8, fetch);
  ASSERT_TRUE(bc.ok()) << bc.diagnostics[0];
  EXPECT_EQ(bc.config->verbose(), "[A -> 3 : 10, [B, C] # 16 -> 16 : 1] : 16");
  FetchPlan pbc = planFetch(bc, 8, Context::Main);
  EXPECT_EQ(pbc.fetchSize, 16u);
  EXPECT_EQ(pbc.cycles, 3u);
  SeqResult abc = derive(ax, "A, B, C", "1", "[A, B, C] # 32", 8, fetch);
  ASSERT_TRUE(abc.ok()) << abc.diagnostics[0];
  EXPECT_EQ(abc.config->verbose(), "[[A, B, C] # 32 -> 32 : 1] : 32");
  FetchPlan pabc = planFetch(abc, 8, Context::Main);
  EXPECT_EQ(pabc.fetchSize, 32u);
  EXPECT_EQ(pabc.cycles, 1u);
  // The 2-byte packet of the first case is not 8-byte aligned (see docs/cycle-model.md).
  EXPECT_EQ(checkFetchAlignment(2), "fetch output packet must be 8-byte aligned, got 2 bytes");
  EXPECT_EQ(checkFetchAlignment(16), "");
}

TEST(SequencerMetrics, Batching) {
  Axes ax{{"N", 4}, {"C", 3}, {"H", 4}, {"W", 8}};
  struct Case {
    const char *time, *packet, *config;
    uint64_t packetBytes, fetchSize, perPacket, cycles;
  } cases[] = {
      {"N, C, H", "W", "[N -> 4 : 96, C -> 3 : 32, H -> 4 : 8, W -> 8 : 1] : 8", 4, 4, 1, 48},
      {"N, C, H / 2", "H % 2, W", "[N -> 4 : 96, C -> 3 : 32, H / 2 -> 2 : 16, H % 2 -> 2 : 8, W -> 8 : 1] : 8", 8, 8, 1, 24},
      {"N, C", "H, W", "[N -> 4 : 96, C -> 3 : 32, H -> 4 : 8, W -> 8 : 1] : 8", 16, 16, 1, 12},
      {"N", "C, H, W", "[N -> 4 : 96, C -> 3 : 32, H -> 4 : 8, W -> 8 : 1] : 8", 48, 16, 3, 12},
  };
  for (const Case &k : cases) {
    SCOPED_TRACE(k.packet);
    SeqResult r = derive(ax, "N, C, H, W", k.time, k.packet, 4, use(SeqUse::Fetch));
    ASSERT_TRUE(r.ok()) << r.diagnostics[0];
    EXPECT_EQ(r.config->verbose(), k.config);
    EXPECT_EQ(contiguousSramAccessElems(*r.config), 384u);
    FetchPlan p = planFetch(r, 4, Context::Main);
    ASSERT_TRUE(p.ok()) << p.diagnostics[0];
    EXPECT_EQ(p.contiguousBytes, 192u);
    EXPECT_EQ(p.packetBytes, k.packetBytes);
    EXPECT_EQ(p.fetchSize, k.fetchSize);
    EXPECT_EQ(p.fetchesPerPacket, k.perPacket);
    EXPECT_EQ(p.cycles, k.cycles);
  }
  EXPECT_EQ(fetchCycles(4, 96, 32), 12u);  // the manual's element-count reading of the last case
  EXPECT_EQ(fetchesPerPacket(40, 8), 5u);  // 5 fetches of 8 bytes make a 40-byte packet
}

TEST(SequencerMetrics, FetchSizeByContext) {
  EXPECT_EQ(fetchSize(16, 384, Context::Main).bytes, 16u);
  EXPECT_EQ(fetchSize(96, 384, Context::Main).bytes, 32u);
  EXPECT_EQ(fetchSize(48, 192, Context::Main).bytes, 16u);
  EXPECT_EQ(fetchSize(6, 30, Context::Main).bytes, 2u);
  EXPECT_EQ(fetchSize(32, 384, Context::Main, false, 8).bytes, 8u);
  EXPECT_EQ(fetchSize(32, 384, Context::Sub).bytes, 8u);
  EXPECT_EQ(fetchSize(32, 384, Context::Sub, true).bytes, 4u);
  SizeResult bad = fetchSize(4, 192, Context::Sub);
  EXPECT_FALSE(bad.ok());
  EXPECT_EQ(bad.error,
            "fetch_size: the sub-context fetches 8 bytes, which does not divide gcd(packet_size 4, "
            "contiguous_sram_access_size 192) = 4 bytes");
  EXPECT_TRUE(fetchSize(4, 192, Context::Sub, true).ok());
  EXPECT_FALSE(fetchSize(0, 192, Context::Main).ok());
}

TEST(SequencerMetrics, FetchCastOutputLimit) {
  EXPECT_EQ(checkFetchCast(4, 4, 32), "");
  EXPECT_EQ(checkFetchCast(8, 4, 32),
            "fetch cast output: a fetch of 8 bytes casts 4-bit to 32-bit elements and produces 64 bytes; a single "
            "fetch may produce at most 32 bytes");
  EXPECT_NE(checkFetchCast(16, 8, 32), "");
  EXPECT_EQ(checkFetchCast(8, 8, 32), "");
  EXPECT_EQ(maxFetchBytesForCast(4, 32), 4u);
  EXPECT_EQ(maxFetchBytesForCast(8, 32), 8u);
  EXPECT_EQ(maxFetchBytesForCast(16, 32), 16u);
  EXPECT_EQ(maxFetchBytesForCast(32, 16), 32u);
  // The fetch of i8 rows cast to i32: a 32-byte packet read as 4 fetches of 8 bytes (not a manual figure).
  Axes ax{{"A", 512}, {"B", 32}};
  FetchPlan p = planFetch(derive(ax, "A, B", "A", "B", 8, use(SeqUse::Fetch)), 8, Context::Main, 32);
  ASSERT_TRUE(p.ok()) << p.diagnostics[0];
  EXPECT_EQ(p.fetchSize, 8u);
  EXPECT_EQ(p.fetchesPerPacket, 4u);
  EXPECT_EQ(p.cycles, 2048u);
}

TEST(SequencerMetrics, MaskingCases) {
  Axes ax{{"A", 32}, {"B", 90}};
  std::map<std::string, MappingRef> aliases{{"B'", M(ax, "# 2 + B + # 4")}};
  SeqResult one = derive(ax, "A, B # 96", "A, {B'} / 32", "{B'} % 32", 8, use(SeqUse::Fetch), &aliases);
  ASSERT_TRUE(one.ok()) << one.diagnostics[0];
  EXPECT_EQ(one.config->str(), "[32 : 96, 3 : 32, 32 : 1] : 32 @ base_addr = -2");
  EXPECT_EQ(one.config->verbose(), "[A -> 32 : 96, (2# + B + 4#) / 32 -> 3 : 32, (2# + B + 4#) % 32 -> 32 : 1] : 32 @ base_addr = -2");
  FetchPlan p1 = planFetch(one, 8, Context::Main);
  EXPECT_EQ(p1.fetchSize, 32u);
  EXPECT_EQ(p1.cycles, 96u);
  SeqResult two = derive(ax, "A, B # 96", "{B'} / 32, A", "{B'} % 32", 8, use(SeqUse::Fetch), &aliases);
  ASSERT_TRUE(two.ok()) << two.diagnostics[0];
  EXPECT_EQ(two.config->str(), "[3 : 32, 32 : 96, 32 : 1] : 32 @ base_addr = -2");
  EXPECT_EQ(planFetch(two, 8, Context::Main).cycles, 96u);
  // Case 3: f32, B = 97 padded by 31 on the right; the explicit `1` keeps its entry.
  Axes ax3{{"A", 32}, {"B", 97}};
  std::map<std::string, MappingRef> a3{{"B'", M(ax3, "B + # 31")}};
  SeqResult three = derive(ax3, "A, B # 128", "A, {B'} / 16, 1", "{B'} % 16", 32, use(SeqUse::Fetch, true), &a3);
  ASSERT_TRUE(three.ok()) << three.diagnostics[0];
  EXPECT_EQ(three.config->str(), "[32 : 128, 8 : 16, 1 : 0, 16 : 1] : 16");
  EXPECT_EQ(three.timeSize, 256u);
  FetchPlan p3 = planFetch(three, 32, Context::Main);
  EXPECT_EQ(p3.packetBytes, 64u);
  EXPECT_EQ(p3.fetchSize, 32u);
  EXPECT_EQ(p3.cycles, 512u);  // Time::SIZE 256 × ceil(64 / 32); see docs/cycle-model.md
  // Without keepUnitTerms the size-1 term has no entry.
  SeqResult plain = derive(ax3, "A, B # 128", "A, {B'} / 16, 1", "{B'} % 16", 32, use(SeqUse::Fetch), &a3);
  EXPECT_EQ(plain.config->str(), "[32 : 128, 8 : 16, 16 : 1] : 16");
}

TEST(SequencerMetrics, CommitSequencerExamples) {
  Axes ax{{"M", 4}, {"K", 2}, {"W", 8}, {"N", 16}};
  SeqOptions commit = use(SeqUse::Commit);
  struct Case {
    const char *buf, *time, *packet;
    unsigned bits;
    const char *config;
    uint64_t contiguous, commitIn, commitSize;
    std::vector<uint64_t> offsets;
  } cases[] = {
      {"M, K, W", "M, K", "W # 32", 8, "[M -> 4 : 16, K -> 2 : 8, W -> 8 : 1] : 8", 64, 8, 8, {0}},
      {"K, M, W", "M, K", "W", 32, "[M -> 4 : 8, K -> 2 : 32, W -> 8 : 1] : 8", 32, 32, 32, {0}},
      {"K, M, N = 8", "M, K", "N", 16, "[M -> 4 : 8, K -> 2 : 32, N = 8 -> 8 : 1] : 8", 16, 16, 16, {0}},
      {"K, M, W # 16", "K", "M, W", 8, "[K -> 2 : 64, M -> 4 : 16, W -> 8 : 1] : 8", 8, 32, 8, {0, 16, 32, 48}},
  };
  for (const Case &k : cases) {
    SCOPED_TRACE(k.config);
    SeqResult r = derive(ax, k.buf, k.time, k.packet, k.bits, commit);
    ASSERT_TRUE(r.ok()) << r.diagnostics[0];
    EXPECT_EQ(r.config->verbose(), k.config);
    CommitPlan p = planCommit(r, k.bits, Context::Main);
    ASSERT_TRUE(p.ok()) << p.diagnostics[0];
    EXPECT_EQ(p.contiguousBytes, k.contiguous);
    EXPECT_EQ(p.commitInSize, k.commitIn);
    EXPECT_EQ(p.commitSize, k.commitSize);
    EXPECT_EQ(p.writesPerPacket, k.offsets.size());
    EXPECT_EQ(p.writeOffsets, k.offsets);
  }
  // The sub-context writes 8 bytes: the f32 transpose becomes 4 writes per packet.
  CommitPlan sub = planCommit(derive(ax, "K, M, W", "M, K", "W", 32, commit), 32, Context::Sub);
  ASSERT_TRUE(sub.ok()) << sub.diagnostics[0];
  EXPECT_EQ(sub.commitSize, 8u);
  EXPECT_EQ(sub.writeOffsets, (std::vector<uint64_t>{0, 8, 16, 24}));
}

TEST(SequencerMetrics, CommitRules) {
  EXPECT_EQ(commitInSize(24).bytes, 24u);
  EXPECT_EQ(commitInSize(12).error,
            "commit_in_size: the commit adapter truncates packets to 8, 16, 24 or 32 bytes, but the packet keeps 12 bytes");
  EXPECT_EQ(commitInSize(64).error, "commit_in_size: the commit input is one 32-byte flit, but the packet keeps 64 bytes");
  EXPECT_EQ(commitSize(64, 8, Context::Main).bytes, 8u);
  EXPECT_EQ(commitSize(48, 32, Context::Main).bytes, 16u);
  EXPECT_EQ(commitSize(72, 24, Context::Main).bytes, 24u);
  EXPECT_EQ(commitSize(32, 32, Context::Sub).bytes, 8u);
  EXPECT_EQ(commitSize(4, 8, Context::Main).error,
            "commit_size: the main context writes 8, 16, 24 or 32 bytes, but gcd(contiguous_sram_access_size 4, "
            "commit_in_size 8) = 4 bytes");
  EXPECT_EQ(commitSize(12, 24, Context::Sub).error,
            "commit_size: the sub-context writes 8 bytes, which does not divide gcd(contiguous_sram_access_size 12, "
            "commit_in_size 24) = 12 bytes");
  // Strides outside one write must be multiples of 8 bytes.
  SeqConfig c;
  c.entries = {{4, 12, "M", false}, {8, 1, "W", true}};
  c.packetSize = 8;
  std::vector<std::string> d = checkCommitStrides(c, 8, 8);
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0], "commit stride: `M` steps 12 elements (12 bytes); commit sequencer strides must be multiples of 8 bytes");
  c.entries = {{4, 16, "M", false}, {16, 1, "W", true}};
  EXPECT_TRUE(checkCommitStrides(c, 8, 8).empty());  // W straddles two writes 8 bytes apart
  // A truncated packet of 12 bytes cannot be committed.
  Axes ax{{"K", 4}, {"W", 12}};
  CommitPlan p = planCommit(derive(ax, "K, W", "K", "W # 16", 8, use(SeqUse::Commit)), 8, Context::Main);
  ASSERT_EQ(p.diagnostics.size(), 1u);
  EXPECT_EQ(p.diagnostics[0],
            "commit_in_size: the commit adapter truncates packets to 8, 16, 24 or 32 bytes, but the packet keeps 12 bytes");
}

}  // namespace
}  // namespace tcp::testing

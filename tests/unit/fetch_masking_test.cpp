// fetch_masking_test.cpp — the Fetch Adapter's masking registers derived from the padding lanes of each packet.
#include "FetchMasking.h"
#include "MappingTestUtil.h"

#include <gtest/gtest.h>

namespace tcp::testing {
namespace {

MaskPlan plan(const Axes &ax, const char *buf, const char *time, const char *packet, unsigned bits,
              const std::map<std::string, MappingRef> *aliases = nullptr, bool keepUnit = false) {
  SeqOptions o;
  o.use = SeqUse::Fetch;
  o.keepUnitTerms = keepUnit;
  MappingRef t = M(ax, time, aliases), p = M(ax, packet, aliases);
  SeqResult r = derive(M(ax, buf, aliases), t, p, bits, o);
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.diagnostics[0]);
  return r.ok() ? planMasking(*r.config, t, p) : MaskPlan{};
}

TEST(FetchMasking, NoPaddingNoMask) {
  EXPECT_FALSE(plan({{"A", 8}, {"B", 32}}, "A, B", "A", "B", 8).needed);
}

TEST(FetchMasking, EveryPacketKeepsTheSameLanes) {
  MaskPlan m = plan({{"A", 63}}, "A", "1", "A # 64", 8);  // "Masking": 63 elements padded to 64
  ASSERT_TRUE(m.needed);
  EXPECT_TRUE(m.error.empty()) << m.error;
  EXPECT_FALSE(m.perIndex);
  EXPECT_EQ(m.lastDim, 0u);
  EXPECT_EQ(m.leftPad, 0u);
  EXPECT_EQ(m.validCounts, (std::vector<uint64_t>{63}));
}

TEST(FetchMasking, PaddingCase3OneCountPerIndex) {
  Axes ax{{"A", 32}, {"B", 97}};
  std::map<std::string, MappingRef> a{{"B'", M(ax, "B + # 31")}};
  MaskPlan m = plan(ax, "A, B # 128", "A, {B'} / 16, 1", "{B'} % 16", 32, &a, true);
  ASSERT_TRUE(m.needed);
  EXPECT_TRUE(m.perIndex);
  EXPECT_EQ(m.countDim, 1u);  // the manual's last_dim_rightmost_valid_count_dim = 1
  EXPECT_EQ(m.validCounts, (std::vector<uint64_t>{16, 16, 16, 16, 16, 16, 1, 0}));
}

TEST(FetchMasking, RightPadAtTheLastValueOfAnEntry) {
  // Case 2 without its left pad: B = 90 padded by 6, B' / 32 outermost.
  Axes ax{{"A", 32}, {"B", 90}};
  std::map<std::string, MappingRef> a{{"B'", M(ax, "B + # 6")}};
  MaskPlan two = plan(ax, "A, B # 96", "{B'} / 32, A", "{B'} % 32", 8, &a);
  ASSERT_TRUE(two.needed);
  EXPECT_FALSE(two.perIndex);
  EXPECT_EQ(two.lastDim, 0u);
  EXPECT_EQ(two.validCounts, (std::vector<uint64_t>{26}));
  MaskPlan one = plan(ax, "A, B # 96", "A, {B'} / 32", "{B'} % 32", 8, &a);  // case 1's order
  EXPECT_EQ(one.lastDim, 1u);
  EXPECT_EQ(one.validCounts, (std::vector<uint64_t>{26}));
}

TEST(FetchMasking, PaddingBetweenElementsCannotBeMasked) {
  MaskPlan m = plan({{"B", 4}, {"C", 2}, {"T", 8}}, "T, B, C # 4", "T", "B, C # 4", 8);
  EXPECT_TRUE(m.needed);
  EXPECT_EQ(m.error, "packet 0 has padding lanes between its elements; masking pads only the ends of the innermost "
                     "axis (`# n + A + # m`)");
}

TEST(FetchMasking, ManyBlocksOneCount) {
  // 9 blocks of 16, only the last one partial: a single count, not one per index (which allows 8).
  MaskPlan big = plan({{"A", 2}, {"B", 137}}, "A, B # 144", "A, (B + # 7) / 16", "(B + # 7) % 16", 8);
  EXPECT_TRUE(big.error.empty()) << big.error;
  EXPECT_FALSE(big.perIndex);
  EXPECT_EQ(big.lastDim, 1u);
  EXPECT_EQ(big.validCounts, (std::vector<uint64_t>{9}));
}

}  // namespace
}  // namespace tcp::testing

// padded_axis_test.cpp — padded (derived) axes `B' = # l + B + # r`: map() positions and padding, / and %, sequencer and masking.
#include "FetchMasking.h"
#include "MappingTestUtil.h"
#include "Sequencer.h"
#include "DeviceIndex.h"

#include <gtest/gtest.h>

namespace tcp::testing {
namespace {

// axes![..., name = # left + base + # right]
void addPadded(Axes &ax, const char *name, const char *base, uint64_t left, uint64_t right) {
  AxisInfo a;
  a.name = name;
  a.padBase = base;
  a.padBaseSize = ax.table.find(base)->size;
  a.padLeft = left;
  a.padRight = right;
  a.size = left + a.padBaseSize + right;
  ASSERT_TRUE(ax.table.add(a));
}

TEST(PaddedAxis, PositionsAndPadding) {
  Axes ax{{"B", 90}};
  addPadded(ax, "B'", "B", 2, 4);
  MappingRef e = M(ax, "B'");
  EXPECT_EQ(e->size(), 96u);
  EXPECT_EQ(e->map(0), std::nullopt);  // the left pad
  EXPECT_EQ(e->map(1), std::nullopt);
  EXPECT_EQ(e->map(2), I({}));  // B = 0
  EXPECT_EQ(e->map(3), I({{"B", 1}}));
  EXPECT_EQ(e->map(91), I({{"B", 89}}));
  for (uint64_t i = 92; i < 96; ++i) EXPECT_EQ(e->map(i), std::nullopt) << i;  // the right pad
  EXPECT_EQ(e->map(96), std::nullopt);                                         // out of range
  EXPECT_EQ(e->str(), "m![B']");
}

// The manual's masking cases split B' by / 32 and % 32: each B appears once, at b' = b + 2, unlike
// `(# 2 + B + # 4) / 32` with `(# 2 + B + # 4) % 32`, which adds the left pad to both parts.
TEST(PaddedAxis, SplitByStrideAndModulo) {
  Axes ax{{"A", 32}, {"B", 90}};
  addPadded(ax, "B'", "B", 2, 4);
  MappingRef stream = M(ax, "A, B' / 32, B' % 32");
  ASSERT_EQ(stream->size(), 32u * 96u);
  std::vector<int> seen(32 * 90, 0);
  uint64_t padding = 0;
  for (uint64_t i = 0; i < stream->size(); ++i) {
    std::optional<Index> ix = stream->map(i);
    uint64_t a = i / 96, bp = i % 96;
    if (!ix) {
      ++padding;
      EXPECT_TRUE(bp < 2 || bp >= 92) << i;
      continue;
    }
    EXPECT_EQ(ix->get("A"), static_cast<int64_t>(a));
    EXPECT_EQ(ix->get("B"), static_cast<int64_t>(bp) - 2) << i;
    ++seen[ix->get("A") * 90 + ix->get("B")];
  }
  EXPECT_EQ(padding, 32u * 6u);
  for (int s : seen) EXPECT_EQ(s, 1);
  // The concatenation form distributes the pad into both parts: B = 0..29 never appears.
  MappingRef concat = M(ax, "A, (# 2 + B + # 4) / 32, (# 2 + B + # 4) % 32");
  bool zero = false;
  for (uint64_t i = 0; i < concat->size(); ++i)
    if (auto ix = concat->map(i)) zero |= ix->get("B") == 0;
  EXPECT_FALSE(zero);
}

TEST(PaddedAxis, ComposesWithPairsAndResize) {
  Axes ax{{"A", 4}, {"B", 6}};
  addPadded(ax, "A'", "A", 0, 1);  // `A + 1#` (DMA example 6)
  addPadded(ax, "B'", "B", 1, 1);
  MappingRef e = M(ax, "A', B' = 4");
  EXPECT_EQ(e->size(), 5u * 4u);
  EXPECT_EQ(e->map(0), std::nullopt);           // B' = 0 is the left pad
  EXPECT_EQ(e->map(1), I({}));                  // (A, B) = (0, 0)
  EXPECT_EQ(e->map(4 + 3), I({{"A", 1}, {"B", 2}}));
  for (uint64_t i = 16; i < 20; ++i) EXPECT_EQ(e->map(i), std::nullopt);  // A' = 4: the right pad
}

TEST(PaddedAxis, SequencerReadsTheBaseAxisFromTheLeftPad) {
  Axes ax{{"A", 32}, {"B", 90}};
  addPadded(ax, "B'", "B", 2, 4);
  SeqOptions o;
  o.use = SeqUse::Fetch;
  SeqResult case1 = derive(M(ax, "A, B # 96"), M(ax, "A, B' / 32"), M(ax, "B' % 32"), 8, o);
  ASSERT_TRUE(case1.ok()) << case1.diagnostics[0];
  EXPECT_EQ(case1.config->str(), "[32 : 96, 3 : 32, 32 : 1] : 32 @ base_addr = -2");
  SeqResult case2 = derive(M(ax, "A, B # 96"), M(ax, "B' / 32, A"), M(ax, "B' % 32"), 8, o);
  ASSERT_TRUE(case2.ok()) << case2.diagnostics[0];
  EXPECT_EQ(case2.config->str(), "[3 : 32, 32 : 96, 32 : 1] : 32 @ base_addr = -2");
  // B laid out with stride 96 (m![B, A]): the left pad steps back 2 × 96 elements.
  Axes bx{{"A", 96}, {"B", 90}};
  addPadded(bx, "B'", "B", 2, 4);
  SeqResult outer = derive(M(bx, "B, A"), M(bx, "B'"), M(bx, "A"), 8, o);
  ASSERT_TRUE(outer.ok()) << outer.diagnostics[0];
  EXPECT_EQ(outer.config->baseOffset, -192);

  // A buffer over the padded axis: B's elements sit `left` positions in, so reading B' from a B'
  // buffer needs no offset, and reading B from it starts 2 positions in.
  SeqResult same = derive(M(ax, "A, B'"), M(ax, "A, B' / 32"), M(ax, "B' % 32"), 8, o);
  ASSERT_TRUE(same.ok()) << same.diagnostics[0];
  EXPECT_EQ(same.config->str(), "[32 : 96, 3 : 32, 32 : 1] : 32");
  SeqResult plain = derive(M(ax, "A, B'"), M(ax, "A"), M(ax, "B"), 8, o);
  ASSERT_TRUE(plain.ok()) << plain.diagnostics[0];
  EXPECT_EQ(plain.config->baseOffset, 2);
  EXPECT_EQ(plain.config->entries.front().stride, 96);

  // A stream that reads nothing of B (the DMA engine's slice selection) keeps the buffer's origin.
  SeqResult none = derive(M(ax, "A, B'"), M(ax, "A"), M(ax, "1"), 8, o);
  ASSERT_TRUE(none.ok()) << none.diagnostics[0];
  EXPECT_EQ(none.config->baseOffset, 0);
  SeqResult whole = derive(M(ax, "B'"), M(ax, "1"), M(ax, "B'"), 8, o);
  ASSERT_TRUE(whole.ok()) << whole.diagnostics[0];
  EXPECT_EQ(whole.config->str(), "[96 : 1] : 96");

  MaskPlan m1 = planMasking(*case1.config, M(ax, "A, B' / 32"), M(ax, "B' % 32"));
  ASSERT_TRUE(m1.needed);
  EXPECT_TRUE(m1.error.empty()) << m1.error;
  EXPECT_EQ(m1.lastDim, 1u);
  EXPECT_EQ(m1.leftPad, 2u);
  EXPECT_EQ(m1.validCounts, (std::vector<uint64_t>{28}));  // 92 - 64 lanes of the last block
  MaskPlan m2 = planMasking(*case2.config, M(ax, "B' / 32, A"), M(ax, "B' % 32"));
  EXPECT_EQ(m2.lastDim, 0u);
  EXPECT_EQ(m2.leftPad, 2u);
  EXPECT_EQ(m2.validCounts, (std::vector<uint64_t>{28}));
}

// The CPU model keys the stream by the pair (time, packet): B' / 32 and B' % 32 alone would each
// subtract the left pad, their summed keys twice.
TEST(PaddedAxis, DeviceStreamKeysApplyTheLeftPadOnce) {
  Axes ax{{"B", 90}};
  addPadded(ax, "B'", "B", 2, 4);
  MappingRef buf = M(ax, "B # 96"), time = M(ax, "B' / 32"), packet = M(ax, "B' % 32");
  interp::AxisSpace space = interp::AxisSpace::of({buf});
  std::vector<int64_t> keys = interp::streamKeys(time, packet, space);
  ASSERT_EQ(keys.size(), 96u);
  for (uint64_t i = 0; i < 96; ++i) EXPECT_EQ(keys[i], i < 2 || i >= 92 ? -1 : int64_t(i) - 2) << i;
}

}  // namespace
}  // namespace tcp::testing

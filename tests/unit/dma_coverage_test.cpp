// dma_coverage_test.cpp — the DMA stream's coverage check: every element of the source visited, counted exactly.
#include "DmaCoverage.h"
#include "MappingEval.h"
#include "MappingTestUtil.h"

#include <gtest/gtest.h>

using namespace tcp;
using tcp::testing::Axes;
using tcp::testing::MappingParser;

namespace {

MappingRef parse(const Axes &axes, const std::string &text) { return MappingParser(axes.table, text).parse(); }

}  // namespace

TEST(DmaCoverage, PermutedStreamCoversEverything) {
  Axes axes{{"A", 8}, {"B", 8}, {"C", 256}};
  StreamCoverage c = streamCoverage(parse(axes, "B, A, C"), parse(axes, "A, B, C"));
  EXPECT_EQ(c.held, 8u * 8 * 256);
  EXPECT_EQ(c.missing, 0u);
}

TEST(DmaCoverage, SlicedStreamMissesTheCutElements) {
  Axes axes{{"A", 8}, {"B", 16}};
  // B = 12 keeps 12 of 16 coordinates: 8 × 4 elements are never visited.
  StreamCoverage c = streamCoverage(parse(axes, "A, B = 12"), parse(axes, "A, B"));
  EXPECT_EQ(c.held, 128u);
  EXPECT_EQ(c.missing, 32u);
  // A stream that splits B and drops its outer half.
  c = streamCoverage(parse(axes, "A, B % 8"), parse(axes, "A, B"));
  EXPECT_EQ(c.missing, 64u);
}

TEST(DmaCoverage, PaddingAndRepeatsCountOnce) {
  Axes axes{{"A", 6}, {"B", 4}};
  // The stream pads A to 8 and visits every element twice (a broadcast axis X); the source pads B.
  Axes withX{{"A", 6}, {"B", 4}, {"X", 2}};
  StreamCoverage c = streamCoverage(parse(withX, "X, A # 8, B"), parse(withX, "A, B # 8"));
  EXPECT_EQ(c.held, 24u);
  EXPECT_EQ(c.missing, 0u);
}

TEST(DmaCoverage, HugeAxesFallBackToTextKeys) {
  // Mixed-radix keys over these sizes overflow 64 bits; the text keys give the same answer.
  Axes axes{{"A", uint64_t(1) << 40}, {"B", uint64_t(1) << 40}, {"C", 4}};
  StreamCoverage c = streamCoverage(parse(axes, "A = 2, B = 2, C = 2"), parse(axes, "A = 2, B = 2, C"));
  EXPECT_EQ(c.held, 16u);
  EXPECT_EQ(c.missing, 8u);
}

namespace {

// The per-axis count agrees with the enumeration on seeded random pairs, and is taken on at least
// `minTaken` of them.
void expectCountsAgree(const AxisTable &table, uint64_t seed, int pairs, int minTaken) {
  tcp::testing::RandomMappings::Options opt;
  opt.concats = true;
  opt.maxSize = 2048;
  tcp::testing::RandomMappings gen(table, seed, opt);
  int taken = 0;
  for (int k = 0; k < pairs; ++k) {
    MappingRef stream = gen.next(), source = gen.next();
    // Half the pairs compare a mapping with a relayout of itself (a permutation plus holes).
    if (k % 2) stream = Mapping::pair(gen.next(), source);
    StreamCoverage want = streamCoverageEnumerated(stream, source), got = streamCoverage(stream, source);
    ASSERT_EQ(got.held, want.held) << stream->str() << " vs " << source->str();
    ASSERT_EQ(got.missing, want.missing) << stream->str() << " vs " << source->str();
    std::optional<MappingEval> a = MappingEval::of(stream), b = MappingEval::of(source);
    taken += a && b && a->product(uint64_t(1) << 22) && b->product(uint64_t(1) << 22);
  }
  EXPECT_GE(taken, minTaken);
}

}  // namespace

TEST(DmaCoverage, PerAxisCountAgreesWithEnumeration) {
  Axes axes{{"A", 2}, {"B", 3}, {"C", 4}, {"D", 6}, {"F", 5}};
  expectCountsAgree(axes.table, 21, 3000, 1000);
}

TEST(DmaCoverage, PerAxisCountAgreesOnSkewedAndPaddedAxes) {
  Axes axes{{"A", 4}, {"B", 4}, {"C", 3}};
  axes.skew("B'", "B", "A");
  AxisInfo padded("C'", 1 + 3 + 2);
  padded.padBase = "C";
  padded.padLeft = 1;
  padded.padRight = 2;
  padded.padBaseSize = 3;
  axes.table.add(padded);
  expectCountsAgree(axes.table, 22, 1500, 150);  // skewed axes (and padded ones beside their base) enumerate
}

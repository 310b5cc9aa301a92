// tensor_coverage_test.cpp — per-axis coverage and the tensor-preservation rule of the typed phase.
#include "MappingTestUtil.h"
#include "TensorCoverage.h"

#include <gtest/gtest.h>

#include <map>

namespace {

using tcp::MappingRef;

class Coverage : public ::testing::Test {
 protected:
  MappingRef m(const std::string &text) { return tcp::testing::M(axes_, text); }
  tcp::testing::Axes axes_{{"A", 2048}, {"I", 256}, {"J", 2048}, {"K", 64}};
};

TEST_F(Coverage, SplitsAndPaddingCoverTheWholeAxis) {
  auto cov = tcp::coverageOf({m("A / 8 # 256"), m("A % 8")});
  ASSERT_TRUE(cov.known);
  EXPECT_EQ(cov.count("A"), 2048u);
}

TEST_F(Coverage, OpaquePartsHoldCoordinateZero) {
  // `[A % 4, K = 3] # 16` does not factor: coverage enumerates it, and an index omits zero
  // coordinates, so coordinate 0 of every axis must still count (the manual's fetch_packet_ABC).
  auto cov = tcp::coverageOf({m("[A % 4, K = 3] # 16")});
  ASSERT_TRUE(cov.known);
  EXPECT_EQ(cov.count("A"), 4u);
  EXPECT_EQ(cov.count("K"), 3u);
  EXPECT_FALSE(tcp::tensorPreserved({m("A % 4, K = 3")}, {m("[A % 4, K = 3] # 16")}));
}

TEST_F(Coverage, ResizeCoversAPrefix) {
  auto cov = tcp::coverageOf({m("A = 100")});
  EXPECT_EQ(cov.count("A"), 100u);
}

TEST_F(Coverage, ToDmKeepsTheTensorAndMayBroadcast) {
  // GEMV: the vector m![J] is stored on every slice I (a broadcast axis).
  EXPECT_FALSE(tcp::tensorPreserved({m("1"), m("J")}, {m("1"), m("1 # 2"), m("I"), m("J")}));
  // Constant addition: A split across slices and elements.
  EXPECT_FALSE(tcp::tensorPreserved({m("1"), m("A")}, {m("1"), m("1 # 2"), m("A / 8 # 256"), m("A % 8")}));
}

TEST_F(Coverage, DroppingPartOfAnAxisIsReported) {
  auto problem = tcp::tensorPreserved({m("A")}, {m("A / 8 # 256")});
  ASSERT_TRUE(problem);
  EXPECT_NE(problem->find("holds only 256 of the 2048 coordinates of axis `A`"), std::string::npos) << *problem;
  auto dropped = tcp::tensorPreserved({m("K"), m("J")}, {m("J")});
  ASSERT_TRUE(dropped);
  EXPECT_NE(dropped->find("axis `K` (64 coordinates) is dropped"), std::string::npos) << *dropped;
}

TEST_F(Coverage, IgnoredAxesMayDisappear) {
  EXPECT_FALSE(tcp::tensorPreserved({m("K"), m("J")}, {m("J")}, {"K"}));
}

// The reference: every position of the combined mapping, every index it holds.
std::map<std::string, llvm::BitVector> enumerated(const tcp::Coverage &shape, const std::vector<MappingRef> &dims) {
  std::map<std::string, llvm::BitVector> held;
  for (const auto &[axis, coords] : shape.axes) held[axis] = llvm::BitVector(coords.size());
  MappingRef all = tcp::pairAll(dims);
  for (uint64_t i = 0; i < all->size(); ++i)
    for (const tcp::Index &ix : all->mapAll(i))
      for (auto &[axis, coords] : held) {
        int64_t v = ix.get(axis);
        if (v >= 0 && static_cast<uint64_t>(v) < coords.size()) coords.set(unsigned(v));
      }
  return held;
}

TEST_F(Coverage, IndependentDimsAreEnumeratedApartWithTheSameResult) {
  // Opaque parts (a linear combination, a padded pair) next to dims naming other axes: each group
  // of dims sharing axes is enumerated on its own; the coordinates are those of the combined mapping.
  for (const std::vector<std::string> &dims : std::vector<std::vector<std::string>>{
           {"[A % 4, K = 3] # 16", "J % 8"},
           {"$(I % 8 + K % 4)", "A % 4", "J / 512"},
           {"$(I % 8 + K % 4)", "I / 64", "J % 4"},
           {"[A % 4, K = 3] # 16", "3#"},  // a group that holds no element: the whole holds none
       }) {
    std::vector<MappingRef> refs;
    for (const std::string &d : dims) refs.push_back(m(d));
    tcp::Coverage cov = tcp::coverageOf(refs);
    ASSERT_TRUE(cov.known) << dims[0];
    EXPECT_EQ(cov.axes, enumerated(cov, refs)) << dims[0] << ", " << dims[1];
  }
}

TEST_F(Coverage, AxisRunsAgreeWithEnumerationOnRandomMappings) {
  // The per-axis coordinates of factorized mappings (runs of coordinates per term) against every
  // position's index, on seeded random dims.
  tcp::testing::Axes ax{{"A", 2}, {"B", 3}, {"C", 4}, {"D", 6}, {"F", 5}, {"G", 64}};
  tcp::testing::RandomMappings::Options opt;
  opt.maxSize = 4096;
  tcp::testing::RandomMappings gen(ax.table, 31, opt);
  for (int k = 0; k < 1500; ++k) {
    std::vector<MappingRef> refs{gen.next()};
    if (k % 2) refs.push_back(gen.next());
    if (tcp::combinedSize(refs) > 1 << 16) continue;
    tcp::Coverage cov = tcp::coverageOf(refs);
    ASSERT_TRUE(cov.known) << refs[0]->str();
    ASSERT_EQ(cov.axes, enumerated(cov, refs)) << refs[0]->str() << (k % 2 ? ", " + refs[1]->str() : "");
  }
}

TEST_F(Coverage, PairAllIsTheCombinedMapping) {
  MappingRef all = tcp::pairAll({m("I"), m("J / 16"), m("J % 16")});
  ASSERT_TRUE(all);
  EXPECT_EQ(all->size(), 256u * 2048u);
  EXPECT_EQ(tcp::combinedSize({m("I"), m("J")}), 256u * 2048u);
}

}  // namespace

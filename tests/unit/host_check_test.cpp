// host_check_test.cpp — the host-code checker's building blocks: placement of host elements in HBM, type joins, and the pass in the pipeline.
#include "Driver.h"
#include "HostPlacement.h"
#include "HostType.h"
#include "MappingTestUtil.h"

#include <gtest/gtest.h>

namespace {

using tcp::testing::Axes;
using tcp::testing::I;
using tcp::testing::M;

TEST(HostPlacement, EveryHostElementNeedsAPlace) {
  Axes ax{{"A", 8}, {"B", 4}};
  // A permutation holds the same elements.
  auto p = tcp::placeHost(M(ax, "A, B"), M(ax, "1"), M(ax, "B, A"));
  EXPECT_TRUE(p.decided);
  EXPECT_FALSE(p.missing);
  // A part of the axes: reading every other A from m![A] is fine, m![A] into m![A = 4] is not.
  EXPECT_FALSE(tcp::placeHost(M(ax, "A / 2"), M(ax, "1"), M(ax, "A")).missing);
  auto missing = tcp::placeHost(M(ax, "A"), M(ax, "1"), M(ax, "A = 4")).missing;
  ASSERT_TRUE(missing);
  EXPECT_EQ(*missing, I({{"A", 4}}));
  // An axis the HBM tensor does not have: only its coordinate 0 has a place.
  missing = tcp::placeHost(M(ax, "A, B"), M(ax, "1"), M(ax, "A")).missing;
  ASSERT_TRUE(missing);
  EXPECT_EQ(*missing, I({{"B", 1}}));
  // The Chip mapping holds part of the index.
  EXPECT_FALSE(tcp::placeHost(M(ax, "B, A"), M(ax, "B"), M(ax, "A")).missing);
  // Padding holds nothing: m![A # 16] places the 8 elements of m![A].
  EXPECT_FALSE(tcp::placeHost(M(ax, "A"), M(ax, "1"), M(ax, "A # 16")).missing);
  // Too large to compare here: undecided (tcpi compares when it runs).
  EXPECT_FALSE(tcp::placeHost(M(ax, "A, B"), M(ax, "1"), M(ax, "B, A"), 16).decided);
}

TEST(HostType, CompatibilityUsesMappingEquivalence) {
  Axes ax{{"A", 64}};
  auto a = tcp::HostType::hbmTensor(tcp::num::DType::i32, M(ax, "1"), M(ax, "A"));
  auto b = tcp::HostType::hbmTensor(tcp::num::DType::i32, M(ax, "1"), M(ax, "A / 8, A % 8"));
  auto c = tcp::HostType::hbmTensor(tcp::num::DType::i32, M(ax, "1"), M(ax, "A % 8, A / 8"));
  auto d = tcp::HostType::hbmTensor(tcp::num::DType::bf16, M(ax, "1"), M(ax, "A"));
  EXPECT_TRUE(tcp::compatible(a, b));
  EXPECT_FALSE(tcp::compatible(a, c));
  EXPECT_FALSE(tcp::compatible(a, d));
  EXPECT_TRUE(tcp::compatible(a, tcp::HostType()));  // unknown fits everywhere
  EXPECT_EQ(b.str(), "HbmTensor<i32, m![1], m![A / 8, A % 8]>");
}

TEST(HostType, JoinsOfBranches) {
  using T = tcp::HostType;
  EXPECT_EQ(tcp::join(T::of(T::Int), T::of(T::Float)).kind, T::Float);  // tcpi's arithmetic mixes them
  EXPECT_EQ(tcp::join(T::of(T::Never), T::of(T::Str)).kind, T::Str);
  EXPECT_EQ(tcp::join(T::of(T::Bool), T::of(T::Str)).kind, T::Unknown);
  auto v = tcp::join(T::vec(T::of(T::Int), 3), T::vec(T::of(T::Int), 4));
  EXPECT_EQ(v.kind, T::Vec);
  EXPECT_FALSE(v.length);
  EXPECT_EQ(tcp::join(T::option(T()), T::option(T::of(T::Index))).str(), "Option<_>");
}

// The pass runs in the typed phase: `tcpc --check` refuses host errors, and kernels' errors and
// host errors are reported together.
TEST(HostCheck, RunsInTheTypedPhase) {
  std::string err;
  llvm::raw_string_ostream es(err);
  tcp::Compilation comp(es);
  ASSERT_TRUE(comp.loadText("axes![A = 4];\nfn main() {\n    not_a_function(1);\n    let x = A::SIZE;\n    x.frob();\n}\n",
                            "main.tcp"));
  EXPECT_FALSE(comp.run(tcp::Phase::Typed, nullptr));
  es.flush();
  EXPECT_EQ(comp.diags().errorCount(), 2u) << err;
  EXPECT_NE(err.find("main.tcp:3:5: error: `not_a_function` is not a function"), std::string::npos) << err;
  EXPECT_NE(err.find("main.tcp:5:7: error: `integer` has no method `frob`"), std::string::npos) << err;
}

}  // namespace

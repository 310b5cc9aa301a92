// mapping_normal_form_test.cpp — canonical spellings, the manual's equivalence laws, equivalent().
#include "MappingNormalForm.h"
#include "MappingTestUtil.h"

#include <gtest/gtest.h>

namespace tcp::testing {
namespace {

const Axes &ab() {
  static const Axes ax{{"A", 8}, {"B", 512}, {"C", 13}, {"D", 61}};
  return ax;
}

// normalize() must give an equivalent tree (checked position by position) with this spelling.
void expectCanonical(const Axes &ax, const std::string &body, const std::string &canonical) {
  MappingRef m = M(ax, body);
  MappingRef n = normalize(m);
  EXPECT_EQ(n->str(), canonical) << body;
  EXPECT_TRUE(sameMap(m, n)) << body << " vs " << n->str();
  EXPECT_EQ(normalize(n)->str(), n->str()) << "not idempotent: " << body;
}

TEST(NormalForm, CanonicalSpellings) {
  const Axes &ax = ab();
  expectCanonical(ax, "B / 64, B % 64", "m![B]");
  expectCanonical(ax, "1, A", "m![A]");
  expectCanonical(ax, "A, 1", "m![A]");
  expectCanonical(ax, "A % 1", "m![1]");
  expectCanonical(ax, "A / 8", "m![1]");
  expectCanonical(ax, "A / 1", "m![A]");
  expectCanonical(ax, "A # 8", "m![A]");
  expectCanonical(ax, "A = 8", "m![A]");
  expectCanonical(ax, "[A, B] / 512", "m![A]");
  expectCanonical(ax, "[A, B] % 512", "m![B]");
  expectCanonical(ax, "[A, B] / 64", "m![A, B / 64]");
  expectCanonical(ax, "[A, B] % 1024", "m![A % 2, B]");
  expectCanonical(ax, "B / 64, B % 32, B / 32 % 2", "m![B / 64, B % 32, B / 32 % 2]");
  expectCanonical(ax, "B / 64, B / 32 % 2, B % 32", "m![B]");
  expectCanonical(ax, "B / 4 / 8", "m![B / 32]");
  expectCanonical(ax, "B % 64 % 8", "m![B % 8]");
  expectCanonical(ax, "B % 64 / 8", "m![B / 8 % 8]");
  expectCanonical(ax, "(B / 8) % 4, B % 8", "m![B % 32]");
  expectCanonical(ax, "C, D # 64", "m![C, D # 64]");
  expectCanonical(ax, "(D # 64) / 8, (D # 64) % 8", "m![D # 64]");
  expectCanonical(ax, "D # 64 # 128", "m![D # 128]");
  expectCanonical(ax, "A, B = 2 # 4", "m![A, B = 2 # 4]");
  expectCanonical(ax, "A, B / 32 = 2 # 16, B % 32", "m![A, B = 64 # 512]");
  expectCanonical(ax, "B % 4 = 3", "m![B = 3]");
  expectCanonical(ax, "B = 256 = 64", "m![B % 64]");
  expectCanonical(ax, "A = 1 # 2", "m![1 # 2]");
  expectCanonical(ax, "1 # 2, A", "m![A # 16]");
  expectCanonical(ax, "1 # 2, 1 # 3", "m![1 # 6]");
  expectCanonical(ax, "A, 1 # 2", "m![A, 1 # 2]");
  expectCanonical(ax, "A / 2 = 1", "m![1]");
  expectCanonical(ax, "(A # 16) / 8", "m![1 # 2]");
  expectCanonical(ax, "A @ 0", "m![A]");
  expectCanonical(ax, "A @ 3", "m![A @ 3]");
  expectCanonical(ax, "(A @ 2) / 2", "m![(A @ 2) / 2]");
  expectCanonical(ax, "[A, B] @ 1024", "m![A @ 2, B]");
  expectCanonical(ax, "(A / 2) @ 3 = 1", "m![A @ 6 = 1]");
  expectCanonical(ax, "A = 0", "m![0#]");
  expectCanonical(ax, "A, 3#", "m![24#]");
  expectCanonical(ax, "A, 3z", "m![24z]");
  expectCanonical(ax, "A + 1#", "m![A # 9]");
  expectCanonical(ax, "A + 1# + 2#", "m![A # 11]");
  expectCanonical(ax, "(A + B) + C", "m![A + B + C]");
  expectCanonical(ax, "A + (B + C)", "m![A + B + C]");
  expectCanonical(ax, "(A + B) # 530", "m![A + B + 10#]");
  expectCanonical(ax, "(A + B + C) = 10", "m![A + B % 2]");
  expectCanonical(ax, "(A + B + C) = 8", "m![A]");
  expectCanonical(ax, "(A + B + C) @ 9", "m![B @ 1 + C]");
  expectCanonical(ax, "# 2 + B + # 4", "m![2# + B + 4#]");
  expectCanonical(ax, "$(A:1)", "m![A]");
  expectCanonical(ax, "$(A:1, 1:5)", "m![A]");
  expectCanonical(ax, "$(A / 1:1, B % 8:2)", "m![$(A:1, B % 8:2)]");
  expectCanonical(ax, "[A, C] / 2 / 4", "m![[A, C] / 8]");
  expectCanonical(ax, "([A, B] # 4097) # 5000", "m![[A, B] # 5000]");
  expectCanonical(ax, "[A = 3, B] = 1000", "m![[A = 3, B] = 1000]");
  expectCanonical(ax, "[A, B] = 1000", "m![[A, B] = 1000]");
  expectCanonical(ax, "[A, B] = 100", "m![B = 100]");
}

TEST(NormalForm, ManualTileAndSliceMappings) {
  Axes a{{"A", 2048}};
  expectCanonical(a, "A / 8 # 256", "m![A / 8]");  // 2048 / 8 is already 256
  expectCanonical(a, "A / 8, A % 8", "m![A]");
  Axes c{{"C", 13}, {"D", 61}};
  expectCanonical(c, "C, D # 64", "m![C, D # 64]");
  Axes cd{{"C", 2}, {"D", 3}};
  expectCanonical(cd, "C, D = 2", "m![C, D = 2]");
  Axes b16{{"B", 16}};
  expectCanonical(b16, "B / 4, B % 4", "m![B]");
}

TEST(NormalForm, HugeSizesDoNotOverflow) {
  Axes ax{{"A", 1ull << 40}, {"B", 3}};
  for (const char *body : {"(A / 549755813888 # 1125899906842624) / 1099511627776", "(A # 18446744073709551615) @ 1099511627776",
                           "[(A / 2) # 6148914691236517205, B] / 3", "((A # 9223372036854775808) / 4294967296) @ 2147483647"}) {
    MappingRef m = M(ax, body);
    MappingRef n = normalize(m);
    SCOPED_TRACE(std::string(body) + " → " + n->str());
    EXPECT_EQ(n->size(), m->size());
    for (uint64_t i : {uint64_t(0), uint64_t(1), uint64_t(2), m->size() / 2, m->size() - 1})
      EXPECT_EQ(n->map(i), m->map(i)) << i;
  }
}

TEST(NormalForm, SkewedAxisKeepsItsMeaning) {
  Axes ax{{"A", 4}, {"B", 4}};
  ax.skew("B'", "B", "A");
  expectCanonical(ax, "A, B' = 4", "m![A, B']");
  expectCanonical(ax, "A, B' / 4", "m![B' = 1, A]");  // B' is 0, yet B = A
  expectCanonical(ax, "A, B' / 2, B' % 2", "m![A, B']");
}

TEST(NormalForm, StructureOfTheForm) {
  NormalForm nf = normalForm(M(ab(), "A, B / 32 = 2 # 16, B % 32"));
  // B / 32 = 2 # 16 and B % 32 are contiguous: one term of 512 digits, the first 64 elements.
  ASSERT_EQ(nf.dims.size(), 2u);
  EXPECT_EQ(nf.dims[1].kind, NfDim::Term);
  EXPECT_EQ(nf.dims[1].axis.name, "B");
  EXPECT_EQ(nf.dims[1].stride, 1u);
  EXPECT_EQ(nf.dims[1].count, 512u);
  EXPECT_EQ(nf.dims[1].limit, 64u);
  EXPECT_TRUE(nf.pure());
  NormalForm op = normalForm(M(ab(), "[A, C] / 4"));
  ASSERT_EQ(op.dims.size(), 1u);
  EXPECT_EQ(op.dims[0].kind, NfDim::Opaque);
  EXPECT_FALSE(op.pure());
  NormalForm base = normalForm(M(ab(), "A @ 3, B"));
  EXPECT_EQ(base.base("A"), 3u);
  EXPECT_EQ(base.dump(), "[A*1 x5, B*1 x512] +A:3");
  NormalForm none = normalForm(M(ab(), "A, 2#"));
  EXPECT_TRUE(none.none);
  EXPECT_EQ(none.size, 16u);
  // The normal form evaluates like the tree.
  MappingRef m = M(ab(), "(D # 64) / 8, C, (D # 64) % 8");
  NormalForm f = normalForm(m);
  for (uint64_t i = 0; i < m->size(); ++i) ASSERT_EQ(f.map(i), m->map(i)) << i;
}

// ---------------------------------------------------------------- the manual's laws

TEST(EquivalenceLaws, OnTheManualsMappings) {
  const Axes &ax = ab();
  std::map<std::string, MappingRef> al;
  for (const char *body : {"A", "B", "A, B", "B / 64, B % 32, B / 32 % 2", "C, D # 64", "A, B = 2 # 4", "D = 7"}) {
    al["E"] = M(ax, body);
    uint64_t size = al["E"]->size();
    SCOPED_TRACE(body);
    // Identity of pairs.
    EXPECT_TRUE(equivalent(al["E"], M(ax, "{ E }, 1", &al)));
    EXPECT_TRUE(equivalent(al["E"], M(ax, "1, { E }", &al)));
    // Idempotent operations.
    EXPECT_TRUE(equivalent(al["E"], M(ax, "{ E } / 1", &al)));
    EXPECT_TRUE(equivalent(al["E"], M(ax, "{ E } # " + std::to_string(size), &al)));
    EXPECT_TRUE(equivalent(al["E"], M(ax, "{ E } = " + std::to_string(size), &al)));
    // Modulo by 1.
    EXPECT_TRUE(equivalent(M(ax, "{ E } % 1", &al), M(ax, "1")));
    // Associativity, with E, A and B.
    al["F"] = M(ax, "A");
    al["G"] = M(ax, "B % 16");
    EXPECT_TRUE(equivalent(M(ax, "{ E }, { F }, { G }", &al), M(ax, "[{ E }, { F }], { G }", &al)));
    EXPECT_TRUE(equivalent(M(ax, "{ E }, { F }, { G }", &al), M(ax, "{ E }, [{ F }, { G }]", &al)));
    // Pair projection.
    EXPECT_TRUE(equivalent(M(ax, "[{ E }, { F }] / 8", &al), al["E"]));
    EXPECT_TRUE(equivalent(M(ax, "[{ F }, { E }] % " + std::to_string(size), &al), al["E"]));
  }
  // Stride-modulo decomposition, for every n dividing |E| along E's dimensions.
  for (const char *body : {"A", "B", "A, B", "B / 64, B % 32, B / 32 % 2", "C, D # 64"}) {
    al["E"] = M(ax, body);
    uint64_t size = al["E"]->size();
    for (uint64_t n = 1; n <= size; n *= 2) {
      if (size % n) continue;
      std::string s = std::to_string(n);
      EXPECT_TRUE(equivalent(al["E"], M(ax, "{ E } / " + s + ", { E } % " + s, &al))) << body << " n=" << n;
    }
  }
}

TEST(EquivalenceLaws, StrideModuloNeedsAlignedSplits) {
  // The manual states the stride-modulo law for every E and n | |E|, but with per-axis sums
  // (Pair: L.map ∪ R.map) it only holds when n splits E along its dimensions. Counterexample:
  // |A| = 2, |B| = 3, n = 2: position 3 = (1, 1) maps to B = 2 + 1 = 3, outside B; E.map(3) = {A: 1}.
  Axes ax{{"A", 2}, {"B", 3}};
  std::map<std::string, MappingRef> al{{"E", M(ax, "A, B")}};
  MappingRef split = M(ax, "{ E } / 2, { E } % 2", &al);
  EXPECT_EQ(split->map(3), std::nullopt);
  EXPECT_EQ(al["E"]->map(3), I({{"A", 1}}));
  EXPECT_FALSE(equivalent(al["E"], split));
  // A resize hole: m![A = 3 # 4] / 2, % 2 maps position 3 to A = 2 + 1, E.map(3) is padding.
  Axes a{{"A", 8}};
  al["E"] = M(a, "A = 3 # 4");
  EXPECT_FALSE(equivalent(al["E"], M(a, "{ E } / 2, { E } % 2", &al)));
}

TEST(Equivalence, DecidesSymbolicallyOrExhaustively) {
  const Axes &ax = ab();
  EXPECT_EQ(decideEquivalence(M(ax, "B / 64, B % 64"), M(ax, "B")), Equivalence::Equivalent);
  EXPECT_EQ(decideEquivalence(M(ax, "B % 64, B / 64"), M(ax, "B")), Equivalence::NotEquivalent);
  EXPECT_EQ(decideEquivalence(M(ax, "A"), M(ax, "B")), Equivalence::NotEquivalent);  // sizes
  EXPECT_EQ(decideEquivalence(M(ax, "A = 3 # 4"), M(ax, "A % 4 = 3 # 4")), Equivalence::Equivalent);
  // Opaque forms: decided by checking every position.
  EXPECT_EQ(decideEquivalence(M(ax, "[A, C] / 4"), M(ax, "[[A, C] / 4] / 1")), Equivalence::Equivalent);
  EXPECT_EQ(decideEquivalence(M(ax, "[A, C] / 4"), M(ax, "[A, C] / 2 / 2")), Equivalence::Equivalent);
  EXPECT_EQ(decideEquivalence(M(ax, "(A = 3) + 5#"), M(ax, "A = 3 # 8")), Equivalence::Equivalent);
  EXPECT_EQ(decideEquivalence(M(ax, "(A = 3) + 5z"), M(ax, "A = 3 # 8")), Equivalence::Equivalent);
  EXPECT_EQ(decideEquivalence(M(ax, "[A, C] / 4"), M(ax, "[C, A] / 4")), Equivalence::NotEquivalent);
  // Too large to enumerate and not provable from the forms.
  Axes big{{"X", 4095}, {"Y", 4097}};
  EXPECT_EQ(decideEquivalence(M(big, "[X, Y] / 3"), M(big, "[Y, X] / 3")), Equivalence::Unknown);
  EXPECT_FALSE(equivalent(M(big, "[X, Y] / 3"), M(big, "[Y, X] / 3")));
  EXPECT_TRUE(equivalent(M(big, "[X, Y] / 3"), M(big, "[X / 5, X % 5, Y] / 3")));
}

}  // namespace
}  // namespace tcp::testing

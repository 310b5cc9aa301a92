// mapping_test.cpp — every example of the manual's "Mapping Expressions" chapter, map() and errors.
#include "Mapping.h"
#include "MappingTestUtil.h"

#include <gtest/gtest.h>

namespace tcp::testing {
namespace {

const Axes &ab() {
  static const Axes ax{{"A", 8}, {"B", 512}};
  return ax;
}

TEST(MappingExamples, Symbol) {
  MappingRef e = M(ab(), "A");
  EXPECT_EQ(e->size(), 8u);
  for (uint64_t i = 0; i < 8; ++i) EXPECT_EQ(e->map(i), I({{"A", int64_t(i)}}));
  EXPECT_EQ(e->map(0), Index());  // i![A: 0] is the empty index
  EXPECT_EQ(e->map(0)->str(), "i![]");
  EXPECT_EQ(e->map(8), std::nullopt);
  EXPECT_EQ(e->str(), "m![A]");
}

TEST(MappingExamples, Pair) {
  MappingRef e = M(ab(), "A, B");
  EXPECT_EQ(e->size(), 4096u);
  EXPECT_EQ(e->map(519), I({{"A", 1}, {"B", 7}}));
  EXPECT_EQ(e->map(519)->str(), "i![A: 1, B: 7]");
  EXPECT_EQ(e->map(2 * 512 + 7), I({{"A", 2}, {"B", 7}}));
  for (uint64_t i = 0; i < e->size(); i += 37)
    EXPECT_EQ(e->map(i), I({{"A", int64_t(i / 512)}, {"B", int64_t(i % 512)}}));
  EXPECT_EQ(e->map(4096), std::nullopt);
  // m![A, B, C, D] is right-associative: Pair<A, Pair<B, Pair<C, D>>>.
  Axes abcd{{"A", 2}, {"B", 3}, {"C", 4}, {"D", 5}};
  MappingRef r = M(abcd, "A, B, C, D");
  ASSERT_EQ(r->kind(), Mapping::Pair);
  EXPECT_EQ(r->children()[0]->axis(), "A");
  EXPECT_EQ(r->children()[1]->kind(), Mapping::Pair);
  EXPECT_EQ(r->str(), "m![A, B, C, D]");
  EXPECT_EQ(M(abcd, "[A, B], C")->str(), "m![[A, B], C]");
}

TEST(MappingExamples, Identity) {
  MappingRef e = M(ab(), "1");
  EXPECT_EQ(e->size(), 1u);
  EXPECT_EQ(e->map(0), Index());
  EXPECT_EQ(e->map(1), std::nullopt);
  EXPECT_EQ(e->str(), "m![1]");
}

TEST(MappingExamples, Padding) {
  Axes cd{{"C", 13}, {"D", 61}};
  MappingRef e = M(cd, "C, D # 64");
  EXPECT_EQ(e->size(), 13u * 64);
  EXPECT_EQ(e->map(0), I({}));
  EXPECT_EQ(e->map(60), I({{"D", 60}}));
  EXPECT_EQ(e->map(61), std::nullopt);
  EXPECT_EQ(e->map(62), std::nullopt);
  EXPECT_EQ(e->map(63), std::nullopt);
  EXPECT_EQ(e->map(64), I({{"C", 1}, {"D", 0}}));
  EXPECT_EQ(e->str(), "m![C, D # 64]");
}

TEST(MappingExamples, Resize) {
  Axes cd{{"C", 2}, {"D", 3}};
  MappingRef e = M(cd, "C, D = 2");
  EXPECT_EQ(e->size(), 4u);
  EXPECT_EQ(e->map(0), I({}));
  EXPECT_EQ(e->map(1), I({{"D", 1}}));
  EXPECT_EQ(e->map(2), I({{"C", 1}}));
  EXPECT_EQ(e->map(3), I({{"C", 1}, {"D", 1}}));
  EXPECT_EQ(e->map(4), std::nullopt);
  EXPECT_EQ(e->str(), "m![C, D = 2]");
}

TEST(MappingExamples, TileMapping) {
  // view.tile::<m![B], 2, m![A, B = 2 # 4]>: B has logical size 2 inside a footprint of 4.
  MappingRef t = M(ab(), "A, B = 2 # 4");
  EXPECT_EQ(t->size(), 32u);
  EXPECT_EQ(t->str(), "m![A, B = 2 # 4]");
  EXPECT_EQ(t->map(1), I({{"B", 1}}));
  EXPECT_EQ(t->map(2), std::nullopt);
  EXPECT_EQ(t->map(3), std::nullopt);
  EXPECT_EQ(t->map(5), I({{"A", 1}, {"B", 1}}));
  // Tiling by blocks: m![A, B / 32 = 2 # 16, B % 32].
  MappingRef b = M(ab(), "A, B / 32 = 2 # 16, B % 32");
  EXPECT_EQ(b->size(), 8u * 16 * 32);
  EXPECT_EQ(b->str(), "m![A, B / 32 = 2 # 16, B % 32]");
  EXPECT_EQ(b->map(32 + 5), I({{"B", 37}}));
  EXPECT_EQ(b->map(2 * 32), std::nullopt);
  EXPECT_EQ(b->map(16 * 32 + 33), I({{"A", 1}, {"B", 33}}));
  // A single block: B / 32 = 1 is a one-element dimension.
  EXPECT_EQ(M(ab(), "B / 32 = 1")->size(), 1u);
  EXPECT_EQ(M(ab(), "B / 32 = 1")->map(0), Index());
}

TEST(MappingExamples, StrideAndModulo) {
  MappingRef d1 = M(ab(), "B / 64"), d2 = M(ab(), "B % 64"), e = M(ab(), "B / 64, B % 64");
  EXPECT_EQ(d1->size(), 8u);
  for (uint64_t i = 0; i < 8; ++i) EXPECT_EQ(d1->map(i), I({{"B", int64_t(64 * i)}}));
  EXPECT_EQ(d1->map(8), std::nullopt);
  EXPECT_EQ(d2->size(), 64u);
  for (uint64_t j = 0; j < 64; ++j) EXPECT_EQ(d2->map(j), I({{"B", int64_t(j)}}));
  EXPECT_EQ(d2->map(64), std::nullopt);
  MappingRef b = M(ab(), "B");
  for (uint64_t i = 0; i < 512; ++i) EXPECT_EQ(e->map(i), b->map(i));
  EXPECT_EQ(e->map(130), I({{"B", 130}}));
  EXPECT_EQ(e->map(512), std::nullopt);
}

TEST(MappingExamples, StrideModuloTable) {
  // m![B / 4, B % 4] with B::SIZE = 16: row i![B / 4: r], column i![B % 4: c] holds B = 4r + c.
  Axes b16{{"B", 16}};
  MappingRef e = M(b16, "B / 4, B % 4");
  for (int64_t r = 0; r < 4; ++r)
    for (int64_t c = 0; c < 4; ++c) EXPECT_EQ(e->map(uint64_t(4 * r + c)), I({{"B", 4 * r + c}}));
}

TEST(MappingExamples, NestedStride) {
  MappingRef e = M(ab(), "B / 64, B % 32, B / 32 % 2");
  EXPECT_EQ(e->size(), 512u);
  for (int64_t i = 0; i < 8; ++i)
    for (int64_t j = 0; j < 32; ++j)
      for (int64_t k = 0; k < 2; ++k) EXPECT_EQ(e->map(uint64_t(64 * i + 2 * j + k)), I({{"B", 64 * i + j + 32 * k}}));
  EXPECT_EQ(e->map(67), I({{"B", 97}}));
  EXPECT_EQ(e->map(512), std::nullopt);
  EXPECT_EQ(e->str(), "m![B / 64, B % 32, B / 32 % 2]");
}

TEST(MappingExamples, Escape) {
  std::map<std::string, MappingRef> aliases{{"L", M(ab(), "A")}, {"R", M(ab(), "B")}};
  MappingRef e = M(ab(), "{ L }, { R }", &aliases);
  MappingRef ref = M(ab(), "A, B");
  EXPECT_EQ(e->str(), "m![A, B]");
  for (uint64_t i = 0; i < e->size(); i += 13) EXPECT_EQ(e->map(i), ref->map(i));
}

TEST(MappingExamples, SkewedAxis) {
  Axes ax{{"A", 4}, {"B", 4}};
  ax.skew("B'", "B", "A");
  MappingRef e = M(ax, "A, B' = 4");
  EXPECT_EQ(e->size(), 16u);
  const int64_t table[16][2] = {{0, 0}, {0, 1}, {0, 2}, {0, 3}, {1, 1}, {1, 2}, {1, 3}, {1, 0},
                                {2, 2}, {2, 3}, {2, 0}, {2, 1}, {3, 3}, {3, 0}, {3, 1}, {3, 2}};
  for (uint64_t i = 0; i < 16; ++i) EXPECT_EQ(e->map(i), I({{"A", table[i][0]}, {"B", table[i][1]}})) << i;
  // (A, B') = (1, 3) wraps to B = (3 + 1) % 4 = 0.
  EXPECT_EQ(e->map(7), I({{"A", 1}}));
  EXPECT_EQ(e->str(), "m![A, B' = 4]");
}

TEST(MappingExamples, SlidingLinearCombination) {
  Axes nf{{"N", 5}, {"F", 3}};
  MappingRef e = M(nf, "$(N:1, F:2)");
  EXPECT_EQ(e->size(), 9u);  // 1 + (5 - 1) * 1 + (3 - 1) * 2
  std::vector<Index> at4 = e->mapAll(4);
  ASSERT_EQ(at4.size(), 3u);
  EXPECT_EQ(at4[0], I({{"N", 4}}));
  EXPECT_EQ(at4[1], I({{"N", 2}, {"F", 1}}));
  EXPECT_EQ(at4[2], I({{"F", 2}}));
  EXPECT_EQ(e->map(4), I({{"N", 4}}));  // map() is the first: the first term's share largest
  // The element (N, F) sits at N + 2F: every cell of the manual's table.
  for (int64_t n = 0; n < 5; ++n)
    for (int64_t f = 0; f < 3; ++f) {
      auto all = e->mapAll(uint64_t(n + 2 * f));
      EXPECT_NE(std::find(all.begin(), all.end(), I({{"N", n}, {"F", f}})), all.end()) << n << "," << f;
    }
  EXPECT_EQ(e->mapAll(0).size(), 1u);
  EXPECT_EQ(e->mapAll(8), std::vector<Index>{I({{"N", 4}, {"F", 2}})});
  EXPECT_EQ(e->mapAll(9), std::vector<Index>{});
  EXPECT_EQ(e->str(), "m![$(N:1, F:2)]");
}

TEST(MappingExamples, SliceMappingFromTensorMapping) {
  // DmTensor<bf16, m![1], m![1 # 2], m![A / 8 # 256], m![A % 8]> with axes![A = 2048].
  Axes a{{"A", 2048}};
  MappingRef slice = M(a, "A / 8 # 256"), elem = M(a, "A % 8"), cluster = M(a, "1 # 2");
  EXPECT_EQ(slice->size(), 256u);
  EXPECT_EQ(elem->size(), 8u);
  EXPECT_EQ(cluster->size(), 2u);
  EXPECT_EQ(cluster->map(0), Index());
  EXPECT_EQ(cluster->map(1), std::nullopt);
  EXPECT_EQ(slice->str(), "m![A / 8 # 256]");
  // Every element of A sits in exactly one slice: slice s holds A = 8s .. 8s + 7.
  MappingRef placed = Mapping::pair(slice, elem);
  for (uint64_t i = 0; i < placed->size(); ++i) EXPECT_EQ(placed->map(i), I({{"A", int64_t(i)}}));
}

TEST(MappingExamples, OutOfAxisIsNotAnElement) {
  Axes d{{"D", 61}};
  MappingRef e = M(d, "(D # 64) / 8, (D # 64) % 8");
  EXPECT_EQ(e->size(), 64u);
  EXPECT_EQ(e->map(60), I({{"D", 60}}));
  EXPECT_EQ(e->map(61), std::nullopt);
  EXPECT_EQ(e->map(63), std::nullopt);
  EXPECT_EQ(e->str(), "m![(D # 64) / 8, (D # 64) % 8]");
}

TEST(MappingExamples, OffsetDummyConcat) {
  Axes ab15{{"A", 15}, {"B", 90}};
  MappingRef off = M(ab15, "A @ 3");
  EXPECT_EQ(off->size(), 12u);
  EXPECT_EQ(off->map(0), I({{"A", 3}}));
  EXPECT_EQ(off->map(11), I({{"A", 14}}));
  EXPECT_EQ(off->map(12), std::nullopt);
  MappingRef d = M(ab15, "3#"), z = M(ab15, "2z");
  EXPECT_EQ(d->size(), 3u);
  EXPECT_FALSE(d->zero());
  EXPECT_TRUE(z->zero());
  EXPECT_EQ(d->map(0), std::nullopt);
  EXPECT_EQ(z->str(), "m![2z]");
  MappingRef c = M(ab15, "# 2 + B + # 4");
  EXPECT_EQ(c->size(), 96u);
  EXPECT_EQ(c->map(1), std::nullopt);
  EXPECT_EQ(c->map(2), Index());
  EXPECT_EQ(c->map(91), I({{"B", 89}}));
  EXPECT_EQ(c->map(92), std::nullopt);
  EXPECT_EQ(c->str(), "m![2# + B + 4#]");
  MappingRef a1 = M(ab15, "A + 1#");
  EXPECT_EQ(a1->size(), 16u);
  EXPECT_EQ(a1->map(14), I({{"A", 14}}));
  EXPECT_EQ(a1->map(15), std::nullopt);
  MappingRef sel = M(Axes{{"D", 8}}, "(D / 2) @ 3 = 1");
  EXPECT_EQ(sel->map(0), I({{"D", 6}}));
}

TEST(MappingExamples, ConcatenationIsNotADerivedAxis) {
  // The Fetch Engine's masking example reads `let B' = # 2 + B + # 4 in { Time: m![A, B' / 32],
  // Packet: m![B' % 32] }` as a new axis B' (B = B' - 2), masking only 2 + 4 elements. As a
  // mapping tree, `(# 2 + B + # 4) / 32` at digit 0 is the dummy, so the Pair rule (L.map ∪ R.map)
  // makes every position of the first packet padding. A derived-axis `let` needs its own notion
  // (like skewed axes); the tree semantics are kept here.
  Axes ax{{"A", 32}, {"B", 90}};
  std::map<std::string, MappingRef> al{{"Bp", M(ax, "# 2 + B + # 4")}};
  MappingRef e = M(ax, "A, { Bp } / 32, { Bp } % 32", &al);
  EXPECT_EQ(e->size(), 32u * 96);
  EXPECT_EQ(e->map(2), std::nullopt);  // the derived-axis reading would give B = 0
  // Digits (1, 5): B.map(32 - 2) ∪ B.map(5 - 2) = B: 33; the derived-axis reading gives B = 35.
  EXPECT_EQ(e->map(32 + 5), I({{"B", 33}}));
}

TEST(MappingExamples, PrintingParsesBack) {
  Axes ax{{"A", 8}, {"B", 512}, {"D", 61}};
  for (const char *body : {"A, B", "[A, B] / 4", "(D # 64) / 8", "B / 32 = 2 # 16", "(A @ 3) / 5", "(A, B) @ 7 = 3",
                           "A + 1#", "[A, B] % 4 + 2z", "$(A:1, [B, A]:2)", "(A % 4 + B) / 2", "((A # 9) = 5) @ 1"}) {
    MappingRef m = M(ax, body);
    MappingRef back = M(ax, m->body());
    EXPECT_EQ(back->str(), m->str()) << body;
    EXPECT_TRUE(sameMap(m, back)) << body;
  }
}

// ---------------------------------------------------------------- errors

TEST(MappingErrors, ConstructorMessages) {
  Axes ax{{"A", 8}, {"B", 512}, {"C", 1ull << 40}};
  MappingRef a = M(ax, "A"), b = M(ax, "B");
  std::string err;
  EXPECT_EQ(Mapping::stride(a, 3, &err), nullptr);
  EXPECT_EQ(err, "stride 3 does not divide the size 8 of `A`");
  EXPECT_EQ(Mapping::stride(a, 0, &err), nullptr);
  EXPECT_EQ(err, "stride 0 does not divide the size 8 of `A`");
  EXPECT_EQ(Mapping::modulo(b, 5, &err), nullptr);
  EXPECT_EQ(err, "modulo 5 does not divide the size 512 of `B`");
  EXPECT_EQ(Mapping::pad(a, 4, &err), nullptr);
  EXPECT_EQ(err, "padding to 4 is smaller than the size 8 of `A`");
  EXPECT_EQ(Mapping::resize(a, 16, &err), nullptr);
  EXPECT_EQ(err, "resize to 16 exceeds the size 8 of `A`");
  EXPECT_EQ(Mapping::offset(a, 9, &err), nullptr);
  EXPECT_EQ(err, "offset 9 exceeds the size 8 of `A`");
  EXPECT_EQ(Mapping::symbol(ax.table, "X", &err), nullptr);
  EXPECT_EQ(err, "unknown axis `X`");
  EXPECT_EQ(Mapping::stride(M(ax, "A, B"), 3, &err), nullptr);
  EXPECT_EQ(err, "stride 3 does not divide the size 4096 of `A, B`");
  EXPECT_EQ(Mapping::concat({}, &err), nullptr);
  EXPECT_EQ(err, "a concatenation needs at least one part");
  EXPECT_EQ(Mapping::lincomb({}, &err), nullptr);
  EXPECT_EQ(err, "a linear combination needs at least one term");
  EXPECT_EQ(Mapping::lincomb({{a, 0}}, &err), nullptr);
  EXPECT_EQ(err, "stride 0 of `A` in a linear combination must be positive");
}

TEST(MappingErrors, SizeOverflow) {
  Axes ax{{"A", 1ull << 40}, {"B", 1ull << 20}, {"C", 1ull << 10}};
  MappingRef a = M(ax, "A"), bc = M(ax, "B, C");
  std::string err;
  EXPECT_EQ(Mapping::pair(a, bc, &err), nullptr);
  EXPECT_EQ(err, "size of `m![A, B, C]` overflows 64 bits");
  EXPECT_EQ(Mapping::pair(a, bc), nullptr);  // no message, no UB
  EXPECT_EQ(Mapping::concat({M(ax, "A # 18446744073709551615"), a}, &err), nullptr);
  EXPECT_EQ(err, "size of `m![A # 18446744073709551615 + A]` overflows 64 bits");
  EXPECT_EQ(Mapping::lincomb({{a, 1ull << 30}}, &err), nullptr);
  EXPECT_EQ(err, "size of `m![$(A:1073741824)]` overflows 64 bits");
  EXPECT_THROW(M(ax, "A, B, C"), std::runtime_error);
}

TEST(IndexTest, AddSetCompareAndSort) {
  Index i;
  i.add("B", 3);
  i.add("A", 2);
  i.add("B", -3);
  EXPECT_EQ(i.str(), "i![A: 2]");
  i.set("C", 4);
  i.set("A", 0);
  EXPECT_EQ(i.str(), "i![C: 4]");
  EXPECT_EQ(I({{"A", 1}, {"B", 2}}), I({{"B", 2}, {"A", 1}}));
  EXPECT_NE(I({{"A", 1}}), I({{"A", 2}}));
  EXPECT_EQ(I({{"A", 0}}), Index());
  AxisTable t;
  EXPECT_TRUE(t.add({"B", 4, "", ""}));
  EXPECT_TRUE(t.add({"A", 4, "", ""}));
  EXPECT_FALSE(t.add({"A", 2, "", ""}));
  Index j = I({{"Z", 1}, {"A", 2}, {"B", 3}});
  j.sortBy(t);
  EXPECT_EQ(j.str(), "i![B: 3, A: 2, Z: 1]");
}

TEST(IndexKeys, KeyIgnoresEntryOrderAndPositionsInvertTheMapping) {
  Axes axes{{"A", 4}, {"B", 8}};
  Index ab, ba;
  ab.add("A", 1);
  ab.add("B", 7);
  ba.add("B", 7);
  ba.add("A", 1);
  EXPECT_EQ(ab.key(), ba.key());
  ba.add("A", 1);
  EXPECT_NE(ab.key(), ba.key());
  // m![B, A # 8]: index (A: 1, B: 7) sits at 7 × 8 + 1; padding positions hold no index.
  IndexPositions positions(*M(axes, "B, A # 8"));
  EXPECT_EQ(positions.find(ab), std::optional<uint64_t>(57));
  Index outside;
  outside.add("A", 5);
  EXPECT_EQ(positions.find(outside), std::nullopt);
}

}  // namespace
}  // namespace tcp::testing

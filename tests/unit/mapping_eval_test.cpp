// mapping_eval_test.cpp — MappingEval (integer digits per axis id) agrees with Mapping::map on seeded random mappings, skewed and padded axes included.
#include "MappingEval.h"
#include "MappingTestUtil.h"

#include <gtest/gtest.h>

namespace tcp::testing {
namespace {

// Rebuilds map(i) from the coordinates MappingEval gives (zeros omitted, as Index does).
void expectAgrees(const MappingRef &m) {
  std::optional<MappingEval> ev = MappingEval::of(m);
  if (!ev) return;  // a mapping MappingEval does not take: callers use Mapping::map
  ASSERT_EQ(ev->size(), m->size()) << m->str();
  std::vector<int64_t> c(ev->axes().size()), weight(c.size());
  for (size_t k = 0; k < weight.size(); ++k) weight[k] = int64_t(1) << (8 * k);
  std::vector<int64_t> lin = ev->linear(weight);
  for (uint64_t i = 0; i < m->size(); ++i) {
    std::optional<Index> want = m->map(i);
    bool ok = ev->coords(i, c.data());
    ASSERT_EQ(ok, want.has_value()) << m->str() << " at " << i;
    ASSERT_EQ(lin[i] >= 0, ok) << m->str() << " at " << i;
    if (!ok) continue;
    Index got;
    int64_t v = 0;
    for (size_t k = 0; k < c.size(); ++k) {
      got.add(ev->axes()[k].name, c[k]);
      v += c[k] * weight[k];
    }
    ASSERT_EQ(got, *want) << m->str() << " at " << i << ": " << got.str() << " vs " << want->str();
    ASSERT_EQ(lin[i], v) << m->str() << " at " << i;
  }
  // Any range of positions keys the same as the whole table.
  for (uint64_t begin : {uint64_t(0), uint64_t(1), m->size() / 3, m->size() / 2})
    for (uint64_t len : {uint64_t(1), uint64_t(5), m->size()}) {
      std::vector<int64_t> part(len, 7);
      ev->linearRange(weight, begin, begin + len, part.data());
      for (uint64_t j = 0; j < len && begin + j < m->size(); ++j)
        ASSERT_EQ(part[j], lin[begin + j]) << m->str() << " range at " << begin << " + " << j;
    }
}

TEST(MappingEval, AgreesWithMapOnRandomMappings) {
  Axes ax{{"A", 2}, {"B", 3}, {"C", 4}, {"D", 6}, {"F", 5}};
  RandomMappings::Options opt;
  opt.concats = true;
  RandomMappings gen(ax.table, 11, opt);
  int taken = 0;
  for (int k = 0; k < 1500; ++k) {
    MappingRef m = gen.next();
    taken += MappingEval::of(m).has_value();
    expectAgrees(m);
    if (HasFatalFailure()) return;
  }
  EXPECT_GT(taken, 500);  // most mappings take the integer path
}

TEST(MappingEval, AgreesWithMapOnSkewedAxes) {
  Axes ax{{"A", 4}, {"B", 4}, {"C", 3}};
  ax.skew("B'", "B", "A");
  RandomMappings gen(ax.table, 12, {});
  for (int k = 0; k < 800; ++k) {
    expectAgrees(gen.next());
    if (HasFatalFailure()) return;
  }
}

TEST(MappingEval, AgreesWithMapOnPaddedAxes) {
  AxisTable t;
  t.add(AxisInfo("A", 4));
  t.add(AxisInfo("B", 97));
  AxisInfo padded("B'", 2 + 97 + 29);
  padded.padBase = "B";
  padded.padLeft = 2;
  padded.padRight = 29;
  padded.padBaseSize = 97;
  t.add(padded);
  std::string err;
  MappingRef a = Mapping::symbol(t, "A", &err), bp = Mapping::symbol(t, "B'", &err);
  ASSERT_TRUE(a && bp) << err;
  for (uint64_t n : {1, 2, 16, 32, 128}) {
    MappingRef hi = Mapping::stride(bp, n, &err), lo = Mapping::modulo(bp, n, &err);
    ASSERT_TRUE(hi && lo) << err;
    expectAgrees(Mapping::pair(hi, Mapping::pair(a, lo)));
    expectAgrees(Mapping::pair(a, Mapping::pair(lo, hi)));
  }
  EXPECT_TRUE(MappingEval::of(Mapping::pair(a, bp)).has_value());
}

// IndexPositions keyed by integers (MappingEval) finds what the Index::Key table finds: every index
// a mapping holds, shifted ones and ones on foreign axes, and counts the same held positions.
void expectPositionsAgree(const MappingRef &m, const MappingRef &other) {
  IndexPositions byKey(*m), byInt(m);
  ASSERT_EQ(byInt.held(), byKey.held()) << m->str();
  std::vector<Index> probes;
  for (uint64_t i = 0; i < m->size(); ++i)
    if (std::optional<Index> ix = m->map(i)) {
      probes.push_back(*ix);
      Index up = *ix;
      up.add(m->axes().empty() ? std::string("A") : m->axes()[i % m->axes().size()].name, 1);
      probes.push_back(up);
    }
  for (uint64_t i = 0; i < other->size(); ++i)
    if (std::optional<Index> ix = other->map(i)) probes.push_back(*ix);
  for (const Index &ix : probes) ASSERT_EQ(byInt.find(ix), byKey.find(ix)) << m->str() << " at " << ix.str();
  // The hot-loop lookup: keyWeights over the probes' axes, then findKey.
  for (const Index &ix : probes) {
    std::vector<std::string> names;
    for (const auto &[axis, v] : ix.entries()) names.push_back(axis);
    auto weights = byInt.keyWeights(names);
    if (!weights) return;  // tabulated by Index::Key (no MappingEval): find() only
    std::optional<uint64_t> got;
    uint64_t key = 0;
    bool inBounds = true;
    for (size_t k = 0; k < names.size(); ++k) {
      int64_t v = ix.get(names[k]);
      inBounds = inBounds && v >= 0 && uint64_t(v) < (*weights)[k].first;
      key += uint64_t(v) * (*weights)[k].second;
    }
    if (inBounds) got = byInt.findKey(key);
    ASSERT_EQ(got, byKey.find(ix)) << m->str() << " keyed at " << ix.str();
  }
}

TEST(MappingEval, IntegerKeyedPositionsAgreeWithIndexKeys) {
  Axes ax{{"A", 2}, {"B", 3}, {"C", 4}, {"D", 6}, {"F", 5}};
  ax.skew("B'", "B", "A");
  RandomMappings gen(ax.table, 13, {});
  int keyed = 0;
  for (int k = 0; k < 1000; ++k) {
    MappingRef m = gen.next(), other = gen.next();
    expectPositionsAgree(m, other);
    if (HasFatalFailure()) return;
    keyed += IndexPositions(m).keyWeights({"A"}).has_value();
  }
  EXPECT_GT(keyed, 500);  // most mappings take the integer keys
}

}  // namespace
}  // namespace tcp::testing

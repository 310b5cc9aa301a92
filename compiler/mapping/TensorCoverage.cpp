// TensorCoverage.cpp — per-axis coordinate sets from factorizations, and the tensor-preservation rule.
#include "TensorCoverage.h"

#include "BoundedMemo.h"
#include "MappingEval.h"
#include "MappingFactor.h"

#include <algorithm>
#include <cassert>

namespace tcp {

namespace {
constexpr uint64_t kEnumerateLimit = uint64_t(1) << 22;

// Adds every coordinate reachable from the terms of one axis (digits of different terms add): as
// runs of coordinates (MappingEval::addTerm) when the digit combinations stay within the enumeration
// budget, else coordinate by coordinate up to the budget.
void enumerateAxis(const std::vector<const FactorTerm *> &terms, uint64_t base, llvm::BitVector &held) {
  uint64_t combinations = 1;
  for (const FactorTerm *t : terms)
    if (__builtin_mul_overflow(combinations, t->valid(), &combinations)) combinations = UINT64_MAX;
  if (combinations <= kEnumerateLimit) {
    const int64_t end = int64_t(held.size());
    if (int64_t(base) >= end) return;
    MappingEval::Runs runs{{int64_t(base), int64_t(base) + 1}};
    std::vector<const FactorTerm *> finestFirst = terms;  // sums commute; the runs then grow in order
    std::stable_sort(finestFirst.begin(), finestFirst.end(),
                     [](const FactorTerm *a, const FactorTerm *b) { return a->axisStride < b->axisStride; });
    for (const FactorTerm *t : finestFirst) {
      bool fits = MappingEval::addTerm(runs, 0, t->valid(), t->axisStride, end, UINT64_MAX);
      assert(fits && "no budget");
      (void)fits;
    }
    for (const auto &[lo, hi] : runs) held.set(unsigned(lo), unsigned(hi));
    return;
  }
  std::vector<uint64_t> coords{base};
  for (const FactorTerm *t : terms) {
    std::vector<uint64_t> next;
    uint64_t valid = t->valid();
    for (uint64_t c : coords)
      for (uint64_t d = 0; d < valid; ++d) {
        uint64_t v = c + d * t->axisStride;
        if (v < held.size()) next.push_back(v);
      }
    coords.swap(next);
    if (coords.size() > kEnumerateLimit) break;
  }
  for (uint64_t c : coords)
    if (c < held.size()) held.set(unsigned(c));
}
// Marks in `held` (axis → coordinates) what every position of `m` holds; an index lists only its
// non-zero coordinates: an axis it omits is at coordinate 0. Returns whether any position holds an element.
bool enumeratePositions(const MappingRef &m, std::map<std::string, llvm::BitVector> &held) {
  bool any = false;
  if (std::optional<MappingEval> ev = MappingEval::of(m)) {  // skewed or padded axes: integer digits
    std::vector<std::pair<int, llvm::BitVector *>> slots;  // coverage axis → coordinate slot (-1: none)
    for (auto &[axis, coords] : held) {
      int k = -1;
      for (size_t a = 0; a < ev->axes().size(); ++a)
        if (ev->axes()[a].name == axis) k = int(a);
      slots.emplace_back(k, &coords);
    }
    std::vector<int64_t> c(ev->axes().size());
    for (uint64_t i = 0; i < m->size(); ++i) {
      if (!ev->coords(i, c.data())) continue;
      any = true;
      for (auto &[k, coords] : slots) {
        int64_t v = k < 0 ? 0 : c[size_t(k)];
        if (v >= 0 && static_cast<uint64_t>(v) < coords->size()) coords->set(unsigned(v));
      }
    }
    return any;
  }
  for (uint64_t i = 0; i < m->size(); ++i)
    for (const Index &ix : m->mapAll(i)) {
      any = true;
      for (auto &[axis, coords] : held) {
        int64_t v = ix.get(axis);
        if (v >= 0 && static_cast<uint64_t>(v) < coords.size()) coords.set(unsigned(v));
      }
    }
  return any;
}

// The dims grouped so that no two groups name a common axis (an axis, or the base or offset axis
// of a skewed or padded one), each group in the dims' order.
std::vector<std::vector<MappingRef>> independentGroups(const std::vector<MappingRef> &dims) {
  std::vector<size_t> groupOf(dims.size());
  for (size_t k = 0; k < dims.size(); ++k) groupOf[k] = k;
  auto find = [&](size_t k) {
    while (groupOf[k] != k) k = groupOf[k] = groupOf[groupOf[k]];
    return k;
  };
  std::map<std::string, size_t> owner;  // axis name → a dim naming it
  for (size_t k = 0; k < dims.size(); ++k)
    for (const AxisInfo &a : dims[k]->axes())
      for (const std::string *name : {&a.name, &a.skewBase, &a.skewBy, &a.padBase}) {
        if (name->empty()) continue;
        auto [it, fresh] = owner.emplace(*name, k);
        if (!fresh) groupOf[find(k)] = find(it->second);
      }
  std::vector<std::vector<MappingRef>> groups;
  std::map<size_t, size_t> index;  // root → position in groups
  for (size_t k = 0; k < dims.size(); ++k) {
    auto [it, fresh] = index.emplace(find(k), groups.size());
    if (fresh) groups.emplace_back();
    groups[it->second].push_back(dims[k]);
  }
  return groups;
}
}  // namespace

uint64_t Coverage::count(const std::string &axis) const {
  auto it = axes.find(axis);
  if (it == axes.end()) return 0;
  return it->second.count();
}

uint64_t combinedSize(const std::vector<MappingRef> &dims) {
  uint64_t s = 1;
  for (const auto &d : dims)
    if (d && __builtin_mul_overflow(s, d->size(), &s)) return UINT64_MAX;
  return s;
}

MappingRef pairAll(const std::vector<MappingRef> &dims) {
  if (dims.empty()) return Mapping::identity();
  MappingRef acc = dims.back();
  for (size_t k = dims.size() - 1; k-- > 0 && acc;) acc = Mapping::pair(dims[k], acc);
  return acc;
}

namespace {
Coverage deriveCoverage(const std::vector<MappingRef> &dims);
}  // namespace

Coverage coverageOf(const std::vector<MappingRef> &dims) {
  // Consecutive ops check the same tensors (one op's result is the next one's source): each list of
  // (immutable) mappings is enumerated once per process. The key holds the mappings, so their
  // addresses are not reused while cached; the cache is bounded.
  static BoundedMemo<std::vector<MappingRef>, Coverage> cache(256);
  return cache.get(dims, [&] { return deriveCoverage(dims); });
}

namespace {
Coverage deriveCoverage(const std::vector<MappingRef> &dims) {
  Coverage cov;
  MappingRef all = pairAll(dims);
  if (!all) {
    cov.known = false;
    return cov;
  }
  // One flag per coordinate of every axis: an axis longer than the enumeration budget is not
  // decided (a 2^40 axis would need 128 GB of flags).
  for (const AxisInfo &a : all->axes())
    if (a.size > kEnumerateLimit || (!a.padBase.empty() && a.padBaseSize > kEnumerateLimit)) {
      cov.known = false;
      return cov;
    }
  for (const AxisInfo &a : all->axes())
    if (a.skewBase.empty() && a.padBase.empty()) cov.axes[a.name] = llvm::BitVector(unsigned(a.size));
    else if (!a.padBase.empty() && !cov.axes.count(a.padBase)) cov.axes[a.padBase] = llvm::BitVector(unsigned(a.padBaseSize));
  Factorization f = factorization(all);
  bool opaque = false;
  for (const FactorTerm &t : f.terms) opaque = opaque || t.kind == FactorTerm::Opaque;
  for (const AxisInfo &a : all->axes()) opaque = opaque || !a.skewBase.empty() || !a.padBase.empty();
  if (opaque) {
    // Parts that do not decompose: enumerate every position when that is affordable.
    if (all->size() > kEnumerateLimit) {
      cov.known = false;
      return cov;
    }
    // Dims that share no axis (nor the base of a skewed or padded one) combine every position of
    // one with every position of the others: each group is enumerated on its own (the sum of their
    // sizes, not the product), its coordinates held when every other group holds some element.
    std::vector<std::vector<MappingRef>> groups = independentGroups(dims);
    std::vector<char> anyHeld(groups.size());
    std::vector<std::map<std::string, llvm::BitVector>> held(groups.size());
    for (size_t g = 0; g < groups.size(); ++g) {
      MappingRef part = groups.size() == 1 ? all : pairAll(groups[g]);
      for (const AxisInfo &a : part->axes()) {  // this group's share of cov.axes
        const std::string &name = a.skewBase.empty() && a.padBase.empty() ? a.name : a.padBase;
        auto it = cov.axes.find(name);
        if (it != cov.axes.end() && !held[g].count(name)) held[g][name] = llvm::BitVector(it->second.size());
      }
      anyHeld[g] = enumeratePositions(part, held[g]);
    }
    if (std::find(anyHeld.begin(), anyHeld.end(), 0) != anyHeld.end()) return cov;  // no position holds an element
    for (auto &group : held)
      for (auto &[axis, coords] : group) cov.axes[axis] = std::move(coords);
    return cov;
  }
  if (f.none) return cov;
  for (auto &[axis, held] : cov.axes) {
    std::vector<const FactorTerm *> terms;
    uint64_t base = 0;
    for (const FactorTerm &t : f.terms)
      if (t.kind == FactorTerm::Axis && t.axis.name == axis) {
        terms.push_back(&t);
        base += t.base;
      }
    enumerateAxis(terms, base, held);
  }
  return cov;
}

}  // namespace

std::optional<std::string> tensorPreserved(const std::vector<MappingRef> &src, const std::vector<MappingRef> &dst,
                                           const std::vector<std::string> &ignore) {
  Coverage a = coverageOf(src), b = coverageOf(dst);
  if (!a.known || !b.known) return std::nullopt;  // too large to decide exactly: not reported
  for (const auto &[axis, held] : a.axes) {
    if (std::find(ignore.begin(), ignore.end(), axis) != ignore.end()) continue;
    uint64_t want = a.count(axis);
    auto it = b.axes.find(axis);
    bool srcNontrivial = want > 1;
    if (it == b.axes.end()) {
      if (srcNontrivial)
        return "axis `" + axis + "` (" + std::to_string(want) + " coordinates) is dropped: the result does not hold it";
      continue;
    }
    llvm::BitVector lost = held;
    lost.reset(it->second);  // held coordinates the result lacks
    const uint64_t missing = lost.count();
    const int firstMissing = lost.find_first();
    if (missing)
      return "the result holds only " + std::to_string(want - missing) + " of the " + std::to_string(want) +
             " coordinates of axis `" + axis + "` (e.g. `" + axis + " = " + std::to_string(firstMissing) + "` is lost)";
  }
  return std::nullopt;
}

}  // namespace tcp

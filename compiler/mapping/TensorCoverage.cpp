// TensorCoverage.cpp — per-axis coordinate sets from factorizations, and the tensor-preservation rule.
#include "TensorCoverage.h"

#include "MappingEval.h"
#include "MappingFactor.h"

#include <algorithm>

namespace tcp {

namespace {
constexpr uint64_t kEnumerateLimit = uint64_t(1) << 22;

// Adds every coordinate reachable from the terms of one axis (digits of different terms add).
void enumerateAxis(const std::vector<const FactorTerm *> &terms, uint64_t base, std::vector<bool> &held) {
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
    if (c < held.size()) held[c] = true;
}
}  // namespace

uint64_t Coverage::count(const std::string &axis) const {
  auto it = axes.find(axis);
  if (it == axes.end()) return 0;
  uint64_t n = 0;
  for (bool b : it->second) n += b;
  return n;
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

Coverage coverageOf(const std::vector<MappingRef> &dims) {
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
    if (a.skewBase.empty() && a.padBase.empty()) cov.axes[a.name].assign(a.size, false);
    else if (!a.padBase.empty() && !cov.axes.count(a.padBase)) cov.axes[a.padBase].assign(a.padBaseSize, false);
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
    // An index lists only its non-zero coordinates: an axis it omits is at coordinate 0.
    if (std::optional<MappingEval> ev = MappingEval::of(all)) {  // skewed or padded axes: integer digits
      std::vector<std::pair<int, std::vector<bool> *>> slots;  // coverage axis → coordinate slot (-1: none)
      for (auto &[axis, held] : cov.axes) {
        int k = -1;
        for (size_t a = 0; a < ev->axes().size(); ++a)
          if (ev->axes()[a].name == axis) k = int(a);
        slots.emplace_back(k, &held);
      }
      std::vector<int64_t> c(ev->axes().size());
      for (uint64_t i = 0; i < all->size(); ++i) {
        if (!ev->coords(i, c.data())) continue;
        for (auto &[k, held] : slots) {
          int64_t v = k < 0 ? 0 : c[size_t(k)];
          if (v >= 0 && static_cast<uint64_t>(v) < held->size()) (*held)[v] = true;
        }
      }
      return cov;
    }
    for (uint64_t i = 0; i < all->size(); ++i)
      for (const Index &ix : all->mapAll(i))
        for (auto &[axis, held] : cov.axes) {
          int64_t v = ix.get(axis);
          if (v >= 0 && static_cast<uint64_t>(v) < held.size()) held[v] = true;
        }
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
    uint64_t missing = 0, firstMissing = 0;
    for (size_t c = 0; c < held.size(); ++c)
      if (held[c] && !it->second[c]) {
        if (!missing) firstMissing = c;
        ++missing;
      }
    if (missing)
      return "the result holds only " + std::to_string(want - missing) + " of the " + std::to_string(want) +
             " coordinates of axis `" + axis + "` (e.g. `" + axis + " = " + std::to_string(firstMissing) + "` is lost)";
  }
  return std::nullopt;
}

}  // namespace tcp

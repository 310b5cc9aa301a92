// DmaCoverage.cpp — does a DMA stream visit every element of its source tensor ("a single logical tensor move").
#include "DmaCoverage.h"

#include "MappingEval.h"

#include <algorithm>
#include <map>
#include <string>
#include <vector>

namespace tcp {

namespace {

// Indices as integers: a mixed radix over every axis the two mappings' indices can name (coordinate
// + 1 per axis, 0 when the index lacks the axis): plain axes and the bases of skewed and padded ones
// (an index names B, never B'). Falls back to Index::key() when an axis is unknown or the radix
// overflows 64 bits.
class IndexKeys {
 public:
  IndexKeys(const MappingRef &a, const MappingRef &b) {
    for (const MappingRef &m : {a, b})
      for (const AxisInfo &info : m->axes()) {
        if (info.skewBase.empty() && info.padBase.empty()) addAxis(info.name, info.size);
        if (!info.skewBase.empty()) addAxis(info.skewBase, info.size);
        if (!info.padBase.empty()) addAxis(info.padBase, info.padBaseSize);
      }
    uint64_t scale = 1;
    for (auto &[name, axis] : axes_) {
      axis.scale = scale;
      if (__builtin_mul_overflow(scale, axis.size + 2, &scale)) numeric_ = false;
    }
    total_ = scale;
  }
  bool numeric() const { return numeric_; }
  uint64_t range() const { return numeric_ ? total_ : 0; }  // keys lie in [0, range)
  // The integer key of an index; nullopt when the index leaves the radix (then use text keys).
  std::optional<uint64_t> number(const Index &ix) const {
    uint64_t k = 0;
    for (const auto &[name, v] : ix.entries()) {
      auto it = axes_.find(name);
      if (it == axes_.end() || v < 0 || uint64_t(v) > it->second.size) return std::nullopt;
      k += (uint64_t(v) + 1) * it->second.scale;
    }
    return k;
  }

 private:
  struct Axis {
    uint64_t size = 0, scale = 0;
  };
  void addAxis(const std::string &name, uint64_t size) {
    Axis &a = axes_[name];
    a.size = std::max(a.size, size);
  }
  std::map<std::string, Axis> axes_;
  bool numeric_ = true;
  uint64_t total_ = 0;
};

// Small key ranges: one byte per key instead of sorting.
StreamCoverage compareDense(const std::vector<uint64_t> &visited, const std::vector<uint64_t> &held, uint64_t range) {
  std::vector<uint8_t> seen(range, 0);  // bit 0: visited, bit 1: held (counted once)
  for (uint64_t k : visited) seen[k] |= 1;
  StreamCoverage c;
  for (uint64_t k : held) {
    if (seen[k] & 2) continue;
    seen[k] |= 2;
    ++c.held;
    c.missing += (seen[k] & 1) ? 0 : 1;
  }
  return c;
}

template <class Key>
StreamCoverage compare(std::vector<Key> visited, std::vector<Key> held) {
  std::sort(visited.begin(), visited.end());
  visited.erase(std::unique(visited.begin(), visited.end()), visited.end());
  std::sort(held.begin(), held.end());
  held.erase(std::unique(held.begin(), held.end()), held.end());
  StreamCoverage c;
  c.held = held.size();
  for (const Key &k : held) c.missing += std::binary_search(visited.begin(), visited.end(), k) ? 0 : 1;
  return c;
}

template <class KeyFn>
auto keysOf(const MappingRef &m, KeyFn key) {
  std::vector<decltype(key(std::declval<const Index &>()))> out;
  for (uint64_t i = 0; i < m->size(); ++i)
    if (auto ix = m->map(i)) out.push_back(key(*ix));
  return out;
}

// IndexKeys::number of every element of m by integer digits (MappingEval); empty when m has no
// MappingEval or holds no element (the caller then maps index by index).
std::vector<uint64_t> fastKeys(const IndexKeys &keys, const MappingRef &m) {
  std::optional<MappingEval> ev = MappingEval::of(m);
  if (!ev) return {};
  std::vector<uint64_t> scale(ev->axes().size());
  for (size_t k = 0; k < scale.size(); ++k) {
    const AxisInfo &a = ev->axes()[k];
    if (!a.skewBase.empty() || !a.padBase.empty()) continue;  // resolved onto its base: coordinate 0
    Index ix;
    ix.add(ev->axes()[k].name, 1);
    std::optional<uint64_t> s = keys.number(ix);  // (1 + 1) * scale
    if (!s) return {};
    scale[k] = *s / 2;
  }
  std::vector<uint64_t> out;
  std::vector<int64_t> c(scale.size());
  for (uint64_t i = 0; i < ev->size(); ++i) {
    if (!ev->coords(i, c.data())) continue;
    uint64_t key = 0;
    for (size_t k = 0; k < c.size(); ++k)
      if (c[k] != 0) key += (uint64_t(c[k]) + 1) * scale[k];  // absent (zero) coordinates add nothing
    out.push_back(key);
  }
  return out;
}

// Digit combinations one axis may take in the per-axis count (beyond them: enumerate).
constexpr uint64_t kProductBudget = uint64_t(1) << 22;

// Both mappings products of per-axis coordinate sets: the distinct indices of `source` number
// Π_a |H_a|, those the stream also visits Π_a |H_a ∩ V_a| (an axis absent from one side holds only 0).
std::optional<StreamCoverage> productCoverage(const MappingRef &stream, const MappingRef &source) {
  std::optional<MappingEval> ve = MappingEval::of(stream), he = MappingEval::of(source);
  if (!ve || !he) return std::nullopt;
  std::optional<MappingEval::Product> v = ve->product(kProductBudget), h = he->product(kProductBudget);
  if (!v || !h) return std::nullopt;
  StreamCoverage c;
  if (h->empty) return c;
  static const MappingEval::Runs zero{{0, 1}};
  std::map<std::string, std::pair<const MappingEval::Runs *, const MappingEval::Runs *>> sets;  // held, visited
  for (size_t k = 0; k < he->axes().size(); ++k) sets[he->axes()[k].name] = {&h->coords[k], &zero};
  for (size_t k = 0; k < ve->axes().size(); ++k) {
    auto [it, fresh] = sets.try_emplace(ve->axes()[k].name, &zero, &zero);
    it->second.second = &v->coords[k];
  }
  uint64_t held = 1, both = v->empty ? 0 : 1;
  for (const auto &[name, hv] : sets) {
    const MappingEval::Runs &hs = *hv.first, &vs = *hv.second;
    uint64_t count = 0, common = 0;
    for (const auto &[lo, hi] : hs) count += uint64_t(hi - lo);
    for (auto i = hs.begin(), j = vs.begin(); i != hs.end() && j != vs.end();) {
      common += uint64_t(std::max<int64_t>(0, std::min(i->second, j->second) - std::max(i->first, j->first)));
      if (i->second < j->second) ++i;
      else ++j;
    }
    held *= count;
    both *= common;
  }
  c.held = held;
  c.missing = held - both;
  return c;
}

}  // namespace

StreamCoverage streamCoverage(const MappingRef &stream, const MappingRef &source) {
  if (std::optional<StreamCoverage> c = productCoverage(stream, source)) return *c;
  return streamCoverageEnumerated(stream, source);
}

StreamCoverage streamCoverageEnumerated(const MappingRef &stream, const MappingRef &source) {
  IndexKeys keys(stream, source);
  if (keys.numeric()) {
    bool inRadix = true;
    auto number = [&](const Index &ix) {
      std::optional<uint64_t> k = keys.number(ix);
      if (!k) inRadix = false;
      return k.value_or(0);
    };
    std::vector<uint64_t> visited = fastKeys(keys, stream), held = fastKeys(keys, source);
    if (visited.empty() && stream->size()) visited = keysOf(stream, number);
    if (held.empty() && source->size()) held = keysOf(source, number);
    if (inRadix && keys.range() <= (uint64_t(1) << 26)) return compareDense(visited, held, keys.range());
    if (inRadix) return compare(std::move(visited), std::move(held));
  }
  auto key = [](const Index &ix) { return ix.key(); };
  return compare(keysOf(stream, key), keysOf(source, key));
}

}  // namespace tcp

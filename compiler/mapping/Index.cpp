// Index.cpp — tensor indices (axis → coordinate, zeros omitted) and the program's axis table.
#include "Mapping.h"

#include "MappingEval.h"

#include <algorithm>
#include <cassert>
#include <tuple>

namespace tcp {

// ---------------------------------------------------------------- AxisTable

bool AxisTable::add(AxisInfo info) {
  if (!byName_.try_emplace(info.name, axes_.size()).second) return false;
  axes_.push_back(std::move(info));
  return true;
}

const AxisInfo *AxisTable::find(std::string_view name) const {
  auto it = byName_.find(llvm::StringRef(name.data(), name.size()));
  return it == byName_.end() ? nullptr : &axes_[it->second];
}

size_t AxisTable::order(std::string_view name) const {
  auto it = byName_.find(llvm::StringRef(name.data(), name.size()));
  return it == byName_.end() ? axes_.size() : it->second;
}

// ---------------------------------------------------------------- Index

void Index::add(const std::string &axis, int64_t value) {
  if (value == 0) return;
  for (auto it = entries_.begin(); it != entries_.end(); ++it) {
    if (it->first != axis) continue;
    it->second += value;
    if (it->second == 0) entries_.erase(it);
    return;
  }
  entries_.emplace_back(axis, value);
}

void Index::set(const std::string &axis, int64_t value) {
  for (auto it = entries_.begin(); it != entries_.end(); ++it) {
    if (it->first != axis) continue;
    if (value == 0)
      entries_.erase(it);
    else
      it->second = value;
    return;
  }
  if (value != 0) entries_.emplace_back(axis, value);
}

void Index::add(const Index &o) {
  for (const auto &[axis, value] : o.entries_) add(axis, value);
}

int64_t Index::get(std::string_view axis) const {
  for (const auto &[name, value] : entries_)
    if (name == axis) return value;
  return 0;
}

void Index::sortBy(const AxisTable &axes) {
  std::stable_sort(entries_.begin(), entries_.end(), [&](const auto &a, const auto &b) {
    return std::make_tuple(axes.order(a.first), a.first) < std::make_tuple(axes.order(b.first), b.first);
  });
}

std::string Index::str() const {
  std::string s = "i![";
  for (size_t i = 0; i < entries_.size(); ++i) {
    if (i) s += ", ";
    s += entries_[i].first + ": " + std::to_string(entries_[i].second);
  }
  return s + "]";
}

Index::Key Index::key() const {
  Key k(entries_.begin(), entries_.end());
  std::sort(k.begin(), k.end());
  return k;
}

namespace {
// The axes of a row-major pair of distinct plain axes (`m![A, B, C]`, major first), or false.
bool rowMajorAxes(const Mapping &m, std::vector<std::pair<std::string, uint64_t>> &out) {
  std::vector<const Mapping *> work{&m};
  while (!work.empty()) {
    const Mapping *n = work.back();
    work.pop_back();
    if (n->kind() == Mapping::Pair) {
      for (auto it = n->children().rbegin(); it != n->children().rend(); ++it) work.push_back(it->get());
    } else if (n->kind() == Mapping::Symbol && n->axisInfo().skewBase.empty() && n->axisInfo().padBase.empty() &&
               n->size() == n->axisInfo().size) {
      for (const auto &[axis, size] : out)
        if (axis == n->axis()) return false;
      out.emplace_back(n->axis(), n->size());
    } else if (n->kind() != Mapping::Identity) {
      return false;
    }
  }
  return true;
}
}  // namespace

bool IndexPositions::needsTable(const Mapping &m) {
  std::vector<std::pair<std::string, uint64_t>> axes;
  return !rowMajorAxes(m, axes);
}

IndexPositions::IndexPositions(const Mapping &m) {
  // Row-major pairs of distinct plain axes need no table (a 2^25-element table costs gigabytes).
  dense_ = rowMajorAxes(m, rowMajor_);
  if (dense_) {
    held_ = m.size();
    return;
  }
  rowMajor_.clear();
  tabulate(m);
}

IndexPositions::IndexPositions(const MappingRef &m) {
  dense_ = rowMajorAxes(*m, rowMajor_);
  if (dense_) {
    held_ = m->size();
    return;
  }
  rowMajor_.clear();
  if (!tabulateNumeric(m)) tabulate(*m);
}

void IndexPositions::tabulate(const Mapping &m) {
  for (uint64_t p = 0; p < m.size(); ++p)
    if (auto at = m.map(p)) {
      positions_.emplace(at->key(), p);  // the first position wins
      ++held_;
    }
}

bool IndexPositions::tabulateNumeric(const MappingRef &m) {
  std::optional<MappingEval> ev = MappingEval::of(m);
  if (!ev) return false;
  // Valid coordinates lie in [0, size) of their axis (skewed and padded ones end at 0), or below the
  // last coordinate the mapping holds when its indices are a product of per-axis runs (`M % 32`).
  std::optional<MappingEval::Product> held = ev->product(uint64_t(1) << 16);
  std::vector<int64_t> weight;
  uint64_t range = 1;
  for (size_t k = 0; k < ev->axes().size(); ++k) {
    const AxisInfo &a = ev->axes()[k];
    uint64_t size = std::max<uint64_t>(a.size, 1);
    if (held && !held->empty && !held->coords[k].empty()) size = std::min(size, uint64_t(held->coords[k].back().second));
    keyAxes_.emplace_back(a.name, size, range);
    weight.push_back(int64_t(range));
    if (__builtin_mul_overflow(range, size, &range) || range > (uint64_t(1) << 62)) {
      keyAxes_.clear();
      return false;
    }
  }
  numeric_ = true;
  const bool direct = range <= 2 * m->size() + 4096 && m->size() < (uint64_t(1) << 31);
  if (direct) direct_.assign(range, -1);
  constexpr uint64_t kChunk = uint64_t(1) << 16;
  std::vector<int64_t> keys(std::min(kChunk, m->size()));
  for (uint64_t begin = 0; begin < m->size(); begin += kChunk) {
    const uint64_t end = std::min(begin + kChunk, m->size());
    ev->linearRange(weight, begin, end, keys.data());
    for (uint64_t p = begin; p < end; ++p) {
      const int64_t k = keys[p - begin];
      if (k < 0) continue;
      ++held_;
      if (!direct) sorted_.emplace_back(uint64_t(k), p);
      else if (direct_[size_t(k)] < 0) direct_[size_t(k)] = int32_t(p);  // the first position wins
    }
  }
  if (!direct) {
    if (!std::is_sorted(sorted_.begin(), sorted_.end())) std::sort(sorted_.begin(), sorted_.end());  // by key, then position: the first position first
    sorted_.erase(std::unique(sorted_.begin(), sorted_.end(), [](auto &a, auto &b) { return a.first == b.first; }),
                  sorted_.end());
  }
  return true;
}

std::optional<std::vector<std::pair<uint64_t, uint64_t>>> IndexPositions::keyWeights(
    const std::vector<std::string> &names) const {
  if (!dense_ && !numeric_) return std::nullopt;
  std::vector<std::pair<uint64_t, uint64_t>> out(names.size(), {0, 0});  // unknown axes: bound 0
  for (size_t n = 0; n < names.size(); ++n) {
    if (dense_) {
      uint64_t stride = 1;
      for (size_t k = rowMajor_.size(); k-- > 0;) {
        if (rowMajor_[k].first == names[n]) out[n] = {rowMajor_[k].second, stride};
        stride *= rowMajor_[k].second;
      }
      continue;
    }
    for (const auto &[axis, size, scale] : keyAxes_)
      if (axis == names[n]) out[n] = {size, scale};
  }
  return out;
}

std::optional<uint64_t> IndexPositions::findKey(uint64_t key) const {
  if (dense_) return key;  // a row-major position (the caller kept every coordinate below its bound)
  if (!direct_.empty()) {
    if (key >= direct_.size() || direct_[size_t(key)] < 0) return std::nullopt;
    return uint64_t(direct_[size_t(key)]);
  }
  auto it = std::lower_bound(sorted_.begin(), sorted_.end(), std::make_pair(key, uint64_t(0)));
  if (it == sorted_.end() || it->first != key) return std::nullopt;
  return it->second;
}

std::optional<uint64_t> IndexPositions::find(const Index &index) const {
  if (dense_) {
    size_t matched = 0;
    uint64_t position = 0;
    for (const auto &[axis, size] : rowMajor_) {
      int64_t v = index.get(axis);
      if (v < 0 || static_cast<uint64_t>(v) >= size) return std::nullopt;
      matched += v != 0;
      position = position * size + static_cast<uint64_t>(v);
    }
    if (matched != index.entries().size()) return std::nullopt;  // a coordinate on another axis
    return position;
  }
  if (numeric_) {
    uint64_t key = 0;
    for (const auto &entry : index.entries()) {
      const auto &axis = entry.first;
      const auto v = entry.second;
      auto it = std::find_if(keyAxes_.begin(), keyAxes_.end(), [&](const auto &k) { return std::get<0>(k) == axis; });
      if (it == keyAxes_.end() || v < 0 || uint64_t(v) >= std::get<1>(*it)) return std::nullopt;  // never held
      key += uint64_t(v) * std::get<2>(*it);
    }
    return findKey(key);
  }
  auto it = positions_.find(index.key());
  if (it == positions_.end()) return std::nullopt;
  return it->second;
}

bool Index::operator==(const Index &o) const {
  if (entries_.size() != o.entries_.size()) return false;
  for (const auto &[axis, value] : entries_)
    if (o.get(axis) != value) return false;
  return true;
}

// ---------------------------------------------------------------- finishing an index

std::optional<Index> finishIndex(Index raw, const std::vector<AxisInfo> &axes) {
  for (const auto &[axis, value] : raw.entries()) {
    const AxisInfo *info = nullptr;
    for (const AxisInfo &a : axes)
      if (a.name == axis) info = &a;
    assert(info && "index coordinate on an axis unknown to the mapping");
    if (!info || value < 0 || static_cast<uint64_t>(value) >= info->size) return std::nullopt;
  }
  for (const AxisInfo &a : axes) {
    if (a.skewBase.empty()) continue;
    // B' = B - A: the coordinate accumulated on B' becomes B = (B' + A) mod |B|.
    int64_t skewed = raw.get(a.name);
    int64_t by = raw.get(a.skewBy);
    uint64_t size = a.size;
    if (size == 0) return std::nullopt;
    int64_t base = static_cast<int64_t>((static_cast<uint64_t>(skewed) + static_cast<uint64_t>(by)) % size);
    raw.set(a.name, 0);
    raw.add(a.skewBase, base);
    if (static_cast<uint64_t>(raw.get(a.skewBase)) >= size) return std::nullopt;
  }
  for (const AxisInfo &a : axes) {
    if (a.padBase.empty()) continue;
    // B' = # l + B + # r: coordinate b' is B = b' - l, or padding outside B.
    int64_t b = raw.get(a.name) - static_cast<int64_t>(a.padLeft);
    if (b < 0 || static_cast<uint64_t>(b) >= a.padBaseSize) return std::nullopt;
    raw.set(a.name, 0);
    raw.add(a.padBase, b);
    if (raw.get(a.padBase) < 0 || static_cast<uint64_t>(raw.get(a.padBase)) >= a.padBaseSize) return std::nullopt;
  }
  return raw;
}

}  // namespace tcp

// DeviceIndex.cpp — axis spaces, key tables and key lookups of the CPU model.
#include "DeviceIndex.h"

#include "DeviceImpl.h"
#include "MappingEval.h"

#include <algorithm>
#include <cassert>

namespace tcp::interp {

namespace {
constexpr size_t kGrain = size_t(1) << 15;  // table entries per task of the device pool

// fn(begin, end) over rows [0, rows) of rowLen entries each, in tasks of about kGrain entries on the
// device pool (one call when the table is small).
template <class Fn>
void byRows(size_t rows, size_t rowLen, Fn fn) {
  const size_t per = std::max<size_t>(1, kGrain / std::max<size_t>(rowLen, 1));
  if (rows <= per) return fn(size_t(0), rows);
  DeviceImpl::parallelFor((rows + per - 1) / per, [&](size_t c) { fn(c * per, std::min(rows, (c + 1) * per)); });
}
}  // namespace

AxisSpace AxisSpace::of(const std::vector<MappingRef> &mappings) {
  AxisSpace s;
  std::vector<std::pair<std::string, uint64_t>> sized;
  for (const MappingRef &m : mappings) {
    if (!m) continue;
    for (const AxisInfo &a : m->axes()) {
      const std::string &name = a.baseName();
      bool seen = false;
      for (auto &e : sized) seen |= e.first == name;
      if (!seen) sized.emplace_back(name, a.baseSize());
    }
  }
  uint64_t stride = 1;
  s.axes_.resize(sized.size());
  s.sizes_.resize(sized.size());
  for (size_t i = sized.size(); i-- > 0;) {
    s.axes_[i] = {sized[i].first, stride};
    s.sizes_[i] = sized[i].second;
    if (sized[i].second != 0 && stride > (uint64_t(1) << 62) / sized[i].second)
      throw DeviceError{"the tensor indices of this operation have too many elements for the CPU model (over 2^62)"};
    stride *= sized[i].second;
  }
  s.volume_ = stride;
  return s;
}

int64_t AxisSpace::key(const Index &index) const {
  int64_t k = 0;
  for (const auto &[axis, coord] : index.entries())
    for (const auto &[name, stride] : axes_)
      if (name == axis) { k += coord * int64_t(stride); break; }
  return k;
}

int64_t AxisSpace::strideOf(const std::string &axis) const {
  for (const auto &[name, stride] : axes_)
    if (name == axis) return int64_t(stride);
  return 0;
}

int64_t AxisSpace::add(int64_t a, int64_t b) const {
  if (a < 0 || b < 0) return -1;
  for (size_t i = 0; i < axes_.size(); ++i) {
    uint64_t st = axes_[i].second, n = sizes_[i];
    if (n == 0) continue;
    if (uint64_t(a) / st % n + uint64_t(b) / st % n >= n) return -1;
  }
  return a + b;
}

std::vector<int64_t> keyTable(const MappingRef &m, const AxisSpace &space) {
  assert(m);
  if (std::optional<MappingEval> ev = MappingEval::of(m)) {  // integer digits, no Index per position
    const std::vector<int64_t> w = ev->weights([&](const std::string &axis) { return space.strideOf(axis); });
    std::vector<int64_t> keys(m->size());
    byRows(keys.size(), 1, [&](size_t b, size_t e) { ev->linearRange(w, b, e, keys.data() + b); });
    return keys;
  }
  std::vector<int64_t> keys(m->size(), -1);
  for (uint64_t i = 0; i < m->size(); ++i)
    if (auto idx = m->map(i)) keys[i] = space.key(*idx);
  return keys;
}

std::vector<int64_t> streamKeys(const MappingRef &time, const MappingRef &packet, const AxisSpace &space) {
  bool padded = false;
  for (const MappingRef &m : {time, packet})
    for (const AxisInfo &a : m->axes()) padded |= !a.padBase.empty();
  if (padded)
    if (MappingRef both = Mapping::pair(time, packet)) return keyTable(both, space);
  return combineKeys(keyTable(time, space), keyTable(packet, space), space);
}

std::vector<int64_t> combineKeys(const std::vector<int64_t> &a, const std::vector<int64_t> &b) {
  std::vector<int64_t> out(a.size() * b.size());
  byRows(a.size(), b.size(), [&](size_t r0, size_t r1) {
    for (size_t r = r0, k = r0 * b.size(); r < r1; ++r)
      for (int64_t y : b) out[k++] = (a[r] < 0 || y < 0) ? -1 : a[r] + y;
  });
  return out;
}

int64_t AxisSpace::addOn(int64_t a, int64_t b, uint64_t axes) const {
  if (a < 0 || b < 0) return -1;
  for (; axes; axes &= axes - 1) {
    size_t i = size_t(__builtin_ctzll(axes));
    uint64_t st = axes_[i].second, n = sizes_[i];
    if (n && uint64_t(a) / st % n + uint64_t(b) / st % n >= n) return -1;
  }
  return a + b;
}

uint64_t AxisSpace::axesUsed(const std::vector<int64_t> &keys) const {
  if (axes_.size() > 64) return ~uint64_t(0);
  // Only the axes not yet seen are tested, and the scan stops once every axis is: most tables use
  // all their axes within the first keys (a table of 2^19 keys took 4 ms when each tested every axis).
  uint64_t all = 0, used = 0;
  for (size_t i = 0; i < axes_.size(); ++i)
    if (sizes_[i]) all |= uint64_t(1) << i;
  for (int64_t k : keys) {
    if (k <= 0) continue;
    for (uint64_t rest = all & ~used; rest; rest &= rest - 1) {
      const unsigned i = unsigned(__builtin_ctzll(rest));
      if (uint64_t(k) / axes_[i].second % sizes_[i]) used |= uint64_t(1) << i;
    }
    if (used == all) break;
  }
  return used;
}

std::vector<int64_t> combineKeys(const std::vector<int64_t> &a, const std::vector<int64_t> &b, const AxisSpace &space) {
  // Only an axis both tables use can carry out of its range: plain sums when there is none, else
  // the carry check on the shared axes alone.
  uint64_t shared = space.axesUsed(a) & space.axesUsed(b);
  if (shared == 0) return combineKeys(a, b);
  std::vector<int64_t> out(a.size() * b.size());
  if (shared == ~uint64_t(0)) {
    byRows(a.size(), b.size(), [&](size_t r0, size_t r1) {
      for (size_t r = r0, k = r0 * b.size(); r < r1; ++r)
        for (int64_t y : b) out[k++] = space.add(a[r], y);
    });
    return out;
  }
  // addOn with b's digits on the shared axes computed once, not per pair (two divisions per axis).
  const std::vector<std::pair<uint64_t, uint64_t>> ax = space.digitsOf(shared);
  const size_t m = ax.size();
  std::vector<uint64_t> db(b.size() * m, 0);
  for (size_t j = 0; j < b.size(); ++j)
    for (size_t i = 0; i < m && b[j] >= 0; ++i) db[j * m + i] = uint64_t(b[j]) / ax[i].first % ax[i].second;
  byRows(a.size(), b.size(), [&](size_t r0, size_t r1) {
    std::vector<uint64_t> dx(m);
    for (size_t r = r0, k = r0 * b.size(); r < r1; ++r) {
      const int64_t x = a[r];
      for (size_t i = 0; i < m && x >= 0; ++i) dx[i] = uint64_t(x) / ax[i].first % ax[i].second;
      for (size_t j = 0; j < b.size(); ++j) {
        const int64_t y = b[j];
        bool ok = x >= 0 && y >= 0;
        for (size_t i = 0; i < m; ++i) ok &= dx[i] + db[j * m + i] < ax[i].second;
        out[k++] = ok ? x + y : -1;
      }
    }
  });
  return out;
}

std::vector<std::pair<uint64_t, uint64_t>> AxisSpace::digitsOf(uint64_t axes) const {
  std::vector<std::pair<uint64_t, uint64_t>> out;
  for (; axes; axes &= axes - 1) {
    size_t i = size_t(__builtin_ctzll(axes));
    if (sizes_[i]) out.emplace_back(axes_[i].second, sizes_[i]);
  }
  return out;
}

KeyIndex::KeyIndex(const std::vector<int64_t> &keys) {
  int64_t maxKey = -1;
  uint64_t used = 0;
  for (int64_t k : keys) {
    maxKey = k > maxKey ? k : maxKey;
    used |= k >= 0 ? uint64_t(k) : 0;
  }
  const uint64_t volume = uint64_t(maxKey + 1), room = 8 * keys.size() + 4096;
  const bool narrow = keys.size() < (uint64_t(1) << 31);  // positions fit the int32 table
  dense_ = narrow && volume <= (uint64_t(1) << 27) && volume <= room;
  if (dense_) {
    table_.assign(volume, -1);
    for (size_t i = keys.size(); i-- > 0;)
      if (keys[i] >= 0 && uint64_t(keys[i]) < volume) table_[keys[i]] = int32_t(i);
    return;
  }
  // The runs of set bits of `used`, lowest first, packed next to each other.
  const unsigned bits = unsigned(__builtin_popcountll(used));
  unsigned at = 0;
  for (uint64_t u = used; u && nRuns_ <= kMaxRuns;) {
    unsigned from = unsigned(__builtin_ctzll(u)), width = 0;
    while (from + width < 64 && (u >> (from + width) & 1)) ++width;
    if (nRuns_ < kMaxRuns) runs_[nRuns_] = {from, at, width == 64 ? ~uint64_t(0) : (uint64_t(1) << width) - 1};
    ++nRuns_;
    at += width;
    u &= width + from >= 64 ? 0 : ~uint64_t(0) << (from + width);
  }
  packed_ = narrow && nRuns_ <= kMaxRuns && bits <= 27 && (uint64_t(1) << bits) <= room;
  if (packed_) {
    used_ = used;
    table_.assign(size_t(1) << bits, -1);
    for (size_t i = keys.size(); i-- > 0;)
      if (keys[i] >= 0) table_[size_t(pack(uint64_t(keys[i])))] = int32_t(i);
    return;
  }
  nRuns_ = 0;
  // Open addressing, linear probing, at most half full; the first position of a key wins.
  uint64_t cap = 16;
  shift_ = 60;
  while (cap < 2 * keys.size()) cap *= 2, --shift_;
  mask_ = cap - 1;
  slots_.assign(cap, {-1, -1});
  for (size_t i = 0; i < keys.size(); ++i) {
    if (keys[i] < 0) continue;
    uint64_t h = slot(keys[i]);
    while (slots_[h].first >= 0 && slots_[h].first != keys[i]) h = (h + 1) & mask_;
    if (slots_[h].first < 0) slots_[h] = {keys[i], int64_t(i)};
  }
}

uint64_t KeyIndex::slot(int64_t key) const { return uint64_t(key) * 0x9E3779B97F4A7C15ull >> shift_; }  // Fibonacci hashing

std::vector<int64_t> KeyIndex::findAll(const std::vector<int64_t> &keys) const {
  std::vector<int64_t> pos(keys.size());
  byRows(keys.size(), 1, [&](size_t b, size_t e) {
    for (size_t i = b; i < e; ++i) pos[i] = find(keys[i]);
  });
  return pos;
}

std::vector<int64_t> KeyIndex::positions(const std::vector<int64_t> &keys, const std::vector<int64_t> &wanted) {
  std::vector<int64_t> pos(wanted.size());
  if (keys == wanted) {
    for (size_t i = 0; i < wanted.size(); ++i) pos[i] = wanted[i] >= 0 ? int64_t(i) : -1;
    return pos;
  }
  bool identity = true;
  for (size_t i = 0; i < keys.size() && identity; ++i) identity = keys[i] == int64_t(i);
  if (!identity) return KeyIndex(keys).findAll(wanted);
  for (size_t i = 0; i < wanted.size(); ++i) pos[i] = wanted[i] >= 0 && uint64_t(wanted[i]) < keys.size() ? wanted[i] : -1;
  return pos;
}

int64_t KeyIndex::findSparse(int64_t key) const {
  for (uint64_t h = slot(key);; h = (h + 1) & mask_) {
    if (slots_[h].first == key) return slots_[h].second;
    if (slots_[h].first < 0) return -1;
  }
}

}  // namespace tcp::interp

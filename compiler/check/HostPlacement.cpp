// HostPlacement.cpp — host elements against HBM positions: a small axis space of integer keys, compared exhaustively.
#include "HostPlacement.h"

#include "MappingEval.h"
#include "MappingNormalForm.h"

#include <algorithm>
#include <string>
#include <unordered_set>

namespace tcp {

std::vector<std::string> baseAxisNames(const MappingRef &m) {
  std::vector<std::string> out;
  for (const AxisInfo &a : m->axes())
    if (std::find(out.begin(), out.end(), a.baseName()) == out.end()) out.push_back(a.baseName());
  return out;
}

namespace {
// Mixed-radix keys over the base axes of some mappings (interp/DeviceIndex.h does the same for the
// CPU model).
struct KeySpace {
  std::vector<std::string> names;
  std::vector<uint64_t> sizes, strides;

  explicit KeySpace(const std::vector<MappingRef> &ms) {
    for (const MappingRef &m : ms)
      for (const AxisInfo &a : m->axes())
        if (std::find(names.begin(), names.end(), a.baseName()) == names.end()) {
          names.push_back(a.baseName());
          sizes.push_back(a.baseSize());
        }
    strides.assign(names.size(), 1);
    uint64_t s = 1;
    for (size_t i = names.size(); i-- > 0;) {
      strides[i] = s;
      uint64_t n = std::max<uint64_t>(sizes[i], 1);
      if (s > (uint64_t(1) << 62) / n) overflow = true;
      else s *= n;
    }
    volume = s;
  }
  uint64_t volume = 1;
  bool overflow = false;  // the index space does not fit 62 bits: no integer keys
  int64_t key(const Index &ix) const {
    int64_t k = 0;
    for (const auto &[axis, v] : ix.entries())
      for (size_t i = 0; i < names.size(); ++i)
        if (names[i] == axis) k += v * int64_t(strides[i]);
    return k;
  }
  // The positions in `names` of the base axes both mappings name: only there can a summed
  // coordinate leave its axis (elsewhere one side's coordinate is 0).
  std::vector<size_t> shared(const MappingRef &a, const MappingRef &b) const {
    std::vector<std::string> an = baseAxisNames(a), bn = baseAxisNames(b);
    std::vector<size_t> out;
    for (size_t i = 0; i < names.size(); ++i)
      if (std::find(an.begin(), an.end(), names[i]) != an.end() && std::find(bn.begin(), bn.end(), names[i]) != bn.end())
        out.push_back(i);
    return out;
  }
  // The key of the union of two partial indices; -1 when a summed coordinate of a `shared` axis
  // leaves it.
  int64_t add(int64_t a, int64_t b, const std::vector<size_t> &shared) const {
    if (a < 0 || b < 0) return -1;
    for (size_t i : shared) {
      uint64_t n = sizes[i];
      if (n && uint64_t(a) / strides[i] % n + uint64_t(b) / strides[i] % n >= n) return -1;
    }
    return a + b;
  }
  std::vector<int64_t> keys(const MappingRef &m) const {
    if (std::optional<MappingEval> ev = MappingEval::of(m))  // integer digits, no Index per position
      return ev->linear(ev->weights([&](const std::string &axis) {
        for (size_t i = 0; i < names.size(); ++i)
          if (names[i] == axis) return int64_t(strides[i]);
        return int64_t(0);
      }));
    std::vector<int64_t> out(m->size(), -1);
    for (uint64_t i = 0; i < m->size(); ++i)
      if (auto ix = m->map(i)) out[i] = key(*ix);
    return out;
  }
};

bool emptyChip(const MappingRef &chip) {
  if (chip->size() != 1) return false;
  auto ix = chip->map(0);
  return ix && ix->entries().empty();
}
}  // namespace

HostPlacement placeHost(const MappingRef &host, const MappingRef &chip, const MappingRef &element, uint64_t limit) {
  HostPlacement out;
  if (!host || !chip || !element) return out;
  if (emptyChip(chip) && (host->str() == element->str() || equivalent(host, element))) {
    out.decided = true;  // the same layout holds the same elements
    return out;
  }
  uint64_t hbm = chip->size(), e = element->size();
  if (e && hbm > limit / e) return out;
  hbm *= e;
  if (hbm > limit || host->size() > limit - hbm) return out;
  KeySpace space({host, chip, element});
  if (space.overflow) return out;
  std::vector<int64_t> ck = space.keys(chip), ek = space.keys(element);
  // The keys HBM holds: a bitmap over the space when it is small, else a hash set.
  const bool dense = space.volume <= (uint64_t(1) << 28);
  std::vector<bool> heldBits(dense ? space.volume : 0, false);
  std::unordered_set<int64_t> held;
  if (!dense) held.reserve(hbm);
  const std::vector<size_t> shared = space.shared(chip, element);
  for (int64_t c : ck)
    for (int64_t x : ek)
      if (int64_t k = space.add(c, x, shared); k >= 0) {
        if (dense) heldBits[uint64_t(k)] = true;
        else held.insert(k);
      }
  out.decided = true;
  std::vector<int64_t> hk = space.keys(host);
  for (uint64_t i = 0; i < hk.size(); ++i) {
    if (hk[i] < 0) continue;
    if (dense ? !heldBits[uint64_t(hk[i])] : !held.count(hk[i])) {
      out.missing = *host->map(i);
      return out;
    }
  }
  return out;
}

}  // namespace tcp

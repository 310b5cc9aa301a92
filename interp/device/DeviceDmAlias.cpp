// DeviceDmAlias.cpp — broadcast DM ranges held once: which slice's DM a read resolves to, and copying an alias out before a write.
#include "DeviceImpl.h"

#include <algorithm>
#include <cassert>
#include <cstring>
#include <string_view>
#include <unordered_map>

namespace tcp::interp {

namespace {
constexpr uint64_t kSliceCount = uint64_t(kClusters) * kSlicesPerCluster;
}

const uint8_t *DeviceImpl::dmReadBase(size_t id, uint64_t lo, uint64_t hi) {
  const unsigned chip = unsigned(id / kSliceCount);
  const size_t local = id % kSliceCount;
  if (hi <= lo) return slices[id].dmData();
  for (const DmAlias &a : dmAliases) {
    if (a.hi <= lo || hi <= a.lo) continue;
    assert(a.lo <= lo && hi <= a.hi && "a read of part of an alias is unaliased first (unaliasDm)");
    if (std::find(a.chips.begin(), a.chips.end(), chip) == a.chips.end()) continue;
    if (a.inHbm(uint32_t(local))) {
      const uint8_t *at = hbm[chip].span(a.hbmAt[a.owner[local]], a.hi - a.lo);
      assert(at && "an alias is read in place only from HBM bytes that exist (dmaReplay, unaliasHbm)");
      return at - a.lo;
    }
    return slices[size_t(chip) * kSliceCount + a.owner[local]].dmData();
  }
  return slices[id].dmData();
}

void DeviceImpl::unaliasHbm(unsigned chip, uint64_t lo, uint64_t hi) {
  unaliasHbmWhere(chip, [&](uint64_t at, uint64_t end) { return at < hi && lo < end; });
}

void DeviceImpl::unaliasHbm(unsigned chip, const std::vector<uint64_t> &pages) {
  assert(std::is_sorted(pages.begin(), pages.end()));
  unaliasHbmWhere(chip, [&](uint64_t at, uint64_t end) {  // a page of [at, end) in the list
    auto it = std::lower_bound(pages.begin(), pages.end(), at / kHbmPageBytes);
    return it != pages.end() && *it <= (end - 1) / kHbmPageBytes;
  });
}

void DeviceImpl::unaliasHbmWhere(unsigned chip, const std::function<bool(uint64_t, uint64_t)> &written) {
  for (DmAlias &a : dmAliases) {
    if (a.hbmAt.empty() || (chip != kAllChips && std::find(a.chips.begin(), a.chips.end(), chip) == a.chips.end()))
      continue;
    const uint64_t bytes = a.hi - a.lo;
    std::vector<uint32_t> owners;  // read in place from bytes about to be written
    for (uint32_t s = 0; s < a.owner.size(); ++s)
      if (a.owner[s] == s && a.hbmAt[s] != DmAlias::kInDm && (chip == kAllChips || written(a.hbmAt[s], a.hbmAt[s] + bytes)))
        owners.push_back(s);
    std::vector<std::pair<unsigned, uint32_t>> copies;
    for (unsigned c : a.chips)
      for (uint32_t s : owners) copies.emplace_back(c, s);
    parallelFor(copies.size(), [&](size_t i) {
      const auto [c, s] = copies[i];
      std::memcpy(slices[size_t(c) * kSliceCount + s].dmData() + a.lo, hbm[c].span(a.hbmAt[s], bytes), bytes);
    });
    for (uint32_t s : owners) a.hbmAt[s] = DmAlias::kInDm;
  }
}

void DeviceImpl::unaliasDm(uint64_t lo, uint64_t hi, bool forRead, const std::vector<uint8_t> *rewritten,
                           const std::vector<unsigned> *rewrittenChips) {
  if (hi <= lo) return;
  for (size_t k = 0; k < dmAliases.size();) {
    const DmAlias &a = dmAliases[k];
    if (a.hi <= lo || hi <= a.lo || (forRead && a.lo <= lo && hi <= a.hi)) {
      ++k;
      continue;
    }
    // Copied out slice by slice on the pool (the owners are only read; each reader writes its own DM);
    // an owner read in place from HBM takes its bytes too.
    const bool inside = lo <= a.lo && a.hi <= hi;
    std::vector<std::pair<unsigned, uint32_t>> copies;
    for (unsigned c : a.chips) {
      const bool rewrites = inside && rewritten && rewrittenChips &&
                            std::find(rewrittenChips->begin(), rewrittenChips->end(), c) != rewrittenChips->end();
      for (uint32_t s = 0; s < a.owner.size(); ++s)
        if ((a.owner[s] != s || a.inHbm(s)) && c < slices.chipsReserved() && !(rewrites && (*rewritten)[s]))
          copies.emplace_back(c, s);
    }
    const uint64_t from = a.lo, bytes = a.hi - a.lo;
    parallelFor(copies.size(), [&](size_t i) {
      const auto [c, s] = copies[i];
      const size_t base = size_t(c) * kSliceCount;
      const uint8_t *src = a.inHbm(s) ? hbm[c].span(a.hbmAt[a.owner[s]], bytes) : slices[base + a.owner[s]].dmData() + from;
      std::memcpy(slices[base + s].dmData() + from, src, bytes);
    });
    dmAliases.erase(dmAliases.begin() + long(k));
  }
}

size_t DeviceImpl::trfReadSlice(size_t id, const TrfSpan &r) const {
  for (const TrfAlias &a : trfAliases)
    if (a.region.overlaps(r)) {
      assert(a.region.contains(r) && "a read of part of a TRF alias is unaliased first (unaliasTrf)");
      return id < a.owner.size() ? a.owner[id] : id;
    }
  return id;
}

void DeviceImpl::unaliasTrf(const TrfSpan &r, bool forRead, const std::vector<uint8_t> *rewritten) {
  for (size_t k = 0; k < trfAliases.size();) {
    const TrfAlias &a = trfAliases[k];
    if (!a.region.overlaps(r) || (forRead && a.region.contains(r))) {
      ++k;
      continue;
    }
    const bool whole = r.contains(a.region);  // a write of r rewrites the alias' region in the slices it runs on
    std::vector<uint32_t> readers;
    for (uint32_t id = 0; id < a.owner.size() && id < slices.size(); ++id)
      if (a.owner[id] != id && !(whole && rewritten && id < rewritten->size() && (*rewritten)[id])) readers.push_back(id);
    const TrfSpan g = a.region;
    parallelFor(readers.size(), [&](size_t i) {
      const uint32_t id = readers[i];
      for (size_t row = 0; row < g.rows; ++row)
        std::memcpy(slices[id].trfData() + row * kTrfRowBytes + g.lo,
                    slices[a.owner[id]].trfData() + row * kTrfRowBytes + g.lo, g.hi - g.lo);
    });
    trfAliases.erase(trfAliases.begin() + long(k));
  }
}

std::vector<uint8_t> wholeWrites(const std::vector<DmStep> &steps, uint64_t n, uint64_t lo, uint64_t hi) {
  std::vector<std::vector<uint64_t>> offs(kSliceCount);
  for (const DmStep &st : steps)
    if (st.slice < kSliceCount) offs[st.slice].push_back(st.off);
  std::vector<uint8_t> whole(kSliceCount, 0);
  for (size_t s = 0; s < kSliceCount && n > 0 && lo < hi; ++s) {
    std::vector<uint64_t> &o = offs[s];
    if (o.size() != (hi - lo) / n || (hi - lo) % n) continue;
    std::sort(o.begin(), o.end());
    bool ok = true;
    for (size_t k = 0; k < o.size() && ok; ++k) ok = o[k] == lo + k * n;
    whole[s] = ok;
  }
  return whole;
}

std::optional<DmAlias> broadcastAlias(const std::vector<DmStep> &steps, uint64_t n) {
  if (steps.empty() || n == 0) return std::nullopt;
  // Each slice's steps in order (a stable bucketing by slice).
  std::vector<size_t> first(kSliceCount + 1, 0);
  for (const DmStep &st : steps) {
    if (st.slice >= kSliceCount) return std::nullopt;
    ++first[st.slice + 1];
  }
  for (size_t s = 0; s < kSliceCount; ++s) first[s + 1] += first[s];
  std::vector<std::pair<uint64_t, uint64_t>> seq(steps.size());  // (source, DM offset)
  {
    std::vector<size_t> at(first.begin(), first.end() - 1);
    for (const DmStep &st : steps) seq[at[st.slice]++] = {st.src, st.off};
  }
  auto bytesOf = [&](size_t s) {
    return std::string_view(reinterpret_cast<const char *>(seq.data() + first[s]),
                            (first[s + 1] - first[s]) * sizeof(seq[0]));
  };
  DmAlias a;
  a.owner.resize(kSliceCount);
  a.hbmAt.assign(kSliceCount, DmAlias::kInDm);
  bool shared = false, haveRange = false;
  std::unordered_map<size_t, std::vector<uint32_t>> reps;  // hash of a sequence -> slices holding it
  for (uint32_t s = 0; s < kSliceCount; ++s) {
    a.owner[s] = s;
    if (first[s] == first[s + 1]) continue;
    const std::string_view mine = bytesOf(s);
    std::vector<uint32_t> &bucket = reps[std::hash<std::string_view>{}(mine)];
    auto same = std::find_if(bucket.begin(), bucket.end(), [&](uint32_t r) { return bytesOf(r) == mine; });
    if (same != bucket.end()) {
      a.owner[s] = *same;
      shared = true;
      continue;
    }
    bucket.push_back(s);
    // A slice holding its own bytes: its steps cover one range exactly, the same range for every slice
    // (else a reader's bytes outside the steps would come from the owner's DM).
    std::vector<uint64_t> offs;
    offs.reserve(first[s + 1] - first[s]);
    for (size_t k = first[s]; k < first[s + 1]; ++k) offs.push_back(seq[k].second);
    std::sort(offs.begin(), offs.end());
    for (size_t k = 1; k < offs.size(); ++k)
      if (offs[k] != offs[k - 1] + n) return std::nullopt;
    const uint64_t lo = offs.front(), hi = offs.back() + n;
    if (haveRange && (lo != a.lo || hi != a.hi)) return std::nullopt;
    a.lo = lo, a.hi = hi, haveRange = true;
    // One run of the source in order: every step's source less its offset the same.
    const uint64_t shift = seq[first[s]].first - seq[first[s]].second;
    bool run = true;
    for (size_t k = first[s]; k < first[s + 1] && run; ++k) run = seq[k].first - seq[k].second == shift;
    if (run) a.hbmAt[s] = shift + lo;
  }
  if (!shared) return std::nullopt;
  return a;
}

}  // namespace tcp::interp

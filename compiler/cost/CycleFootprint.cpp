// CycleFootprint.cpp — per-slice DM/TRF/VRF footprint at each operation (and its peak) from the liveness of written ranges.
#include "CycleModel.h"

#include <algorithm>

namespace tcp {

std::vector<std::map<MemTier, uint64_t>> liveFootprint(const std::vector<OpCost> &ops) {
  // A written range is live from its writer to the last op that reads it before an op writes an
  // overlapping range again; a range nothing reads stays live to the end (kernel results).
  struct Live {
    MemRange range;
    size_t from, to;
  };
  std::vector<Live> lives;
  for (size_t i = 0; i < ops.size(); ++i) {
    for (const MemRange &w : ops[i].writes) {
      if (w.whole || w.tier == MemTier::Hbm) continue;
      size_t last = i;
      bool read = false;
      for (size_t j = i + 1; j < ops.size(); ++j) {
        for (const MemRange &r : ops[j].reads)
          if (overlaps(r, w)) last = j, read = true;
        bool rewritten = false;
        for (const MemRange &w2 : ops[j].writes)
          if (overlaps(w2, w)) rewritten = true;
        if (rewritten) break;
      }
      lives.push_back({w, i, read ? last : ops.size()});
    }
  }
  std::vector<std::map<MemTier, uint64_t>> live(ops.size() + 1);
  for (size_t k = 0; k <= ops.size(); ++k) {
    for (MemTier t : {MemTier::Dm, MemTier::Trf, MemTier::Vrf}) {
      std::vector<std::pair<uint64_t, uint64_t>> iv;
      for (const Live &l : lives)
        if (l.range.tier == t && l.from <= k && k <= l.to) iv.push_back({l.range.begin, l.range.end});
      std::sort(iv.begin(), iv.end());
      uint64_t total = 0, curB = 0, curE = 0;
      bool open = false;
      for (auto [b, e] : iv) {
        if (open && b <= curE) {
          curE = std::max(curE, e);
          continue;
        }
        if (open) total += curE - curB;
        curB = b, curE = e, open = true;
      }
      if (open) total += curE - curB;
      live[k][t] = total;
    }
  }
  return live;
}

std::map<MemTier, uint64_t> peakFootprint(const std::vector<OpCost> &ops) {
  std::map<MemTier, uint64_t> peak;
  for (MemTier t : {MemTier::Dm, MemTier::Trf, MemTier::Vrf}) peak[t] = 0;
  for (const auto &at : liveFootprint(ops))
    for (const auto &[t, b] : at) peak[t] = std::max(peak[t], b);
  return peak;
}

}  // namespace tcp

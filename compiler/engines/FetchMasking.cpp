// FetchMasking.cpp — which lanes of each fetched packet are padding, expressed as the adapter's masking registers.
#include "FetchMasking.h"

#include "MappingEval.h"

#include <algorithm>
#include <map>

namespace tcp {

namespace {
struct PacketMask {
  uint64_t left = 0, count = 0;  // lanes [left, count) are valid
  bool operator==(const PacketMask &o) const { return left == o.left && count == o.count; }
  bool operator!=(const PacketMask &o) const { return !(*this == o); }
};
}  // namespace

MaskPlan planMasking(const SeqConfig &config, const MappingRef &time, const MappingRef &packet) {
  MaskPlan plan;
  MappingRef all = time && packet ? Mapping::pair(time, packet) : nullptr;
  if (!all || config.entries.empty()) return plan;
  const uint64_t lanes = config.packetSpan(), total = all->size();
  std::vector<size_t> outer;  // indices of the entries outside the packet, outermost first
  uint64_t outerSteps = 1;
  for (size_t i = 0; i < config.entries.size(); ++i)
    if (!config.entries[i].packet) {
      outer.push_back(i);
      outerSteps *= config.entries[i].size;
    }
  if (lanes == 0 || outerSteps * lanes != total || total > (uint64_t(1) << 26)) return plan;
  plan.packetLanes = lanes;
  std::vector<PacketMask> masks(outerSteps);
  // Which lanes hold elements: by integer digits (MappingEval, packets a chunk at a time; -1 marks
  // padding) when the mapping has them, else Mapping::map lane by lane.
  std::optional<MappingEval> ev = MappingEval::of(all);
  const std::vector<int64_t> noWeight(ev ? ev->axes().size() : 0, 0);
  const uint64_t chunkRows = std::max<uint64_t>(1, (uint64_t(1) << 16) / lanes);
  std::vector<int64_t> chunk(ev ? chunkRows * lanes : 0);
  for (uint64_t o = 0; o < outerSteps; ++o) {
    PacketMask m;
    bool seenValid = false, seenGap = false;
    if (ev && o % chunkRows == 0) ev->linearRange(noWeight, o * lanes, (o + chunkRows) * lanes, chunk.data());
    const int64_t *row = ev ? chunk.data() + (o % chunkRows) * lanes : nullptr;
    for (uint64_t l = 0; l < lanes; ++l) {
      bool valid = ev ? row[l] >= 0 : all->map(o * lanes + l).has_value();
      if (valid && seenGap) {
        plan.needed = true;
        plan.error = "packet " + std::to_string(o) + " has padding lanes between its elements; masking pads only the "
                     "ends of the innermost axis (`# n + A + # m`)";
        return plan;
      }
      if (valid && !seenValid) m.left = l;
      if (valid) m.count = l + 1;
      if (!valid && seenValid) seenGap = true;
      seenValid |= valid;
    }
    if (!seenValid) m.left = m.count = 0;
    if (m.left != 0 || m.count != lanes) plan.needed = true;
    masks[o] = m;
  }
  if (!plan.needed) return plan;
  const size_t packetEntry = config.entries.size() - 1;
  auto single = [&](size_t dim, uint64_t left, uint64_t count) {
    plan.lastDim = dim;
    plan.leftPad = left;
    plan.validCounts = {count};
    return plan;
  };
  bool constant = true;
  for (const PacketMask &m : masks) constant &= m == masks[0];
  if (constant) return single(packetEntry, masks[0].left, masks[0].count);
  // Find the one outer entry whose counter decides the mask (innermost first).
  const PacketMask full{0, lanes};
  for (size_t k = outer.size(); k-- > 0;) {
    uint64_t inner = 1;
    for (size_t j = k + 1; j < outer.size(); ++j) inner *= config.entries[outer[j]].size;
    const uint64_t n = config.entries[outer[k]].size;
    std::map<uint64_t, PacketMask> byCounter;
    bool depends = true;
    for (uint64_t o = 0; o < outerSteps && depends; ++o) {
      uint64_t c = o / inner % n;
      auto [it, fresh] = byCounter.emplace(c, masks[o]);
      depends = fresh || it->second == masks[o];
    }
    if (!depends) continue;
    // Cases 1 and 2: a left pad at the first value, a right mask at the last, full packets between.
    bool middleFull = true;
    for (uint64_t c = 1; c + 1 < n; ++c) middleFull &= byCounter[c] == full;
    const PacketMask first = byCounter[0], last = byCounter[n - 1];
    if (middleFull && n >= 2 && first.count == lanes && last.left == 0) return single(outer[k], first.left, last.count);
    bool noLeft = true;
    for (auto &[c, m] : byCounter) noLeft &= m.left == 0;
    if (noLeft && n <= 8) {
      plan.perIndex = true;
      plan.countDim = outer[k];
      plan.lastDim = packetEntry;
      for (uint64_t c = 0; c < n; ++c) plan.validCounts.push_back(byCounter[c].count);
      return plan;
    }
    plan.error = "the valid lanes depend on entry " + std::to_string(outer[k]) + " (`" + config.entries[outer[k]].term +
                 "`, " + std::to_string(n) + " values) in a way the masking registers cannot express (a left pad at " +
                 "its first value and a right mask at its last, or one count per value for at most 8 values)";
    return plan;
  }
  plan.error = "the valid lanes of a packet depend on more than one configuration entry; masking follows one entry (`last_dim`)";
  return plan;
}

}  // namespace tcp

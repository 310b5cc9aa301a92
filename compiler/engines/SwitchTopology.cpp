// SwitchTopology.cpp — the Switch Engine's ring routing: snoop acceptance, the root's emission order per ring, bitmaps for printing.
#include "SwitchTopology.h"

#include <algorithm>
#include <cassert>

namespace tcp {

const char *topologyName(SwitchTopology t) {
  switch (t) {
    case SwitchTopology::Forwarding: return "Forwarding";
    case SwitchTopology::Broadcast01: return "Broadcast01";
    case SwitchTopology::Broadcast1: return "Broadcast1";
    case SwitchTopology::Transpose: return "Transpose";
    case SwitchTopology::InterTranspose: return "InterTranspose";
    case SwitchTopology::CustomBroadcast: return "CustomBroadcast";
  }
  return "?";
}

uint64_t SwitchPlan::param(const std::string &name) const {
  for (const auto &[k, v] : params)
    if (k == name) return v;
  return 0;
}

bool SwitchPlan::accepts(uint64_t o, uint64_t s, uint64_t t) const {
  if (o >= bitmaps.size()) return false;
  const std::vector<uint32_t> &b = bitmaps[o];
  if (!std::binary_search(b.begin(), b.end(), uint32_t(s))) return false;
  if (topology == SwitchTopology::InterTranspose) {
    // Output Slice [slice2, time1, slice0]: slice o takes the input time steps whose time1 digit is its own.
    uint64_t s0 = param("slice0"), t1 = param("time1"), t0 = param("time0");
    return (t / t0) % t1 == (o / s0) % t1;
  }
  return true;
}

std::vector<std::pair<uint32_t, uint64_t>> SwitchPlan::emissions(uint64_t group) const {
  std::vector<std::pair<uint32_t, uint64_t>> out;
  out.reserve(ringSize * inTime);
  const uint32_t base = uint32_t(group * ringSize);
  const uint64_t s1 = param("slice1"), s0 = param("slice0"), t0 = param("time0");
  switch (topology) {
    case SwitchTopology::Broadcast01:
      // Output Time [time1, slice1, time0, slice0]: the ring's slices take turns inside each time0 step.
      for (uint64_t u1 = 0; u1 < param("time1"); ++u1)
        for (uint64_t k1 = 0; k1 < s1; ++k1)
          for (uint64_t u0 = 0; u0 < t0; ++u0)
            for (uint64_t k0 = 0; k0 < s0; ++k0) out.push_back({uint32_t(base + k1 * s0 + k0), u1 * t0 + u0});
      break;
    case SwitchTopology::InterTranspose: {
      // Output Time [time2, time0, slice1]; the time1 digit selects the receiving slice.
      const uint64_t t1 = param("time1");
      for (uint64_t u2 = 0; u2 < param("time2"); ++u2)
        for (uint64_t u0 = 0; u0 < t0; ++u0)
          for (uint64_t k = 0; k < s1; ++k)
            for (uint64_t j = 0; j < t1; ++j)
              for (uint64_t a0 = 0; a0 < s0; ++a0) out.push_back({uint32_t(base + k * s0 + a0), (u2 * t1 + j) * t0 + u0});
      break;
    }
    default:
      // Forwarding, Broadcast1 (output Time [time0, slice1]), Transpose, custom bitmaps: every input
      // time step, the ring's slices in ring order.
      for (uint64_t t = 0; t < inTime; ++t)
        for (uint64_t k = 0; k < ringSize; ++k) out.push_back({uint32_t(base + k), t});
      break;
  }
  assert(out.size() == ringSize * inTime);
  return out;
}

uint64_t SwitchPlan::cycles(uint64_t packetBytes) const {
  uint64_t perPacket = std::max<uint64_t>((packetBytes + 31) / 32, 1);
  return ringSize * inTime * perPacket;
}

uint64_t requiredRingSize(const std::vector<std::vector<uint32_t>> &bitmaps) {
  uint64_t ring = 1;
  while (ring < bitmaps.size()) {
    bool ok = true;
    for (size_t o = 0; o < bitmaps.size() && ok; ++o)
      for (uint32_t s : bitmaps[o])
        if (s / ring != o / ring) {
          ok = false;
          break;
        }
    if (ok) break;
    ring *= 2;
  }
  return ring;
}

namespace {
// `{0, 1, 16, 17}`; a run of more than four consecutive slices prints as `a..b`.
std::string setText(const std::vector<uint32_t> &b) {
  std::string s = "{";
  for (size_t i = 0; i < b.size();) {
    size_t e = i;
    while (e + 1 < b.size() && b[e + 1] == b[e] + 1) ++e;
    s += (i ? ", " : "");
    if (e - i >= 4) {
      s += std::to_string(b[i]) + ".." + std::to_string(b[e]);
      i = e + 1;
    } else {
      s += std::to_string(b[i]);
      ++i;
    }
  }
  return s + "}";
}

std::string rangeKey(size_t from, size_t to) {
  return "bitmap[" + std::to_string(from) + (to > from ? ".." + std::to_string(to) : "") + "]";
}
}  // namespace

std::vector<std::pair<std::string, std::string>> bitmapLines(const std::vector<std::vector<uint32_t>> &bm, uint64_t ring) {
  // Every ring repeats the first one, shifted by its base: print the first ring only.
  bool periodic = ring < bm.size();
  for (size_t o = ring; o < bm.size() && periodic; ++o) {
    const auto &a = bm[o], &b = bm[o % ring];
    if (a.size() != b.size()) periodic = false;
    for (size_t i = 0; periodic && i < a.size(); ++i)
      if (a[i] != b[i] + (o / ring) * ring) periodic = false;
  }
  std::vector<std::pair<std::string, std::string>> out;
  if (periodic && ring == 1 && !bm.empty() && bm[0] == std::vector<uint32_t>{0}) {
    out.push_back({"bitmap[o]", "{o} (no inter-slice communication)"});
    return out;
  }
  size_t shown = periodic ? ring : bm.size();
  for (size_t o = 0; o < shown;) {
    size_t e = o;
    while (e + 1 < shown && bm[e + 1] == bm[o]) ++e;
    out.push_back({rangeKey(o, e), setText(bm[o])});
    o = e + 1;
  }
  if (periodic) {
    std::string r = std::to_string(ring);
    out.push_back({"bitmap[o + " + r + "]", "bitmap[o] + " + r + " (every ring of " + r + " slices)"});
  }
  return out;
}

}  // namespace tcp

// DmaChips.cpp — DMA transfers across chips: chip-strided and whole-chip routes (shuffles, gathers, broadcasts), placement check, PCIe bytes sent and received.
#include "DmaChips.h"

#include "MappingNormalForm.h"
#include "DmaPlanDetail.h"
#include "Sequencer.h"

#include <algorithm>
#include <cstdlib>
#include <set>

namespace tcp {

std::string hbmStrideText(DmaMedia m, int64_t stride, unsigned bits, const std::string &times) {
  int64_t chip = int64_t(chipspace::kChipStride * 8 / bits);
  if (m != DmaMedia::Hbm || stride == 0 || std::abs(stride) < chip) return std::to_string(stride);
  int64_t sign = stride < 0 ? -1 : 1, a = stride * sign, k = a / chip, rest = a % chip;
  std::string s = (sign < 0 ? "-" : "") + std::string(k == 1 ? "" : std::to_string(k) + times) + "chip_stride";
  return rest ? "(" + s + " + " + std::to_string(rest) + ")" : s;
}

std::string hbmBaseText(int64_t bytes) {
  if (bytes < int64_t(chipspace::kChipStride)) return std::to_string(bytes);
  uint64_t u = uint64_t(bytes);
  return "HBM(" + std::to_string(u / chipspace::kChipStride) + ")@" + std::to_string(u % chipspace::kChipStride);
}

bool dmaCrossesChips(const TensorType &in, const TensorType &out) {
  if (!in.chip || !out.chip) return false;
  return !equivalent(normalize(in.chip), normalize(out.chip));
}

MappingRef chipBuffer(const TensorType &out) { return Mapping::pair(out.chip, out.element); }

int64_t toChipSpace(const TensorType &out, unsigned bits, int64_t stride) {
  if (stride == 0) return 0;
  int64_t e = int64_t(out.element->size()), space = int64_t(chipspace::kChipStride * 8 / bits);
  int64_t sign = stride < 0 ? -1 : 1, a = stride * sign;
  return sign * ((a / e) * space + a % e);
}

namespace {

// The offset (elements) of every position of `chips` in `buf`: the chip mapping walked as a stream
// over the buffer (entries of a chip axis the buffer lacks have stride 0). nullopt when the
// positions do not fall at regular offsets.
std::optional<std::vector<int64_t>> chipOffsets(const MappingRef &buf, const MappingRef &chips) {
  uint64_t n = chips->size();
  std::vector<int64_t> out(n, 0);
  if (chips->axes().empty()) return out;
  SeqOptions o;
  o.use = SeqUse::Fetch;
  o.maxEntries = 64;
  SeqResult r = derive(buf, chips, Mapping::identity(), 8, o);
  if (!r.diagnostics.empty() || !r.config) return std::nullopt;
  uint64_t product = 1;
  for (const SeqEntry &s : r.initial) product *= s.size;
  if (product != n) return std::nullopt;
  for (uint64_t c = 0; c < n; ++c) {
    int64_t off = 0;
    uint64_t d = c;
    for (size_t k = r.initial.size(); k-- > 0;) {
      off += int64_t(d % r.initial[k].size) * r.initial[k].stride;
      d /= r.initial[k].size;
    }
    out[c] = off;
  }
  return out;
}

bool names(const MappingRef &m, const std::string &axis) {
  if (!m) return false;
  for (const AxisInfo &a : m->axes())
    if (a.baseName() == axis || a.name == axis) return true;
  return false;
}

std::string chipList(const std::set<uint64_t> &s) {
  std::string out;
  for (uint64_t c : s) out += (out.empty() ? "" : ", ") + std::to_string(c);
  return (s.size() == 1 ? "chip " : "chips ") + out;
}

}  // namespace

std::optional<std::vector<DmaRoute>> chipStridedRoutes(const TensorType &in, const TensorType &out, unsigned bits) {
  auto offsets = chipOffsets(chipBuffer(out), in.chip);
  if (!offsets) return std::nullopt;
  std::vector<DmaRoute> routes;
  for (uint64_t c = 0; c < in.chip->size(); ++c)
    if (in.chip->map(c)) routes.push_back({unsigned(c), toChipSpace(out, bits, (*offsets)[c]) * int64_t(bits) / 8});
  return routes;
}

bool chipStreamed(const TensorType &out, const MappingRef &time, const MappingRef &packet) {
  if (!out.chip) return false;
  for (const AxisInfo &a : out.chip->axes())
    if (names(time, a.baseName()) || names(packet, a.baseName())) return true;
  return false;
}

ChipRoutes wholeChipRoutes(const TensorType &in, const TensorType &out, const MappingRef &outBuf, unsigned bits) {
  ChipRoutes r;
  const std::string rule = " (\"DMA Engine\" > Inter-Chip Transfers)";
  // A destination Chip axis must lie on chips alone: split with the Element it would need a
  // chip-strided write the stream does not drive.
  for (const AxisInfo &a : out.chip->axes())
    if (names(out.element, a.baseName()) || (out.tier == Tier::Dm && (names(out.slice, a.baseName()) || names(out.cluster, a.baseName())))) {
      r.problem = "DMA across chips: the destination's `Chip` mapping `" + out.chip->body() + "` splits axis `" +
                  a.baseName() + "` between chips and the element; a write to whole chips needs each Chip axis on chips "
                  "alone (not supported yet)" + rule;
      return r;
    }
  if (out.tier == Tier::Dm)
    for (const AxisInfo &a : in.chip->axes())
      if (names(out.slice, a.baseName()) || names(out.cluster, a.baseName())) {
        r.problem = "DMA across chips: the source's chip axis `" + a.baseName() + "` lands on the slices of the DM "
                    "destination; spreading chips over slices is not supported yet" + rule;
        return r;
      }
  auto offsets = chipOffsets(outBuf, in.chip);
  if (!offsets) {
    r.problem = "DMA across chips: the source Chip mapping `" + in.chip->body() +
                "` does not place its chips at regular offsets of the destination's element `" + outBuf->body() +
                "` (not supported yet)" + rule;
    return r;
  }
  int64_t toBytes = int64_t(bits);
  for (uint64_t c = 0; c < in.chip->size(); ++c) {
    std::optional<Index> from = in.chip->map(c);
    if (!from) continue;
    for (uint64_t k = 0; k < out.chip->size(); ++k) {
      std::optional<Index> to = out.chip->map(k);
      if (!to) continue;
      bool match = true;
      for (const AxisInfo &a : out.chip->axes())
        if (names(in.chip, a.baseName())) match = match && from->get(a.name) == to->get(a.name);
      if (!match) continue;
      int64_t elem = dmaplan::toSliceSpace(out, bits, (*offsets)[c]) * toBytes / 8;
      r.routes.push_back({unsigned(c), int64_t(k * chipspace::kChipStride) + elem});
    }
  }
  return r;
}

std::optional<std::string> chipPlacementProblem(const DmaPlan &plan, const TensorType &out) {
  if (!plan.crossChip || !out.chip) return std::nullopt;
  std::set<uint64_t> held, written, sources, routed;
  for (uint64_t p = 0; p < out.chip->size(); ++p)
    if (out.chip->map(p)) held.insert(p);
  PcieTraffic t = pcieTraffic(plan, unsigned(std::max<uint64_t>(out.chip->size(), plan.chips)));
  for (size_t i = 0; i < plan.routes.size(); ++i) {
    routed.insert(plan.routes[i].chip);
    written.insert(t.routeChips[i].begin(), t.routeChips[i].end());
  }
  if (held == written) return std::nullopt;
  return "DMA across chips: the destination's `Chip` mapping `" + out.chip->body() + "` holds the data on " +
         chipList(held) + ", but the transfer writes " + chipList(written) +
         " (\"DMA Engine\" > Inter-Chip Transfers)";
}

PcieTraffic pcieTraffic(const DmaPlan &plan, unsigned chips) {
  PcieTraffic t;
  unsigned n = chips;
  for (const DmaRoute &r : plan.routes) n = std::max(n, r.chip + 1);
  t.sent.assign(n, 0);
  t.received.assign(n, 0);
  for (const DmaRoute &r : plan.routes) {
    uint64_t bytes = 0;
    std::set<uint64_t> to;
    for (const DmaEngineWork &w : plan.engines)
      for (const DmaCommand &cmd : w.commands)
        cmd.forEachStep(plan.elemBits, [&](uint64_t, uint64_t d) {
          uint64_t k = (d + uint64_t(r.writeBase)) / chipspace::kChipStride;
          to.insert(k);
          if (k != r.chip) {
            bytes += plan.shared.stride0;
            if (k >= t.received.size()) t.received.resize(k + 1, 0), t.sent.resize(k + 1, 0);
            t.received[k] += plan.shared.stride0;
          }
        });
    t.sent[r.chip] += bytes;
    t.perRoute.push_back(bytes);
    t.routeChips.emplace_back(to.begin(), to.end());
  }
  return t;
}

}  // namespace tcp

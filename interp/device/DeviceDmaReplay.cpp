// DeviceDmaReplay.cpp — runs a DMA by replaying its derived sequencers: one scan of the steps (DM ranges, HBM pages, whether engines may run in parallel), then HBM to DM on the pool with broadcasts held once, or every route's steps one by one.
#include "DeviceImpl.h"
#include "DmaChips.h"

#include <algorithm>
#include <cstring>
#include <unordered_map>

namespace tcp::interp {

namespace {
constexpr uint64_t kSliceCount = uint64_t(kClusters) * kSlicesPerCluster;

// The slice (in its chip) and the byte in its DM of a DM address; nullopt-like (slice >= kSliceCount)
// for a step outside DM, which the replay reports.
struct DmPlace {
  uint64_t slice, off;
  bool in(uint64_t n) const { return slice < kSliceCount && off + n <= kDmBytes && n > 0; }
};
DmPlace dmPlace(uint64_t a) { return {a / dmspace::kSliceStride, a % dmspace::kSliceStride}; }

// What one walk over a DMA's steps finds before any byte moves (the steps of one route: within chips
// every route runs the same; across chips each route's write base moves the destination).
struct ReplayScan {
  uint64_t dmEnd = 0;  // the DM bytes per slice the steps span (reserved before any is read or written)
  // The DM offsets each side spans ([lo, hi) per slice): broadcast ranges held once that they touch
  // are copied out first (unaliasDm).
  uint64_t range[2][2] = {{UINT64_MAX, 0}, {UINT64_MAX, 0}};  // source, destination
  // Within chips, the bytes written to each HBM page (pages of the HBM range only; a step past it is
  // the replay's to report): a page created by a 64-byte step would take its other writes as 4 KiB
  // faults one by one (2 MiB of GEMM result: 512 faults, 6 ms).
  std::unordered_map<uint64_t, uint64_t> hbmPageWrites;
  // HBM to DM within chips may run its engines on the pool's threads: they only read HBM, and each
  // writes DM slices no other engine writes; a step out of range leaves it to the serial replay, which
  // reports the first such step as before.
  bool parallel = false;
  std::vector<DmStep> written;  // the parallel replay's steps, for broadcastAlias (bounded)
};
constexpr size_t kMaxAliasSteps = size_t(1) << 20;

ReplayScan scanSteps(const DmaPlan &plan, const std::vector<DmaRoute> &routes) {
  const uint64_t n = plan.shared.stride0;
  ReplayScan scan;
  auto span = [&](uint64_t a, int side) {
    if (const DmPlace p = dmPlace(a); p.in(n)) {
      scan.dmEnd = std::max(scan.dmEnd, p.off + n);
      scan.range[side][0] = std::min(scan.range[side][0], p.off);
      scan.range[side][1] = std::max(scan.range[side][1], p.off + n);
    }
  };
  const bool hbmToDm = !plan.crossChip && plan.src == DmaMedia::Hbm && plan.dst == DmaMedia::Dm;
  scan.parallel = hbmToDm && plan.engines.size() > 1;
  std::vector<int> engineOf(hbmToDm ? kSliceCount : 0, -1);  // the engine writing each slice
  for (size_t r = 0; r < (plan.crossChip ? routes.size() : std::min<size_t>(routes.size(), 1)); ++r)
    for (size_t e = 0; e < plan.engines.size(); ++e)
      for (const DmaCommand &cmd : plan.engines[e].commands)
        cmd.forEachStep(plan.elemBits, [&](uint64_t s, uint64_t d) {
          if (scan.parallel) {
            const DmPlace p = dmPlace(d);
            if (!(s <= kHbmBytes && n <= kHbmBytes - s) || !p.in(n)) scan.parallel = false;
            else if (engineOf[p.slice] < 0) engineOf[p.slice] = int(e);
            else if (engineOf[p.slice] != int(e)) scan.parallel = false;
            if (scan.parallel && scan.written.size() <= kMaxAliasSteps) scan.written.push_back({uint32_t(p.slice), s, p.off});
          }
          if (plan.src != DmaMedia::Hbm) span(s, 0);
          if (plan.dst != DmaMedia::Hbm) span(plan.crossChip ? (d + uint64_t(routes[r].writeBase)) % chipspace::kChipStride : d, 1);
          else if (!plan.crossChip && d <= kHbmBytes && n <= kHbmBytes - d)
            for (uint64_t a = d, left = n; left;) {
              const uint64_t run = std::min(left, kHbmPageBytes - a % kHbmPageBytes);
              scan.hbmPageWrites[a / kHbmPageBytes] += run;
              a += run, left -= run;
            }
        });
  return scan;
}
}  // namespace

void DeviceImpl::dmaReplay(const DmaPlan &plan, const TensorType &src, const TensorType &dst) {
  if (src.dtype != dst.dtype) throw DeviceError{"a DMA cannot change the element type: " + src.str() + " -> " + dst.str()};
  if (!plan.ok()) throw DeviceError{"DMA " + src.str() + " -> " + dst.str() + ": " + plan.diagnostics.front()};
  const MappingRef &chip = src.chip;
  if (chip->size() > chips)
    throw DeviceError{src.str() + ": the Chip mapping needs " + std::to_string(chip->size()) + " chips, the device has " +
                      std::to_string(chips)};
  // Within chips every chip runs the commands as they are; across chips every route of the
  // destination table runs them on its source chip, its write base added (global space).
  std::vector<DmaRoute> routes = plan.routes;
  if (!plan.crossChip)
    for (uint64_t c = 0; c < chip->size(); ++c)
      if (chip->map(c)) routes.push_back({unsigned(c), 0});
  ReplayScan scan = scanSteps(plan, routes);
  // HBM about to be written: DM ranges read in place from it take their bytes first (across chips,
  // where the pages are not gathered, every such range).
  if (plan.dst == DmaMedia::Hbm && plan.crossChip) unaliasHbm(kAllChips, 0, UINT64_MAX);
  if (!scan.hbmPageWrites.empty()) {
    std::vector<uint64_t> pages;
    for (const auto &[index, bytes] : scan.hbmPageWrites) pages.push_back(index);
    std::sort(pages.begin(), pages.end());
    for (const DmaRoute &r : routes) unaliasHbm(r.chip, pages);
  }
  for (const DmaRoute &r : routes)
    if (r.chip < chips)
      for (const auto &[index, bytes] : scan.hbmPageWrites) hbm[r.chip].preparePage(index, bytes);
  slices.reserveDm(scan.dmEnd);
  for (const DmaRoute &r : routes) scan.parallel &= r.chip < chips;
  // Writes first: a DM-to-DM copy onto a broadcast range it also reads copies the range out. An HBM-to-DM
  // DMA rewriting a broadcast's range whole in a slice (a tiled loop's next launch) copies nothing there.
  std::pair<uint64_t, uint64_t> srcRange{0, 0};  // a read resolves through the aliases containing it
  if (plan.dst != DmaMedia::Hbm) {
    std::vector<uint8_t> whole;
    std::vector<unsigned> routeChips;
    if (scan.parallel && scan.written.size() <= kMaxAliasSteps) {
      whole = wholeWrites(scan.written, plan.shared.stride0, scan.range[1][0], scan.range[1][1]);
      for (const DmaRoute &r : routes) routeChips.push_back(r.chip);
    }
    unaliasDm(scan.range[1][0], scan.range[1][1], false, whole.empty() ? nullptr : &whole, &routeChips);
  }
  if (plan.src != DmaMedia::Hbm) {
    unaliasDm(scan.range[0][0], scan.range[0][1], true);
    if (scan.range[0][0] < scan.range[0][1]) srcRange = {scan.range[0][0], scan.range[0][1]};
  }
  if (scan.parallel) replayHbmToDm(plan, *chip, routes, scan.written);
  else replaySerial(plan, routes, src, dst, srcRange);
}

// HBM to DM within chips, the engines on the pool. A broadcast (the same bytes into many slices) is
// written into one slice of each group, which the others read (DmAlias): a GEMM operand shared by 32
// slices is copied once, not 32 times; and not at all where the bytes are one run of HBM that every
// route's chip holds in one page (read in place until something writes it).
void DeviceImpl::replayHbmToDm(const DmaPlan &plan, const Mapping &chip, const std::vector<DmaRoute> &routes,
                               std::vector<DmStep> &written) {
  const uint64_t n = plan.shared.stride0;
  std::optional<DmAlias> alias;
  const bool allSteps = written.size() <= kMaxAliasSteps;  // (scanSteps stops recording past the bound)
  if (allSteps) alias = broadcastAlias(written, n);
  std::vector<uint8_t> writes;  // per chip-local slice: the replay writes its DM
  if (alias) {
    writes.assign(kSliceCount, 0);
    for (uint32_t s = 0; s < kSliceCount; ++s) {
      if (alias->owner[s] != s) continue;
      uint64_t &at = alias->hbmAt[s];
      for (const DmaRoute &r : routes)
        if (at != DmAlias::kInDm && !hbm[r.chip].span(at, alias->hi - alias->lo)) at = DmAlias::kInDm;
      writes[s] = at == DmAlias::kInDm;
    }
  }
  prefaultDm(plan, chip, alias ? &writes : nullptr, allSteps ? &written : nullptr);
  written = {};
  for (const DmaRoute &r : routes)
    if (r.chip >= slices.chipsReserved()) slices.reserveChips(r.chip + 1);
  const size_t E = plan.engines.size();
  const bool anyWrite = !alias || std::find(writes.begin(), writes.end(), uint8_t(1)) != writes.end();
  parallelFor(anyWrite ? routes.size() * E : 0, [&](size_t i) {
    const unsigned c = routes[i / E].chip;
    for (const DmaCommand &cmd : plan.engines[i % E].commands)
      cmd.forEachStep(plan.elemBits, [&](uint64_t s, uint64_t d) {
        const DmPlace p = dmPlace(d);
        if (alias && !writes[p.slice]) return;
        hbm[c].read(s, slices[(c * kClusters) * kSlicesPerCluster + p.slice].dmData() + p.off, n);
      });
  });
  if (alias) {
    for (const DmaRoute &r : routes) alias->chips.push_back(r.chip);
    dmAliases.push_back(std::move(*alias));
  }
}

// Every route runs every command of every engine in order, one step at a time; the first step out of
// range is reported. A DM read resolves through the broadcasts held once containing srcRange.
void DeviceImpl::replaySerial(const DmaPlan &plan, const std::vector<DmaRoute> &routes, const TensorType &src,
                              const TensorType &dst, std::pair<uint64_t, uint64_t> srcRange) {
  const uint64_t n = plan.shared.stride0;
  if (!plan.crossChip && plan.dst != DmaMedia::Hbm) prefaultDm(plan, *src.chip);
  // A DM address of chip c as (flat slice, offset), the step's range checked.
  auto dmPlaceOf = [&](unsigned c, uint64_t a, const TensorType &t) -> std::pair<size_t, uint64_t> {
    uint64_t slice = a / dmspace::kSliceStride, off = a % dmspace::kSliceStride;
    if (slice >= kSliceCount || off + n > kDmBytes)
      throw DeviceError{t.str() + ": the DMA steps outside DM (slice " + std::to_string(slice) + ", byte " +
                        std::to_string(off) + ")"};
    if (c >= slices.chipsReserved()) slices.reserveChips(c + 1);  // (the replay is serial; c < chips)
    assert(off + n <= slices.dmStride() && "every step's DM range is reserved above");
    return {(c * kClusters) * kSlicesPerCluster + slice, off};
  };
  auto dmWrite = [&](unsigned c, uint64_t a, const TensorType &t) {
    const auto [id, off] = dmPlaceOf(c, a, t);
    return slices[id].dmData() + off;
  };
  auto dmRead = [&](unsigned c, uint64_t a, const TensorType &t) {
    const auto [id, off] = dmPlaceOf(c, a, t);
    return dmReadBase(id, srcRange.first, srcRange.second) + off;
  };
  std::vector<uint8_t> buf(n);
  for (const DmaRoute &r : routes) {
    unsigned c = r.chip;
    if (c >= chips) throw DeviceError{src.str() + ": the DMA reads chip " + std::to_string(c) + ", the device has " + std::to_string(chips)};
    for (const DmaEngineWork &w : plan.engines)
      for (const DmaCommand &cmd : w.commands)
        cmd.forEachStep(plan.elemBits, [&](uint64_t s, uint64_t d) {
          // (the tensors' names are printed only for a step out of range: str() per step was a hot spot)
          if (plan.src == DmaMedia::Hbm) {
            if (!(s <= kHbmBytes && n <= kHbmBytes - s)) checkRange(src.str(), "HBM", s, n, kHbmBytes);
          }
          const uint8_t *from = nullptr;
          if (plan.src != DmaMedia::Hbm) from = dmRead(c, s, src);
          uint64_t to = c;
          if (plan.crossChip) {
            d += uint64_t(r.writeBase);
            to = d / chipspace::kChipStride;
            d %= chipspace::kChipStride;
            if (to >= chips)
              throw DeviceError{dst.str() + ": the DMA writes to chip " + std::to_string(to) + ", the device has " +
                                std::to_string(chips)};
          }
          if (plan.dst == DmaMedia::Hbm) {
            if (!(d <= kHbmBytes && n <= kHbmBytes - d)) checkRange(dst.str(), "HBM", d, n, kHbmBytes);
            if (!from) {  // HBM to HBM: through the buffer (the ranges may overlap)
              hbm[c].read(s, buf.data(), n);
              from = buf.data();
            }
            hbm[to].write(d, from, n);
          } else {
            uint8_t *into = dmWrite(unsigned(to), d, dst);
            if (from) std::memmove(into, from, n);
            else hbm[c].read(s, into, n);
          }
        });
  }
}

}  // namespace tcp::interp

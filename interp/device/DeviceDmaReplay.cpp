// DeviceDmaReplay.cpp — runs a DMA by replaying its derived sequencers: every route (source chip, write base) runs every command of every engine, stride0 bytes per step (the DM range its steps span reserved and the DM pages it writes populated in parallel first).
#include "DeviceImpl.h"
#include "DmaChips.h"

#include <algorithm>
#include <cstring>
#include <unordered_map>
#include <sys/mman.h>

namespace tcp::interp {

namespace {
constexpr uint64_t kPage = ChipDm::kPageBytes, kSliceCount = uint64_t(kClusters) * kSlicesPerCluster;

// The slice (in its chip) and the byte in its DM of a DM address; nullopt-like (slice >= kSliceCount)
// for a step outside DM, which the replay reports.
struct DmPlace {
  uint64_t slice, off;
  bool in(uint64_t n) const { return slice < kSliceCount && off + n <= kDmBytes && n > 0; }
};
DmPlace dmPlace(uint64_t a) { return {a / dmspace::kSliceStride, a % dmspace::kSliceStride}; }
}  // namespace

// The DM pages a DMA within chips writes, faulted in on the pool's threads before the serial replay
// (a fresh DM page costs a page fault and a zeroing; the replay would take them one by one). Only
// pages the replay writes are populated, and MADV_POPULATE_WRITE keeps their bytes: memory still
// reads as before. A step outside DM is left to the replay, which reports it. The DMs' range is
// reserved by the caller (dmaReplay).
void DeviceImpl::prefaultDm(const DmaPlan &plan, const Mapping &chip) {
#ifdef MADV_POPULATE_WRITE
  const uint64_t n = plan.shared.stride0, stride = slices.dmStride();
  if (stride == 0 || stride % kPage) return;
  // The chip's DM region is kSliceCount DMs of `stride` bytes (ChipDm): pages of that region.
  const uint64_t regionPages = kSliceCount * stride / kPage;
  std::vector<uint8_t> touched(regionPages, 0);
  bool any = false;
  for (const DmaEngineWork &w : plan.engines)
    for (const DmaCommand &cmd : w.commands)
      cmd.forEachStep(plan.elemBits, [&](uint64_t, uint64_t d) {
        const DmPlace p = dmPlace(d);
        if (!p.in(n) || p.off + n > stride) return;
        const uint64_t first = (p.slice * stride + p.off) / kPage, last = (p.slice * stride + p.off + n - 1) / kPage;
        std::fill(touched.begin() + first, touched.begin() + last + 1, uint8_t(1));
        any = true;
      });
  if (!any) return;
  // Where the DMA writes at least an eighth of a 2 MiB page of the region, it becomes a huge page (one
  // fault and zeroing instead of up to 512). On the 2-core virtual machines tcp is measured on, a first
  // touch costs about 12 us per 4 KiB page and 0.2-3.5 ms per huge page (cold or warm host memory):
  // an eighth is where the two meet for warm memory (benchmarks/README.md, fifth round). The DMs being
  // dense (ChipDm), a DMA that fills what every slice uses fills whole huge pages.
  constexpr uint64_t kHugePages = kHugePageBytes / kPage, kDensity = 8;
  std::vector<std::pair<unsigned, uint64_t>> work;  // (chip, first page of a 2 MiB page with a page to fault)
  for (uint64_t c = 0; c < chip.size() && c < chips; ++c) {
    if (!chip.map(c) || c >= slices.chipsReserved()) continue;
    uint8_t *region = slices[(c * kClusters) * kSlicesPerCluster].dmData();
    for (uint64_t pg = 0; pg < regionPages; pg += kHugePages) {
      const uint64_t end = std::min(regionPages, pg + kHugePages);
      const uint64_t count = uint64_t(std::count(touched.begin() + pg, touched.begin() + end, uint8_t(1)));
      if (count == 0) continue;
      if (end - pg == kHugePages && kDensity * count >= kHugePages) adviseHugePages(region + pg * kPage, kHugePageBytes);
      work.emplace_back(unsigned(c), pg);
    }
  }
  parallelFor(work.size(), [&](size_t i) {
    const auto [c, first] = work[i];
    uint8_t *region = slices[(c * kClusters) * kSlicesPerCluster].dmData();
    const uint64_t last = std::min(regionPages, first + kHugePages);
    for (uint64_t pg = first; pg < last;) {
      if (!touched[pg]) { ++pg; continue; }
      uint64_t end = pg;
      while (end < last && touched[end]) ++end;
      madvise(region + pg * kPage, (end - pg) * kPage, MADV_POPULATE_WRITE);  // advice only: failure is harmless
      pg = end;
    }
  });
#else
  (void)plan, (void)chip;
#endif
}

void DeviceImpl::dmaReplay(const DmaPlan &plan, const TensorType &src, const TensorType &dst) {
  if (src.dtype != dst.dtype) throw DeviceError{"a DMA cannot change the element type: " + src.str() + " -> " + dst.str()};
  if (!plan.ok()) throw DeviceError{"DMA " + src.str() + " -> " + dst.str() + ": " + plan.diagnostics.front()};
  const MappingRef &chip = src.chip;
  if (chip->size() > chips)
    throw DeviceError{src.str() + ": the Chip mapping needs " + std::to_string(chip->size()) + " chips, the device has " +
                      std::to_string(chips)};
  uint64_t n = plan.shared.stride0;
  // A byte range of one side: HBM bytes of chip c, or a slice's DM bytes (DM virtual address).
  auto dmBytes = [&](unsigned c, uint64_t a, const TensorType &t) {
    uint64_t slice = a / dmspace::kSliceStride, off = a % dmspace::kSliceStride;
    if (slice >= kSliceCount || off + n > kDmBytes)
      throw DeviceError{t.str() + ": the DMA steps outside DM (slice " + std::to_string(slice) + ", byte " +
                        std::to_string(off) + ")"};
    if (c >= slices.chipsReserved()) slices.reserveChips(c + 1);  // (the replay is serial; c < chips)
    assert(off + n <= slices.dmStride() && "every step's DM range is reserved above");
    return slices[(c * kClusters) * kSlicesPerCluster + slice].dmData() + off;
  };
  std::vector<uint8_t> buf(n);
  // Within chips every chip runs the commands as they are; across chips every route of the
  // destination table runs them on its source chip, its write base added (global space).
  std::vector<DmaRoute> routes = plan.routes;
  if (!plan.crossChip)
    for (uint64_t c = 0; c < chip->size(); ++c)
      if (chip->map(c)) routes.push_back({unsigned(c), 0});
  // The DM bytes per slice the steps span (DM is laid out densely, ChipDm): reserved before any is
  // read or written. Within chips every route runs the same steps; across chips a route's write base
  // moves the destination.
  uint64_t dmEnd = 0;
  auto span = [&](uint64_t a) {
    if (const DmPlace p = dmPlace(a); p.in(n)) dmEnd = std::max(dmEnd, p.off + n);
  };
  // Within chips, the bytes written to each HBM page (pages of the HBM range only; a step past it is
  // the replay's to report): a page created by a 64-byte step would take its other writes as 4 KiB
  // faults one by one (2 MiB of GEMM result: 512 faults, 6 ms).
  std::unordered_map<uint64_t, uint64_t> hbmPageWrites;
  for (size_t r = 0; r < (plan.crossChip ? routes.size() : std::min<size_t>(routes.size(), 1)); ++r)
    for (const DmaEngineWork &w : plan.engines)
      for (const DmaCommand &cmd : w.commands)
        cmd.forEachStep(plan.elemBits, [&](uint64_t s, uint64_t d) {
          if (plan.src != DmaMedia::Hbm) span(s);
          if (plan.dst != DmaMedia::Hbm) span(plan.crossChip ? (d + uint64_t(routes[r].writeBase)) % chipspace::kChipStride : d);
          else if (!plan.crossChip && d <= kHbmBytes && n <= kHbmBytes - d)
            for (uint64_t a = d, left = n; left;) {
              const uint64_t run = std::min(left, kHbmPageBytes - a % kHbmPageBytes);
              hbmPageWrites[a / kHbmPageBytes] += run;
              a += run, left -= run;
            }
        });
  for (const DmaRoute &r : routes)
    if (r.chip < chips)
      for (const auto &[index, bytes] : hbmPageWrites) hbm[r.chip].preparePage(index, bytes);
  slices.reserveDm(dmEnd);
  if (!plan.crossChip && plan.dst != DmaMedia::Hbm) prefaultDm(plan, *chip);
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
          if (plan.src != DmaMedia::Hbm) from = dmBytes(c, s, src);
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
            uint8_t *into = dmBytes(unsigned(to), d, dst);
            if (from) std::memmove(into, from, n);
            else hbm[c].read(s, into, n);
          }
        });
  }
}

}  // namespace tcp::interp

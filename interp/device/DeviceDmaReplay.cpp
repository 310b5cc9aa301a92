// DeviceDmaReplay.cpp — runs a DMA by replaying its derived sequencers: every route (source chip, write base) runs every command of every engine, stride0 bytes per step (the DM pages it writes populated in parallel first).
#include "DeviceImpl.h"
#include "DmaChips.h"

#include <algorithm>
#include <cstring>
#include <sys/mman.h>

namespace tcp::interp {

// The DM pages a DMA within chips writes, faulted in on the pool's threads before the serial replay
// (a fresh DM page costs a page fault and a zeroing; the replay would take them one by one). Only
// pages the replay writes are populated, and MADV_POPULATE_WRITE keeps their bytes: memory still
// reads as before. A step outside DM is left to the replay, which reports it.
void DeviceImpl::prefaultDm(const DmaPlan &plan, const Mapping &chip) {
#ifdef MADV_POPULATE_WRITE
  constexpr uint64_t kPage = 4096, kPages = kDmBytes / kPage;
  const uint64_t n = plan.shared.stride0, sliceCount = uint64_t(kClusters) * kSlicesPerCluster;
  std::vector<uint8_t> touched(sliceCount * kPages, 0);  // (slice, page) written by some step
  bool any = false;
  for (const DmaEngineWork &w : plan.engines)
    for (const DmaCommand &cmd : w.commands)
      cmd.forEachStep(plan.elemBits, [&](uint64_t, uint64_t d) {
        uint64_t slice = d / dmspace::kSliceStride, off = d % dmspace::kSliceStride;
        if (slice >= sliceCount || off + n > kDmBytes || n == 0) return;
        for (uint64_t pg = off / kPage; pg <= (off + n - 1) / kPage; ++pg) touched[slice * kPages + pg] = 1;
        any = true;
      });
  if (!any) return;
  std::vector<std::pair<unsigned, uint64_t>> work;  // (chip, slice) with a page to fault
  for (uint64_t c = 0; c < chip.size() && c < chips; ++c)
    if (chip.map(c) && c < slices.chipsReserved())
      for (uint64_t s = 0; s < sliceCount; ++s)
        if (std::memchr(&touched[s * kPages], 1, kPages)) work.emplace_back(unsigned(c), s);
  // Four slices' DMs are one 2 MiB page of their chip's region (ChipSram): where the DMA writes at least
  // an eighth of it, it becomes a huge page (one fault and zeroing instead of up to 512). On the 2-core
  // virtual machines tcp is measured on, a first touch costs about 12 us per 4 KiB page and 0.2-3.5 ms
  // per huge page (cold or warm host memory): an eighth is where the two meet for warm memory. The
  // 1024³ GEMM's DMA of A writes 64% of each group (its 100–120 ms became 15–20 ms warm); the 512³
  // GEMM's write 6% and stay on 4 KiB pages (benchmarks/README.md, fifth round).
  constexpr uint64_t kGroup = kHugePageBytes / kDmBytes, kDensity = 8;
  static_assert(kGroup >= 1 && kHugePageBytes % kDmBytes == 0, "a huge page holds whole DMs");
  for (uint64_t c = 0; c < chip.size() && c < chips; ++c)
    if (chip.map(c) && c < slices.chipsReserved())
      for (uint64_t s = 0; s + kGroup <= sliceCount; s += kGroup) {
        const uint8_t *t = &touched[s * kPages];
        if (kDensity * uint64_t(std::count(t, t + kGroup * kPages, uint8_t(1))) >= kGroup * kPages)
          adviseHugePages(slices[(c * kClusters) * kSlicesPerCluster + s].dmData(), kHugePageBytes);
      }
  parallelFor(work.size(), [&](size_t i) {
    const auto [c, s] = work[i];
    uint8_t *dm = slices[(c * kClusters) * kSlicesPerCluster + s].dmData();
    const uint8_t *t = &touched[s * kPages];
    for (uint64_t pg = 0; pg < kPages;) {
      if (!t[pg]) { ++pg; continue; }
      uint64_t end = pg;
      while (end < kPages && t[end]) ++end;
      madvise(dm + pg * kPage, (end - pg) * kPage, MADV_POPULATE_WRITE);  // advice only: failure is harmless
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
    if (slice >= kClusters * kSlicesPerCluster || off + n > kDmBytes)
      throw DeviceError{t.str() + ": the DMA steps outside DM (slice " + std::to_string(slice) + ", byte " +
                        std::to_string(off) + ")"};
    if (c >= slices.chipsReserved()) slices.reserveChips(c + 1);  // (the replay is serial; c < chips)
    return slices[(c * kClusters) * kSlicesPerCluster + slice].dmData() + off;
  };
  std::vector<uint8_t> buf(n);
  if (!plan.crossChip && plan.dst != DmaMedia::Hbm) prefaultDm(plan, *chip);
  // Within chips every chip runs the commands as they are; across chips every route of the
  // destination table runs them on its source chip, its write base added (global space).
  std::vector<DmaRoute> routes = plan.routes;
  if (!plan.crossChip)
    for (uint64_t c = 0; c < chip->size(); ++c)
      if (chip->map(c)) routes.push_back({unsigned(c), 0});
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

// DeviceDmPrefault.cpp — DM pages a DMA or a chain's commit is about to write, faulted in on the pool's threads (huge pages where dense).
#include "DeviceImpl.h"

#include <algorithm>
#include <sys/mman.h>

namespace tcp::interp {

namespace {
constexpr uint64_t kPage = ChipDm::kPageBytes, kSliceCount = uint64_t(kClusters) * kSlicesPerCluster;
}  // namespace

// The DM pages a DMA within chips writes, faulted in before the replay (a fresh DM page costs a page
// fault and a zeroing; the replay would take them one by one). Only pages the replay writes are
// populated, and MADV_POPULATE_WRITE keeps their bytes: memory still reads as before. A step outside
// DM is left to the replay, which reports it. The DMs' range is reserved by the caller (dmaReplay).
void DeviceImpl::prefaultDm(const DmaPlan &plan, const Mapping &chip, const std::vector<uint8_t> *writes,
                            const std::vector<DmStep> *steps) {
  const uint64_t n = plan.shared.stride0, stride = slices.dmStride();
  if (stride == 0 || stride % kPage) return;
  // The chip's DM region is kSliceCount DMs of `stride` bytes (ChipDm): pages of that region.
  std::vector<uint8_t> touched(kSliceCount * stride / kPage, 0);
  bool any = false;
  auto mark = [&](uint64_t slice, uint64_t off) {
    if (slice >= kSliceCount || n == 0 || off + n > stride || (writes && !(*writes)[slice])) return;
    const uint64_t first = (slice * stride + off) / kPage, last = (slice * stride + off + n - 1) / kPage;
    std::fill(touched.begin() + first, touched.begin() + last + 1, uint8_t(1));
    any = true;
  };
  if (steps) {
    for (const DmStep &s : *steps) mark(s.slice, s.off);
  } else {
    for (const DmaEngineWork &w : plan.engines)
      for (const DmaCommand &cmd : w.commands)
        cmd.forEachStep(plan.elemBits, [&](uint64_t, uint64_t d) { mark(d / dmspace::kSliceStride, d % dmspace::kSliceStride); });
  }
  if (!any) return;
  std::vector<unsigned> chipList;
  for (uint64_t c = 0; c < chip.size() && c < chips; ++c)
    if (chip.map(c)) chipList.push_back(unsigned(c));
  populateDm(touched, chipList);
}

// The pages of [lo, hi) of the DM of every slice in `active` (the union over their chips).
void DeviceImpl::prefaultDmRange(const std::vector<ActiveSlice> &active, uint64_t lo, uint64_t hi) {
  const uint64_t stride = slices.dmStride();
  if (stride == 0 || stride % kPage || hi <= lo || hi > stride || active.empty()) return;
  std::vector<uint8_t> touched(kSliceCount * stride / kPage, 0);
  std::vector<unsigned> chipList;
  for (const ActiveSlice &a : active) {
    const uint64_t slice = a.id % kSliceCount;
    std::fill(touched.begin() + long((slice * stride + lo) / kPage), touched.begin() + long((slice * stride + hi - 1) / kPage + 1),
              uint8_t(1));
    if (chipList.empty() || chipList.back() != a.id / kSliceCount) chipList.push_back(unsigned(a.id / kSliceCount));
  }
  populateDm(touched, chipList);
}

// Where at least an eighth of a 2 MiB page of the region is to be written, it becomes a huge page (one
// fault and zeroing instead of up to 512). On the 2-core virtual machines tcp is measured on, a first
// touch costs about 12 us per 4 KiB page and 0.2-3.5 ms per huge page (cold or warm host memory):
// an eighth is where the two meet for warm memory (benchmarks/README.md, fifth round). The DMs being
// dense (ChipDm), a DMA that fills what every slice uses fills whole huge pages.
void DeviceImpl::populateDm(const std::vector<uint8_t> &touched, const std::vector<unsigned> &chipList) {
#ifdef MADV_POPULATE_WRITE
  const uint64_t regionPages = touched.size();
  constexpr uint64_t kHugePages = kHugePageBytes / kPage, kDensity = 8;
  std::vector<std::pair<unsigned, uint64_t>> work;  // (chip, first page of a 2 MiB page with a page to fault)
  for (unsigned c : chipList) {
    if (c >= chips || c >= slices.chipsReserved()) continue;
    uint8_t *region = slices[(c * kClusters) * kSlicesPerCluster].dmData();
    for (uint64_t pg = 0; pg < regionPages; pg += kHugePages) {
      const uint64_t end = std::min(regionPages, pg + kHugePages);
      const uint64_t count = uint64_t(std::count(touched.begin() + long(pg), touched.begin() + long(end), uint8_t(1)));
      if (count == 0) continue;
      if (end - pg == kHugePages && kDensity * count >= kHugePages) adviseHugePages(region + pg * kPage, kHugePageBytes);
      work.emplace_back(c, pg);
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
  (void)touched, (void)chipList;
#endif
}

}  // namespace tcp::interp

// CycleDma.cpp — DMA transfer cost: startup per command plus the slower of the DM and HBM sides.
#include "CycleModel.h"

#include <algorithm>

namespace tcp {

namespace {
uint64_t ceilDiv(uint64_t a, uint64_t b) { return b ? (a + b - 1) / b : 0; }
}  // namespace

OpCost dmaCost(uint64_t bytesPerSlice, uint64_t slices, uint64_t clusters, bool toHbm) {
  using namespace cost;
  OpCost c;
  c.name = toHbm ? "to_hbm" : "to_dm";
  c.resource = Resource::Dma;
  slices = std::max<uint64_t>(slices, 1);
  clusters = std::max<uint64_t>(clusters, 1);
  // Requests: each slice's bytes in 256-byte requests; the last one may be partial.
  uint64_t fullPerSlice = bytesPerSlice / kDmaRequestBytes;
  uint64_t partialPerSlice = bytesPerSlice % kDmaRequestBytes ? 1 : 0;
  uint64_t requestsPerSlice = fullPerSlice + partialPerSlice;
  uint64_t requests = requestsPerSlice * slices * clusters;
  uint64_t largest = std::min<uint64_t>(bytesPerSlice, kDmaRequestBytes);
  // DM side: one DMA Engine per pair of DMNs (64 slices) of every cluster the transfer touches,
  // all engines in parallel, one command each. With both DMNs of a pair in use, requests
  // alternate DMNs and one request (<= 256 B) completes per cycle; within one DMN (<= 32 slices)
  // a request takes ceil(bytes / 128) cycles.
  uint64_t engines = clusters * ceilDiv(slices, kSlicesPerDmn * kDmnsPerEngine);
  uint64_t perRequest = slices > kSlicesPerDmn ? 1 : ceilDiv(std::max<uint64_t>(largest, 1), kDmnBytesPerCycle);
  uint64_t dmCycles = ceilDiv(requests * perRequest, engines);
  // HBM side: every request moves whole 256-byte units at 0.75 TB/s per direction per chip;
  // a partial unit written to HBM is a read-modify-write, ~50x an aligned write.
  uint64_t hbmCycles;
  if (!toHbm) {
    hbmCycles = ceilDiv(requests * kDmaRequestBytes, kHbmReadPerCycle);
  } else {
    uint64_t units = (fullPerSlice + partialPerSlice * kHbmRmwPenalty) * slices * clusters;
    hbmCycles = ceilDiv(units * kDmaRequestBytes, kHbmWritePerCycle);
  }
  uint64_t bytes = bytesPerSlice * slices * clusters;
  c.engines.push_back({"dma_startup", kDmaStartup, 0});
  c.engines.push_back({toHbm ? "dm_read" : "dm_write", dmCycles, 0});
  c.engines.push_back({toHbm ? "hbm_write" : "hbm_read", hbmCycles, 0});
  // Reads and writes overlap in the DMA pipeline ("Example 2": max(read, write) + 500).
  c.cycles = kDmaStartup + std::max(dmCycles, hbmCycles);
  if (toHbm) {
    c.bytes[MemTier::Dm].read += bytes;
    c.bytes[MemTier::Hbm].write += bytes;
  } else {
    c.bytes[MemTier::Hbm].read += bytes;
    c.bytes[MemTier::Dm].write += bytes;
  }
  return c;
}

}  // namespace tcp

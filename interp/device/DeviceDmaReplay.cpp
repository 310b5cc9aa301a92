// DeviceDmaReplay.cpp — runs a DMA by replaying its derived sequencers: every route (source chip, write base) runs every command of every engine, stride0 bytes per step.
#include "DeviceImpl.h"
#include "DmaChips.h"

#include <cstring>

namespace tcp::interp {

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
    return SliceMemory::get(slices[(c * kClusters) * kSlicesPerCluster + slice].dm, kDmBytes) + off;
  };
  std::vector<uint8_t> buf(n);
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

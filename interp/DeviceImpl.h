// DeviceImpl.h — the CPU model's state (memories, placed tensors) shared by the Device*.cpp files.
#pragma once

#include "Device.h"
#include "DeviceIndex.h"
#include "DeviceMemory.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace tcp::interp {

// A tensor the running kernel has placed: its type spelling and address (TRF: byte offset in a Row).
struct PlacedAt {
  std::string type;
  uint64_t address = 0;
};

// Tensors placed by the kernel so far, found again by type when an op refers to them.
struct Placements {
  std::vector<PlacedAt> dm, trf, vrf, hbm;
  static std::optional<uint64_t> latest(const std::vector<PlacedAt> &v, const TensorType &t);
};

// A slice a tensor occupies: its flat id (chip, cluster, slice) and the key of its Chip/Cluster/Slice index.
struct ActiveSlice {
  unsigned id = 0;
  int64_t key = 0;
};

class DeviceImpl {
 public:
  explicit DeviceImpl(unsigned chips);

  unsigned chips;
  std::vector<Hbm> hbm;              // per chip
  std::vector<SliceMemory> slices;   // (chip * kClusters + cluster) * kSlicesPerCluster + slice

  // Slices whose Chip/Cluster/Slice positions all hold an index of `t`; keys in `space`.
  std::vector<ActiveSlice> activeSlices(const TensorType &t, const AxisSpace &space) const;
  // Runs fn(0..n-1) on hardware_concurrency threads; rethrows the first DeviceError.
  static void parallelFor(size_t n, const std::function<void(size_t)> &fn);

  // DMA HBM → DM (to_dm) and DM → HBM (to_hbm), through the tensor indices.
  void dmaToDm(const TensorType &src, uint64_t srcAddr, const TensorType &dst, uint64_t dstAddr);
  void dmaToHbm(const TensorType &src, uint64_t srcAddr, const TensorType &dst, uint64_t dstAddr);
  // One Tensor Unit chain (begin ... commit | to_trf | to_vrf), every active slice.
  void runChain(const std::vector<const TypedOp *> &ops, Placements &placed);
};

}  // namespace tcp::interp

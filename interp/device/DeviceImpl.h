// DeviceImpl.h — the CPU model's state (memories, placed tensors) shared by the Device*.cpp files.
#pragma once

#include "DmaPlan.h"

#include "Device.h"
#include "DeviceIndex.h"
#include "DeviceMemory.h"

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace tcp::interp {

// How the model works. Every element is found by its tensor index (Index → integer key in an AxisSpace),
// never by replaying sequencer address arithmetic: DMA, fetch, collect, align, to_trf/to_vrf, cast and
// commit move each element to the position whose index is the same; axes the source lacks broadcast;
// positions that are padding or not held read 0 and are never written. The within-slice index tables
// are the same for every slice, so a chain is compiled once into gather/scatter tables and then run
// per slice on the threads of LLVM's ThreadPool (slices are independent; the Switch Engine is a step
// across the slices of each cluster). Numerics: fetch widening and the cast engine follow Numerics.h;
// the Reducer multiplies widened lanes, adds adjacent pairs level by level (NumericKernels' tree for
// bf16/i8, a scalar tree otherwise), and the accumulator adds contributions in time order (first
// arrival stores). Simplified: sub and main contexts run one after the other in program order; the
// Switch Engine accepts any index-preserving movement (its topology parameters are not interpreted);
// the Interleaved output replication and the Reducer's max mode are not modelled; DMAs and chains
// take no time (no cycle model).

// A tensor the running kernel has placed: its type spelling and address (TRF: byte offset in a Row).
struct PlacedAt {
  std::string type;
  uint64_t address = 0;
};

// Tensors placed by the kernel so far, by their identity in TypedFunction::tensors.
struct Placements {
  std::vector<PlacedAt> dm, trf, vrf, hbm;
  std::map<int, uint64_t> byId;  // TypedTensor id → address (TRF: byte offset in a Row)
  // Records a placement of tensor `id` (-1: anonymous) in `list`.
  void add(std::vector<PlacedAt> &list, int id, const TensorType &t, uint64_t address);
  // The address of tensor `id`; without an identity, the latest placement of the same type.
  std::optional<uint64_t> find(int id, const std::vector<PlacedAt> &list, const TensorType &t) const;
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
  std::vector<HbmWrite> hbmWrites;   // of the running (or last) launch
  SliceMemories slices;              // of the chips reserved so far (Device::launch reserves the kernel's)

  // Slices whose Chip/Cluster/Slice positions all hold an index of `t`; keys in `space`.
  std::vector<ActiveSlice> activeSlices(const TensorType &t, const AxisSpace &space) const;
  // Runs fn(0..n-1) on LLVM's ThreadPool (hardware_concurrency threads); rethrows the first exception.
  static void parallelFor(size_t n, const std::function<void(size_t)> &fn);
  void prefaultDm(const DmaPlan &plan, const Mapping &chip);  // before a DMA into DM (DeviceDmaReplay.cpp)
  // A DM range every active slice reads or writes next: DeviceError past the DM, else reserved in
  // every chip's DMs (ChipDm). Called before the pool runs on it.
  void reserveDm(const std::string &tensor, uint64_t address, uint64_t bytes) {
    checkRange(tensor, "DM", address, bytes, kDmBytes);
    slices.reserveDm(address + bytes);
  }

  // DMA HBM → DM (to_dm) and DM → HBM (to_hbm), through the tensor indices.
  void dmaToDm(const TensorType &src, uint64_t srcAddr, const TensorType &dst, uint64_t dstAddr);
  void dmaToHbm(const TensorType &src, uint64_t srcAddr, const TensorType &dst, uint64_t dstAddr);
  // Any DMA (HBM/DM to HBM/DM) by replaying the plan's read and write sequencer addresses.
  void dmaReplay(const DmaPlan &plan, const TensorType &src, const TensorType &dst);
  // The lookup tables of the running launch (TypedFunction::tables order; nullptr between launches).
  const std::vector<LookupTableData> *tables = nullptr;
  bool replayDma = true;  // to_dm / to_hbm by dmaReplay (false: by tensor index; tests cross-check the two)
  // One Tensor Unit chain (begin ... commit | to_trf | to_vrf), every active slice.
  void runChain(const std::vector<const TypedOp *> &ops, Placements &placed);
};

// LaunchOverlaps.cpp: no HBM write of `kernel` overlaps a parameter (at its argument address) that the
// kernel reads at or after that write; DeviceError naming both otherwise.
void checkParameterOverwrites(const TypedFunction &kernel, const std::vector<uint64_t> &args);

// DeviceTable.cpp: the lookup tables of a launch match the kernel's `&LookupTable<In, Out>`
// parameters (count, types, entry counts); DeviceError otherwise.
void checkLaunchTables(const TypedFunction &kernel, const std::vector<LookupTableData> &tables);
// The table a `fetch_with_table` op reads in the running launch; DeviceError when none is loaded.
const LookupTableData &launchTable(const DeviceImpl &device, const TypedOp &fetch);

}  // namespace tcp::interp

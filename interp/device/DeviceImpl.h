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

// A DM range that a broadcast DMA wrote with the same bytes into many slices of a chip, held once
// (DeviceDmAlias.cpp): slice s of each chip in `chips` reads [lo, hi) of its DM from slice owner[s]
// (chip-local ids; owner[s] == s for a slice that holds its own bytes). Only the owners' DMs hold the
// bytes; a write into the range, or a read of part of it, first copies them out (unaliasDm).
// An owner whose bytes are one run of HBM, copied in order, is not written at all: its group reads them
// in place from the HBM of its chip at hbmAt[owner] until something writes that HBM (unaliasHbm).
struct DmAlias {
  static constexpr uint64_t kInDm = UINT64_MAX;
  uint64_t lo = 0, hi = 0;
  std::vector<unsigned> chips;
  std::vector<uint32_t> owner;  // per chip-local slice
  std::vector<uint64_t> hbmAt;  // per owner: the HBM address of its byte lo, or kInDm (empty: all in DM)
  bool inHbm(uint32_t s) const { return !hbmAt.empty() && hbmAt[owner[s]] != kInDm; }
};

// A TRF tensor that a chain computed from the same DM bytes in many slices, held once
// (DeviceDmAlias.cpp): bytes [lo, hi) of Rows [0, rows) of the TRF of flat slice id are read from
// slice owner[id] (owner[id] == id: its own).
struct TrfSpan {
  uint64_t lo = 0, hi = 0;
  size_t rows = 0;
  bool overlaps(const TrfSpan &o) const { return rows && o.rows && lo < o.hi && o.lo < hi; }
  bool contains(const TrfSpan &o) const { return lo <= o.lo && o.hi <= hi && o.rows <= rows; }
};
struct TrfAlias {
  TrfSpan region;
  std::vector<uint32_t> owner;
};

// One step of a DMA into DM: the chip-local slice and DM offset it writes, the HBM byte it reads.
struct DmStep {
  uint32_t slice = 0;
  uint64_t src = 0, off = 0;
};
// The alias a DMA within chips (steps of n bytes, in order) makes, when slices receive the same
// sequence of (source, offset) steps and each such sequence covers the same DM range exactly: every
// slice's owner is the first slice with its sequence (chips left empty); nullopt when none is shared.
// hbmAt: for each owner whose source is one run (source - offset the same for every step), the source
// of offset lo (the caller checks that the HBM holds it in place, Hbm::span).
std::optional<DmAlias> broadcastAlias(const std::vector<DmStep> &steps, uint64_t n);
// Per chip-local slice: 1 where the steps (n bytes each) write every byte of [lo, hi), each once.
std::vector<uint8_t> wholeWrites(const std::vector<DmStep> &steps, uint64_t n, uint64_t lo, uint64_t hi);

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
  // Before a DMA into DM (DeviceDmaReplay.cpp); with `writes`, only the chip-local slices it marks.
  // `steps`, when given, are all of the plan's steps (the replay's scan): they are not walked again.
  void prefaultDm(const DmaPlan &plan, const Mapping &chip, const std::vector<uint8_t> *writes = nullptr,
                  const std::vector<DmStep> *steps = nullptr);
  // Before a chain's commit: the pages of [lo, hi) of the active slices' DMs (DeviceDmPrefault.cpp).
  void prefaultDmRange(const std::vector<ActiveSlice> &active, uint64_t lo, uint64_t hi);
  // Faults in the chip-local DM pages marked in `touched` in each chip of `chipList`; huge pages where dense.
  void populateDm(const std::vector<uint8_t> &touched, const std::vector<unsigned> &chipList);
  // Broadcast DM ranges held once (DeviceDmAlias.cpp). dmReadBase: where flat slice `id` reads
  // [lo, hi) of its DM, as the address of its DM byte 0 (DM byte a is at the result + a): an owner's
  // DM, the HBM holding the range in place, or its own DM. unaliasDm: every alias overlapping [lo, hi)
  // copied into the slices that read it and dropped, except, with `forRead`, those containing the
  // whole range (their readers use dmReadBase), and except into the chip-local slices `rewritten` marks
  // on the chips of `rewrittenChips`, when the alias lies inside [lo, hi): a DMA about to write the
  // whole range there. unaliasHbm: the aliases read in place from HBM bytes
  // [lo, hi) of `chip` (kAllChips: any chip, any byte) copied into their owners' DMs first, before
  // something writes those bytes; with a list of HBM pages (sorted indices of kHbmPageBytes), the
  // aliases read in place from any byte of those pages. Serial: between runs.
  static constexpr unsigned kAllChips = ~0u;
  std::vector<DmAlias> dmAliases;
  const uint8_t *dmReadBase(size_t id, uint64_t lo, uint64_t hi);
  void unaliasDm(uint64_t lo, uint64_t hi, bool forRead = false, const std::vector<uint8_t> *rewritten = nullptr,
                 const std::vector<unsigned> *rewrittenChips = nullptr);
  void unaliasHbm(unsigned chip, uint64_t lo, uint64_t hi);
  void unaliasHbm(unsigned chip, const std::vector<uint64_t> &pages);
  // Both: the aliases of `chip` whose owner reads in place from an HBM range [at, end) that `written` holds.
  void unaliasHbmWhere(unsigned chip, const std::function<bool(uint64_t, uint64_t)> &written);
  // The same for TRF tensors: trfReadSlice resolves a read of `r` (an alias containing it, else the
  // slice's own); unaliasTrf copies out every alias overlapping `r` (with `forRead`, those containing
  // it stay), except into the slices `rewritten` marks, whose region a chain is about to write whole.
  std::vector<TrfAlias> trfAliases;
  size_t trfReadSlice(size_t id, const TrfSpan &r) const;
  void unaliasTrf(const TrfSpan &r, bool forRead = false, const std::vector<uint8_t> *rewritten = nullptr);
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
  // dmaReplay's two ways (DeviceDmaReplay.cpp): HBM to DM within chips on the pool (broadcasts held
  // once, `written` its steps), and every other DMA step by step.
  void replayHbmToDm(const DmaPlan &plan, const Mapping &chip, const std::vector<DmaRoute> &routes,
                     std::vector<DmStep> &written);
  void replaySerial(const DmaPlan &plan, const std::vector<DmaRoute> &routes, const TensorType &src, const TensorType &dst,
                    std::pair<uint64_t, uint64_t> srcRange);
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

// DeviceChain.h — a Tensor Unit chain compiled into per-slice steps over index tables (shared by DeviceChain*.cpp).
#pragma once

#include "DeviceImpl.h"

#include <functional>
#include <memory>
#include <optional>
#include <vector>

namespace tcp::interp {

class ContractKernel;  // DeviceContract.h

// The state of one slice while a chain runs: its memories and the current stream, one 32-bit
// lane value per (row, time, packet) position (bits right-aligned, integers sign-extended).
struct SliceRun {
  SliceMemory *mem = nullptr;
  unsigned id = 0;  // flat slice id: (chip * kClusters + cluster) * kSlicesPerCluster + slice
  std::vector<uint32_t> cur;
  // The step's output becomes the stream; the old stream's buffer goes back to this thread's pool.
  void replace(std::vector<uint32_t> &&next);
  std::vector<uint32_t> stash;  // the Vector Engine's stash (vector_stash)
  // The DM the chain's first and second (interleaved) tensors are read from: this slice's, or that of
  // the slice holding a broadcast range (DmAlias). Set before the steps run.
  const uint8_t *dmIn[2] = {nullptr, nullptr};
  const uint8_t *dmRead(int k) const;  // dmIn[k], else this slice's own DM
  const uint8_t *trfIn = nullptr;      // the TRF the contraction reads (a TRF tensor held once: its owner's)
  const uint8_t *trfRead() const;      // trfIn, else this slice's own TRF
};
// Lane buffers reused by the steps of every chain on this thread (no allocation, page fault and
// zero fill of a fresh stream per slice and step): n lanes, zeroed.
std::vector<uint32_t> takeLanes(size_t n);
// A gather table (stream positions, -1: none) held as 32-bit entries: half the memory traffic per lane.
inline std::vector<int32_t> narrowTable(const std::vector<int64_t> &t) { return std::vector<int32_t>(t.begin(), t.end()); }
void giveLanes(std::vector<uint32_t> &&buffer);
using Step = std::function<void(SliceRun &)>;
// A step across slices (the Switch Engine): rebuilds the streams of every slice of `runs` (indexed by flat slice id).
using Exchange = std::function<void(std::vector<SliceRun> &runs)>;

// The stream's layout: its type and the tensor-index key of every position (rows × times × lanes).
struct StreamLayout {
  TensorType type;
  size_t rows = 1, times = 1, lanes = 1;
  std::vector<int64_t> keys;  // in the chain's full axis space; -1 for padding
};

// Compiles the ops of a chain one at a time; every index lookup happens here, once, since the
// within-slice tables are the same for every slice. The steps then only gather and scatter.
class ChainBuilder {
 public:
  ChainBuilder(DeviceImpl &device, Placements &placed, const std::vector<const TypedOp *> &ops);

  void add(const TypedOp &op);
  std::vector<Step> steps;
  std::pair<uint64_t, uint64_t> reads[2] = {{0, 0}, {0, 0}};  // the DM ranges begin reads ([lo, hi) per slice)
  std::vector<std::pair<uint64_t, uint64_t>> writes;          // the DM ranges the chain's commits write
  std::optional<TrfSpan> trfRead;   // the TRF tensor the contraction reads
  std::optional<TrfSpan> trfWrite;  // the TRF tensor to_trf writes
  bool trfWriteWhole = false;         // ... every element of it
  // Every step a function of the DM bytes the chain reads (begin, fetch, collect, to_trf; no Switch
  // Engine): slices reading the same bytes compute the same TRF tensor.
  bool onlyReadsDm = true;
  TensorType sliceType;  // Chip/Cluster/Slice of the chain (at its begin)
  // Exchanges run before steps[at]; afterwards the chain runs on the slices of `slices`.
  struct Switch {
    size_t at;
    Exchange exchange;
    TensorType slices;
  };
  std::vector<Switch> switches;

 private:
  // DeviceChainStream.cpp
  void begin(const TypedOp &op);
  void fetch(const TypedOp &op);
  void relayout(const TensorType &to);  // the same tensor, laid out as to's Time × Packet
  void switchSlices(const TypedOp &op);  // DeviceChainSwitch.cpp
  void alignStream(const TypedOp &op);   // DeviceChainAlign.cpp
  void toTrf(const TypedOp &op);
  void toVrf(const TypedOp &op);
  void commit(const TypedOp &op);
  // DeviceChainCompute.cpp
  void contract(const TypedOp &op);
  void accumulate(const TypedOp &op);
  void cast(const TypedOp &op);
  // DeviceVector.cpp / DeviceVectorReduce.cpp: the Vector Engine
  void vector(const TypedOp &op);
  void intraSliceReduce(const TypedOp &op);
  void interSliceReduce(const TypedOp &op);
  // Where an operand's lane values come from.
  struct LaneSource {
    enum Kind { Constant, Vrf, Stash } kind = Constant;
    uint32_t constant = 0;
    std::vector<int64_t> pos;  // Vrf: element position per lane; Stash: stash position per lane
    uint64_t addr = 0;
    num::DType dtype = num::DType::i32;
    std::vector<uint32_t> lanes(SliceRun &s, size_t begin, size_t len) const;
  };
  LaneSource laneSource(const TypedOp &op, const VeOperandArg &o);
  void transpose(const TypedOp &op);  // DeviceTranspose.cpp

  StreamLayout layoutOf(const TensorType &t, bool withRow) const;
  std::string where(const TypedOp &op) const;

  DeviceImpl &dev_;
  Placements &placed_;
  AxisSpace full_;
  StreamLayout stream_;
  TensorType src_;
  uint64_t srcAddr_ = 0;
  MappingRef interleave_;     // begin_interleaved: the axis (size 2) whose I = 1 reads the second tensor
  uint64_t srcAddr2_ = 0;     // ... at this DM address
  void readDm(int k, uint64_t address, uint64_t bytes);  // reads[k], a broadcast range it overlaps resolved
  std::optional<TensorType> trf_;  // align's operand
  uint64_t trfOffset_ = 0;
  MappingRef groupAxis_;             // two-group mode: the grouping axis, kept as the major part of Time
  std::string toggleAxis_;           // BranchMode::AxisToggle: the axis whose index parity is the group
  std::vector<int64_t> stashKeys_;   // the stash's layout
  // The last step when it is a plain fetch (no adapter stage): its DM gather table. A gather-only
  // step right after it (collect, align) is folded into that table instead of running on its own.
  std::optional<size_t> fetchAt_;
  std::vector<int32_t> fetchPos_;
  num::DType fetchType_ = num::DType::i8;
  void plainFetch(std::vector<int32_t> pos);  // sets steps[*fetchAt_] (DeviceChainStream.cpp)
  bool foldGather(const std::vector<int64_t> &src);  // true when src was folded into the fetch
  // A to_trf ending the chain right after a plain fetch: one step copies DM into the TRF (DeviceChainStream.cpp).
  bool foldTrf(const std::vector<int64_t> &src, size_t E, uint64_t offset, num::DType d);
  const TypedOp *last_ = nullptr;  // the chain's last op
  std::shared_ptr<ContractKernel> contract_;  // the last contraction step (steps[contractAt_])
  size_t contractAt_ = 0;
};

}  // namespace tcp::interp

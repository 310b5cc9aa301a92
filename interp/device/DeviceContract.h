// DeviceContract.h — the Contraction Engine step of a chain: stream lanes times TRF weights through the Reducer tree (fast path and reference).
#pragma once

#include "NumericKernels.h"
#include "Numerics.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

namespace tcp::interp {

// The blocked plan of the bf16 fast path (DeviceContractTiles.cpp): packets taken kTileLanes at a time
// (at least 8: a partial tile) into tasks whose packets share one operand packet (broadcast) and whose
// other operands form a tile (stored transposed, shared by every task of the tile). Packets in no task
// form the rest.
struct TilePlan {
  bool weightTiles = false;           // tiles of weight packets (a stream packet broadcast), else of stream packets
  std::vector<uint32_t> tileIds;      // tiles × kTileLanes: the packet ids of each tile's side
  std::vector<num::TileTask> tasks;   // adjacent by tile
  std::vector<uint32_t> outIdx;       // output packets of tasks that are not affine
  std::vector<uint32_t> rest, restX, restW;  // the other packets and their stream and weight packets
  size_t tiles() const { return tileIds.size() / num::kTileLanes; }
  // Packet k multiplies stream packet xid[k] by weight packet wid[k]; picks the side that covers most packets.
  static TilePlan of(const std::vector<uint32_t> &xid, size_t xs, const std::vector<uint32_t> &wid, size_t ws);
};

struct ContractScratch;  // per-thread buffers of run() (DeviceContract.cpp)

// Optional facts about a step's operands. streamPos: the stream is read from DM (runFromDm), lane
// (t, p) = the DM element at streamPos[t * P + p] (-1: zero). timeClass: T entries; times of equal
// class have equal weight positions in every Row (positions() is asked once per Row and class).
struct ContractSource {
  const std::vector<int32_t> *streamPos = nullptr;
  const std::vector<uint32_t> *timeClass = nullptr;
};

// R Rows × T times × P lanes per packet, L = 2^D tree lanes, Q output lanes of the L >> depth sums.
struct ContractShape {
  size_t rows, times, lanes, treeLanes, outLanes, sums;
};

// One contraction step, compiled once per chain (the tables are the same for every slice). Lane
// (r, t, p) multiplies stream lane (t, p) (broadcast over Rows) by the TRF element at wpos[(r*T + t)*P + p]
// (-1: zero). run() gives out[(r*T + t)*Q + q] = sum q of packet (r, t), as f32 bits or i32.
class ContractKernel {
 public:
  ContractKernel(num::DType stream, num::DType trf, unsigned depth, ContractShape shape, const std::vector<int32_t> &wpos);
  // The same with packet k's P positions written by positions(k, pos) (no R*T*P table held).
  ContractKernel(num::DType stream, num::DType trf, unsigned depth, ContractShape shape,
                 const std::function<void(size_t, int32_t *)> &positions, const ContractSource &source = {});

  // The fast path: each distinct weight packet is gathered once per slice, stream packets once, and
  // the tree runs over packet pointers (bf16: NumericKernels' reduceTreeF32Packets; i8 and the scalar
  // types: their tree kernels over blocks of packets). Thread-safe; scratch is per thread.
  void run(const std::vector<uint32_t> &cur, const uint8_t *trf, std::vector<uint32_t> &out) const;
  // The same with the stream read from DM (a bf16 fetch folded into the step: the kernel was built with
  // streamPos, stream lane (t, p) = the DM element at streamPos[t * P + p], -1: zero); each distinct
  // stream packet is staged once.
  void runFromDm(const uint8_t *dm, const uint8_t *trf, std::vector<uint32_t> &out) const;
  // The reference: every lane of every packet materialized, then the tree (the path run() must equal bit for bit).
  void runReference(const std::vector<uint32_t> &cur, const uint8_t *trf, std::vector<uint32_t> &out) const;

  // Lays the bf16 outputs out in task order (each task's packets side by side, then the packets in no
  // task) instead of packet order, for a consumer that gathers them anyway (accumulate): the slot of
  // each packet k, whose sums q are then at out[slot[k] * Q + q] (a partial tile leaves unwritten slots
  // between). Before the first run; empty (and
  // nothing changed) when the kernel has no blocked plan.
  std::vector<uint32_t> outputsInTaskOrder();
  size_t packets() const { return shape_.rows * shape_.times; }
  size_t outLanes() const { return shape_.outLanes; }
  size_t distinctWeightPackets() const { return uniq_.size() / shape_.treeLanes; }
  // Packets the blocked tile kernel computes (bf16; the others go through the per-packet kernel).
  size_t tiledPackets() const {
    size_t n = 0;
    for (const num::TileTask &t : tiles_.tasks) n += t.lanes;
    return n;
  }

 private:
  num::DType d_, trf_;
  unsigned depth_;
  ContractShape shape_;
  std::vector<int32_t> uniq_;   // distinct weight packets: U × L TRF positions (-1: zero)
  std::vector<uint32_t> wid_;   // R*T: the distinct weight packet of each packet
  std::vector<uint32_t> xid_;   // R*T: the stream packet of each packet (t)
  TilePlan tiles_;              // bf16: the blocked plan
  std::vector<uint32_t> restSlot_;  // bf16: the output packet of each packet in no task (tiles_.rest unless reordered)
  size_t slots_ = 0;                 // output packets the step writes (more than packets() in task order: partial tiles' gaps)
  std::vector<int32_t> xpos_;   // runFromDm: distinct stream packets × P DM positions (xid_ indexes them)
  std::vector<int32_t> xbase_;  // ... the first position of a packet of L consecutive elements, else -1
  std::vector<int32_t> wbase_;   // the first TRF position of a weight packet of L consecutive elements, else -1
  std::vector<uint32_t> xRest_;  // runFromDm: the stream packets the packets outside the tiles read
  struct Span {                  // packets [first, first + count) are elements [base, base + count * L)
    uint32_t first, count;
    int32_t base;
  };
  std::vector<Span> xSpans_;     // runFromDm, every stream packet staged: the packets of consecutive elements in spans
  std::vector<Span> wSpans_;     // the same for the weight packets (wbase_)
  void runBf16(ContractScratch &s, const uint8_t *trf, unsigned ex, std::vector<uint32_t> &out, bool tilesStaged) const;
  void stagePacket(const uint8_t *dm, size_t u, uint32_t *to, size_t stride, unsigned &ex) const;
};

}  // namespace tcp::interp

// DmaPlan.h — the DMA Engine's sequencers of a transfer: read/write derivation, the compact DmaSequencer, engines and commands.
#pragma once

#include "Numerics.h"
#include "Sequencer.h"
#include "TensorType.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tcp {

enum class DmaMedia { Hbm, Dm };
const char *dmaMediaName(DmaMedia m);  // "HBM", "DM"

// The DM virtual address space of a DMA sequencer: each slice owns 4 MB ("slice_stride = 4MB =
// virtual address space of in_slice DM"), 32 slices form a DMN, 256 slices a cluster.
namespace dmspace {
constexpr uint64_t kSliceStride = uint64_t(1) << 22;
constexpr uint64_t kDmnStride = 32 * kSliceStride;
constexpr uint64_t kClusterStride = 256 * kSliceStride;
inline uint64_t address(unsigned cluster, unsigned slice, uint64_t offset) {
  return cluster * kClusterStride + slice * kSliceStride + offset;
}
}  // namespace dmspace

// One loop level of the compact DmaSequencer: a shared limit with a source and a destination
// stride ("DMA Command Syntax": `(limit, source_stride, dest_stride)`), strides in elements.
struct DmaEntry {
  uint64_t size = 1;
  int64_t src = 0, dst = 0;
  std::string term;      // the stream term it iterates, e.g. "A%4"
  int component = -1;    // index of the Time component it comes from (-1: Packet)
};

// One DmaDescriptor: the entries (outermost first; the innermost one is walked stride0 bytes at a
// time; strides in elements, as the manual prints sequencers), the bases (bytes: HBM offset within
// the chip, DM virtual address) and stride0 in bytes.
struct DmaCommand {
  std::vector<DmaEntry> entries;
  int64_t srcBase = 0, dstBase = 0;
  uint64_t stride0 = 1;
  // Steps (packets of stride0 bytes) the command moves.
  uint64_t steps(unsigned elemBits) const;
  // Calls fn(srcByteAddress, dstByteAddress) for every step, in sequencer order (at most `limit`).
  template <class Fn> void forEachStep(unsigned elemBits, Fn fn, uint64_t limit = UINT64_MAX) const;
  // "[A=8:(2048, 256), B=8:(256, 2048), C=256:(1, 1)], base=(0, 16384), stride0 = 256"
  std::string str(DmaMedia srcMedia, DmaMedia dstMedia, unsigned elemBits) const;
};

// The DMA Engine of a pair of DMNs ("one per pair of DMNs") and the commands it runs in sequence.
struct DmaEngineWork {
  unsigned cluster = 0, pair = 0;  // pair = slice / 64 within the cluster
  std::vector<DmaCommand> commands;
};

// One row of a cross-chip transfer's destination table: source chip `chip` runs the commands with
// `writeBase` bytes added to every write address (global space: destination chip * chip_stride).
struct DmaRoute {
  unsigned chip = 0;
  int64_t writeBase = 0;
};

// A whole transfer (an aggregate operation): the same stream on every engine of every chip.
struct DmaPlan {
  DmaMedia src = DmaMedia::Hbm, dst = DmaMedia::Dm;
  unsigned elemBits = 8;
  unsigned chips = 1;                   // chips running the same engines in parallel
  SeqConfig read, write;                // the two sequencers of one engine, before segmentation
  DmaCommand shared;                    // the compact DmaSequencer of one engine (bases of engine 0)
  std::vector<DmaEngineWork> engines;   // active engines of one chip
  std::vector<std::string> diagnostics; // lowercase, naming the entry and the manual's rule
  bool byteExact = true;                // every step moves whole bytes (false: single i4 elements)
  // Across chips (DmaChips.h): write addresses are in a global space where chip k starts at
  // k * chip_stride, and each route (source chip, write base) runs the engines' commands once,
  // adding its base to the writes: the per-source-chip destination table. A source chip has one
  // route per copy it writes (several: a broadcast over chips), none when it holds no data.
  // chipStrided: the write sequencer itself steps chips (the destination's Chip mapping names
  // stream axes: an all-to-all, a scatter); else each route writes one whole chip (a shuffle, a
  // gather into any chip, a broadcast), DM destinations included.
  bool crossChip = false;
  bool chipStrided = false;
  std::vector<DmaRoute> routes;
  bool ok() const { return diagnostics.empty(); }
  bool sameMemory() const;              // both sides in the same memory (HBM↔HBM, DM↔DM)
};

// A DMA transfer from a tensor of type `in` at srcAddr to `out` at dstAddr, moving the per-engine
// stream (time, packet). The engines are the DM side's (cluster, slice / 64) positions (the
// source's when both are DM); a transfer between HBM tensors runs on one engine.
struct DmaRequest {
  TensorType in, out;
  uint64_t srcAddr = 0, dstAddr = 0;
  MappingRef time, packet;
  bool pairEngines = true;  // false: one engine per cluster, the stream covering all its slices
};
DmaPlan planDma(const DmaRequest &request);

// The stream a `to_dm` / `to_hbm` without an explicit one uses: the DM element's outer part, then
// the slices within the engine (slice % 32, then the DMN, so requests alternate DMNs), and the
// element's innermost run of at most 4096 bytes as the packet.
// `mode` 1 keeps the 64 slices of a pair as one term, mode 2 streams the whole slice mapping (for
// one engine per cluster): fallbacks when the slice mapping does not split at the DMN or the pair.
std::pair<MappingRef, MappingRef> defaultDmaStream(const TensorType &dm, int mode = 0);

template <class Fn> void DmaCommand::forEachStep(unsigned elemBits, Fn fn, uint64_t limit) const {
  if (entries.empty() || limit == 0) return;
  uint64_t done = 0;
  // The innermost entry is walked in chunks of stride0 bytes.
  const DmaEntry &in = entries.back();
  uint64_t chunk = stride0 * 8 / elemBits;
  if (chunk == 0) chunk = 1;
  uint64_t innerSteps = in.size / chunk ? in.size / chunk : 1;
  size_t outer = entries.size() - 1;
  std::vector<uint64_t> idx(outer, 0);
  auto bytes = [&](int64_t elems) { return elems * int64_t(elemBits) / 8; };
  while (true) {
    int64_t s = srcBase, d = dstBase;
    for (size_t k = 0; k < outer; ++k) {
      s += bytes(int64_t(idx[k]) * entries[k].src);
      d += bytes(int64_t(idx[k]) * entries[k].dst);
    }
    for (uint64_t j = 0; j < innerSteps; ++j) {
      fn(uint64_t(s + bytes(int64_t(j * chunk) * in.src)), uint64_t(d + bytes(int64_t(j * chunk) * in.dst)));
      if (++done == limit) return;
    }
    size_t k = outer;
    while (k > 0 && ++idx[k - 1] == entries[k - 1].size) idx[--k] = 0;
    if (k == 0) break;
  }
}

}  // namespace tcp

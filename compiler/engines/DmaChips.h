// DmaChips.h — DMA transfers across chips: the global chip_stride space, the per-source-chip destination table (routes), PCIe traffic.
#pragma once

#include "DmaPlan.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tcp {

// The write sequencer of a cross-chip transfer addresses a global HBM space in which chip k's HBM
// starts at k * kChipStride bytes (`Media ::= HBM(<ChipIndex>)`); 2^40 bytes exceeds a chip's HBM.
namespace chipspace {
constexpr uint64_t kChipStride = uint64_t(1) << 40;
constexpr uint64_t kPcieBytesPerCycle = 30;  // "Inter-chip transfers via PCIe at 30 bytes/cycle"
}  // namespace chipspace

// An HBM stride (elements) with its chip part spelled `k * chip_stride + r`; other media: the number.
std::string hbmStrideText(DmaMedia m, int64_t stride, unsigned bits, const std::string &times);
// An HBM base: bytes below chip_stride as the number, else `HBM(k)@offset`.
std::string hbmBaseText(int64_t bytes);

// True when the source and destination Chip mappings place some element on different chips.
bool dmaCrossesChips(const TensorType &in, const TensorType &out);

// The destination buffer of a cross-chip write: the Chip mapping, then the element.
MappingRef chipBuffer(const TensorType &out);

// A stride (elements) in the chip-then-element buffer as a stride in the global HBM space.
int64_t toChipSpace(const TensorType &out, unsigned bits, int64_t stride);

// The routes of a chip-strided transfer (the write sequencer steps chips): one per source chip,
// its write offset (bytes, global space) the position its Chip index takes in the destination's
// chip-then-element buffer. nullopt when the source's Chip mapping does not place its chips at
// regular offsets of that buffer.
std::optional<std::vector<DmaRoute>> chipStridedRoutes(const TensorType &in, const TensorType &out, unsigned bits);

// True when the destination's Chip mapping names an axis the stream (time, packet) iterates: the
// write sequencer steps chips (an all-to-all, a scatter), else each source chip writes whole chips.
bool chipStreamed(const TensorType &out, const MappingRef &time, const MappingRef &packet);

// The routes of a whole-chip transfer (a shuffle or rotation, a gather into any chip, a broadcast
// over chips): source chip c writes its data to every destination chip k whose Chip index agrees
// with c's on the axes both Chip mappings name (a destination Chip axis the source does not hold is
// a broadcast: every position gets a copy); the write base is k * chip_stride plus the offset of
// c's Chip index in the destination's single-chip buffer `outBuf` (bytes: `toBytes`). `problem` is
// set (lowercase, naming the rule) when the placement cannot be served this way.
struct ChipRoutes {
  std::vector<DmaRoute> routes;
  std::string problem;
};
ChipRoutes wholeChipRoutes(const TensorType &in, const TensorType &out, const MappingRef &outBuf, unsigned bits);

// Why the planned routes do not write the chips the destination's `Chip` mapping holds (a source
// chip without a route, a held chip no route writes). nullopt when they agree.
std::optional<std::string> chipPlacementProblem(const DmaPlan &plan, const TensorType &out);

// PCIe traffic of a cross-chip transfer, walking every route's commands: bytes each chip sends to
// other chips and bytes each chip receives from others (the manual's 30 B/cycle "for both reads
// and writes").
struct PcieTraffic {
  std::vector<uint64_t> sent, received;   // per chip
  std::vector<uint64_t> perRoute;         // bytes each route sends off its chip
  std::vector<std::vector<uint64_t>> routeChips;  // destination chips of each route
};
PcieTraffic pcieTraffic(const DmaPlan &plan, unsigned chips);

}  // namespace tcp

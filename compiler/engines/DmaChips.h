// DmaChips.h — DMA transfers across chips: the destination's global HBM space (chip_stride), per-chip write bases, bytes over PCIe.
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

// The write offset (bytes, global HBM space) of every source chip: the position its Chip index
// takes in the destination buffer; nullopt entries are chips the source does not use. nullopt when
// the source's Chip mapping does not place its chips at regular offsets of the destination.
std::optional<std::vector<std::optional<int64_t>>> chipWriteOffsets(const TensorType &in, const TensorType &out,
                                                                    unsigned bits);

// Why the device model cannot honour a planned cross-chip write exactly: the destination's Chip
// mapping holds data on other chips than those the transfer writes (e.g. a gather into chip 2,
// `m![# 2 + 1 + # 1]`, which the chip-major write places on chip 0). nullopt when they agree.
std::optional<std::string> chipPlacementProblem(const DmaPlan &plan, const TensorType &out);

// The axes of a destination's Chip mapping that the source does not hold: a broadcast over chips
// (an all-gather written `m![X]`), which one write per element cannot produce.
std::vector<std::string> broadcastChipAxes(const TensorType &in, const TensorType &out);

// Bytes each source chip's engines send to another chip (the PCIe traffic), walking the commands.
std::vector<uint64_t> pcieBytesPerChip(const DmaPlan &plan);

}  // namespace tcp

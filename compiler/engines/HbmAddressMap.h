// HbmAddressMap.h — the HBM address bit map of "Memory Performance" (stack, XOR channel, bank group, bank, slice, row).
#pragma once

#include <cstdint>

namespace tcp::hbm {

constexpr unsigned kStacks = 2;
constexpr unsigned kChannelsPerStack = 16;
constexpr unsigned kChannels = kStacks * kChannelsPerStack;  // 32 per chip
constexpr uint64_t kUnitBytes = 256;                         // bits 0-7: the 256-byte access unit

// Where an HBM byte address lands ("High-Bandwidth Memory (HBM)" > Address Space in a Chip):
//   bit 8 stack; bits 9-12 channel, XOR-ed with bits 13-28 four at a time (channel bit k =
//   b[9+k] ^ b[13+k] ^ b[17+k] ^ b[21+k] ^ b[25+k]); bits 13 and 19 bank group; bits 17-18 bank;
//   bits 20 and 34 slice; bits 21-33 and 35 row; bits 0-7 and 14-16 the byte within the 2K row.
struct HbmLocation {
  unsigned stack = 0;
  unsigned channel = 0;        // within the stack, 0..15
  unsigned bankGroup = 0;      // 0..3
  unsigned bank = 0;           // within the bank group, 0..3
  unsigned slice = 0;          // 0..2 (two bits)
  uint64_t row = 0;
  unsigned column = 0;         // byte within the 2K row
  unsigned globalChannel() const { return stack * kChannelsPerStack + channel; }  // 0..31
  // A bank of the whole chip: channel, slice, bank group and bank.
  unsigned globalBank() const { return ((globalChannel() * 4 + slice) * 4 + bankGroup) * 4 + bank; }
};

HbmLocation decode(uint64_t address);

// Column-to-column delay between two consecutive commands of one channel ("Column-to-Column
// Delay"), in 1.5 GHz cycles: 2 same slice / different bank group, 3 different slice, 4 same
// slice / same bank group.
unsigned tccd(const HbmLocation &previous, const HbmLocation &next);

}  // namespace tcp::hbm

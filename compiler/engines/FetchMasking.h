// FetchMasking.h — the Fetch Adapter's masking registers for a fetch whose packets hold padding lanes.
#pragma once

#include "Sequencer.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tcp {

// "Fetch Adapter" → Masking: padded lanes are forced to the neutral value (pad_value 0). The
// registers name a configuration entry (`last_dim`) and how many lanes of the packet stay valid:
//   single  every packet keeps `validCount` lanes when the counter of entry `lastDim` is at its last
//           value (all lanes otherwise); lastDim == the packet entry: every packet (cases 1 and 2,
//           and `A # 64`).
//   perIndex the valid count depends on the counter of entry `countDim` (at most 8 values), one
//           count per value (case 3: [16, 16, 16, 16, 16, 16, 1, 0]).
struct MaskPlan {
  bool needed = false;             // some lane of some packet is padding
  bool perIndex = false;
  size_t lastDim = 0;              // entry index (0 = outermost)
  size_t countDim = 0;             // perIndex: the entry whose counter selects the count
  uint64_t leftPad = 0;            // lanes masked at the start of the packet (when the counter is 0)
  uint64_t packetLanes = 0;        // dim0: lanes per sequencer packet
  std::vector<uint64_t> validCounts;  // single: one count; perIndex: one per counter value
  std::string error;               // set when the padding lanes cannot be expressed by the registers
};

// Derives the masking of the configuration `config` reading the stream (time, packet) from `buf`:
// a lane is padding when the stream's index at that lane is not an element of the tensor.
MaskPlan planMasking(const SeqConfig &config, const MappingRef &time, const MappingRef &packet);

}  // namespace tcp

// TrfSequencer.h — the TRF Sequencer's read plan: reg_read_size, the packet broadcast and the (size, stride) entries
// that walk a TRF tensor as the computation mapping ("TRF Sequencer" > TRF Read Mechanism, Sequencer Configuration).
#pragma once

#include "Sequencer.h"
#include "TensorType.h"

#include <string>
#include <vector>

namespace tcp {

constexpr uint64_t kMacWidthBytes = 64;  // "Every cycle, the Reducer consumes exactly mac_width (64 bytes)"

struct TrfReadPlan {
  uint64_t regReadBytes = 0;       // contiguous bytes read per cycle: 1, 2, 4, ..., 64 (0: none found)
  uint64_t broadcast = 1;          // mac_width / reg_read_size: how often the read repeats in the packet
  std::vector<SeqEntry> entries;   // the Time loops, outermost first; strides in bytes (0: broadcast)
  std::vector<std::string> diagnostics;  // lowercase, naming the rule
  bool ok() const { return diagnostics.empty(); }
};

// The read plan for a TRF tensor (its Element, element type `trf.dtype`) read as the computation
// mapping (time, packet): reg_read_size is the largest power of two of bytes (≤ 64) such that the
// packet is one contiguous TRF run of that size repeated (stream padding lanes multiply zeros and
// take anything); every Time term becomes an entry whose stride is the TRF byte distance of one step
// (0 for axes the TRF lacks: temporal broadcasting). With reg_read_size = 64 the strides must be
// multiples of 64 bytes (a 64-byte read spans both bank columns).
TrfReadPlan planTrfRead(const TensorType &trf, const MappingRef &time, const MappingRef &packet);

// Per Row, how many elements of `d` the TRF holds in a region (`TrfAddress::Full` 128 rows, a half
// 64 rows, of 2 bank columns × 320 bits): bf16 (reg_types 3, 20-bit slots) 16 per 320-bit row, i8/f8
// (10-bit) 32, i4 (5-bit) 64. 0 for types the TRF does not hold.
uint64_t trfElementsPerRow(num::DType d, bool half);
// The manual's reg_types code of a TRF element type (0 i4, 1/2 i8/f8, 3 bf16), -1 if none.
int trfRegType(num::DType d);

}  // namespace tcp

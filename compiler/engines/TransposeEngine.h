// TransposeEngine.h — the Transpose Engine: per-type limits, the configuration a transpose's types imply, its position map and cycles.
//
// "Transpose Engine": the engine reads in_rows × packets_per_col consecutive input packets per
// iteration (Time = [..., in_rows, packets_per_col], packets_per_col innermost), keeps the first
// elements_per_packet elements of each (Unpack) to form an [in_rows × in_cols] matrix with
// in_cols = packets_per_col × elements_per_packet, transposes it, keeps the first out_rows of its
// in_cols rows (Trim) and pads every row of in_rows elements to one 32-byte packet (Align). One
// iteration yields out_rows output packets; OutTime::SIZE = n × out_rows.
#pragma once

#include "TensorType.h"

#include <optional>
#include <string>
#include <vector>

namespace tcp {

// "Transpose Engine" > Internal Buffer Architecture: two buffers of 16 columns each.
constexpr uint64_t kTransposeBufferCols = 16;

// "Transpose Engine" > Constraints, per element width.
struct TransposeLimits {
  unsigned bits = 0;               // 4, 8, 16 or 32
  uint64_t elementsPerPacket = 0;  // 16 (4-bit) or 8 (Input Bus Constraints)
  uint64_t outputAlignment = 0;    // elements per 32-byte output packet
  uint64_t maxInRows = 0;          // 16 / 8 / 4 / 2
  std::vector<uint64_t> validInCols;  // {16, 32} (4-bit) or {8, 16, 32}
};
TransposeLimits transposeLimits(num::DType d);
std::string transposeWidthName(num::DType d);  // "8-bit"

// A transpose configuration and its cost ("Performance" > Cycle Calculation).
struct TransposeConfig {
  unsigned bits = 8;  // element width: 4, 8, 16 or 32 (TransposeLimits)
  uint64_t inRows = 0, packetsPerCol = 0, elementsPerPacket = 0, outRows = 0, outputAlignment = 0, n = 0;
  uint64_t inLanes = 0, outLanes = 0;  // elements of the input / output packet (32 bytes each)

  uint64_t inCols() const { return packetsPerCol * elementsPerPacket; }
  bool doubleBuffered() const { return inCols() <= kTransposeBufferCols; }
  uint64_t inputFlitsPerIter() const { return inRows * packetsPerCol; }
  uint64_t outputFlitsPerIter() const { return outRows; }
  // max(input, output) when double-buffered, input + output when single-buffered.
  uint64_t cyclesPerIter() const;
  // Double: input + (n − 1) × cycles_per_iter + output; single: n × cycles_per_iter.
  uint64_t cycles() const;
  // The input position (time × inLanes + lane) output position (outTime, outLane) holds, or -1 for
  // alignment padding.
  int64_t source(uint64_t outTime, uint64_t outLane) const;
};

// The configuration that turns `in` (Time, Packet) into `out` (OutTime, OutPacket), or the
// problems (lowercase messages naming the size, axis and the manual's rule) when none does.
struct TransposeCheck {
  std::optional<TransposeConfig> config;
  std::vector<std::string> errors;
};
TransposeCheck checkTranspose(const TensorType &in, const TensorType &out);

}  // namespace tcp

// StreamAdapter.h — the Aligner's data path: flit collection (collect_flits), Rows broadcast and Time broadcast
// (tiling axes) that turn the collected stream into the computation mapping ("Stream Adapter").
#pragma once

#include "MappingFactor.h"
#include "TensorType.h"

#include <string>
#include <vector>

namespace tcp {

struct StreamAdapterPlan {
  int collectFlits = 0;             // 1 or 2 (0 when the computation mapping is not reachable)
  std::vector<FactorTerm> tiling;   // OutTime terms absent from the stream: repeated activations (stride 0)
  uint64_t tilingSize = 1;          // product of the tiling terms' sizes
  // Shift-reuse (convolutions): the collected flits stay in the flit buffer while the innermost
  // OutTime terms (size shiftCount + 1) step through windows shifted by shiftStride lanes each.
  uint64_t shiftCount = 0, shiftStride = 0;
  std::string shiftTerms;           // the OutTime terms that step the shift ("Fw", "Fw / 2")
  std::string problem;              // lowercase diagnostic naming the rule, empty when fine
};

// How the Stream Adapter produces (outTime, outPacket) from a collected stream `in` (32-byte flits):
// collect_flits = 2 moves the innermost flit pair of Time into the packet (OutPacket = [Time % 2,
// Packet]), collect_flits = 1 zero-pads the flit to 64 bytes; the remaining Time keeps its order,
// followed by the tiling axes ("Tiling axes are placed at the innermost positions of OutTime").
// Otherwise shift-reuse: collect_flits (2 or 3, at most the 96-byte flit buffer) flits of the
// innermost Time axis are buffered, and the innermost (non-tiling) OutTime terms step a window of
// OutPacket lanes through them, lane q of shift s reading buffered lane q + s × shift_stride (the
// convolution case studies: `$(W + Fw)` → Fw, W with shift_stride 1).
StreamAdapterPlan planStreamAdapter(const TensorType &in, const MappingRef &outTime, const MappingRef &outPacket);

}  // namespace tcp

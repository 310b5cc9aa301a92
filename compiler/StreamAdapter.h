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
  std::string problem;              // lowercase diagnostic naming the rule, empty when fine
};

// How the Stream Adapter produces (outTime, outPacket) from a collected stream `in` (32-byte flits):
// collect_flits = 2 moves the innermost flit pair of Time into the packet (OutPacket = [Time % 2,
// Packet]), collect_flits = 1 zero-pads the flit to 64 bytes; the remaining Time keeps its order,
// followed by the tiling axes ("Tiling axes are placed at the innermost positions of OutTime").
// collect_flits = 3 only serves shift-reuse (convolutions), which tcp does not model.
StreamAdapterPlan planStreamAdapter(const TensorType &in, const MappingRef &outTime, const MappingRef &outPacket);

}  // namespace tcp

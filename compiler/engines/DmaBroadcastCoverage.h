// DmaBroadcastCoverage.h — a DMA must write every copy of a broadcast: the axes the destination has and the source lacks.
#pragma once

#include "TensorType.h"

#include <optional>
#include <string>

namespace tcp {

// An axis of the destination (Cluster, Slice, Element) that no mapping of the source holds is a
// broadcast: the stream (the DMN pairs `engine`, Time, Packet) must iterate every coordinate of it,
// or the other copies are never written. The diagnostic, or nullopt.
std::optional<std::string> broadcastCoverageProblem(const TensorType &in, const TensorType &out, const MappingRef &engine,
                                                    const MappingRef &time, const MappingRef &packet, bool dmPairs);

}  // namespace tcp

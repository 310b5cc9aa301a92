// StreamTables.h — the gather table of a fetch and the scatter table of a commit, by tensor index.
#pragma once

#include "Mapping.h"

#include <cstdint>
#include <vector>

namespace tcp::interp {

// For every lane of the stream (Time, Packet), time-major: the position of the DM element `buf`
// holds with the lane's tensor index, or -1 (a padding lane, masked to the neutral value 0). Stream
// axes that `buf` lacks are broadcast (the same element for every value of the axis).
std::vector<int64_t> fetchGatherTable(const MappingRef &buf, const MappingRef &time, const MappingRef &packet);

// For every lane of the stream (Time, Packet), time-major: the position of `element` the commit
// writes the lane to, or -1 when the destination does not hold the lane's index (padding, or lanes
// that a truncation or a deliberate slice drops).
std::vector<int64_t> commitScatterTable(const MappingRef &element, const MappingRef &time, const MappingRef &packet);

}  // namespace tcp::interp

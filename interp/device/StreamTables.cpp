// StreamTables.cpp — fetch gather and commit scatter tables: stream lanes matched to buffer positions by key.
#include "StreamTables.h"

#include "DeviceIndex.h"

namespace tcp::interp {

namespace {
std::vector<int64_t> match(const MappingRef &buf, const MappingRef &time, const MappingRef &packet) {
  AxisSpace space = AxisSpace::of({buf});
  KeyIndex positions(keyTable(buf, space));
  std::vector<int64_t> lanes = streamKeys(time, packet, space);
  return positions.findAll(lanes);
}
}  // namespace

std::vector<int64_t> fetchGatherTable(const MappingRef &buf, const MappingRef &time, const MappingRef &packet) {
  return match(buf, time, packet);
}

std::vector<int64_t> commitScatterTable(const MappingRef &element, const MappingRef &time, const MappingRef &packet) {
  return match(element, time, packet);
}

}  // namespace tcp::interp

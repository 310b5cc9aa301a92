// StreamTables.cpp — fetch gather and commit scatter tables: stream lanes matched to buffer positions by key.
#include "StreamTables.h"

#include "DeviceIndex.h"

namespace tcp::interp {

namespace {
std::vector<int64_t> match(const MappingRef &buf, const MappingRef &time, const MappingRef &packet) {
  AxisSpace space = AxisSpace::of({buf});
  std::vector<int64_t> keys = keyTable(buf, space);
  return KeyIndex::positions(keys, streamKeys(time, packet, space));
}
}  // namespace

std::vector<int64_t> fetchGatherTable(const MappingRef &buf, const MappingRef &time, const MappingRef &packet) {
  return match(buf, time, packet);
}

std::vector<int64_t> commitScatterTable(const MappingRef &element, const MappingRef &time, const MappingRef &packet) {
  return match(element, time, packet);
}

}  // namespace tcp::interp

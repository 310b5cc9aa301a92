// StreamTables.cpp — fetch gather and commit scatter tables: stream lanes matched to buffer positions by key.
#include "StreamTables.h"

#include "DeviceIndex.h"

namespace tcp::interp {

namespace {
std::vector<int64_t> match(const MappingRef &buf, const MappingRef &time, const MappingRef &packet) {
  AxisSpace space = AxisSpace::of({buf});
  std::vector<int64_t> keys = keyTable(buf, space);
  std::vector<int64_t> lanes = streamKeys(time, packet, space);
  // A buffer whose position i holds key i (its axes in order, unpadded: the usual DM tensor) needs
  // no index: a lane's key is its position.
  bool identity = true;
  for (size_t i = 0; i < keys.size() && identity; ++i) identity = keys[i] == int64_t(i);
  if (identity) {
    for (int64_t &k : lanes) k = k >= 0 && uint64_t(k) < keys.size() ? k : -1;
    return lanes;
  }
  return KeyIndex(keys).findAll(lanes);
}
}  // namespace

std::vector<int64_t> fetchGatherTable(const MappingRef &buf, const MappingRef &time, const MappingRef &packet) {
  return match(buf, time, packet);
}

std::vector<int64_t> commitScatterTable(const MappingRef &element, const MappingRef &time, const MappingRef &packet) {
  return match(element, time, packet);
}

}  // namespace tcp::interp

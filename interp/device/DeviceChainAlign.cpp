// DeviceChainAlign.cpp — the Stream Adapter in the CPU model: collected flits become computation packets, tiling axes repeat them.
#include "DeviceChain.h"

#include <algorithm>
#include <unordered_map>

namespace tcp::interp {

// The Stream Adapter ("Stream Adapter" > Conceptual Operation): every computation lane (OutTime ×
// OutPacket) takes the collected lane holding the same coordinates of the stream's axes. Axes the
// stream lacks (tiling axes of a Time broadcast) drop out of the key, so their steps repeat the same
// activations; OutPacket padding (collect_flits = 1) is zero. Rows are broadcast by the Reducer.
void ChainBuilder::alignStream(const TypedOp &op) {
  const TensorType &in = stream_.type;
  AxisSpace space = AxisSpace::of({in.time, in.packet});
  std::vector<int64_t> want = streamKeys(op.out.time, op.out.packet, space);
  std::vector<int64_t> src(want.size(), -1);
  MappingRef stream = Mapping::pair(in.time, in.packet);
  if (stream && stream->multiValued()) {
    // Shift-reuse over a linear combination (`$(W + Fw)`): a buffered lane holds every decomposition
    // of its position, and a shifted window lane reads whichever the computation index names.
    std::unordered_map<int64_t, int64_t> at;
    for (uint64_t i = 0; i < stream->size(); ++i)
      for (const Index &idx : stream->mapAll(i)) at.emplace(space.key(idx), int64_t(i));
    for (size_t i = 0; i < want.size(); ++i)
      if (auto it = at.find(want[i]); want[i] >= 0 && it != at.end()) src[i] = it->second;
  } else {
    // (Packets in the stream's own order, a flit split into computation packets, take themselves.)
    src = KeyIndex::positions(streamKeys(in.time, in.packet, space), want);
  }
  stream_ = layoutOf(op.out, false);
  if (foldGather(src)) return;  // straight after a plain fetch: one gather from DM
  steps.push_back([src = narrowTable(src)](SliceRun &s) {
    std::vector<uint32_t> out = takeLanes(src.size());
    for (size_t i = 0; i < src.size(); ++i)
      if (src[i] >= 0) out[i] = s.cur[src[i]];
    s.replace(std::move(out));
  });
}

}  // namespace tcp::interp

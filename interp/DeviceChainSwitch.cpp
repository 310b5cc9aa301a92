// DeviceChainSwitch.cpp — the Switch Engine: streams move between the slices of a cluster by tensor index.
#include "DeviceChain.h"

namespace tcp::interp {

// Every output lane (slice', time', packet) takes the input lane (slice, time, packet) holding the same
// tensor index; output axes the input lacks (Broadcast) are dropped from the lookup, so they replicate.
// Chip and Cluster pass through unchanged. Which named topology (Forward, Broadcast01, Transpose, ...)
// realizes the movement is not modelled: any index-preserving movement is accepted.
void ChainBuilder::switchSlices(const TypedOp &op) {
  const TensorType &in = stream_.type, &out = op.out;
  if (in.chip->str() != out.chip->str() || in.cluster->str() != out.cluster->str())
    throw DeviceError{where(op) + ": a switch that changes Chip or Cluster is not modelled"};
  AxisSpace space = AxisSpace::of({in.slice, in.time, in.packet});
  std::vector<int64_t> srcLane = combineKeys(keyTable(in.time, space), keyTable(in.packet, space));
  std::vector<int64_t> srcKeys = combineKeys(keyTable(in.slice, space), srcLane);
  KeyIndex src(srcKeys);
  std::vector<int64_t> dstKeys =
      combineKeys(keyTable(out.slice, space), combineKeys(keyTable(out.time, space), keyTable(out.packet, space)));
  std::vector<int64_t> from(dstKeys.size());
  for (size_t i = 0; i < from.size(); ++i) from[i] = src.find(dstKeys[i]);
  size_t inLanes = srcLane.size(), outLanes = out.time->size() * out.packet->size();
  size_t inSlices = in.slice->size(), outSlices = out.slice->size();
  // Groups: the (chip, cluster) pairs the stream occupies.
  AxisSpace none = AxisSpace::of({});
  TensorType group = in;
  group.slice = Mapping::identity();  // size 1: one entry per (chip, cluster)
  std::vector<unsigned> bases;
  for (const ActiveSlice &a : dev_.activeSlices(group, none)) bases.push_back(a.id);
  Exchange ex = [from = std::move(from), inLanes, outLanes, inSlices, outSlices, bases](std::vector<SliceRun> &runs) {
    for (unsigned base : bases) {
      std::vector<std::vector<uint32_t>> next(outSlices);
      for (size_t s = 0; s < outSlices; ++s) {
        next[s].assign(outLanes, 0);
        for (size_t l = 0; l < outLanes; ++l) {
          int64_t f = from[s * outLanes + l];
          if (f < 0) continue;
          const std::vector<uint32_t> &cur = runs[base + f / inLanes].cur;
          size_t lane = size_t(f % inLanes);
          if (lane < cur.size()) next[s][l] = cur[lane];
        }
      }
      for (size_t s = 0; s < std::max(inSlices, outSlices); ++s) runs[base + s].cur.clear();
      for (size_t s = 0; s < outSlices; ++s) runs[base + s].cur = std::move(next[s]);
    }
  };
  switches.push_back({steps.size(), std::move(ex), out});
  stream_ = layoutOf(out, false);
}

}  // namespace tcp::interp

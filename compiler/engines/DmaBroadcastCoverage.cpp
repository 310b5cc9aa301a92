// DmaBroadcastCoverage.cpp — a DMA must write every copy of a broadcast (destination axes the source lacks).
#include "DmaBroadcastCoverage.h"

#include "TensorCoverage.h"

#include <set>

namespace tcp {

std::optional<std::string> broadcastCoverageProblem(const TensorType &in, const TensorType &out, const MappingRef &engine,
                                                    const MappingRef &time, const MappingRef &packet, bool dmPairs) {
  std::set<std::string> sourceAxes;
  for (const MappingRef &m : {in.chip, in.cluster, in.slice, in.element})
    if (m)
      for (const AxisInfo &a : m->axes()) sourceAxes.insert(a.name);
  MappingRef dest = out.tier == Tier::Dm ? Mapping::pair(out.cluster, Mapping::pair(out.slice, out.element)) : out.element;
  if (!dest || !engine || !time || !packet) return std::nullopt;
  Coverage want = coverageOf({dest}), have = coverageOf({engine, time, packet});
  if (!want.known || !have.known) return std::nullopt;
  for (const auto &[axis, coords] : want.axes) {
    if (sourceAxes.count(axis)) continue;
    llvm::BitVector missing = coords;
    if (auto it = have.axes.find(axis); it != have.axes.end()) {
      llvm::BitVector got = it->second;
      got.resize(missing.size());
      missing.reset(got);
    } else if (!missing.empty()) {
      missing.reset(0);  // a stream without the axis writes its coordinate 0 (all of a size-1 axis)
    }
    if (!missing.any()) continue;
    return "DMA sequencer: the destination `" + dest->body() + "` broadcasts axis `" + axis +
           "`, which the source lacks, but the stream (Time `" + time->body() + "`, Packet `" + packet->body() + "`" +
           (dmPairs ? ", DMN pairs `" + engine->body() + "`" : std::string()) + ") writes " +
           std::to_string(coords.count() - missing.count()) + " of its " + std::to_string(coords.count()) +
           " coordinates: iterate it in Time or Packet to write every copy";
  }
  return std::nullopt;
}

}  // namespace tcp

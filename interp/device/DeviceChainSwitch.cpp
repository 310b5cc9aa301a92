// DeviceChainSwitch.cpp — the Switch Engine: packets travel each ring of slices and every router outputs what its snoop bitmap accepts.
#include "DeviceChain.h"

#include "SwitchTopology.h"

namespace tcp::interp {

// The Router Decision Process of "Switch Engine", per (chip, cluster): the slices form rings of
// ring_size consecutive slices; the root of each ring puts every packet of the ring's slices on the
// ring once, in the topology's order (SwitchPlan::emissions), and the packet passes every router of
// the ring. A router outputs the packets its snoop bitmap (and, for InterTranspose, its time1 digit)
// accepts, in arrival order; that sequence is the slice's output stream. Nothing here looks at
// tensor indices: the placement follows from the topology alone, and the typed phase has checked
// that it is the placement the output mappings describe. Chip and Cluster pass through unchanged.
void ChainBuilder::switchSlices(const TypedOp &op) {
  const TensorType &in = stream_.type, &out = op.out;
  if (!op.switchPlan) throw DeviceError{where(op) + ": the switch has no checked topology"};
  std::shared_ptr<const SwitchPlan> plan = op.switchPlan;
  if (in.packet->size() != out.packet->size() || in.time->size() != plan->inTime || out.time->size() != plan->outTime)
    throw DeviceError{where(op) + ": the stream does not match the checked switch"};
  const size_t lanes = in.packet->size(), outLen = out.time->size() * lanes;
  AxisSpace none = AxisSpace::of({});
  TensorType group = in;
  group.slice = Mapping::identity();  // one entry per (chip, cluster)
  std::vector<unsigned> bases;
  for (const ActiveSlice &a : dev_.activeSlices(group, none)) bases.push_back(a.id);
  std::string at = where(op);
  Exchange ex = [plan, lanes, outLen, bases, at](std::vector<SliceRun> &runs) {
    const uint64_t ring = plan->ringSize, slices = plan->slices;
    for (unsigned base : bases) {
      std::vector<std::vector<uint32_t>> next(slices);
      for (auto &n : next) n.reserve(outLen);
      for (uint64_t g = 0; g < slices / ring; ++g) {
        const uint64_t first = g * ring;
        // The routers of this ring that snoop each source slice.
        std::vector<std::vector<uint32_t>> snoopers(ring);
        for (uint64_t o = first; o < first + ring; ++o)
          for (uint32_t s : plan->bitmaps[o]) {
            if (s < first || s >= first + ring)
              throw DeviceError{at + ": slice " + std::to_string(o) + " snoops slice " + std::to_string(s) + " outside its ring"};
            snoopers[s - first].push_back(uint32_t(o));
          }
        for (const auto &[s, t] : plan->emissions(g)) {
          const std::vector<uint32_t> &cur = runs[base + s].cur;  // empty: a slice without data (padding)
          for (uint32_t o : snoopers[s - first]) {
            if (!plan->accepts(o, s, t)) continue;
            for (size_t p = 0; p < lanes; ++p) {
              size_t i = t * lanes + p;
              next[o].push_back(i < cur.size() ? cur[i] : 0);
            }
          }
        }
      }
      for (uint64_t o = 0; o < slices; ++o) {
        if (next[o].empty()) next[o].assign(outLen, 0);  // snoops nothing: its output positions are padding
        if (next[o].size() != outLen)
          throw DeviceError{at + ": slice " + std::to_string(o) + " received " + std::to_string(next[o].size() / lanes) +
                            " packets, not " + std::to_string(outLen / lanes)};
      }
      for (uint64_t o = 0; o < slices; ++o) runs[base + o].cur = std::move(next[o]);
    }
  };
  switches.push_back({steps.size(), std::move(ex), out});
  stream_ = layoutOf(out, false);
}

}  // namespace tcp::interp

// SequencerReplay.cpp — runs a sequencer configuration's nested loops and lists the element offsets.
#include "SequencerReplay.h"

namespace tcp {

std::vector<int64_t> replayAddresses(const SeqConfig &config, uint64_t limit) {
  uint64_t steps = 1;
  for (const SeqEntry &e : config.entries) {
    if (e.size == 0) return {};
    steps = steps > limit / e.size ? limit + 1 : steps * e.size;
  }
  std::vector<int64_t> out;
  if (steps > limit) return out;
  out.reserve(steps);
  std::vector<uint64_t> counter(config.entries.size(), 0);
  int64_t addr = config.baseOffset;
  for (uint64_t k = 0; k < steps; ++k) {
    out.push_back(addr);
    // Advance the innermost counter; carry outwards (an odometer over the entries).
    for (size_t d = config.entries.size(); d-- > 0;) {
      const SeqEntry &e = config.entries[d];
      if (++counter[d] < e.size) {
        addr += e.stride;
        break;
      }
      addr -= e.stride * int64_t(e.size - 1);
      counter[d] = 0;
    }
  }
  return out;
}

uint64_t laneOfStep(uint64_t step, uint64_t keptLanes, uint64_t packetLanes) {
  if (keptLanes == 0) return step;
  return step / keptLanes * packetLanes + step % keptLanes;
}

}  // namespace tcp

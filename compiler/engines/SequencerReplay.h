// SequencerReplay.h — the address stream a sequencer configuration generates (its nested loops run in order).
#pragma once

#include "Sequencer.h"

#include <cstdint>
#include <vector>

namespace tcp {

// The element offset of every step of `config`, outermost entry slowest: baseOffset + Σ counter × stride,
// one offset per element moved (a packet of packetSize elements is packetSize consecutive steps). The
// steps are Π size; the caller bounds that product (at most `limit` offsets are produced).
std::vector<int64_t> replayAddresses(const SeqConfig &config, uint64_t limit = uint64_t(1) << 24);

// The stream lane each step of a derived configuration moves: fetch steps move lanes in order
// (time-major, every packet lane); a commit that truncates writes only the first `packetElems` lanes
// of each packet of `packetSize` lanes.
uint64_t laneOfStep(uint64_t step, uint64_t keptLanes, uint64_t packetLanes);

}  // namespace tcp

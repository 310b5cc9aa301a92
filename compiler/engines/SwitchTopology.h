// SwitchTopology.h — the Switch Engine's topologies ("Switch Engine"): a SwitchConfig matched against the
// stream's Slice/Time mappings, the snoop bitmap of every slice and the order packets travel each ring.
#pragma once

#include "Mapping.h"

#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace tcp {

enum class SwitchTopology { Forwarding, Broadcast01, Broadcast1, Transpose, InterTranspose, CustomBroadcast };
const char *topologyName(SwitchTopology t);  // "Broadcast01"

// The configuration a `.switch()` names, as written: `SwitchConfig::Broadcast01 { slice1: 2, slice0: 2, time0: 4 }`.
struct SwitchConfigArgs {
  std::string name;  // the variant: "Broadcast01"
  std::vector<std::pair<std::string, uint64_t>> fields;
};

// A checked switch of one cluster (256 slices; Chip and Cluster pass through). The Router Decision
// Process: the slices form rings of `ringSize` consecutive slices; the root of each ring puts every
// packet of the ring's slices on the ring once (emissions), and every slice outputs, in arrival order,
// the packets its snoop bitmap (and, for InterTranspose, its time1 digit) accepts.
struct SwitchPlan {
  SwitchTopology topology = SwitchTopology::Forwarding;
  std::vector<std::pair<std::string, uint64_t>> params;  // given and inferred, in the manual's order
  uint64_t slices = 256;
  uint64_t inTime = 1, outTime = 1;
  uint64_t ringSize = 1;
  std::vector<std::vector<uint32_t>> bitmaps;  // per output slice: the source slices it snoops, ascending

  uint64_t param(const std::string &name) const;  // 0 when absent
  // Whether output slice o outputs the packet of input slice s at input time step t.
  bool accepts(uint64_t o, uint64_t s, uint64_t t) const;
  // The (source slice, input time step) packets the root of ring `group` emits, in order:
  // ringSize × inTime of them (slices [group × ringSize, (group + 1) × ringSize)).
  std::vector<std::pair<uint32_t, uint64_t>> emissions(uint64_t group) const;
  // "Switch Engine" > Performance: ring_size × input_time × cycles_per_packet (packet bytes / 32, rounded up).
  uint64_t cycles(uint64_t packetBytes) const;
};

// The result of matching a configuration: the plan, or the errors (lowercase, naming the axis and
// the manual's rule).
struct SwitchMatch {
  std::shared_ptr<const SwitchPlan> plan;
  std::vector<std::string> errors;
};

SwitchMatch matchSwitch(const SwitchConfigArgs &cfg, const MappingRef &inSlice, const MappingRef &inTime,
                        const MappingRef &outSlice, const MappingRef &outTime);

// The bitmaps for --emit=config in the manual's notation `bitmap[0] = {0, 1, 16, 17}`: equal bitmaps of
// consecutive slices as one line `bitmap[0..1]`, the first ring group only when every ring repeats it
// shifted (then a last line `bitmap[o + R] = bitmap[o] + R`). Pairs of (key, value).
// `bitmaps` are per output slice, ascending; `ring` the slices per ring.
std::vector<std::pair<std::string, std::string>> bitmapLines(const std::vector<std::vector<uint32_t>> &bitmaps, uint64_t ring);

// The smallest ring (a power of two) that holds every slice together with the sources it snoops.
uint64_t requiredRingSize(const std::vector<std::vector<uint32_t>> &bitmaps);

}  // namespace tcp

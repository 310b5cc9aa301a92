// LowerSwitch.cpp — the Switch Engine's configuration: the matched topology, its parameters, ring and snoop bitmaps.
#include "Lowering.h"
#include "SwitchTopology.h"

#include <cassert>

namespace tcp {

SwitchEngineConfig lowerSwitch(const TypedOp &op) {
  const SwitchPlan *plan = op.switchPlan.get();
  assert(plan && "a switch that passed the typed phase has a matched topology");
  SwitchEngineConfig c;
  c.topology = plan->topology;
  c.slice2 = plan->param("slice2");
  c.slice1 = plan->param("slice1");
  c.slice0 = plan->param("slice0");
  c.time2 = plan->param("time2");
  c.time1 = plan->param("time1");
  c.time0 = plan->param("time0");
  c.ringSize = plan->ringSize;
  c.inputTime = plan->inTime;
  c.inputPacketBytes = op.in.packetBytes();
  c.snoop.resize(plan->bitmaps.size());
  for (size_t o = 0; o < plan->bitmaps.size(); ++o)
    for (uint32_t s : plan->bitmaps[o])
      if (s < kSlicesPerCluster) c.snoop[o][s] = true;
  return c;
}

}  // namespace tcp

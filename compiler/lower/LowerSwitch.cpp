// LowerSwitch.cpp — the Switch Engine's configuration for --emit=config: topology, parameters, ring and snoop bitmaps.
#include "Lowering.h"
#include "SwitchTopology.h"

namespace tcp {

EngineConfig lowerSwitch(const TypedOp &op) {
  EngineConfig e{"switch", std::nullopt, {}};
  e.fields.push_back({"topology", op.arg});
  const SwitchPlan *plan = op.switchPlan.get();
  if (!plan) return e;  // the typed phase reported why
  for (const auto &[k, v] : plan->params) e.fields.push_back({k, std::to_string(v)});
  if (plan->topology != SwitchTopology::CustomBroadcast) e.fields.push_back({"ring_size", std::to_string(plan->ringSize)});
  uint64_t bytes = op.in.packetBytes();
  e.fields.push_back({"input_time", std::to_string(plan->inTime)});
  e.fields.push_back({"cycles_per_packet", std::to_string(std::max<uint64_t>((bytes + 31) / 32, 1))});
  e.fields.push_back({"cycles", std::to_string(plan->cycles(bytes))});
  if (plan->topology == SwitchTopology::InterTranspose)
    e.fields.push_back({"time_select", "slice o takes the input time steps whose time1 digit is o's"});
  for (auto &line : bitmapLines(*plan)) e.fields.push_back(std::move(line));
  return e;
}

}  // namespace tcp

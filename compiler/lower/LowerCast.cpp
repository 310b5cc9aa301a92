// LowerCast.cpp — the Cast Engine's configuration of a `.cast()` (from, to, packets, bytes, cycles).
#include "CastEngine.h"
#include "Lowering.h"

namespace tcp {

EngineConfig lowerCast(const TypedOp &op) {
  CastPlan p = planCast(op.in, op.out.dtype);
  EngineConfig e{"cast", std::nullopt, {}};
  e.fields.push_back({"from", num::dtypeName(op.in.dtype)});
  e.fields.push_back({"to", num::dtypeName(op.out.dtype)});
  e.fields.push_back({"input_packet", op.in.packet->str()});
  e.fields.push_back({"packet", op.out.packet->str()});
  e.fields.push_back({"elements", std::to_string(p.elements)});
  e.fields.push_back({"input_bytes", std::to_string(p.inBytes)});
  e.fields.push_back({"output_data_bytes", std::to_string(p.outDataBytes)});
  e.fields.push_back({"output_padding_bytes", std::to_string(p.outPadBytes)});
  e.fields.push_back({"cycles", std::to_string(p.cycles)});
  return e;
}

}  // namespace tcp

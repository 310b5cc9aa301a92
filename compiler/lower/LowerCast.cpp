// LowerCast.cpp — the Cast Engine's configuration of a `.cast()`: from, to, the input and output packets, elements, time steps.
#include "CastEngine.h"
#include "Lowering.h"

namespace tcp {

CastConfig lowerCast(const TypedOp &op) {
  CastPlan p = planCast(op.in, op.out.dtype);
  CastConfig c;
  c.from = op.in.dtype;
  c.to = op.out.dtype;
  c.inputPacket = op.in.packet->str();
  c.outputPacket = op.out.packet->str();
  c.elements = p.elements;
  c.timeSize = p.cycles;  // one flit per time step: Time::SIZE
  return c;
}

}  // namespace tcp

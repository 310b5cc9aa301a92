// LowerTranspose.cpp — the Transpose Engine's configuration of a `.transpose()` (its parameters and cycles).
#include "Lowering.h"
#include "TransposeEngine.h"

namespace tcp {

namespace {
std::string dec(uint64_t v) { return std::to_string(v); }
}  // namespace

EngineConfig lowerTranspose(const TypedOp &op) {
  EngineConfig e{"transpose", std::nullopt, {}};
  TransposeCheck chk = checkTranspose(op.in, op.out);
  if (!chk.config) return e;  // the typed phase reported it
  const TransposeConfig &c = *chk.config;
  e.fields.push_back({"in_rows", dec(c.inRows)});
  e.fields.push_back({"packets_per_col", dec(c.packetsPerCol)});
  e.fields.push_back({"elements_per_packet", dec(c.elementsPerPacket)});
  e.fields.push_back({"in_cols", dec(c.inCols())});
  e.fields.push_back({"out_rows", dec(c.outRows)});
  e.fields.push_back({"trimmed_rows", dec(c.inCols() - c.outRows)});
  e.fields.push_back({"output_alignment", dec(c.outputAlignment)});
  e.fields.push_back({"buffering", c.doubleBuffered() ? "double" : "single"});
  e.fields.push_back({"n", dec(c.n)});
  e.fields.push_back({"input_flits_per_iter", dec(c.inputFlitsPerIter())});
  e.fields.push_back({"output_flits_per_iter", dec(c.outputFlitsPerIter())});
  e.fields.push_back({"cycles_per_iter", dec(c.cyclesPerIter())});
  e.fields.push_back({"cycles", dec(c.cycles())});
  return e;
}

}  // namespace tcp

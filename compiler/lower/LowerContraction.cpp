// LowerContraction.cpp — TRF load, aligner and reducer configurations ("Aligner", "Stream Adapter", "TRF Sequencer", "Reducer").
#include "LowerContraction.h"

#include "StreamAdapter.h"
#include "TrfSequencer.h"

namespace tcp {

TrfLoadConfig lowerTrfLoad(const TypedOp &op) {
  const TensorType &t = op.out;
  TrfLoadConfig c;
  c.region = op.arg == "TrfAddress::SecondHalf" ? TrfRegion::SecondHalf
             : op.arg == "TrfAddress::FirstHalf" ? TrfRegion::FirstHalf
                                                 : TrfRegion::Full;
  c.rows = t.row ? t.row->size() : 1;
  c.dtype = t.dtype;
  c.elements = t.element->size();
  return c;
}

AlignerConfig lowerAligner(const TypedOp &op) {
  AlignerConfig c;
  const TensorType &trf = op.operands.at(0);  // the typed phase gives every align its TRF operand
  StreamAdapterPlan sa = planStreamAdapter(op.in, op.out.time, op.out.packet);
  c.collectFlits = sa.collectFlits;
  if (sa.shiftCount) c.shift = AlignerShift{sa.shiftCount, sa.shiftStride, sa.shiftTerms};
  c.rows = trf.row ? trf.row->size() : 1;
  for (const FactorTerm &t : sa.tiling) c.timeBroadcast.push_back(t.str());
  TrfReadPlan plan = planTrfRead(trf, op.out.time, op.out.packet);
  if (!plan.ok()) return c;  // the typed phase reported it (or the align does not read the TRF as 64-byte MACs)
  SeqConfig seq;
  seq.entries = plan.entries;
  seq.packetSize = plan.regReadBytes;
  c.trf = seq;
  return c;
}

ReducerConfig lowerReducer(const TypedOp &op, const TypedOp *acc) {
  ReducerConfig c;
  // The typed phase's summary of the reduction: "depth N[, padding sliced][, truncated to 32 lanes]".
  if (op.arg.rfind("depth ", 0) == 0) c.spatialDepth = std::stoul(op.arg.substr(6));
  c.input = op.in.dtype;
  c.output = op.out.dtype;
  c.op = ReduceOp::Add;
  c.inLanes = op.in.packet->size();
  c.outLanes = op.out.packet->size();
  if (op.arg.find("truncated") != std::string::npos) c.resize = ReducerResize::Truncate32;
  else if (op.arg.find("sliced") != std::string::npos) c.resize = ReducerResize::PaddingSliced;
  c.rows = op.in.row ? op.in.row->size() : 1;
  if (acc) c.mode = acc->arg == "Sequential" ? AccumulationKind::Sequential : AccumulationKind::Interleaved;
  return c;
}

}  // namespace tcp

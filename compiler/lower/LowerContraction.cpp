// LowerContraction.cpp — aligner and reducer configurations ("Aligner", "Stream Adapter", "TRF Sequencer", "Reducer").
#include "LowerContraction.h"

#include "StreamAdapter.h"
#include "TrfSequencer.h"

namespace tcp {

namespace {
std::string dec(uint64_t v) { return std::to_string(v); }
}  // namespace

EngineConfig lowerTrfLoad(const TypedOp &op) {
  EngineConfig e{"trf_load", std::nullopt, {}};
  const TensorType &t = op.out;
  bool half = op.arg != "TrfAddress::Full";
  e.fields.push_back({"region", op.arg});
  // "FirstHalf uses the lower 64 rows (rows 0–63) and SecondHalf uses the upper 64 rows (rows 64–127)".
  e.fields.push_back({"rows_in_bank", op.arg == "TrfAddress::SecondHalf" ? "64..127" : half ? "0..63" : "0..127"});
  e.fields.push_back({"rows", dec(t.row ? t.row->size() : 1)});
  e.fields.push_back({"reg_types", std::to_string(trfRegType(t.dtype))});
  e.fields.push_back({"elements_per_row", dec(t.element->size()) + " of " + dec(trfElementsPerRow(t.dtype, half))});
  e.fields.push_back({"bytes_per_row", dec(t.elementBytes())});
  return e;
}

EngineConfig lowerAligner(const TypedOp &op) {
  EngineConfig e{"aligner", std::nullopt, {}};
  if (op.operands.empty()) return e;
  const TensorType &trf = op.operands[0];
  StreamAdapterPlan sa = planStreamAdapter(op.in, op.out.time, op.out.packet);
  e.fields.push_back({"collect_flits", dec(sa.collectFlits)});
  if (sa.shiftCount) {
    e.fields.push_back({"shift_count", dec(sa.shiftCount)});
    e.fields.push_back({"shift_stride", dec(sa.shiftStride)});
    e.fields.push_back({"shift_axes", "[" + sa.shiftTerms + "]"});
  }
  e.fields.push_back({"rows", dec(trf.row ? trf.row->size() : 1)});
  std::string tiling;
  for (const FactorTerm &t : sa.tiling) tiling += (tiling.empty() ? "" : ", ") + t.str();
  e.fields.push_back({"time_broadcast", "[" + tiling + "]"});
  TrfReadPlan plan = planTrfRead(trf, op.out.time, op.out.packet);
  if (!plan.ok()) return e;  // the typed phase reported it
  SeqConfig seq;
  seq.entries = plan.entries;
  seq.packetSize = plan.regReadBytes;
  e.sequencer = seq;
  e.fields.push_back({"reg_read_size", dec(plan.regReadBytes)});
  e.fields.push_back({"packet_broadcast", dec(plan.broadcast)});
  // The manual numbers entries from the inner loop outwards: "Entry 0: { size: 2, stride: 1024 }".
  std::string entries;
  for (size_t k = plan.entries.size(), i = 0; k-- > 0; ++i)
    entries += std::string(entries.empty() ? "" : ", ") + "Entry " + dec(i) + ": { size: " + dec(plan.entries[k].size) +
               ", stride: " + std::to_string(plan.entries[k].stride) + " }";
  e.fields.push_back({"entries", entries.empty() ? "none" : entries});
  return e;
}

EngineConfig lowerReducer(const TypedOp &op, const TypedOp *acc) {
  EngineConfig e{"reducer", std::nullopt, {}};
  unsigned depth = 0;
  if (op.arg.rfind("depth ", 0) == 0) depth = unsigned(std::stoul(op.arg.substr(6)));
  e.fields.push_back({"input", num::dtypeName(op.in.dtype)});
  e.fields.push_back({"output", num::dtypeName(op.out.dtype)});
  e.fields.push_back({"reduce_op", "Add"});
  e.fields.push_back({"tree_depth", dec(num::reducerTreeDepth(op.in.dtype))});
  e.fields.push_back({"spatial_depth", dec(depth)});
  e.fields.push_back({"lanes", dec(op.in.packet->size()) + " -> " + dec(op.out.packet->size())});
  if (op.arg.find("truncated") != std::string::npos) e.fields.push_back({"resize", "truncate to 32"});
  else if (op.arg.find("sliced") != std::string::npos) e.fields.push_back({"resize", "padding sliced"});
  e.fields.push_back({"rows", dec(op.in.row ? op.in.row->size() : 1)});
  if (acc) e.fields.push_back({"mode", acc->arg});
  return e;
}

}  // namespace tcp

// DmaLowering.cpp — DMA ops to plans (stream, addresses, chips) and to their DmaConfig (the DmaSequencer of every engine).
#include "DmaLowering.h"
#include "BoundedMemo.h"
#include "DmaChips.h"


namespace tcp {

bool isDmaOp(const TypedOp &op) { return op.name == "to_dm" || op.name == "to_hbm" || op.name == "dma"; }

namespace {

DmaPlan derivePlan(const TypedFunction &f, const TypedOp &op, std::optional<uint64_t> srcAddr) {
  DmaRequest req;
  req.in = op.in;
  req.out = op.out;
  const TypedTensor *src = op.source >= 0 && op.source < int(f.tensors.size()) ? &f.tensors[op.source] : nullptr;
  req.srcAddr = srcAddr ? *srcAddr : src && src->param < 0 && src->address ? *src->address : 0;
  req.dstAddr = op.address.value_or(0);
  if (op.name == "dma" && !op.operands.empty()) {
    req.time = op.operands[0].time;
    req.packet = op.operands[0].packet;
  } else {
    const TensorType &dm = op.in.tier == Tier::Dm ? op.in : op.out;
    std::tie(req.time, req.packet) = defaultDmaStream(dm);
    DmaPlan p = planDma(req);
    // Fallbacks when the slice mapping does not split at the DMN (mode 1) or at the pair (mode 2:
    // one engine per cluster walks all its slices).
    for (int mode = 1; mode <= 2 && !p.ok(); ++mode) {
      DmaRequest r = req;
      std::tie(r.time, r.packet) = defaultDmaStream(dm, mode);
      r.pairEngines = mode < 2;
      DmaPlan q = planDma(r);
      if (q.ok()) p = q;
    }
    p.chips = unsigned(activeSize(op.in.chip));
    return p;
  }
  DmaPlan p = planDma(req);
  if (p.ok())
    if (auto problem = chipPlacementProblem(p, op.out)) p.diagnostics.push_back(*problem);
  if (p.ok() && !p.byteExact)
    p.diagnostics.push_back("DMA sequencer: each step moves one " + std::string(num::dtypeName(op.in.dtype)) +
                            " element (" + std::to_string(num::storageBits(op.in.dtype)) +
                            " bits); the DMA Engine moves whole bytes: make the packet a run of whole bytes "
                            "contiguous in both layouts");
  p.chips = unsigned(activeSize(op.in.chip));
  return p;
}

// Everything a plan depends on, spelled out: each mapping with its axes' sizes (two programs may give
// one spelling different axes), the tiers, types, addresses and the explicit stream.
void appendMapping(std::string &k, const MappingRef &m) {
  if (!m) {
    k += "-;";
    return;
  }
  k += m->str();
  for (const AxisInfo &a : m->axes())
    k += "," + a.name + ":" + std::to_string(a.size) + ":" + a.skewBase + ":" + a.skewBy + ":" + a.padBase + ":" +
         std::to_string(a.padLeft) + ":" + std::to_string(a.padRight) + ":" + std::to_string(a.padBaseSize);
  k += ";";
}
void appendType(std::string &k, const TensorType &t) {
  k += std::to_string(int(t.tier)) + "/" + std::to_string(int(t.dtype)) + "/";
  for (const MappingRef *m : {&t.chip, &t.cluster, &t.slice, &t.row, &t.time, &t.packet, &t.element}) appendMapping(k, *m);
}

}  // namespace

// Plans are derived once per program: lowering, the cycle model and tcpi's launches ask for the same
// DMA and share the result (a memo keyed by everything the plan depends on).
DmaPlan dmaPlanOf(const TypedFunction &f, const TypedOp &op, std::optional<uint64_t> srcAddr) {
  const TypedTensor *src = op.source >= 0 && op.source < int(f.tensors.size()) ? &f.tensors[op.source] : nullptr;
  uint64_t from = srcAddr ? *srcAddr : src && src->param < 0 && src->address ? *src->address : 0;
  std::string key = op.name + "|" + std::to_string(from) + "|" + std::to_string(op.address.value_or(0)) + "|";
  appendType(key, op.in);
  appendType(key, op.out);
  if (op.name == "dma" && !op.operands.empty()) {
    appendMapping(key, op.operands[0].time);
    appendMapping(key, op.operands[0].packet);
  }
  static BoundedMemo<std::string, DmaPlan> memo(1024);
  return memo.get(key, [&] { return derivePlan(f, op, srcAddr); });
}

TuConfig lowerDmaOp(const TypedFunction &f, const TypedOp &op, Diagnostics &diags) {
  TuConfig tu;
  tu.chain = -1;
  tu.line = op.line;
  DmaPlan p = dmaPlanOf(f, op);
  for (const std::string &d : p.diagnostics) diags.error(op.range, d);
  if (!p.ok()) return tu;
  const TypedTensor *src = op.source >= 0 && op.source < int(f.tensors.size()) ? &f.tensors[op.source] : nullptr;
  DmaConfig c = dmaConfigOf(p, src && src->param >= 0 ? std::optional<std::string>(src->name) : std::nullopt);
  unsigned errors = diags.errorCount();
  if (auto bad = checkEngineConfig(c, Ctx::Unknown))
    diags.error(op.range, "dma: the configuration is outside the hardware's range: " + bad->field + " " + bad->problem);
  if (diags.errorCount() == errors) tu.engines.push_back(std::move(c));
  return tu;
}

}  // namespace tcp

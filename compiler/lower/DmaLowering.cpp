// DmaLowering.cpp — DMA ops to plans (stream, addresses, chips) and to the printed read/write/DmaSequencer configuration.
#include "DmaLowering.h"

#include "DmaChips.h"

#include <set>

namespace tcp {

namespace {
std::string dec(uint64_t v) { return std::to_string(v); }

std::string baseText(DmaMedia m, int64_t b) {
  if (m == DmaMedia::Hbm) return hbmBaseText(b);
  if (b < 0) return std::to_string(b);
  uint64_t u = uint64_t(b), slice = u / dmspace::kSliceStride;
  return "(" + dec(slice / 256) + ", " + dec(slice % 256 / 32) + ", " + dec(slice % 32) + ", " +
         dec(u % dmspace::kSliceStride) + ")";
}

// One side in the manual's spelling: `[A=8:2048, B=8:256, C=256:1]:256 HBM/D@0`.
std::string sideText(const DmaPlan &p, bool write, const std::string &base) {
  DmaMedia m = write ? p.dst : p.src;
  std::string s = "[";
  for (size_t k = 0; k < p.shared.entries.size(); ++k) {
    const DmaEntry &e = p.shared.entries[k];
    int64_t st = write ? e.dst : e.src;
    std::string stride = hbmStrideText(m, st, p.elemBits, "*");
    if (m == DmaMedia::Dm && st != 0 && st % int64_t(dmspace::kSliceStride * 8 / p.elemBits) == 0) {
      int64_t n = st / int64_t(dmspace::kSliceStride * 8 / p.elemBits);
      stride = n % 32 == 0 ? (n == 32 ? "" : std::to_string(n / 32) + "*") + std::string("DMN_stride")
                           : (n == 1 ? "" : std::to_string(n) + "*") + std::string("slice_stride");
    }
    s += (k ? ", " : "") + e.term + "=" + dec(e.size) + ":" + stride;
  }
  return s + "]:" + dec(p.shared.stride0) + " " + dmaMediaName(m) + "/D@" + base;
}
}  // namespace

bool isDmaOp(const TypedOp &op) { return op.name == "to_dm" || op.name == "to_hbm" || op.name == "dma"; }

DmaPlan dmaPlanOf(const TypedFunction &f, const TypedOp &op, std::optional<uint64_t> srcAddr) {
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
  if (p.ok() && !p.byteExact)
    p.diagnostics.push_back("DMA sequencer: each step moves one " + std::string(num::dtypeName(op.in.dtype)) +
                            " element (" + std::to_string(num::storageBits(op.in.dtype)) +
                            " bits); the DMA Engine moves whole bytes: make the packet a run of whole bytes "
                            "contiguous in both layouts");
  p.chips = unsigned(activeSize(op.in.chip));
  return p;
}

TuConfig lowerDmaOp(const TypedFunction &f, const TypedOp &op, Diagnostics &diags) {
  TuConfig tu;
  tu.chain = -1;
  tu.line = op.line;
  DmaPlan p = dmaPlanOf(f, op);
  for (const std::string &d : p.diagnostics) diags.error(op.range, d);
  if (!p.ok()) return tu;
  const TypedTensor *src = op.source >= 0 && op.source < int(f.tensors.size()) ? &f.tensors[op.source] : nullptr;
  std::string srcBase = src && src->param >= 0 ? "parameter `" + src->name + "`" : baseText(p.src, p.shared.srcBase);
  EngineConfig read{"dma_read", std::nullopt, {{"sequencer", sideText(p, false, srcBase)}}};
  EngineConfig write{"dma_write", std::nullopt, {{"sequencer", sideText(p, true, baseText(p.dst, p.shared.dstBase))}}};
  EngineConfig seq{"dma_sequencer", std::nullopt, {}};
  seq.fields.push_back({"command", p.shared.str(p.src, p.dst, p.elemBits)});
  seq.fields.push_back({"media", std::string(dmaMediaName(p.src)) + " -> " + dmaMediaName(p.dst)});
  uint64_t commands = 0;
  for (const DmaEngineWork &w : p.engines) commands += w.commands.size();
  seq.fields.push_back({"engines", dec(p.engines.size()) + " per chip x " + dec(p.chips) + (p.chips == 1 ? " chip" : " chips")});
  seq.fields.push_back({"commands", dec(commands) + " per chip"});
  // Across chips: each source chip's write base in the global HBM space, the media of its
  // descriptor (`Media ::= HBM(<ChipIndex>)`) and the bytes it sends over PCIe.
  if (p.crossChip) {
    std::vector<uint64_t> pcie = pcieBytesPerChip(p);
    for (size_t c = 0; c < p.chipWrite.size(); ++c) {
      if (!p.chipWrite[c]) continue;
      std::set<uint64_t> to;
      for (const DmaEngineWork &w : p.engines)
        for (const DmaCommand &cmd : w.commands)
          cmd.forEachStep(p.elemBits, [&](uint64_t, uint64_t d) { to.insert((d + uint64_t(*p.chipWrite[c])) / chipspace::kChipStride); });
      std::string media;
      for (uint64_t k : to) media += (media.empty() ? "" : ", ") + std::string("HBM(") + dec(k) + ")";
      std::string from = p.src == DmaMedia::Hbm ? "HBM(" + dec(c) + ")" : "DM(" + dec(c) + ", *, *)";
      seq.fields.push_back({"chip " + dec(c), from + " -> " + media + ", write base +" +
                                                  hbmBaseText(*p.chipWrite[c]) + ", " + dec(pcie[c]) + " bytes over PCIe"});
    }
  }
  for (const DmaEngineWork &w : p.engines) {
    std::string key = "engine (" + dec(w.cluster) + ", " + dec(w.pair) + ")";
    for (size_t k = 0; k < w.commands.size(); ++k)
      seq.fields.push_back({key + (w.commands.size() > 1 ? " #" + dec(k) : ""), w.commands[k].str(p.src, p.dst, p.elemBits)});
  }
  tu.engines = {read, write, seq};
  return tu;
}

}  // namespace tcp

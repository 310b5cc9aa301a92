// DmaConfigPrint.cpp — a DMA transfer's configuration as --emit=config prints it: the read and write sequencers, the DmaSequencer and every engine's commands.
#include "DmaChips.h"
#include "EnginePrint.h"

namespace tcp {

namespace {

std::string dec(uint64_t v) { return std::to_string(v); }

// A base address in the manual's spelling: HBM bytes (`HBM(k)@offset` across chips), a DM
// virtual address as (cluster, DMN, slice, offset).
std::string baseText(DmaMedia m, int64_t b) {
  if (m == DmaMedia::Hbm) return hbmBaseText(b);
  if (b < 0) return std::to_string(b);
  uint64_t u = uint64_t(b), slice = u / dmspace::kSliceStride;
  return "(" + dec(slice / 256) + ", " + dec(slice % 256 / 32) + ", " + dec(slice % 32) + ", " +
         dec(u % dmspace::kSliceStride) + ")";
}

// One side in the manual's spelling: `[A=8:2048, B=8:256, C=256:1]:256 HBM/D@0`.
std::string sideText(const DmaConfig &c, bool write, const std::string &base) {
  DmaMedia m = write ? c.dst : c.src;
  std::string s = "[";
  for (size_t k = 0; k < c.shared.entries.size(); ++k) {
    const DmaEntry &e = c.shared.entries[k];
    int64_t st = write ? e.dst : e.src;
    std::string stride = hbmStrideText(m, st, c.elemBits, "*");
    if (m == DmaMedia::Dm && st != 0 && st % int64_t(dmspace::kSliceStride * 8 / c.elemBits) == 0) {
      int64_t n = st / int64_t(dmspace::kSliceStride * 8 / c.elemBits);
      stride = n % 32 == 0 ? (n == 32 ? "" : std::to_string(n / 32) + "*") + std::string("DMN_stride")
                           : (n == 1 ? "" : std::to_string(n) + "*") + std::string("slice_stride");
    }
    s += (k ? ", " : "") + e.term + "=" + dec(e.size) + ":" + stride;
  }
  return s + "]:" + dec(c.shared.stride0) + " " + dmaMediaName(m) + "/D@" + base;
}

}  // namespace

std::vector<EngineBlock> dmaBlocks(const DmaConfig &c) {
  std::string srcBase = c.srcParam ? "parameter `" + *c.srcParam + "`" : baseText(c.src, c.shared.srcBase);
  EngineBlock read{"dma_read", nullptr, {{"sequencer", sideText(c, false, srcBase)}}};
  EngineBlock write{"dma_write", nullptr, {{"sequencer", sideText(c, true, baseText(c.dst, c.shared.dstBase))}}};
  EngineBlock seq{"dma_sequencer", nullptr, {}};
  seq.fields.push_back({"command", c.shared.str(c.src, c.dst, c.elemBits)});
  seq.fields.push_back({"media", std::string(dmaMediaName(c.src)) + " -> " + dmaMediaName(c.dst)});
  seq.fields.push_back({"engines", dec(c.engines.size()) + " per chip x " + dec(c.chips) + (c.chips == 1 ? " chip" : " chips")});
  seq.fields.push_back({"commands", dec(c.commandsPerChip()) + " per chip"});
  // Across chips: the destination table, one row per route (source chip, write base in the global
  // space), the media of its descriptor (`Media ::= HBM(<ChipIndex>)`, DM of chip k) and the bytes
  // it sends over PCIe.
  for (const DmaChipWrite &w : c.chipWrites) {
    if (!w.used) continue;
    std::string media;
    for (uint64_t to : w.toChips)
      media += (media.empty() ? "" : ", ") + (c.dst == DmaMedia::Hbm ? "HBM(" + dec(to) + ")" : "DM(" + dec(to) + ", *, *)");
    std::string from = c.src == DmaMedia::Hbm ? "HBM(" + dec(w.chip) + ")" : "DM(" + dec(w.chip) + ", *, *)";
    // The base's chip part: `HBM(k)@byte`, or for a DM destination `DM(k)@address` (chip k's DM
    // virtual address space).
    std::string base = hbmBaseText(w.writeBase);
    if (c.dst == DmaMedia::Dm && base.rfind("HBM(", 0) == 0) base = "DM(" + base.substr(4);
    seq.fields.push_back({"chip " + dec(w.chip), from + " -> " + media + ", write base +" + base + ", " +
                                                   dec(w.pcieBytes) + " bytes over PCIe"});
  }
  for (const DmaEngineWork &w : c.engines) {
    std::string key = "engine (" + dec(w.cluster) + ", " + dec(w.pair) + ")";
    for (size_t k = 0; k < w.commands.size(); ++k)
      seq.fields.push_back({key + (w.commands.size() > 1 ? " #" + dec(k) : ""), w.commands[k].str(c.src, c.dst, c.elemBits)});
  }
  return {read, write, seq};
}

}  // namespace tcp

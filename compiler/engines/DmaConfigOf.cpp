// DmaConfigOf.cpp — the DmaConfig of a planned transfer: its DmaSequencers and, across chips, the destination table (a row per route: source chip, write base, PCIe bytes, destination chips).
#include "DmaChips.h"
#include "EngineConfig.h"


namespace tcp {

DmaConfig dmaConfigOf(const DmaPlan &p, std::optional<std::string> srcParam) {
  DmaConfig c;
  c.src = p.src;
  c.dst = p.dst;
  c.elemBits = p.elemBits;
  c.chips = p.chips;
  c.shared = p.shared;
  c.srcParam = std::move(srcParam);
  c.engines = p.engines;
  if (!p.crossChip) return c;
  PcieTraffic t = pcieTraffic(p, p.chips);
  for (size_t k = 0; k < p.routes.size(); ++k) {
    DmaChipWrite w;
    w.used = true;
    w.chip = p.routes[k].chip;
    w.writeBase = p.routes[k].writeBase;
    w.pcieBytes = t.perRoute[k];
    w.toChips = t.routeChips[k];
    c.chipWrites.push_back(std::move(w));
  }
  return c;
}

}  // namespace tcp

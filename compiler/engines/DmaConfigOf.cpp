// DmaConfigOf.cpp — the DmaConfig of a planned transfer: its DmaSequencers and, across chips, each source chip's write base, PCIe bytes and destination chips.
#include "DmaChips.h"
#include "EngineConfig.h"

#include <set>

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
  std::vector<uint64_t> pcie = pcieBytesPerChip(p);
  for (size_t k = 0; k < p.chipWrite.size(); ++k) {
    DmaChipWrite w;
    if (p.chipWrite[k]) {
      w.used = true;
      w.writeBase = *p.chipWrite[k];
      w.pcieBytes = k < pcie.size() ? pcie[k] : 0;
      std::set<uint64_t> to;
      for (const DmaEngineWork &e : p.engines)
        for (const DmaCommand &cmd : e.commands)
          cmd.forEachStep(p.elemBits, [&](uint64_t, uint64_t d) { to.insert((d + uint64_t(w.writeBase)) / chipspace::kChipStride); });
      w.toChips.assign(to.begin(), to.end());
    }
    c.chipWrites.push_back(std::move(w));
  }
  return c;
}

}  // namespace tcp

// DmaPlan.cpp — plans a DMA transfer (sequencer pairing, alignment, engines: DmaSequencerPairing.cpp, DmaEngines.cpp), its default stream and the DmaSequencer's spelling.
#include "DmaPlan.h"

#include "DmaChips.h"
#include "DmaPlanDetail.h"
#include "MappingFactor.h"
#include "MappingNormalForm.h"

#include <algorithm>

namespace tcp {

using namespace dmaplan;

const char *dmaMediaName(DmaMedia m) { return m == DmaMedia::Hbm ? "HBM" : "DM"; }

bool DmaPlan::sameMemory() const { return src == dst; }

uint64_t DmaCommand::steps(unsigned elemBits) const {
  if (entries.empty()) return 0;
  uint64_t chunk = std::max<uint64_t>(stride0 * 8 / elemBits, 1);
  uint64_t n = std::max<uint64_t>(entries.back().size / chunk, 1);
  for (size_t k = 0; k + 1 < entries.size(); ++k) n *= entries[k].size;
  return n;
}

std::pair<MappingRef, MappingRef> defaultDmaStream(const TensorType &dm, int mode) {
  unsigned bits = num::storageBits(dm.dtype);
  uint64_t n = dm.element->size(), k = n;
  while (k > 1 && (k * bits > kMaxStride0 * 8 || n % k)) k /= 2;
  while (k > 1 && n % k) --k;
  // The packet `Element % k` must be whole terms of the Element: the innermost terms and a divisor of the
  // next one (`[A, B] % 4032` with B = 128 would cut a row of B in half, and no sequencer entry can step
  // such a term). When the divisor above is not of that form, the largest one of at most 4096 bytes that is.
  if (k != n) {
    const std::vector<FactorTerm> terms = factorize(dm.element);
    std::vector<uint64_t> splits;  // every k of at most 4096 bytes the Element splits at into whole terms
    const uint64_t most = std::max<uint64_t>(kMaxStride0 * 8 / bits, 1);
    uint64_t inner = 1;
    for (size_t j = terms.size(); j-- > 0 && inner <= most;) {
      for (uint64_t d = 1; d <= terms[j].count && inner * d <= most; ++d)
        if (terms[j].count % d == 0) splits.push_back(inner * d);
      if (__builtin_mul_overflow(inner, terms[j].count, &inner)) break;
    }
    if (!splits.empty() && std::find(splits.begin(), splits.end(), k) == splits.end()) {
      uint64_t best = 1;
      for (uint64_t c : splits)
        if (n % c == 0) best = std::max(best, c);
      k = best;
    }
  }
  std::string err;
  MappingRef outer = Mapping::identity(), inner = dm.element;
  if (k != n) {
    MappingRef o = Mapping::stride(dm.element, k, &err), i = Mapping::modulo(dm.element, k, &err);
    if (o && i) outer = normalize(o), inner = normalize(i);
  }
  MappingRef slice = dm.slice, inSlice = nullptr, dmn = nullptr;
  if (slice && slice->size() % kSlicesPerEngine == 0) {
    MappingRef within = Mapping::modulo(slice, kSlicesPerEngine, &err);
    if (within) inSlice = Mapping::modulo(within, 32, &err), dmn = within ? Mapping::stride(within, 32, &err) : nullptr;
  }
  MappingRef time = outer;
  if (mode == 2 && slice) {
    time = Mapping::pair(normalize(slice), outer);
  } else if (mode == 1 && inSlice && dmn) {
    MappingRef within = normalize(Mapping::modulo(slice, kSlicesPerEngine, &err));
    if (!within->axes().empty()) time = Mapping::pair(time, within);
  } else if (inSlice && dmn) {
    inSlice = normalize(inSlice);
    dmn = normalize(dmn);
    if (!inSlice->axes().empty()) time = Mapping::pair(time, inSlice);
    if (!dmn->axes().empty()) time = Mapping::pair(time, dmn);
  }
  return {normalize(time), inner};
}

DmaPlan planDma(const DmaRequest &req) {
  DmaPlan plan;
  const TensorType &in = req.in, &out = req.out;
  plan.src = in.tier == Tier::Dm ? DmaMedia::Dm : DmaMedia::Hbm;
  plan.dst = out.tier == Tier::Dm ? DmaMedia::Dm : DmaMedia::Hbm;
  plan.elemBits = num::storageBits(in.dtype);
  plan.chips = 1;
  Draft d;
  if (!pairSequencers(req, plan, d)) return plan;
  checkAlignment(req, plan, d);
  if (!plan.ok() || !planEngines(req, plan, d)) return plan;
  if (!plan.engines.empty()) {
    plan.shared.srcBase = plan.engines[0].commands[0].srcBase;
    plan.shared.dstBase = plan.engines[0].commands[0].dstBase;
  }
  return plan;
}

std::string DmaCommand::str(DmaMedia srcMedia, DmaMedia dstMedia, unsigned elemBits) const {
  int64_t sliceElems = int64_t(dmspace::kSliceStride * 8 / elemBits);
  auto stride = [&](DmaMedia m, int64_t s) -> std::string {
    if (m == DmaMedia::Dm && s != 0 && s % sliceElems == 0) {
      int64_t n = s / sliceElems;
      if (n % 32 == 0) return (n == 32 ? "" : std::to_string(n / 32) + " * ") + "DMN_stride";
      return (n == 1 ? "" : std::to_string(n) + " * ") + "slice_stride";
    }
    return hbmStrideText(m, s, elemBits, " * ");
  };
  std::string s = "[";
  for (size_t k = 0; k < entries.size(); ++k) {
    const DmaEntry &e = entries[k];
    s += (k ? ", " : "") + e.term + "=" + dec(e.size) + ":(" + stride(srcMedia, e.src) + ", " + stride(dstMedia, e.dst) + ")";
  }
  auto base = [](DmaMedia m, int64_t b) -> std::string {
    if (m == DmaMedia::Hbm) return hbmBaseText(b);
    if (b < 0) return std::to_string(b);
    uint64_t u = uint64_t(b);
    uint64_t slice = u / dmspace::kSliceStride, off = u % dmspace::kSliceStride;
    return "DM(" + dec(slice / 256) + ", " + dec(slice % 256 / 32) + ", " + dec(slice % 32) + ")@" + dec(off);
  };
  s += "], base=(" + base(srcMedia, srcBase) + ", " + base(dstMedia, dstBase) + "), stride0 = " + dec(stride0);
  return s;
}

}  // namespace tcp

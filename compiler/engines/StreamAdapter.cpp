// StreamAdapter.cpp — collect_flits, Rows broadcast and Time broadcast of the Aligner's data path.
#include "StreamAdapter.h"

#include "BoundedMemo.h"
#include "MappingNormalForm.h"
#include "TensorCoverage.h"

#include <algorithm>
#include <set>
#include <tuple>

namespace tcp {

namespace {

// Does position `pos` of `m` hold `idx` (any decomposition of a linear combination)? The indices
// of one row of `width` buffered lanes are mapped once: the shift checks ask for a lane once per
// shift step and candidate offset.
class RowIndices {
 public:
  RowIndices(const MappingRef &m, uint64_t width) : m_(m), width_(width) {}
  bool holds(uint64_t pos, const Index &idx) {
    if (pos >= m_->size()) return false;
    if (pos / width_ != row_) {
      row_ = pos / width_;
      lanes_.assign(width_, {});
      known_.assign(width_, 0);
    }
    const size_t lane = size_t(pos % width_);
    std::vector<Index> &at = lanes_[lane];
    if (!known_[lane]) {
      known_[lane] = 1;
      if (m_->multiValued()) at = m_->mapAll(pos);
      else if (std::optional<Index> i = m_->map(pos)) at.push_back(std::move(*i));
    }
    return std::find(at.begin(), at.end(), idx) != at.end();
  }

 private:
  MappingRef m_;
  uint64_t width_, row_ = UINT64_MAX;
  std::vector<std::vector<Index>> lanes_;
  std::vector<char> known_;
};

// Shift-reuse: Time = [R, F] with F the collected flits (2 or 3), OutTime (tiling removed) = [R, S],
// and lane q of shift s of OutPacket is buffered lane q + s × stride of the same R step.
bool planShift(const TensorType &in, const MappingRef &kept, const MappingRef &outPacket, StreamAdapterPlan &plan) {
  std::string err;
  const uint64_t flit = num::elementsPerFlit(in.dtype);
  if (in.packet->size() != flit) return false;
  for (uint64_t f : {2u, 3u}) {
    if (in.time->size() % f) continue;
    MappingRef rest = Mapping::stride(in.time, f, &err);
    if (!rest || kept->size() % rest->size()) continue;
    uint64_t shifts = kept->size() / rest->size();
    if (shifts < 2) continue;
    MappingRef outRest = Mapping::stride(kept, shifts, &err), shift = Mapping::modulo(kept, shifts, &err);
    if (!outRest || !shift || !equivalent(outRest, rest)) continue;
    MappingRef stream = Mapping::pair(in.time, in.packet);
    const uint64_t buffered = f * flit, Q = outPacket->size();
    RowIndices lanes(stream, buffered);
    // Offsets per shift step, from the first data lane of the first R step.
    uint64_t r0 = 0;
    while (r0 < rest->size() && !rest->map(r0)) ++r0;
    if (r0 == rest->size()) continue;
    Index base = *rest->map(r0);
    std::vector<int64_t> delta(shifts, -1);
    bool ok = true;
    for (uint64_t s = 0; s < shifts && ok; ++s) {
      auto si = shift->map(s);
      for (uint64_t q = 0; q < Q && delta[s] < 0; ++q) {
        auto qi = outPacket->map(q);
        if (!si || !qi) continue;
        Index want = base;
        want.add(*si);
        want.add(*qi);
        for (uint64_t p = q; p < buffered && delta[s] < 0; ++p)
          if (lanes.holds(r0 * buffered + p, want)) delta[s] = int64_t(p - q);
        if (delta[s] < 0) ok = false;
      }
    }
    if (!ok || delta[0] != 0) continue;
    int64_t stride = delta[1];
    for (uint64_t s = 0; s < shifts; ++s) ok = ok && delta[s] == int64_t(s) * stride;
    if (!ok || stride <= 0) continue;
    // Every lane of every shift at every R step (a spread sample of R steps for large streams: R is
    // the same mapping on both sides, so the window relation repeats).
    uint64_t steps = rest->size(), limit = std::max<uint64_t>(1, (1u << 14) / (shifts * Q));  // R steps checked: a spread sample
    for (uint64_t r = 0; r < steps && ok; r += (steps > limit ? steps / limit : 1)) {
      auto ri = rest->map(r);
      for (uint64_t s = 0; s < shifts && ok; ++s) {
        auto si = shift->map(s);
        for (uint64_t q = 0; q < Q && ok; ++q) {
          auto qi = outPacket->map(q);
          if (!ri || !si || !qi) continue;  // padding lanes take whatever the window holds
          Index want = *ri;
          want.add(*si);
          want.add(*qi);
          uint64_t lane = q + s * uint64_t(stride);
          ok = lane < buffered && lanes.holds(r * buffered + lane, want);
        }
      }
    }
    if (!ok) continue;
    plan.collectFlits = int(f);
    plan.shiftCount = shifts - 1;
    plan.shiftStride = uint64_t(stride);
    plan.shiftTerms = normalize(shift)->body();
    return true;
  }
  return false;
}

// The plan, derived (planStreamAdapter caches it).
StreamAdapterPlan derivePlan(const TensorType &in, const MappingRef &outTime, const MappingRef &outPacket) {
  StreamAdapterPlan plan;
  if (!in.time || !in.packet || !outTime || !outPacket) return plan;
  std::string err;
  const uint64_t flit = num::elementsPerFlit(in.dtype);
  // Axes the stream carries; OutTime terms of other axes are tiling (Time broadcast).
  std::set<std::string> streamAxes;
  for (const MappingRef &m : {in.time, in.packet})
    for (const AxisInfo &a : m->axes()) streamAxes.insert(a.name);
  std::vector<FactorTerm> terms = factorize(outTime);
  size_t firstTiling = terms.size();
  for (size_t k = terms.size(); k-- > 0;) {
    if (terms[k].kind == FactorTerm::Axis && !streamAxes.count(terms[k].axis.name)) firstTiling = k;
    else break;
  }
  for (size_t k = 0; k < firstTiling; ++k)
    if (terms[k].kind == FactorTerm::Axis && !streamAxes.count(terms[k].axis.name)) {
      plan.problem = "the Stream Adapter repeats activations along tiling axes at the innermost positions of OutTime, "
                     "but `" + terms[k].str() + "` (absent from the stream) is outside " + terms.back().str() +
                     " in OutTime " + outTime->str() + " (\"Stream Adapter\": Time Broadcast)";
      return plan;
    }
  for (size_t k = firstTiling; k < terms.size(); ++k) {
    plan.tiling.push_back(terms[k]);
    plan.tilingSize *= terms[k].count;
  }
  MappingRef kept = plan.tilingSize > 1 ? Mapping::stride(outTime, plan.tilingSize, &err) : outTime;
  if (!kept) {
    plan.problem = "OutTime " + outTime->str() + " does not end with its tiling axes";
    return plan;
  }
  MappingRef have = Mapping::pair(kept, outPacket);
  // collect_flits = 1: the flit zero-padded to mac_width.
  MappingRef padded = Mapping::pad(in.packet, flit * 2, &err);
  if (padded && equivalent(padded, outPacket) && equivalent(Mapping::pair(in.time, padded), have)) {  // small test first
    plan.collectFlits = 1;
    return plan;
  }
  // collect_flits = 2: the innermost two flits of Time join the packet.
  std::string problem2;
  if (in.time->size() % 2 == 0 && in.packet->size() == flit) {
    MappingRef outer = Mapping::stride(in.time, 2, &err), inner = Mapping::modulo(in.time, 2, &err);
    MappingRef pkt = inner ? Mapping::pair(inner, in.packet) : nullptr;
    if (outer && pkt && equivalent(pkt, outPacket) && equivalent(Mapping::pair(in.time, in.packet), have)) {
      plan.collectFlits = 2;
      return plan;
    }
    if (outer && pkt) {
      std::string tiling;
      for (const FactorTerm &t : plan.tiling) tiling += ", " + t.str();
      problem2 = "the Stream Adapter collects 1 flit (zero-padded to 64 bytes) or the 2 flits of the innermost Time "
                 "axis into the packet and keeps Time's order: from Time " + in.time->str() + " and Packet " +
                 in.packet->str() + " it produces OutTime = " + normalize(outer)->str() +
                 (tiling.empty() ? "" : " followed by the tiling axes" + tiling.substr(1)) + " and OutPacket = " +
                 normalize(pkt)->str() + " (or OutPacket = " + (padded ? normalize(padded)->str() : "?") +
                 " with one flit), not OutTime = " + outTime->str() + ", OutPacket = " + outPacket->str() +
                 " (\"Stream Adapter\": Flit Buffer)";
    }
  }
  if (planShift(in, kept, outPacket, plan)) return plan;
  const std::string noShift = "; a shift-reuse window (OutPacket lanes stepped over 2 or 3 buffered flits by the "
                              "innermost OutTime axes) does not produce it either";
  plan.problem = (!problem2.empty() ? problem2
                 : "the Stream Adapter collects 1 flit (zero-padded to 64 bytes) or the 2 flits of the innermost Time axis "
                   "into the packet and keeps Time's order; OutTime " + outTime->str() + " and OutPacket " +
                   outPacket->str() + " cannot be produced from Time " + in.time->str() + " and Packet " +
                   in.packet->str() + " (\"Stream Adapter\": Flit Buffer)") + noShift;
  return plan;
}

}  // namespace

StreamAdapterPlan planStreamAdapter(const TensorType &in, const MappingRef &outTime, const MappingRef &outPacket) {
  // The checker and the lowering ask for the plan of the same op with the same (immutable) mappings:
  // derived once per process. The key holds the mappings, so their addresses are not reused while
  // cached; the cache is bounded (a long REPL session starts it over).
  using Key = std::tuple<MappingRef, MappingRef, num::DType, MappingRef, MappingRef>;
  static BoundedMemo<Key, StreamAdapterPlan> cache(4096);
  return cache.get(Key{in.time, in.packet, in.dtype, outTime, outPacket}, [&] { return derivePlan(in, outTime, outPacket); });
}

}  // namespace tcp

// SwitchRegular.cpp — the regular topologies (Forwarding, Broadcast01, Broadcast1, Transpose, InterTranspose): their
// slice/time parts, output mappings and snoop bitmaps ("Switch Engine").
#include "SwitchMatchDetail.h"

namespace tcp::switchmatch {

bool Matcher::regular(SwitchPlan &plan) {
  const uint64_t S = inS_->size(), T = inT_->size();
  SwitchTopology t = plan.topology;
  const uint64_t s1 = t == SwitchTopology::Forwarding ? 1 : p("slice1"), s0 = t == SwitchTopology::Forwarding ? 1 : p("slice0");
  if (s1 > S || s0 > S || S % (s1 * s0) != 0) {
    error("slice1 × slice0 = " + num(s1) + " × " + num(s0) + (s1 <= S && s0 <= S ? " = " + num(s1 * s0) : "") +
          " must divide InSlice::SIZE = " + num(S));
    return false;
  }
  const uint64_t s2 = S / (s1 * s0);
  std::vector<MappingRef> sp = split(inS_, {s2, s1, s0});
  MappingRef slice2 = sp[0], slice1 = sp[1], slice0 = sp[2];
  plan.params = {{"slice2", s2}, {"slice1", s1}, {"slice0", s0}};
  std::vector<std::vector<uint32_t>> &bm = plan.bitmaps;
  bm.assign(kSlices, {});
  auto block = [&](uint64_t o) { return uint32_t(o / (s1 * s0) * (s1 * s0)); };
  switch (t) {
    case SwitchTopology::Forwarding:
      plan.params.clear();
      if (!expect("Slice", outS_, {{"Slice", inS_}}) || !expect("Time", outT_, {{"Time", inT_}})) return false;
      for (uint64_t o = 0; o < kSlices; ++o) bm[o] = {uint32_t(o)};
      plan.ringSize = 1;
      return true;
    case SwitchTopology::Broadcast01: {
      const uint64_t t0 = p("time0");
      if (t0 > T || T % t0 != 0) {
        error("time0 = " + num(t0) + " must divide InTime::SIZE = " + num(T) + " (time1 = InTime::SIZE / time0)");
        return false;
      }
      std::vector<MappingRef> tp = split(inT_, {T / t0, t0});
      plan.params = {{"slice2", s2}, {"slice1", s1}, {"slice0", s0}, {"time1", T / t0}, {"time0", t0}};
      if (outT_->size() != T * s1 * s0) {
        error("OutTime::SIZE must be InTime::SIZE × slice1 × slice0 = " + num(T * s1 * s0) + " (slice1 and slice0 move into Time), not " +
              num(outT_->size()));
        return false;
      }
      std::vector<MappingRef> os = split(outS_, {s2, s1 * s0});
      if (!expect("Slice", outS_, {{"slice2", slice2}, {"tile", os[1]}}) || !expectTile(os[1], "inner part [tile, tile]") ||
          !expect("Time", outT_, {{"time1", tp[0]}, {"slice1", slice1}, {"time0", tp[1]}, {"slice0", slice0}}))
        return false;
      for (uint64_t o = 0; o < kSlices; ++o)
        for (uint64_t k = 0; k < s1 * s0; ++k) bm[o].push_back(block(o) + uint32_t(k));
      break;
    }
    case SwitchTopology::Broadcast1: {
      if (outT_->size() != T * s1) {
        error("OutTime::SIZE must be InTime::SIZE × slice1 = " + num(T * s1) + " (slice1 moves into Time), not " + num(outT_->size()));
        return false;
      }
      std::vector<MappingRef> os = split(outS_, {s2, s1, s0});
      if (!expect("Slice", outS_, {{"slice2", slice2}, {"tile", os[1]}, {"slice0", slice0}}) ||
          !expectTile(os[1], "middle part (tile)") || !expect("Time", outT_, {{"time0", inT_}, {"slice1", slice1}}))
        return false;
      for (uint64_t o = 0; o < kSlices; ++o)
        for (uint64_t k = 0; k < s1; ++k) bm[o].push_back(block(o) + uint32_t(k * s0 + o % s0));
      break;
    }
    case SwitchTopology::Transpose:
      if (!expect("Slice", outS_, {{"slice2", slice2}, {"slice0", slice0}, {"slice1", slice1}}) ||
          !expect("Time", outT_, {{"Time", inT_}}))
        return false;
      for (uint64_t o = 0; o < kSlices; ++o) bm[o] = {uint32_t(block(o) + (o % s1) * s0 + (o / s1) % s0)};
      break;
    case SwitchTopology::InterTranspose: {
      const uint64_t t0 = p("time0"), t1 = s1;
      uint64_t t10 = 0;
      bool overflow = __builtin_mul_overflow(t1, t0, &t10);
      if (overflow || t0 > T || T % t10 != 0) {
        error("time1 × time0 = " + num(t1) + " × " + num(t0) + (overflow ? "" : " = " + num(t10)) + " must divide InTime::SIZE = " + num(T) +
              " (time1 = slice1, so that OutSlice::SIZE stays 256; time2 = InTime::SIZE / (time1 × time0))");
        return false;
      }
      if (outT_->size() != T) {
        error("OutTime::SIZE must be InTime::SIZE = " + num(T) + " (time1 and slice1 trade places), not " + num(outT_->size()));
        return false;
      }
      const uint64_t t2 = T / (t1 * t0);
      std::vector<MappingRef> tp = split(inT_, {t2, t1, t0});
      plan.params = {{"slice2", s2}, {"slice1", s1}, {"slice0", s0}, {"time2", t2}, {"time1", t1}, {"time0", t0}};
      if (!expect("Slice", outS_, {{"slice2", slice2}, {"time1", tp[1]}, {"slice0", slice0}}) ||
          !expect("Time", outT_, {{"time2", tp[0]}, {"time0", tp[2]}, {"slice1", slice1}}))
        return false;
      for (uint64_t o = 0; o < kSlices; ++o)
        for (uint64_t k = 0; k < s1; ++k) bm[o].push_back(block(o) + uint32_t(k * s0 + o % s0));
      break;
    }
    case SwitchTopology::CustomBroadcast: return false;
  }
  plan.ringSize = s1 * s0;
  return true;
}

}  // namespace tcp::switchmatch

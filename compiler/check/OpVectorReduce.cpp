// OpVectorReduce.cpp — the Vector Engine's reductions: intra-slice reduce (slots, VCG placements) and inter-slice reduce (output mapping rules).
//
// "Intra-Slice Reduce": REDUCE_LABEL's factors leave Time and Packet (OTime, OPacket are the input's
// without them), the non-reduce factors inside the outermost reduce factor of Time take one of 8
// accumulator slots each, and a padded reduce axis must sit where the Valid Count Generator can
// exclude the padding ("Valid Count Generator's Interface" / "Implementation", Summary).
// "Inter-Slice Block": SliceOut and TimeOut follow the Broadcast, Dummy or Promotion rule.
#include "MappingFactor.h"
#include "TypeCheckInternal.h"
#include "VectorEngine.h"

#include <algorithm>
#include <map>
#include <set>

namespace tcp {

namespace {
constexpr const char *kSlots = "\"Intra-Slice Reduce\" > Accumulator Slot Limit";
constexpr const char *kVcg = "\"Valid Count Generator's Interface\"; docs/manual-errata.md";
constexpr const char *kInter = "\"Inter-Slice Block\" > Output Mapping Rule";

std::vector<FactorTerm> elementTerms(const MappingRef &m) {
  std::vector<FactorTerm> out;
  if (!m) return out;
  for (const FactorTerm &t : factorize(m))
    if (t.kind != FactorTerm::Padding) out.push_back(t);
  return out;
}
bool isAxis(const FactorTerm &t, const std::string &a) { return t.kind == FactorTerm::Axis && t.axis.baseName() == a; }
std::string axisOf(const FactorTerm &t) { return t.kind == FactorTerm::Axis ? t.axis.baseName() : ""; }
// Per axis, the coordinate strides where one of its terms starts or ends.
using Cuts = std::map<std::string, std::set<uint64_t>>;
void addCuts(Cuts &cuts, const std::vector<FactorTerm> &v) {
  for (const FactorTerm &t : v)
    if (t.kind == FactorTerm::Axis) {
      cuts[t.axis.name].insert(t.axisStride);
      cuts[t.axis.name].insert(t.axisStride * std::max<uint64_t>(t.valid(), 1));
    }
}
// Splits the axis terms of `v` at the cuts, so that terms the normal form merged (`M / 8, M % 8` is
// one term `M`) compare digit range by digit range with terms that stayed apart.
void refine(std::vector<FactorTerm> &v, const Cuts &cuts) {
  for (size_t k = 0; k < v.size(); ++k) {
    if (v[k].kind != FactorTerm::Axis) continue;
    auto it = cuts.find(v[k].axis.name);
    if (it == cuts.end()) continue;
    for (uint64_t at : it->second) {  // finest first: v[k] stays the outer part, cut again above
      const FactorTerm u = v[k];
      if (at <= u.axisStride || at % u.axisStride) continue;
      uint64_t g = at / u.axisStride;  // u's digits below the cut
      if (g >= u.valid() || u.count % g) continue;
      FactorTerm outer = u, inner = u;
      outer.count = u.count / g;
      outer.axisStride = u.axisStride * g;
      outer.bufStride = u.bufStride * g;
      inner.count = inner.limit = g;
      inner.base = 0;
      if (u.limit == u.count) outer.limit = outer.count;
      else if (u.limit % g == 0) outer.limit = u.limit / g;
      else continue;
      v[k] = outer;
      v.insert(v.begin() + k + 1, inner);
    }
  }
}
}  // namespace

bool TypeChecker::FunctionChecker::veIntraReduce(const ast::Expr &call, const TensorType &in, TensorType &out,
                                                 VeOpArgs &args, const std::optional<TensorType> &expected) {
  llvm::SMRange r = opRange(call);
  bool f32 = in.dtype == num::DType::f32;
  const char *enumName = f32 ? "IntraSliceReduceOpF32" : "IntraSliceReduceOpI32";
  if (call.operands.size() != 2) {
    error(r, std::string("`.vector_intra_slice_reduce()` takes the reduce operator (`") + enumName + "`)");
    return false;
  }
  if (!checkVariant(*call.operands[1], enumName, "`.vector_intra_slice_reduce()` on " + std::string(num::dtypeName(in.dtype))))
    return false;
  std::string opName = call.operands[1]->path.segments.back().name;
  auto ta = typeArgs(call, 3);
  const ast::GenericArg *g = ta[0].ast;
  std::string R = g && g->type && g->type->kind == ast::Type::PathT && g->type->path.segments.size() == 1
                      ? g->type->path.segments.back().name
                      : "";
  if (R.rfind("Ident::", 0) == 0) R = R.substr(7);
  const AxisInfo *info = R.empty() ? nullptr : tc_.syms_.axes.find(R);
  if (!info) {
    error(g ? g->range : r, "`.vector_intra_slice_reduce::<REDUCE_LABEL, OTime, OPacket>()` takes the reduce axis first (an axis name)");
    return false;
  }
  bool exp = expected && expected->tier == Tier::Stream;
  MappingRef oTime = pick(ta[1], exp ? expected->time : nullptr, call, "OTime");
  MappingRef oPacket = pick(ta[2], exp ? expected->packet : nullptr, call, "OPacket");
  if (!oTime || !oPacket) return false;
  auto st = elementTerms(in.slice), tt = elementTerms(in.time), pt = elementTerms(in.packet);
  bool inTime = std::any_of(tt.begin(), tt.end(), [&](auto &t) { return isAxis(t, R); });
  bool inPacket = std::any_of(pt.begin(), pt.end(), [&](auto &t) { return isAxis(t, R); });
  bool inSlice = std::any_of(st.begin(), st.end(), [&](auto &t) { return isAxis(t, R); });
  for (const FactorTerm &t : st)
    if (isAxis(t, R) && (!t.axis.padBase.empty() || !t.axis.skewBase.empty())) {
      error(r, "Slice " + in.slice->str() + " holds the reduce axis `" + R + "` through the " +
                   (t.axis.padBase.empty() ? "skewed" : "padded") + " axis `" + t.axis.name +
                   "`; a reduce over an axis split into Slice that way is not supported yet (the boundary slices' valid "
                   "counts, \"Valid Count Generator's Implementation\")");
      return false;
    }
  if (!inTime && !inPacket) {
    error(g->range, "`" + R + "` is in neither Time " + in.time->str() + " nor Packet " + in.packet->str() +
                        "; the intra-slice reduce eliminates the reduce axis from Time and Packet (\"Intra-Slice Reduce\" > Interface)");
    return false;
  }
  // OTime / OPacket: exactly the input's without R's factors.
  auto wantT = veTerms(in.time, R), wantP = veTerms(in.packet, R);
  if (veTerms(oTime, "") != wantT) {
    error(ta[1].ast ? ta[1].ast->range : r, "OTime must be Time " + in.time->str() + " with every factor of `" + R +
                                                "` removed, " + veTermList(wantT) + ", not " + oTime->str() +
                                                " (\"Intra-Slice Reduce\" > Interface)");
    return false;
  }
  if (veTerms(oPacket, "") != wantP) {
    error(ta[2].ast ? ta[2].ast->range : r,
          "OPacket must be Packet " + in.packet->str() + " with every factor of `" + R + "` removed, " + veTermList(wantP) +
              ", not " + oPacket->str() +
              (inPacket ? " (the 2-level tree reduces the 4 lanes of a packet to one value: the Packet may hold only `" + R + "`)"
                        : std::string(" (\"Intra-Slice Reduce\" > Interface)")));
    return false;
  }
  if (inPacket && !wantP.empty()) {
    error(r, "the 2-level tree reduces the 4 lanes of a packet to one value, so a Packet that holds `" + R +
                 "` cannot also hold " + veTermList(wantP) + " (\"Intra-Slice Reduce\" > Mechanism)");
    return false;
  }
  if (oPacket->size() > 4) {
    error(ta[2].ast ? ta[2].ast->range : r, "OPacket " + oPacket->str() + " has " + std::to_string(oPacket->size()) +
                                                " positions; the IntraSliceReduce stage runs in Way4 (at most 4 lanes)");
    return false;
  }
  // Accumulator slots: the non-reduce factors inside (minor to) the outermost R factor of Time.
  uint64_t slots = 1, reduceTime = 1;
  std::string nr;
  size_t first = tt.size();
  for (size_t k = 0; k < tt.size(); ++k)
    if (isAxis(tt[k], R)) {
      first = std::min(first, k);
      reduceTime *= tt[k].count;
    }
  for (size_t k = first + 1; k < tt.size(); ++k)
    if (!isAxis(tt[k], R)) {
      slots *= tt[k].count;
      nr += (nr.empty() ? "" : " × ") + tt[k].str() + " (" + std::to_string(tt[k].count) + ")";
    }
  if (slots > kVeAccumulatorSlots) {
    error(r, "the reduce needs " + std::to_string(slots) + " accumulator slots, one per position of the non-reduce factors " +
                 nr + " inside the outermost `" + R + "` factor of Time " + in.time->str() + ", but the IntraSliceReduce stage has " +
                 std::to_string(kVeAccumulatorSlots) + " (" + kSlots + "; restructure the mapping)");
    return false;
  }
  // The Valid Count Generator: a padded reduce axis must be placed where it can tag the padding.
  uint64_t extent = 0, sliceSize = 1, timeSize = 1, packetCount = 0, packetStride = 0;
  std::vector<const FactorTerm *> sR, tR, pR;
  // A term's digits of R (`(H # 8 % 4) # 256` in Slice is 4 positions of H, the rest slice filler).
  auto digits = [](const FactorTerm &t) { return std::min(t.count, t.limit); };
  for (const auto &t : st) if (isAxis(t, R)) { sR.push_back(&t); sliceSize *= digits(t); }
  for (const auto &t : tt) if (isAxis(t, R)) { tR.push_back(&t); timeSize *= digits(t); }
  for (const auto &t : pt) if (isAxis(t, R)) { pR.push_back(&t); packetCount = digits(t); packetStride = t.axisStride; }
  for (auto *v : {&sR, &tR, &pR})
    for (const FactorTerm *t : *v) extent = std::max(extent, t->axisStride * digits(*t));
  uint64_t n = info->size;
  if (extent > n) {
    auto refuseVcg = [&](const std::string &why) {
      error(r, "the padded reduce axis `" + R + "` (" + std::to_string(n) + " padded to " + std::to_string(extent) +
                   ") is placed where the Valid Count Generator cannot exclude its padding: " + why + " (" + kVcg + ")");
      return false;
    };
    uint64_t minStride = UINT64_MAX;
    for (auto *v : {&sR, &tR, &pR})
      for (const FactorTerm *t : *v) minStride = std::min(minStride, t->axisStride);
    if (pR.size() > 1) return refuseVcg("`" + R + "` may appear at most once in Packet");
    if (!pR.empty() && packetStride != minStride)
      return refuseVcg("`" + R + "`'s part in Packet must be its innermost part (`% k`), the packet prefix");
    if (!pR.empty() && !sR.empty() && n % packetCount != 0)
      return refuseVcg("`" + R + "` spans Slice and Packet, so the boundary slice would need a different partial valid "
                       "count than the others, and the packet valid count cannot vary by slice");
    for (size_t k = 1; k < sR.size(); ++k)
      if (sR[k]->axisStride > sR[k - 1]->axisStride)
        return refuseVcg("the parts of `" + R + "` in Slice must have strides that increase from inner to outer");
    if (!sR.empty() && !tR.empty()) {
      uint64_t sMin = UINT64_MAX, sMax = 0, tMin = UINT64_MAX, tMax = 0;
      for (auto *t : sR) sMin = std::min(sMin, t->axisStride), sMax = std::max(sMax, t->axisStride);
      for (auto *t : tR) tMin = std::min(tMin, t->axisStride), tMax = std::max(tMax, t->axisStride);
      bool standard = sMin > tMax, transposed = sMax < tMin;
      if (!standard && !transposed)
        return refuseVcg("its parts in Slice and Time interleave, so different slices would need different numbers of "
                         "valid time steps");
      if (transposed && timeSize != (n + sliceSize - 1) / sliceSize)
        return refuseVcg("in the transposed placement (inner part in Slice, outer in Time) the Time part must have "
                         "ceil(" + std::to_string(n) + " / " + std::to_string(sliceSize) + ") = " +
                         std::to_string((n + sliceSize - 1) / sliceSize) + " steps, not " + std::to_string(timeSize));
    }
  }
  args.op = opName;
  args.reduceAxis = R;
  args.reduceTime = reduceTime;
  args.slots = slots;
  args.reducePacket = inPacket;
  (void)inSlice;
  out.time = oTime;
  out.packet = oPacket;
  out.stage = Stage::VectorIntraSliceReduce;
  return true;
}

bool TypeChecker::FunctionChecker::veInterReduce(const ast::Expr &call, const TensorType &in, TensorType &out,
                                                 VeOpArgs &args, const std::optional<TensorType> &expected) {
  llvm::SMRange r = opRange(call);
  bool f32 = in.dtype == num::DType::f32;
  const char *enumName = f32 ? "InterSliceReduceOpF32" : "InterSliceReduceOpI32";
  if (call.operands.size() != 2) {
    error(r, std::string("`.vector_inter_slice_reduce()` takes the reduce operator (`") + enumName + "`)");
    return false;
  }
  if (!checkVariant(*call.operands[1], enumName, "`.vector_inter_slice_reduce()` on " + std::string(num::dtypeName(in.dtype))))
    return false;
  if (in.ve.interDone) {
    error(r, "the Vector Engine's program has one inter-slice block (\"Vector Engine\" > Ordering: IntraFirst or InterFirst)");
    return false;
  }
  auto ta = typeArgs(call, 2);
  bool exp = expected && expected->tier == Tier::Stream;
  MappingRef s2 = pick(ta[0], exp ? expected->slice : nullptr, call, "SliceOut");
  MappingRef t2 = pick(ta[1], exp ? expected->time : nullptr, call, "TimeOut");
  if (!s2 || !t2) return false;
  if (s2->size() != in.slice->size()) {
    error(ta[0].ast ? ta[0].ast->range : r, "SliceOut " + s2->str() + " has " + std::to_string(s2->size()) +
                                                " positions but Slice " + in.slice->str() + " has " +
                                                std::to_string(in.slice->size()) +
                                                "; the reduction stays within the cluster's slices (" + kInter + ")");
    return false;
  }
  auto S = elementTerms(in.slice), T = elementTerms(in.time), P = elementTerms(in.packet);
  auto S2 = elementTerms(s2), T2 = elementTerms(t2);
  // Compare digit ranges, not merged terms: SliceOut `M / 8, M % 8` (one term `M`) keeps Slice's
  // `M / 8` and promotes Time's `M % 8` ("Inter-Slice Block" > Promotion).
  Cuts cuts;
  for (auto *v : {&S, &T, &S2, &T2}) addCuts(cuts, *v);
  for (auto *v : {&S, &T, &S2, &T2}) refine(*v, cuts);
  // The same digits of an axis, however padded (`T2` in Time is `T2 # 8` when promoted into 8 slices).
  auto has = [](const std::vector<FactorTerm> &v, const FactorTerm &t) {
    return std::any_of(v.begin(), v.end(), [&](const FactorTerm &u) {
      if (u.kind == FactorTerm::Axis && t.kind == FactorTerm::Axis)
        return u.axis.baseName() == t.axis.baseName() && u.axisStride == t.axisStride && u.valid() == t.valid();
      return u.str() == t.str();
    });
  };
  auto names = [](const std::vector<FactorTerm> &v, const std::string &a) {
    return !a.empty() && std::any_of(v.begin(), v.end(), [&](const FactorTerm &u) { return axisOf(u) == a; });
  };
  uint64_t reduced = 1;
  std::string reducedText;
  for (const FactorTerm &t : S) {
    if (has(S2, t)) continue;
    if (names(S2, axisOf(t)) || names(T2, axisOf(t)) || t.kind != FactorTerm::Axis) {
      error(r, "the Slice factor " + t.str() + " is neither kept in SliceOut " + s2->str() +
                   " nor reduced away (its axis still appears in the output) (" + kInter + ")");
      return false;
    }
    reduced *= t.count;
    reducedText += (reducedText.empty() ? "" : ", ") + t.str();
  }
  if (reducedText.empty()) {
    error(r, "SliceOut " + s2->str() + " keeps every factor of Slice " + in.slice->str() +
                 ": the inter-slice reduce must remove the slice factor it reduces (" + kInter + ")");
    return false;
  }
  for (const FactorTerm &t : T)
    if (!has(S2, t) && !has(T2, t)) {
      error(r, "the Time factor " + t.str() + " of " + in.time->str() + " is lost: it must stay in TimeOut or be promoted "
                                                                         "into SliceOut (" + kInter + ")");
      return false;
    }
  for (const FactorTerm &t : S2)
    if (!has(S, t) && !has(T, t) && (names(S, axisOf(t)) || names(T, axisOf(t)) || names(P, axisOf(t)))) {
      error(r, "the SliceOut factor " + t.str() + " is not a factor of the input's Slice or Time, nor a new axis to "
                                                  "broadcast over (" + kInter + ": Broadcast, Dummy or Promotion)");
      return false;
    }
  for (const FactorTerm &t : T2)
    if (!has(T, t)) {
      error(r, "the TimeOut factor " + t.str() + " is not a factor of Time " + in.time->str() + " (" + kInter + ")");
      return false;
    }
  args.op = call.operands[1]->path.segments.back().name;
  args.slices = reduced;
  out.slice = s2;
  out.time = t2;
  out.stage = Stage::VectorInterSliceReduce;
  out.ve.interDone = true;
  out.ve.interFirst = in.stage == Stage::VectorInit;
  return true;
}

}  // namespace tcp

// OpVectorShape.cpp — the Vector Engine's shape-changing rules: Narrow (split, trim_way4), Widen (concat, pad_way8), unzip.
//
// "Vector Engine" > Narrow / Widen: Way8 packets carry 8 lanes, Way4 packets 4; split turns
// [T], [P] into [T, P / 4], [P % 4] (the manual's `P / 2` is the upper-half index), trim keeps the
// lower 4 lanes, concat and pad_way8 reverse them. Two-Group Mode: unzip::<I, TileTime, SplitTime>
// splits the 2-way grouping axis I out of Time.
#include "MappingFactor.h"
#include "MappingNormalForm.h"
#include "TypeCheckInternal.h"

namespace tcp {

namespace {
constexpr const char *kNarrow = "\"Vector Engine\" > Narrow";
constexpr const char *kWiden = "\"Vector Engine\" > Widen";

std::string idx(const std::optional<Index> &i, const MappingRef &m) {
  if (!i) return "padding";
  std::string s;
  for (const auto &[axis, v] : i->entries()) s += (s.empty() ? "" : ", ") + axis + " = " + std::to_string(v);
  (void)m;
  return s.empty() ? "index 0" : s;
}
}  // namespace

// The element terms of a mapping (padding dropped), as their canonical spellings.
std::vector<std::string> veTerms(const MappingRef &m, const std::string &without) {
  std::vector<std::string> out;
  if (!m) return out;
  for (const FactorTerm &t : factorize(m)) {
    if (t.kind == FactorTerm::Padding) continue;
    if (t.kind == FactorTerm::Axis && !without.empty() && t.axis.baseName() == without) continue;
    out.push_back(t.str());
  }
  return out;
}

std::string veTermList(const std::vector<std::string> &t) {
  std::string s;
  for (const std::string &x : t) s += (s.empty() ? "" : ", ") + x;
  return "m![" + (s.empty() ? std::string("1") : s) + "]";
}

bool TypeChecker::FunctionChecker::veShape(const ast::Expr &call, const TensorType &in, TensorType &out, VeOpArgs &args,
                                           const std::optional<TensorType> &expected) {
  const std::string op = call.path.segments[0].name;
  llvm::SMRange r = opRange(call);
  const bool paired = in.stage == Stage::VectorPair;
  bool exp = expected && expected->tier == Tier::Stream;
  auto setStage = [&](Stage s) {
    if (paired) out.ve.pairStage = s;
    else out.stage = s;
  };
  std::string err;
  if (op == "vector_intra_slice_unzip") {
    auto ta = typeArgs(call, 3);
    const ast::GenericArg *g = ta[0].ast;
    std::string axis = g && g->type && g->type->kind == ast::Type::PathT && g->type->path.segments.size() == 1
                           ? g->type->path.segments[0].name
                           : "";
    const AxisInfo *info = axis.empty() ? nullptr : tc_.syms_.axes.find(axis);
    if (!info) {
      error(g ? g->range : r, "`.vector_intra_slice_unzip::<I, TileTime, SplitTime>()` takes the grouping axis `I` first (an axis name)");
      return false;
    }
    if (info->size != 2) {
      error(g->range, "the grouping axis `" + axis + "` has size " + std::to_string(info->size) +
                          "; two-group mode splits a 2-way grouping axis into group 0 and group 1 (\"Vector Engine\" > Two-Group Mode)");
      return false;
    }
    MappingRef tile = pick(ta[1], nullptr, call, "TileTime");
    MappingRef split = pick(ta[2], exp ? expected->time : nullptr, call, "SplitTime");
    if (!tile || !split) return false;
    auto have = veTerms(in.time, ""), rest = veTerms(in.time, axis), got = veTerms(split, "");
    if (have.size() == rest.size()) {
      error(r, "the grouping axis `" + axis + "` is not in Time " + in.time->str() +
                   "; unzip takes the two groups from Time (\"Vector Engine\" > Two-Group Mode)");
      return false;
    }
    if (got != rest) {
      error(ta[2].ast ? ta[2].ast->range : r, "SplitTime must be Time " + in.time->str() + " without the grouping axis `" +
                                                  axis + "`: " + veTermList(rest) + ", not " + split->str());
      return false;
    }
    args.reduceAxis = axis;
    out.time = split;
    out.stage = Stage::VectorPair;
    out.ve.paired = true;
    out.ve.pairStage = Stage::VectorBranch;
    return true;
  }
  if (op == "vector_trim_way4") {
    auto ta = typeArgs(call, 1);
    MappingRef p = pick(ta[0], exp ? expected->packet : nullptr, call, "Packet");
    if (!p) return false;
    if (p->size() > 4) {
      error(r, "`.vector_trim_way4()` keeps the lower 4 lanes: its Packet " + p->str() + " has " + std::to_string(p->size()) +
                   " positions, more than 4 (Way4; " + kNarrow + ")");
      return false;
    }
    for (uint64_t i = 0; i < p->size(); ++i) {
      auto a = in.packet->map(i), b = p->map(i);
      if (a != b) {
        error(r, "`.vector_trim_way4()` keeps the lower 4 lanes as they are: lane " + std::to_string(i) + " of " +
                     in.packet->str() + " is " + idx(a, in.packet) + " but lane " + std::to_string(i) + " of " + p->str() +
                     " is " + idx(b, p) + " (" + kNarrow + ": [T], [P] -> [T], [P = 4])");
        return false;
      }
    }
    args.op = "trim_way4";
    out.packet = p;
    out.ve.way4 = true;
    setStage(Stage::VectorNarrow);
    return true;
  }
  if (op == "vector_split") {
    auto ta = typeArgs(call, 2);
    MappingRef t = pick(ta[0], exp ? expected->time : nullptr, call, "Time");
    MappingRef p = pick(ta[1], exp ? expected->packet : nullptr, call, "Packet");
    if (!t || !p) return false;
    MappingRef hi = Mapping::stride(in.packet, 4, &err), lo = Mapping::modulo(in.packet, 4, &err);
    MappingRef wantT = hi ? Mapping::pair(in.time, hi) : nullptr;
    if (!wantT || !lo) {
      error(r, "`.vector_split()` splits an 8-lane packet in two halves; the packet " + in.packet->str() + " has " +
                   std::to_string(in.packet->size()) + " lanes (" + kNarrow + ")");
      return false;
    }
    if (!equivalent(t, wantT) || !equivalent(p, lo)) {
      error(r, "`.vector_split()` turns [T], [P] into [T, P / 4], [P % 4]: Time must be " + normalize(wantT)->str() +
                   " and Packet " + normalize(lo)->str() + ", not " + t->str() + " and " + p->str() + " (" + kNarrow + ")");
      return false;
    }
    args.op = "split";
    out.time = t;
    out.packet = p;
    out.ve.way4 = true;
    setStage(Stage::VectorNarrow);
    return true;
  }
  if (op == "vector_concat") {
    auto ta = typeArgs(call, 2);
    MappingRef t = pick(ta[0], exp ? expected->time : nullptr, call, "Time");
    MappingRef p = pick(ta[1], exp ? expected->packet : nullptr, call, "Packet");
    if (!t || !p) return false;
    MappingRef hi = p->size() == 8 ? Mapping::stride(p, 4, &err) : nullptr;
    MappingRef lo = p->size() == 8 ? Mapping::modulo(p, 4, &err) : nullptr;
    if (!hi || !lo) {
      error(r, "`.vector_concat()` merges two 4-lane packets into one 8-lane packet; its Packet " + p->str() + " has " +
                   std::to_string(p->size()) + " positions (" + kWiden + ")");
      return false;
    }
    MappingRef wantIn = Mapping::pair(t, hi);
    if (!equivalent(in.time, wantIn) || !equivalent(in.packet, lo)) {
      error(r, "`.vector_concat()` turns [T, P / 4], [P % 4] into [T], [P]: with Time " + t->str() + " and Packet " +
                   p->str() + " the input must be Time " + normalize(wantIn)->str() + " and Packet " + normalize(lo)->str() +
                   ", not " + in.time->str() + " and " + in.packet->str() + " (" + kWiden + ")");
      return false;
    }
    args.op = "concat";
    out.time = t;
    out.packet = p;
    out.ve.way4 = false;
    setStage(Stage::VectorWiden);
    return true;
  }
  // vector_pad_way8
  auto ta = typeArgs(call, 1);
  MappingRef p = pick(ta[0], exp ? expected->packet : nullptr, call, "Packet");
  if (!p) return false;
  MappingRef want = in.packet->size() <= 8 ? Mapping::pad(in.packet, 8, &err) : nullptr;
  if (!want || !equivalent(p, want)) {
    error(r, "`.vector_pad_way8()` pads the 4-lane packet to 8 lanes: Packet must be " +
                 (want ? normalize(want)->str() : std::string("8 lanes")) + ", not " + p->str() + " (" + kWiden +
                 ": [T], [P] -> [T], [P # 8])");
    return false;
  }
  args.op = "pad_way8";
  out.packet = p;
  out.ve.way4 = false;
  setStage(Stage::VectorWiden);
  return true;
}

}  // namespace tcp

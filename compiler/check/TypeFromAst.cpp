// TypeFromAst.cpp — reads tensor types (`DmTensor<bf16, m![1], ...>`, stream types) from the AST.
#include "OpCatalog.h"
#include "Suggest.h"
#include "TypeCheck.h"
#include "TypeCheckInternal.h"

namespace tcp {

namespace {
struct Shape {
  Tier tier;
  Stage stage;
  bool stream;
  bool hasRow;
  unsigned mappings;  // number of mapping parameters after the element type
  bool vectorState = false;  // then `StashD, Stash, { VeOrder }` ("Vector Engine": VectorBranchTensor)
};

std::optional<Shape> shapeOf(const std::string &name) {
  static const std::map<std::string, Shape> kShapes = {
      {"HostTensor", {Tier::Host, Stage::Begin, false, false, 1}},
      {"HbmTensor", {Tier::Hbm, Stage::Begin, false, false, 2}},
      {"HbmTensorView", {Tier::Hbm, Stage::Begin, false, false, 2}},
      {"DmTensor", {Tier::Dm, Stage::Begin, false, false, 4}},
      {"DmTensorView", {Tier::Dm, Stage::Begin, false, false, 4}},
      {"DmTensorViewMut", {Tier::Dm, Stage::Begin, false, false, 4}},
      {"TrfTensor", {Tier::Trf, Stage::Begin, false, true, 5}},
      {"VrfTensor", {Tier::Vrf, Stage::Begin, false, false, 4}},
      {"BeginTensor", {Tier::Stream, Stage::Begin, true, false, 5}},
      {"FetchTensor", {Tier::Stream, Stage::Fetch, true, false, 5}},
      {"SwitchTensor", {Tier::Stream, Stage::Switch, true, false, 5}},
      {"CollectTensor", {Tier::Stream, Stage::Collect, true, false, 5}},
      {"AlignedPair", {Tier::Stream, Stage::Aligned, true, true, 6}},
      {"ContractionTensor", {Tier::Stream, Stage::Contraction, true, true, 6}},
      {"AccumulationTensor", {Tier::Stream, Stage::Accumulation, true, false, 5}},
      {"VectorInitTensor", {Tier::Stream, Stage::VectorInit, true, false, 5}},
      {"VectorBranchTensor", {Tier::Stream, Stage::VectorBranch, true, false, 5, true}},
      {"VectorLogicTensor", {Tier::Stream, Stage::VectorLogic, true, false, 5, true}},
      {"VectorFxpTensor", {Tier::Stream, Stage::VectorFxp, true, false, 5, true}},
      {"VectorFxpToFpTensor", {Tier::Stream, Stage::VectorFxpToFp, true, false, 5, true}},
      {"VectorNarrowTensor", {Tier::Stream, Stage::VectorNarrow, true, false, 5, true}},
      {"VectorFpTensor", {Tier::Stream, Stage::VectorFp, true, false, 5, true}},
      {"VectorIntraSliceReduceTensor", {Tier::Stream, Stage::VectorIntraSliceReduce, true, false, 5, true}},
      {"VectorFpDivTensor", {Tier::Stream, Stage::VectorFpDiv, true, false, 5, true}},
      {"VectorWidenTensor", {Tier::Stream, Stage::VectorWiden, true, false, 5, true}},
      {"VectorFpToFxpTensor", {Tier::Stream, Stage::VectorFpToFxp, true, false, 5, true}},
      {"VectorClipTensor", {Tier::Stream, Stage::VectorClip, true, false, 5, true}},
      {"VectorInterSliceReduceTensor", {Tier::Stream, Stage::VectorInterSliceReduce, true, false, 5}},
      {"VectorFinalTensor", {Tier::Stream, Stage::VectorFinal, true, false, 5}},
      {"CastTensor", {Tier::Stream, Stage::Cast, true, false, 5}},
      {"TransposeTensor", {Tier::Stream, Stage::Transpose, true, false, 5}},
      // "Tensor Unit Stream": StreamTensor<'l, { Position::P }, D, Chip, Cluster, Slice, Time, Packet>.
      {"StreamTensor", {Tier::Stream, Stage::Begin, true, false, 5}},
  };
  auto it = kShapes.find(name);
  if (it == kShapes.end()) return std::nullopt;
  return it->second;
}

// The path inside a const generic argument: `{ Tu::Main }`, `{ T }`, `T`, `{ Position::Cast }`.
std::string constArgText(const ast::GenericArg &a) {
  std::string text;
  if (a.type && a.type->kind == ast::Type::PathT) text = a.type->path.str();
  if (a.expr && a.expr->kind == ast::Expr::BlockE && a.expr->block && !a.expr->block->stmts.empty() &&
      a.expr->block->stmts.back()->init && a.expr->block->stmts.back()->init->kind == ast::Expr::PathE)
    text = a.expr->block->stmts.back()->init->path.str();
  if (a.expr && a.expr->kind == ast::Expr::PathE) text = a.expr->path.str();
  return text;
}

// What a chain cannot hand a stage function at a Vector Engine stage: lanes of 32 bits, 8 per packet in
// Way8 and at most 4 in Way4 ("In Way8, one packet carries 8 active lanes ... In Way4, 4"), and the
// data type of the stage (Fxp and FpToFxp on i32, Fp, FpDiv and FxpToFp on f32). nullopt when it can.
std::optional<std::string> vectorStageProblem(const TensorType &t) {
  const bool i32 = t.dtype == num::DType::i32, f32 = t.dtype == num::DType::f32;
  if (!i32 && !f32) return std::string("the Vector Engine computes on i32 or f32, not ") + num::dtypeName(t.dtype);
  const uint64_t lanes = t.packet ? t.packet->size() : 0;
  if (t.ve.way4 ? lanes > 4 : lanes != 8)
    return "the Packet " + (t.packet ? t.packet->str() : std::string("?")) + " has " + std::to_string(lanes) +
           " lanes, but a stream at this stage carries " + (t.ve.way4 ? "at most 4 (Way4)" : "8 (Way8, one 32-byte flit)");
  if (std::optional<num::DType> want = vectorStageDType(t.stage); want && t.dtype != *want)
    return std::string("this stage's stream is ") + num::dtypeName(*want) + ", not " + num::dtypeName(t.dtype);
  return std::nullopt;
}

// The context argument of a stream type: `{ Tu::Main }`, `{ Tu::Sub }` or a generic `T`; nullopt
// for anything else (reported by the caller).
std::optional<Ctx> ctxOfArg(const ast::GenericArg &a) {
  std::string text = constArgText(a);
  if (text == "Tu::Main") return Ctx::Main;
  if (text == "Tu::Sub") return Ctx::Sub;
  if (!text.empty() && text.find("::") == std::string::npos) return Ctx::Unknown;  // the function's `const T: Tu`
  return std::nullopt;
}
}  // namespace

bool TypeChecker::vectorState(const std::vector<const ast::GenericArg *> &args, size_t k, const std::string &type,
                              bool report, bool &interFirst) {
  // `StashD, Stash, { VeOrder }`: a stage function takes no live stash (`NoTensor`); InterFirst marks the
  // inter-slice block done.
  const ast::GenericArg &stashD = *args[k], &stash = *args[k + 1], &order = *args[k + 2];
  if (!(stashD.type && stashD.type->kind == ast::Type::PathT && stashD.type->path.segments.size() == 1 &&
        num::parseDType(stashD.type->path.segments[0].name))) {
    if (report) diags_.error(stashD.range, "the stash type of `" + type + "` is an element type (i32 or f32)");
    return false;
  }
  std::string stashText = constArgText(stash);
  if (stashText != "NoTensor") {
    if (report)
      diags_.error(stash.range, catalog::notSupported("a stashed tensor in `" + type + "`",
                                                      {"a stage function's stream cannot carry a live stash",
                                                       "\"Vector Engine\" > Stash"}) +
                                    "; write `NoTensor`");
    return false;
  }
  std::string orderText = constArgText(order);
  size_t sep = orderText.rfind("::");
  const catalog::Enum *veOrder = catalog::findEnum("VeOrder");
  std::string enumPart = sep == std::string::npos ? "" : orderText.substr(0, sep);
  std::string variant = sep == std::string::npos ? orderText : orderText.substr(sep + 2);
  bool enumOk = enumPart == "VeOrder" || enumPart == "stage::VeOrder";
  const catalog::Variant *v = enumOk ? catalog::findVariant(*veOrder, variant) : nullptr;
  if (!v) {
    if (report)
      diags_.error(order.range, "expected the order `{ VeOrder::IntraFirst }` or `{ VeOrder::InterFirst }`" +
                                    (orderText.empty() ? std::string() : ", not `" + orderText + "`") +
                                    (enumOk ? didYouMean(variant, catalog::variantNames(*veOrder)) : ""));
    return false;
  }
  if (!v->supported) {
    if (report) diags_.error(order.range, catalog::notSupported("`VeOrder::" + variant + "`", v->limitation));
    return false;
  }
  // InterFirst: "Inter-Slice Block -> optional Intra-Slice Block", so a stream at an intra-slice stage
  // comes after the program's one inter-slice block.
  if (variant == "InterFirst") interFirst = true;
  return true;
}

std::optional<TensorType> TypeChecker::tensorTypeOf(const ast::Type &t0, bool report) {
  const ast::Type *t = &t0;
  while (t->kind == ast::Type::Ref && !t->elems.empty() && t->elems[0]) t = t->elems[0].get();
  if (t->kind != ast::Type::PathT || t->path.segments.empty()) return std::nullopt;
  const ast::PathSegment &seg = t->path.segments.back();
  // A generic type alias of a tensor type (`type In<'l, const T: Tu> = CollectTensor<'l, T, …>`): its
  // lifetimes are erased and a `const T: Tu` parameter takes the context its use passes.
  if (t->path.segments.size() == 1 && !seg.generics.empty()) {
    auto al = syms_.aliases.find(seg.name);
    const ast::Item *item = al != syms_.aliases.end() ? al->second.item : nullptr;
    if (item && item->type && item->type.get() != t) {
      std::vector<const ast::GenericParam *> params;
      std::vector<const ast::GenericArg *> uses;
      for (const auto &g : item->generics)
        if (g.kind != ast::GenericParam::LifetimeP) params.push_back(&g);
      for (const auto &g : seg.generics)
        if (g.kind != ast::GenericArg::Lifetime) uses.push_back(&g);
      for (const ast::GenericParam *g : params)
        if (g->kind != ast::GenericParam::ConstP || !g->constType || g->constType->kind != ast::Type::PathT ||
            g->constType->path.segments.empty() || g->constType->path.segments.back().name != "Tu") {
          if (report)
            diags_.error(t->range, "`" + seg.name + "` is a generic type alias with the parameter `" + g->name +
                                       "`; tcp substitutes lifetimes and `const T: Tu` contexts, other alias parameters "
                                       "are not supported yet (write the tensor type out)");
          return std::nullopt;
        }
      if (uses.size() != params.size()) {
        if (report)
          diags_.error(t->range, "`" + seg.name + "` takes " + std::to_string(params.size()) + " generic argument" +
                                     (params.size() == 1 ? "" : "s") + " besides lifetimes, found " + std::to_string(uses.size()));
        return std::nullopt;
      }
      std::optional<TensorType> out = tensorTypeOf(*item->type, report);
      if (out && out->tier == Tier::Stream && item->type->kind == ast::Type::PathT && !item->type->path.segments.empty()) {
        for (const auto &g : item->type->path.segments.back().generics) {
          if (g.kind == ast::GenericArg::Lifetime) continue;
          std::string text = constArgText(g);  // the body's context argument: one of the alias' parameters?
          for (size_t k = 0; k < params.size(); ++k)
            if (text == params[k]->name) out->ctx = ctxOfArg(*uses[k]).value_or(Ctx::Unknown);
          break;
        }
      }
      return out;
    }
  }
  // A type alias of a tensor type.
  if (t->path.segments.size() == 1 && seg.generics.empty()) {
    auto al = syms_.aliases.find(seg.name);
    if (al != syms_.aliases.end() && al->second.item && al->second.item->type && al->second.item->generics.empty() &&
        al->second.item->type.get() != t)
      return tensorTypeOf(*al->second.item->type, report);
    return std::nullopt;
  }
  return tensorTypeOfSegment(seg, t->range, report);
}

std::optional<TensorType> TypeChecker::tensorTypeOfSegment(const ast::PathSegment &seg, llvm::SMRange range, bool report) {
  if (syms_.declaredTypes.count(seg.name)) return std::nullopt;  // the program's own type of that name
  auto shape = shapeOf(seg.name);
  if (!shape) {
    const catalog::EngineType *et = catalog::findType(seg.name);
    if (et && !et->supported && report) diags_.error(range, catalog::notSupported("`" + seg.name + "`", et->limitation));
    return std::nullopt;
  }
  std::vector<const ast::GenericArg *> args;
  for (const auto &g : seg.generics)
    if (g.kind != ast::GenericArg::Lifetime) args.push_back(&g);
  TensorType out;
  out.tier = shape->tier;
  out.stage = shape->stage;
  out.ve.way4 = out.stage == Stage::VectorNarrow || out.stage == Stage::VectorFp ||
                out.stage == Stage::VectorIntraSliceReduce || out.stage == Stage::VectorFpDiv;
  out.isView = seg.name.find("View") != std::string::npos;
  size_t k = 0;
  bool generic = seg.name == "StreamTensor";  // a Position instead of a context
  if (shape->stream) {
    if (args.empty()) return std::nullopt;
    if (generic) {
      static const std::map<std::string, Stage> kPositions = {
          {"Position::Begin", Stage::Begin},   {"Position::Fetch", Stage::Fetch},
          {"Position::Switch", Stage::Switch}, {"Position::Collect", Stage::Collect},
          {"Position::Reduce", Stage::Accumulation}, {"Position::Cast", Stage::Cast},
          {"Position::Transpose", Stage::Transpose}};
      auto pos = kPositions.find(constArgText(*args[k]));
      if (pos == kPositions.end()) {
        if (report)
          diags_.error(args[k]->range, "expected a `Position` (Begin, Fetch, Switch, Collect, Reduce, Cast or Transpose; "
                                       "a stream after the Contraction Engine has Rows: use `ContractionTensor`)");
        return std::nullopt;
      }
      out.stage = pos->second;
      ++k;
    } else {
      auto ctx = ctxOfArg(*args[k]);
      if (!ctx) {
        if (report) {
          std::string text = constArgText(*args[k]);
          std::string variant = text.substr(text.rfind(':') == std::string::npos ? 0 : text.rfind(':') + 1);
          diags_.error(args[k]->range, "expected a Tensor Unit context, `{ Tu::Main }`, `{ Tu::Sub }` or a generic `T`" +
                                           (text.empty() ? std::string() : ", not `" + text + "`") +
                                           didYouMean(variant, {"Main", "Sub"}));
        }
        return std::nullopt;
      }
      out.ctx = *ctx;
      ++k;
    }
  }
  size_t want = k + 1 + shape->mappings + (shape->vectorState ? 3 : 0);
  // "Inter-Slice Block" > Interface: VectorInterSliceReduceTensor<'l, T, D, Chip, Cluster, Slice2,
  // Time2, Packet, { VeOrder }>: the order follows the mappings.
  bool interOrder = seg.name == "VectorInterSliceReduceTensor" && args.size() == want + 1;
  if (interOrder) ++want;
  if (args.size() != want) {
    if (report)
      diags_.error(range, "`" + seg.name + "` takes " + std::to_string(want) + " type arguments (" +
                                 (shape->stream ? (generic ? "position, " : "context, ") : "") + "element type and " +
                                 std::to_string(shape->mappings) + " mappings" +
                                 (shape->vectorState ? ", then the stash type, the stash and the `VeOrder`" : "") +
                                 "), found " + std::to_string(args.size()));
    return std::nullopt;
  }
  const ast::GenericArg &d = *args[k++];
  std::optional<num::DType> dtype;
  if (d.type && d.type->kind == ast::Type::PathT && d.type->path.segments.size() == 1)
    dtype = num::parseDType(d.type->path.segments[0].name);
  if (!dtype) {
    if (report) diags_.error(d.range, "expected an element type (i4, i8, i16, i32, f8e4m3, f8e5m2, bf16, f16, f32)");
    return std::nullopt;
  }
  out.dtype = *dtype;
  // i5 and i9 exist only inside the Tensor Unit (the Fetch Adapter's i4 -> i5 and i8 -> i9 casts): no
  // memory holds them, and the DMA Engine moves i4, i8, f8e4m3, f8e5m2, i16, f16, bf16, i32 and f32.
  if (!num::isStorable(out.dtype) && out.tier != Tier::Stream && out.tier != Tier::Host) {
    if (report)
      diags_.error(d.range, std::string(num::dtypeName(out.dtype)) + " is a pipeline-only type (the Fetch Adapter's " +
                                (out.dtype == num::DType::i5 ? "i4 -> i5" : "i8 -> i9") + " cast); `" + seg.name +
                                "` is in memory, which holds i4, i8, i16, i32, f8e4m3, f8e5m2, f16, bf16 or f32");
    return std::nullopt;
  }
  std::vector<MappingRef> maps;
  for (size_t end = k + shape->mappings; k < end; ++k) {
    const ast::GenericArg &a = *args[k];
    MappingRef m = a.type ? resolver_.mappingOfType(*a.type) : nullptr;
    if (!m) {
      if (report && a.type && a.type->kind != ast::Type::Infer)
        diags_.error(a.range, "expected a mapping `m![...]` or a mapping alias here");
      return std::nullopt;
    }
    maps.push_back(m);
  }
  bool interFirst = false;
  if (shape->vectorState && !vectorState(args, k, seg.name, report, interFirst)) return std::nullopt;
  if (interFirst) out.ve.interFirst = out.ve.interDone = true;
  if (interOrder) {
    std::string order = constArgText(*args[k]);
    if (order != "VeOrder::InterFirst" && order != "stage::VeOrder::InterFirst" && order != "VeOrder::IntraFirst" &&
        order != "stage::VeOrder::IntraFirst") {
      if (report) diags_.error(args[k]->range, "expected the order `{ VeOrder::IntraFirst }` or `{ VeOrder::InterFirst }`");
      return std::nullopt;
    }
    out.ve.interDone = true;
    out.ve.interFirst = order.find("InterFirst") != std::string::npos;
  }
  size_t j = 0;
  switch (out.tier) {
    case Tier::Host: out.element = maps[j++]; break;
    case Tier::Hbm: out.chip = maps[j++]; out.element = maps[j++]; break;
    case Tier::Dm:
    case Tier::Vrf:
      out.chip = maps[j++]; out.cluster = maps[j++]; out.slice = maps[j++]; out.element = maps[j++];
      break;
    case Tier::Trf:
      out.chip = maps[j++]; out.cluster = maps[j++]; out.slice = maps[j++]; out.row = maps[j++]; out.element = maps[j++];
      break;
    case Tier::Stream:
      out.chip = maps[j++]; out.cluster = maps[j++]; out.slice = maps[j++];
      if (shape->hasRow) out.row = maps[j++];
      out.time = maps[j++]; out.packet = maps[j++];
      break;
  }
  if (shape->vectorState) {
    if (std::optional<std::string> problem = vectorStageProblem(out)) {
      if (report) diags_.error(range, "`" + seg.name + "`: " + *problem + " (\"Vector Engine\" > Stages, Data Type)");
      return std::nullopt;
    }
  }
  return out;
}

}  // namespace tcp

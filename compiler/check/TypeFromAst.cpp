// TypeFromAst.cpp — reads tensor types (`DmTensor<bf16, m![1], ...>`, stream types) from the AST.
#include "TypeCheck.h"

namespace tcp {

namespace {
struct Shape {
  Tier tier;
  Stage stage;
  bool stream;
  bool hasRow;
  unsigned mappings;  // number of mapping parameters after the element type
};

std::optional<Shape> shapeOf(const std::string &name) {
  static const std::map<std::string, Shape> kShapes = {
      {"HostTensor", {Tier::Host, Stage::Begin, false, false, 1}},
      {"HbmTensor", {Tier::Hbm, Stage::Begin, false, false, 2}},
      {"HbmTensorView", {Tier::Hbm, Stage::Begin, false, false, 2}},
      {"DmTensor", {Tier::Dm, Stage::Begin, false, false, 4}},
      {"DmTensorView", {Tier::Dm, Stage::Begin, false, false, 4}},
      {"TrfTensor", {Tier::Trf, Stage::Begin, false, true, 5}},
      {"VrfTensor", {Tier::Vrf, Stage::Begin, false, false, 4}},
      {"BeginTensor", {Tier::Stream, Stage::Begin, true, false, 5}},
      {"FetchTensor", {Tier::Stream, Stage::Fetch, true, false, 5}},
      {"SwitchTensor", {Tier::Stream, Stage::Switch, true, false, 5}},
      {"CollectTensor", {Tier::Stream, Stage::Collect, true, false, 5}},
      {"AlignedPair", {Tier::Stream, Stage::Aligned, true, true, 6}},
      {"ContractionTensor", {Tier::Stream, Stage::Contraction, true, true, 6}},
      {"AccumulationTensor", {Tier::Stream, Stage::Accumulation, true, false, 5}},
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

// The context argument of a stream type.
Ctx ctxOfArg(const ast::GenericArg &a) {
  std::string text = constArgText(a);
  if (text == "Tu::Main") return Ctx::Main;
  if (text == "Tu::Sub") return Ctx::Sub;
  return Ctx::Unknown;
}
}  // namespace

std::optional<TensorType> TypeChecker::tensorTypeOf(const ast::Type &t0, bool report) {
  const ast::Type *t = &t0;
  while (t->kind == ast::Type::Ref && !t->elems.empty() && t->elems[0]) t = t->elems[0].get();
  if (t->kind != ast::Type::PathT || t->path.segments.empty()) return std::nullopt;
  const ast::PathSegment &seg = t->path.segments.back();
  // A type alias of a tensor type.
  if (t->path.segments.size() == 1 && seg.generics.empty()) {
    auto al = syms_.aliases.find(seg.name);
    if (al != syms_.aliases.end() && al->second.item && al->second.item->type && al->second.item->generics.empty() &&
        al->second.item->type.get() != t)
      return tensorTypeOf(*al->second.item->type, report);
    return std::nullopt;
  }
  auto shape = shapeOf(seg.name);
  if (!shape) return std::nullopt;
  std::vector<const ast::GenericArg *> args;
  for (const auto &g : seg.generics)
    if (g.kind != ast::GenericArg::Lifetime) args.push_back(&g);
  TensorType out;
  out.tier = shape->tier;
  out.stage = shape->stage;
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
      out.ctx = ctxOfArg(*args[k++]);
    }
  }
  size_t want = k + 1 + shape->mappings;
  if (args.size() != want) {
    if (report)
      diags_.error(t->range, "`" + seg.name + "` takes " + std::to_string(want) + " type arguments (" +
                                 (shape->stream ? (generic ? "position, " : "context, ") : "") + "element type and " +
                                 std::to_string(shape->mappings) + " mappings), found " + std::to_string(args.size()));
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
  std::vector<MappingRef> maps;
  for (; k < args.size(); ++k) {
    const ast::GenericArg &a = *args[k];
    MappingRef m = a.type ? resolver_.mappingOfType(*a.type) : nullptr;
    if (!m) {
      if (report && a.type && a.type->kind != ast::Type::Infer)
        diags_.error(a.range, "expected a mapping `m![...]` or a mapping alias here");
      return std::nullopt;
    }
    maps.push_back(m);
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
  return out;
}

}  // namespace tcp

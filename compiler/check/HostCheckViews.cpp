// HostCheckViews.cpp — views of HBM tensors in host code: `h.view()` and `v.tile::<Dim, SIZE, Tile>(start)` ("Mapping Tensors" > Resize).
#include "HostCheckInternal.h"

#include "MappingNormalForm.h"
#include "TileLayout.h"

namespace tcp {

HostType HostChecker::hbmViewMethod(const ast::Expr &e, const std::string &method, const HostType &recv, const ast::Type *) {
  if (method == "tile") return tileView(e, recv);
  // view(): the same bytes and layout as a view.
  const HostApiEntry &api = *findHostApi(HostApiEntry::Method, recv.apiOwner(), method);
  std::vector<HostType> args = argTypes(e, 1);
  arity(api, args.size(), e.range);
  if (!recv.tensorKnown()) return HostType::of(HostType::HbmView);
  return HostType::hbmView(recv.dtype, recv.chip, recv.element);
}

// The tile's layout is proven here when `start` is a constant, and otherwise for start 0 here and
// for the actual start when tcpi runs the call (the same rule, tileLayout()).
HostType HostChecker::tileView(const ast::Expr &e, const HostType &recv) {
  const HostApiEntry &api = *findHostApi(HostApiEntry::Method, "HbmTensorView", "tile");
  std::vector<HostType> args = argTypes(e, 1);
  HostType out = HostType::of(HostType::HbmView);
  if (!arity(api, args.size(), e.range)) return out;
  const ast::Expr &startExpr = *e.operands[1];
  if ((args[0].known() && args[0].kind != HostType::Int && args[0].kind != HostType::Never) ||
      (startExpr.kind == ast::Expr::Unary && startExpr.text == "-"))
    error(startExpr.range, "the tile's start index must be a non-negative integer");
  const ast::PathSegment &seg = e.path.segments[0];
  llvm::SMRange site = seg.range.isValid() ? seg.range : e.range;
  std::vector<const ast::GenericArg *> gs;
  for (const auto &g : seg.generics)
    if (g.kind != ast::GenericArg::Lifetime) gs.push_back(&g);
  if (gs.size() != 3) {
    error(site, "`.tile()` takes `::<Dim, SIZE, Tile>`: the dimension to divide (`m![B]`), the tile size and the tile's "
                "mapping, found " + std::to_string(gs.size()) + " type argument" + (gs.size() == 1 ? "" : "s"));
    return out;
  }
  MappingRef dim = mappingArg(*gs[0]), tile = mappingArg(*gs[2]);
  std::optional<uint64_t> size;
  if (gs[1]->expr) size = literalAddress(*gs[1]->expr);
  if (!size && gs[1]->type && gs[1]->type->kind == ast::Type::Mapping)
    if (MappingRef m = resolver_.mappingOfType(*gs[1]->type); m && m->axes().empty()) size = m->size();
  if (!size || *size == 0) {
    error(gs[1]->range, "`.tile()`: the tile size (the second type argument) must be a positive constant");
    return out;
  }
  if (!dim || !tile) return out;
  if (!recv.tensorKnown()) return out;
  std::optional<uint64_t> start = literalAddress(startExpr);
  TileLayout layout = tileLayout(recv.element, normalize(dim), *size, tile, start.value_or(0), recv.str(), "chip");
  if (!layout.ok()) error(site, layout.error);
  return HostType::hbmView(recv.dtype, recv.chip, tile);
}

}  // namespace tcp

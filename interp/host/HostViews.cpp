// HostViews.cpp — views of HBM tensors in host code: `h.view()` and `v.tile::<Dim, SIZE, Tile>(start)`, checked by tileLayout() for the start the program computes.
#include "HostRuntime.h"

#include "MappingNormalForm.h"
#include "TileLayout.h"

namespace tcp::interp {

Value HostRuntime::hbmViewMethod(const ast::Expr &e, const std::string &method, const std::shared_ptr<HbmTensorObj> &h) {
  auto v = std::make_shared<HbmTensorObj>(*h);
  v->view = true;
  v->source.reset();  // a view passes its own address and layout (the checker refuses re-placing one)
  if (method == "view") {
    if (e.operands.size() != 1) fail(e.range, "`.view()` takes no arguments");
    return Value::object(v);
  }
  if (e.operands.size() != 2) fail(e.range, "`.tile::<Dim, SIZE, Tile>(start)` takes one argument");
  const ast::PathSegment &seg = e.path.segments[0];
  std::vector<const ast::GenericArg *> gs;
  for (const auto &g : seg.generics)
    if (g.kind != ast::GenericArg::Lifetime) gs.push_back(&g);
  if (gs.size() != 3) fail(e.range, "`.tile()` takes `::<Dim, SIZE, Tile>`");
  auto mapping = [&](const ast::GenericArg &g) {
    unsigned before = comp_.diags().errorCount();
    MappingRef m = g.type ? ev_.resolver().mappingOfType(*g.type) : nullptr;
    if (!m) fail(g.range, comp_.diags().errorCount() != before ? "invalid mapping (see the error above)" : "expected a mapping `m![...]` here");
    return m;
  };
  MappingRef dim = mapping(*gs[0]), tile = mapping(*gs[2]);
  int64_t size = 0;
  if (gs[1]->expr) {
    Value s = ev_.eval(*gs[1]->expr);
    if (s.kind == Value::Int) size = s.i;
  } else if (gs[1]->type) {
    if (MappingRef m = ev_.resolver().mappingOfType(*gs[1]->type); m && m->axes().empty()) size = int64_t(m->size());
  }
  if (size <= 0) fail(gs[1]->range, "`.tile()`: the tile size (the second type argument) must be a positive constant");
  Value start = ev_.eval(*e.operands[1]);
  if (start.kind != Value::Int || start.i < 0) fail(e.operands[1]->range, "the tile's start index must be a non-negative integer");
  TileLayout layout = tileLayout(h->type.element, normalize(dim), uint64_t(size), tile, uint64_t(start.i), h->type.str(), "chip");
  if (!layout.ok()) fail(seg.range.isValid() ? seg.range : e.range, layout.error);
  v->type.element = tile;
  v->address = h->address + num::storageBytes(h->type.dtype, layout.offset);
  return Value::object(v);
}

}  // namespace tcp::interp

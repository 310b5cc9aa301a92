// OpTile.cpp — rule of `view.tile::<Dim, SIZE, Tile>(start)`: a resized, offset view of an HBM or DM tensor ("Mapping Tensors" > Resize).
#include "MappingNormalForm.h"
#include "TileLayout.h"
#include "TypeCheckInternal.h"

namespace tcp {

// The layout proof is tileLayout() (mapping/TileLayout.h); here: the operands, and the tile placed
// as a view of the tensor at its offset.
CheckedValue TypeChecker::FunctionChecker::opTile(const ast::Expr &call, const CheckedValue &recv) {
  llvm::SMRange r = opRange(call);
  if (recv.kind != CheckedValue::Tensor || !recv.type.isView || (recv.type.tier != Tier::Hbm && recv.type.tier != Tier::Dm)) {
    error(r, "`.tile()` takes a view of an HBM or DM tensor (`x.view().tile::<Dim, SIZE, Tile>(start)`)");
    return {};
  }
  auto args = typeArgs(call, 3);
  auto start = constArg(call, 0, "tile start index along Dim");
  if (args.size() < 3 || !args[0].given || !args[2].given || !args[0].mapping || !args[2].mapping || !args[1].ast) {
    error(r, "`.tile()` takes `::<Dim, SIZE, Tile>`: the dimension to divide (`m![B]`), the tile size and the tile's mapping");
    return {};
  }
  if (!start) return {};
  const PlacedTensor *root = recv.tensorId >= 0 ? &tensors_[recv.tensorId] : nullptr;
  if (!root || !root->placed) {
    error(r, "`.tile()` of " + std::string(root && root->param >= 0 ? "a kernel parameter" : "a tensor without an address") +
                 " is not supported yet (tile a tensor the kernel placed: its address is known)");
    return {};
  }
  MappingRef dim = normalize(args[0].mapping), tile = args[2].mapping;
  // SIZE: a constant (the generic argument is an expression or a mapping of a number).
  std::optional<uint64_t> size;
  if (args[1].mapping && args[1].mapping->axes().empty()) size = args[1].mapping->size();
  if (!size) {
    CheckedValue v;
    if (args[1].ast->expr) v = eval(*args[1].ast->expr, std::nullopt);
    if (v.kind == CheckedValue::Int && v.value > 0) size = uint64_t(v.value);
  }
  if (!size || *size == 0) {
    error(r, "`.tile()`: the tile size (the second type argument) must be a positive constant");
    return {};
  }
  const TensorType &t = recv.type;
  TileLayout layout = tileLayout(t.element, dim, *size, tile, *start, t.str(), t.tier == Tier::Dm ? "slice" : "chip");
  if (!layout.ok()) {
    error(r, layout.error);
    return {};
  }
  TensorType out = t;
  out.element = tile;
  out.isView = true;
  uint64_t bytes = num::storageBytes(t.dtype, layout.offset);
  // `root` points into tensors_, which place() may reallocate: read it first.
  int rootId = root->aliasOf >= 0 ? root->aliasOf : recv.tensorId;
  int id = place(out, "", r, root->address + bytes);
  tensors_[id].aliasOf = rootId;
  tensors_[id].param = -1;
  tensors_[id].bytes = num::storageBytes(t.dtype, layout.dataEnd);
  use(recv);
  return tensorValue(out, id);
}

}  // namespace tcp

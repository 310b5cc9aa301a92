// OpMemory.cpp — rules of the DMA ops (`to_dm`, `to_hbm`) and of `begin`, which opens a Tensor Unit chain.
#include "TypeCheckInternal.h"

namespace tcp {

namespace {
// Whether the first argument is `&mut ctx.tdma` (true as well when its own error was reported).
bool isTdma(const ast::Expr &call, TypeChecker::FunctionChecker &fc, CheckedValue *dma) {
  if (call.operands.size() < 2) return false;
  *dma = fc.eval(*call.operands[1], std::nullopt);
  return (dma->kind == CheckedValue::Dma && dma->text == "tdma") || dma->kind == CheckedValue::None;
}
}  // namespace

CheckedValue TypeChecker::FunctionChecker::opToDm(const ast::Expr &call, const CheckedValue &recv,
                                                  const std::optional<TensorType> &expected) {
  if (!requireTier(call, recv, Tier::Hbm)) return {};
  CheckedValue dma;
  if (!isTdma(call, *this, &dma))
    error(opRange(call), "`.to_dm()` moves HBM to DM with the Tensor DMA: pass `&mut ctx.tdma` first");
  auto addr = constArg(call, 1, "DM address (bytes within each slice)");
  auto args = typeArgs(call, 3);
  bool exp = expected && expected->tier == Tier::Dm;
  TensorType out;
  out.tier = Tier::Dm;
  out.dtype = recv.type.dtype;
  out.chip = recv.type.chip;
  out.cluster = pick(args[0], exp ? expected->cluster : nullptr, call, "Cluster");
  out.slice = pick(args[1], exp ? expected->slice : nullptr, call, "Slice");
  out.element = pick(args[2], exp ? expected->element : nullptr, call, "Element");
  if (!out.cluster || !out.slice || !out.element) return {};
  llvm::SMRange r = opRange(call);
  checkDeviceDims(out, r, /*checkChip=*/false);
  checkCapacity(out, r, addr);
  checkPreserved({recv.type.chip, recv.type.element}, {out.chip, out.cluster, out.slice, out.element}, r, "to_dm");
  TypedOp &op = emit(call, recv.type, out);
  op.address = addr;
  return tensorValue(out, place(out, "", r, addr));
}

CheckedValue TypeChecker::FunctionChecker::opToHbm(const ast::Expr &call, const CheckedValue &recv,
                                                   const std::optional<TensorType> &expected) {
  if (!requireTier(call, recv, Tier::Dm)) return {};
  CheckedValue dma;
  if (!isTdma(call, *this, &dma))
    error(opRange(call), "`.to_hbm()` in a kernel moves DM to HBM with the Tensor DMA: pass `&mut ctx.tdma` first");
  auto addr = constArg(call, 1, "HBM address (bytes within each chip)");
  auto args = typeArgs(call, 1);
  bool exp = expected && expected->tier == Tier::Hbm;
  TensorType out;
  out.tier = Tier::Hbm;
  out.dtype = recv.type.dtype;
  out.chip = recv.type.chip;
  out.element = pick(args[0], exp ? expected->element : nullptr, call, "Element");
  if (!out.element) return {};
  llvm::SMRange r = opRange(call);
  checkCapacity(out, r, addr);
  checkPreserved({recv.type.chip, recv.type.cluster, recv.type.slice, recv.type.element}, {out.chip, out.element}, r,
                 "to_hbm");
  TypedOp &op = emit(call, recv.type, out);
  op.address = addr;
  return tensorValue(out, place(out, "", r, addr));
}

TensorType TypeChecker::FunctionChecker::openChain(Ctx ctx, const std::vector<const CheckedValue *> &sources,
                                                   const MappingRef &time) {
  currentChain_ = out_.chains++;
  chainOpen_ = true;
  for (const CheckedValue *v : sources)
    if (v->tensorId >= 0) chainSources_[currentChain_].push_back(v->tensorId);
  const TensorType &dm = sources.front()->type;
  TensorType out;
  out.tier = Tier::Stream;
  out.stage = Stage::Begin;
  out.ctx = ctx;
  out.dtype = dm.dtype;
  out.chip = dm.chip;
  out.cluster = dm.cluster;
  out.slice = dm.slice;
  out.time = time;
  out.packet = dm.element;
  currentSource_ = sources.front()->tensorId;
  return out;
}

CheckedValue TypeChecker::FunctionChecker::opBegin(const ast::Expr &call, const CheckedValue &recv) {
  if (recv.kind != CheckedValue::Context) {
    error(opRange(call), "`.begin()` is called on a Tensor Unit context: `ctx.main` or `ctx.sub`");
    return {};
  }
  if (call.operands.size() != 2) {
    error(opRange(call), "`.begin()` takes one DM tensor view, e.g. `.begin(x.view())`");
    return {};
  }
  ++seq_;
  CheckedValue src = eval(*call.operands[1], std::nullopt);
  if (src.kind == CheckedValue::None) return {};  // reported
  if (src.kind != CheckedValue::Tensor || src.type.tier != Tier::Dm) {
    error(call.operands[1]->range, "`.begin()` streams a DM tensor; this is " +
                                       (src.kind == CheckedValue::Tensor ? src.type.str() : std::string("not a tensor")));
    return {};
  }
  use(src);
  TensorType out = openChain(recv.ctx, {&src}, Mapping::identity());
  TypedOp &op = emit(call, src.type, out);
  if (src.tensorId >= 0 && tensors_[src.tensorId].placed) op.address = tensors_[src.tensorId].address;
  return tensorValue(out, place(out, "", opRange(call), std::nullopt));
}

}  // namespace tcp

// OpDma.cpp — rule of the general DMA op `.dma::<Time, Packet>(&mut ctx.tdma, address)` (any HBM/DM source to any HBM/DM destination).
#include "DmaChips.h"
#include "TypeCheckInternal.h"

namespace tcp {

CheckedValue TypeChecker::FunctionChecker::opDma(const ast::Expr &call, const CheckedValue &recv,
                                                 const std::optional<TensorType> &expected) {
  llvm::SMRange r = opRange(call);
  if (recv.type.tier != Tier::Hbm && recv.type.tier != Tier::Dm) {
    error(r, "`.dma()` moves an HBM or DM tensor; this is " + recv.type.str());
    return {};
  }
  CheckedValue dma;
  if (call.operands.size() >= 2) dma = eval(*call.operands[1], std::nullopt);
  if ((dma.kind != CheckedValue::Dma || dma.text != "tdma") && !(call.operands.size() >= 2 && dma.kind == CheckedValue::None))
    error(r, "`.dma()` runs on the Tensor DMA: pass `&mut ctx.tdma` first");
  auto addr = constArg(call, 1, "destination address (bytes within each chip or slice)");
  auto args = typeArgs(call, 2);
  if (!expected || (expected->tier != Tier::Hbm && expected->tier != Tier::Dm)) {
    error(r, "`.dma()` needs the destination's type: annotate the result as an `HbmTensor` or a `DmTensor`");
    return {};
  }
  MappingRef time = pick(args[0], nullptr, call, "Time");
  MappingRef packet = pick(args[1], nullptr, call, "Packet");
  if (!time || !packet) return {};
  TensorType out = *expected;
  out.isView = false;
  if (out.dtype != recv.type.dtype) {
    error(r, std::string("`.dma()` moves elements unchanged: the source holds ") + num::dtypeName(recv.type.dtype) +
                 ", the destination " + num::dtypeName(out.dtype));
    return {};
  }
  // A destination on other chips ("cross-chip transfers") names chips of this kernel: its Chip
  // mapping spans the kernel's chip count, like a parameter's.
  bool crossChip = recv.type.chip && out.chip && recv.type.chip->body() != out.chip->body();
  if (out.tier == Tier::Dm || crossChip) checkDeviceDims(out, r, /*checkChip=*/crossChip);
  checkCapacity(out, r, addr);
  std::vector<MappingRef> src, dst;
  for (const auto &[name, m] : recv.type.dims()) src.push_back(m);
  for (const auto &[name, m] : out.dims()) dst.push_back(m);
  checkPreserved(src, dst, r, "dma");
  TensorType stream;
  stream.tier = Tier::Stream;
  stream.dtype = out.dtype;
  stream.time = time;
  stream.packet = packet;
  TypedOp &op = emit(call, recv.type, out);
  op.address = addr;
  op.operands.push_back(stream);
  return tensorValue(out, place(out, "", r, addr));
}

}  // namespace tcp

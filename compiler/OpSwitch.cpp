// OpSwitch.cpp — rules of `.switch()`: the Switch Engine's topologies matched against the stream mappings.
#include "TypeCheckInternal.h"

namespace tcp {

CheckedValue TypeChecker::FunctionChecker::opSwitch(const ast::Expr &call, const CheckedValue &recv,
                                                    const std::optional<TensorType> &expected) {
  if (!requireStage(call, recv, {Stage::Fetch})) return {};
  auto args = typeArgs(call, 2);
  bool exp = expected && expected->tier == Tier::Stream;
  TensorType out = recv.type;
  out.stage = Stage::Switch;
  out.slice = pick(args[0], exp ? expected->slice : nullptr, call, "Slice");
  out.time = pick(args[1], exp ? expected->time : nullptr, call, "Time");
  if (!out.slice || !out.time) return {};
  llvm::SMRange r = opRange(call);
  checkDeviceDims(out, r, /*checkChip=*/false);
  checkPreserved({recv.type.slice, recv.type.time, recv.type.packet}, {out.slice, out.time, out.packet}, r, "switch");
  TypedOp &op = emit(call, recv.type, out);
  if (call.operands.size() > 1 && call.operands[1]->kind == ast::Expr::StructLit) op.arg = call.operands[1]->path.str();
  else if (call.operands.size() > 1 && call.operands[1]->kind == ast::Expr::PathE) op.arg = call.operands[1]->path.str();
  return tensorValue(out, place(out, "", r, std::nullopt));
}

}  // namespace tcp

// OpCommitView.cpp — rule of commit_view: the Commit Engine writing into an existing DM tensor view.
#include "MappingNormalForm.h"
#include "TypeCheckInternal.h"

#include <tuple>

namespace tcp {

CheckedValue TypeChecker::FunctionChecker::opCommitView(const ast::Expr &call, const CheckedValue &recv,
                                                        const std::optional<TensorType> &) {
  if (!requireCommitStage(call, recv)) return {};
  llvm::SMRange r = opRange(call);
  if (call.operands.size() != 2) {
    error(r, "`.commit_view()` takes one mutable DM tensor view, e.g. `.commit_view(out.view_mut())`");
    return {};
  }
  CheckedValue dst = eval(*call.operands[1], std::nullopt);
  if (dst.kind == CheckedValue::None) return {};  // reported
  if (dst.kind != CheckedValue::Tensor || dst.type.tier != Tier::Dm) {
    error(call.operands[1]->range, "`.commit_view()` writes into a DM tensor view; this is " +
                                       (dst.kind == CheckedValue::Tensor ? dst.type.str() : std::string("not a tensor")));
    return {};
  }
  use(dst);
  TensorType out = dst.type;
  out.isView = false;
  // The view fixes everything but the data: "DmTensorViewMut<'l, D, Chip, Cluster, Slice, Element>"
  // shares D, Chip, Cluster and Slice with the stream.
  if (out.dtype != recv.type.dtype)
    error(call.operands[1]->range, std::string("the view holds ") + num::dtypeName(out.dtype) + ", the stream " +
                                       num::dtypeName(recv.type.dtype) + " (commit writes the stream's element type)");
  for (auto [name, a, b] : {std::tuple{"Cluster", out.cluster, recv.type.cluster}, std::tuple{"Slice", out.slice, recv.type.slice}})
    if (a && b && !equivalent(a, b))
      error(call.operands[1]->range, std::string("the view's ") + name + " " + a->str() + " is not the stream's " +
                                         b->str() + " (each slice commits its own packets; move them with the Switch Engine)");
  std::optional<uint64_t> addr;
  if (dst.tensorId >= 0 && tensors_[dst.tensorId].placed) addr = tensors_[dst.tensorId].address;
  // A tile starts where its first position lies in the tensor: the Commit Engine's 8-byte rule holds
  // for the view's address as for `.commit(address)`.
  if (addr && *addr % 8) error(call.operands[1]->range, commitAlignmentError(*addr) + " (the view's first byte)");
  TypedOp &op = checkCommit(call, recv, out, addr);
  op.arg = "view";
  // No new tensor: the op writes the view's tensor.
  op.result = dst.tensorId;
  resultPending_ = false;
  if (dst.tensorId >= 0) tensors_[dst.tensorId].lastUse = seq_;
  CheckedValue unit;  // `commit_view` returns `()`
  unit.kind = CheckedValue::Unit;
  return unit;
}

}  // namespace tcp

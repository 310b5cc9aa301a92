// OpFetchAdapter.cpp — rules of begin_interleaved and of the Fetch Adapter's zero-point fetch variants.
#include "TypeCheckInternal.h"

namespace tcp {

namespace {
// The integer constants of an array literal `[100, -100]`; nullopt when an element is not constant.
std::optional<std::vector<int64_t>> constArray(TypeChecker::FunctionChecker &fc, const ast::Expr &e) {
  std::vector<int64_t> out;
  bool ok = true;
  for (const auto &o : e.operands) {
    CheckedValue v = fc.eval(*o, std::nullopt);
    if (v.kind == CheckedValue::Int && !fc.requireConstant(v, o->range, "a zero point")) {
      ok = false;
      continue;
    }
    if (v.kind != CheckedValue::Int) {
      if (v.kind != CheckedValue::None) fc.error(o->range, "a zero point in `[zp0, zp1]` is an integer constant");
      ok = false;
      continue;
    }
    out.push_back(v.value);
  }
  if (!ok) return std::nullopt;
  return out;
}

}  // namespace

CheckedValue TypeChecker::FunctionChecker::opBeginInterleaved(const ast::Expr &call, const CheckedValue &recv) {
  llvm::SMRange r = opRange(call);
  if (recv.kind != CheckedValue::Context) {
    error(r, "`.begin_interleaved()` is called on a Tensor Unit context: `ctx.main` or `ctx.sub`");
    return {};
  }
  if (call.operands.size() != 3) {
    error(r, "`.begin_interleaved()` interleaves two DM tensor views: `.begin_interleaved::<I, _, _, _, _, _>(lhs.view(), "
             "rhs.view())` (at most two tensors are interleaved)");
    return {};
  }
  // The interleaving axis: the first type argument, an axis of size 2 ("Interleaving Tensors").
  MappingRef axis;
  const ast::GenericArg *g0 =
      call.path.segments.empty() || call.path.segments[0].generics.empty() ? nullptr : &call.path.segments[0].generics[0];
  if (g0 && g0->type && g0->type->kind == ast::Type::PathT && g0->type->path.segments.size() == 1) {
    std::string err;
    axis = Mapping::symbol(tc_.syms_.axes, g0->type->path.segments[0].name, &err);
  }
  if (!axis && g0 && g0->type && g0->type->kind == ast::Type::Mapping) axis = tc_.resolver_.mappingOfType(*g0->type);
  if (!axis) {
    error(r, "`.begin_interleaved::<I, _, _, _, _, _>()` names the axis that alternates the two tensors (e.g. "
             "`axes![I = 2]`) as its first type argument");
    return {};
  }
  if (axis->size() != 2)
    error(r, "the interleaving axis " + axis->str() + " has size " + std::to_string(axis->size()) +
                 "; it alternates two tensors, so its size is 2");
  ++seq_;
  CheckedValue lhs = eval(*call.operands[1], std::nullopt), rhs = eval(*call.operands[2], std::nullopt);
  if (lhs.kind == CheckedValue::None || rhs.kind == CheckedValue::None) return {};  // reported
  for (const CheckedValue *v : {&lhs, &rhs})
    if (v->kind != CheckedValue::Tensor || v->type.tier != Tier::Dm) {
      error(call.operands[v == &lhs ? 1 : 2]->range,
            "`.begin_interleaved()` streams DM tensors; this is " +
                (v->kind == CheckedValue::Tensor ? v->type.str() : std::string("not a tensor")));
      return {};
    }
  use(lhs);
  use(rhs);
  TensorType l = lhs.type, rt = rhs.type;
  l.isView = rt.isView = false;
  if (!sameType(l, rt))
    error(call.operands[2]->range, "interleaving combines two tensors with identical mappings: " + lhs.type.str() +
                                       " and " + rhs.type.str() + " differ");
  TensorType out = openChain(recv.ctx, {&lhs, &rhs}, axis);  // Time: I = 0 reads lhs, I = 1 reads rhs
  TypedOp &op = emit(call, lhs.type, out);
  op.name = "begin";  // a begin whose Time is the interleaving axis (arg), reading lhs then rhs (operand)
  op.arg = axis->body();
  op.operands.push_back(rhs.type);
  op.operandTensors.push_back(rhs.tensorId);
  if (lhs.tensorId >= 0 && tensors_[lhs.tensorId].placed) op.address = tensors_[lhs.tensorId].address;
  return tensorValue(out, place(out, "", r, std::nullopt));
}

CheckedValue TypeChecker::FunctionChecker::opFetchAdapter(const ast::Expr &call, const CheckedValue &recv,
                                                          const std::optional<TensorType> &expected) {
  const std::string name = call.path.segments[0].name;
  llvm::SMRange r = opRange(call);
  size_t opsBefore = out_.ops.size();
  CheckedValue result = opFetch(call, recv, expected);
  if (out_.ops.size() == opsBefore || result.kind != CheckedValue::Tensor) return result;
  TypedOp &op = out_.ops.back();
  op.name = "fetch";  // the same engine; the adapter stage is the op's arg
  op.arg = name.substr(std::string("fetch_with_").size());  // "zero_point", "zero_points"
  const num::DType from = recv.type.dtype;
  if (call.operands.size() != 2) {
    error(r, "`." + name + "()` takes one argument");
    return result;
  }
  const ast::Expr &arg = *call.operands[1];
  if (!num::isInteger(from))
    error(r, std::string("zero-point subtraction applies to quantized integers; the input is ") + num::dtypeName(from));
  // "Zero-point values must fit within the target data type's representable range", and the API takes
  // them as `zero_point: i8` ("Fetch Engine" > Fetch Adapter): the range of both.
  const num::DType to = op.out.dtype;
  const num::DType bound = num::zeroPointBound(to);
  const bool narrower = bound != num::DType::i8;
  const int64_t lo = num::intMin(bound), hi = num::intMax(bound);
  auto checkValue = [&](int64_t v, llvm::SMRange at) {
    if (num::isInteger(from) && (v < lo || v > hi))
      error(at, "the zero point " + std::to_string(v) + " does not fit in " + num::dtypeName(bound) + " (" +
                    std::to_string(lo) + ".." + std::to_string(hi) + ")" +
                    (narrower ? ", the fetch's target type" : ": zero points are i8 (`zero_point: i8`)") +
                    " (\"Fetch Engine\" > Constraints: zero points fit the target data type)");
  };
  if (name == "fetch_with_zero_point") {
    CheckedValue v = eval(arg, std::nullopt);
    if (v.kind == CheckedValue::Int && !requireConstant(v, arg.range, "the zero point")) return result;
    if (v.kind == CheckedValue::Int) {
      checkValue(v.value, arg.range);
      op.zeroPoints = {v.value};
    } else if (v.kind != CheckedValue::None && !(v.kind == CheckedValue::Runtime && v.text.front() != '[')) {
      error(arg.range, "the zero point is an integer constant or an integer parameter of the stage function, not " +
                           receiverTypeName(v));
    }
    return result;  // a parameter's value is set when the operation runs (`zero_point = runtime`)
  }
  // fetch_with_zero_points: one zero point per interleaved tensor ("Zero-Point Subtraction").
  const MappingRef &t = recv.type.time;
  if (!t || t->kind() != Mapping::Symbol || t->size() != 2)
    error(r, "`.fetch_with_zero_points()` subtracts one zero point per interleaved tensor: it needs the stream of "
             "`.begin_interleaved()` (Time = the interleaving axis of size 2), not Time = " + (t ? t->str() : "?"));
  if (arg.kind != ast::Expr::Array || arg.operands.size() != 2) {
    if (arg.kind == ast::Expr::Array) {
      error(arg.range, "`.fetch_with_zero_points()` takes two zero points, one per interleaved tensor: `[zp0, zp1]`");
      return result;
    }
    CheckedValue v = eval(arg, std::nullopt);  // a parameter `zero_points: [i8; 2]`: set when it runs
    if (v.kind != CheckedValue::None && !(v.kind == CheckedValue::Runtime && v.text.front() == '['))
      error(arg.range, "the zero points are `[zp0, zp1]` or an integer array parameter of the stage function, not " +
                           receiverTypeName(v));
    return result;
  }
  if (auto values = constArray(*this, arg)) {
    for (size_t k = 0; k < values->size(); ++k) checkValue((*values)[k], arg.operands[k]->range);
    op.zeroPoints = *values;
  }
  return result;
}

}  // namespace tcp

// TypeCheckInline.cpp — a kernel or stage function calling a stage function: the callee's body runs in the caller, its parameters bound to the arguments.
#include "TypeCheckInternal.h"

#include <algorithm>

namespace tcp {

namespace {
constexpr size_t kMaxInlineDepth = 16;  // nested calls (a call chain deeper than this is refused)
constexpr uint64_t kMaxInlined = uint64_t(1) << 14;  // the budget of TypeCheckControl.cpp's unrolled iterations

}  // namespace

// The call `f(a, b)` of a stage function: each argument is checked against its parameter's declared
// type (a generic `const T: Tu` context takes the argument's), the body runs with the parameters
// bound (its ops join the caller's typed program, as if written in place) and its value is checked
// against the declared result. A stage function some checked function calls runs only here, on the
// caller's values (an integer parameter is the argument's constant), and is not checked on its own
// (TypeChecker::check).
CheckedValue TypeChecker::FunctionChecker::evalInlineCall(const ast::Expr &e, const std::string &name) {
  const FnInfo &info = tc_.syms_.fns.at(name);
  const ast::Item &callee = *info.item;
  const std::string where = inKernel() ? "a kernel" : "a stage function";
  const llvm::SMRange at = e.operands[0]->range;
  // The parameters' declared types (a malformed one reported at the first call: a called stage
  // function is not checked on its own).
  const bool first = signaturesReported_.insert(name).second;
  const unsigned signatureErrors = diags().errorCount();
  std::vector<std::optional<TensorType>> declared;
  for (const ast::Param &p : callee.params)
    declared.push_back(p.type ? tc_.tensorTypeOf(*p.type, /*report=*/first) : std::nullopt);
  // Every argument is evaluated once (its ops run), whatever else is wrong.
  std::vector<CheckedValue> args;
  for (size_t k = 1; k < e.operands.size(); ++k)
    args.push_back(eval(*e.operands[k], k - 1 < declared.size() ? declared[k - 1] : std::nullopt));
  auto fail = [&](llvm::SMRange r, const std::string &msg) {
    error(r, msg);
    return CheckedValue{};
  };
  if (info.isDevice)
    return fail(at, "`" + name + "` is a kernel: the host launches kernels (`launch(" + name + ", ...)`); " + where +
                        " calls stage functions");
  if (!callee.body || !tc_.isStageFunction(name, info))
    return fail(at, "`" + name + "` is not a stage function (host code, or a declaration without a body): " + where +
                        " calls functions whose parameters or result are device tensors or streams");
  if (std::find(inlining_.begin(), inlining_.end(), name) != inlining_.end() || name == fn_.name)
    return fail(at, "`" + name + "` calls itself: a stage function runs inlined into its caller, so it cannot recurse");
  if (inlining_.size() >= kMaxInlineDepth)
    return fail(at, "stage-function calls nest deeper than " + std::to_string(kMaxInlineDepth));
  if (!withinOpBudget(at)) return {};
  // A callee whose body reported errors at one call is not run again (its messages would repeat, and
  // calls that call it several times would multiply the work).
  if (failedCalls_.count(name)) return {};
  // Inlined calls share the budget of unrolled loop iterations.
  if (++unrolled_ > kMaxInlined) {
    if (!opBudgetReported_) {
      opBudgetReported_ = true;
      error(at, "`" + fn_.name + "` inlines more than " + std::to_string(kMaxInlined) +
                    " calls and loop iterations in all (stage functions run inlined at every call)");
    }
    return {};
  }
  if (callee.params.size() != args.size())
    return fail(at, "`" + name + "` takes " + std::to_string(callee.params.size()) + " argument" +
                        (callee.params.size() == 1 ? "" : "s") + ", found " + std::to_string(args.size()));
  for (const CheckedValue &a : args)
    if (a.kind == CheckedValue::None) return {};  // reported
  if (diags().errorCount() != signatureErrors) return {};  // a parameter type, reported
  if (!first && badSignatures_.count(name)) return {};    // reported at the first call
  // Bind the parameters.
  std::map<std::string, CheckedValue> env;
  for (size_t k = 0; k < args.size(); ++k) {
    const ast::Param &p = callee.params[k];
    const CheckedValue &a = args[k];
    const llvm::SMRange r = e.operands[k + 1]->range;
    if (p.isSelf || !p.pattern || !p.type ||
        (p.pattern->kind != ast::Pattern::Ident && p.pattern->kind != ast::Pattern::Wildcard)) {
      badSignatures_.insert(name);
      return fail(p.range, "a stage function's parameter is `name: Type`; `" + name + "` has one tcp cannot bind");
    }
    const std::string pname = p.pattern->kind == ast::Pattern::Ident ? p.pattern->name : "_";
    const std::string what = "argument `" + pname + "` of `" + name + "`";
    bool ok = false;
    if (declared[k]) {
      ok = a.kind == CheckedValue::Tensor && sameType(a.type, *declared[k]);
      if (!ok)
        return fail(r, what + " is declared " + declared[k]->str() + " but this value is " +
                           (a.kind == CheckedValue::Tensor ? a.type.str() : receiverTypeName(a)));
    } else if (namesType(*p.type, "Context")) {
      ok = a.kind == CheckedValue::Device;
      if (!ok) return fail(r, what + " is the context `&mut Context` (pass `ctx`), not " + receiverTypeName(a));
    } else if (namesType(*p.type, "LookupTable")) {
      ok = a.kind == CheckedValue::Table;
      if (!ok) return fail(r, what + " is a `&LookupTable`, not " + receiverTypeName(a));
    } else if (isIntegerOrIntegerArrayType(*p.type)) {
      ok = a.kind == CheckedValue::Int || a.kind == CheckedValue::Runtime;
      if (!ok) return fail(r, what + " is an integer, not " + receiverTypeName(a));
    }
    if (!ok) {
      badSignatures_.insert(name);
      return fail(p.type->range, "a stage function takes streams, tensors, `ctx: &mut Context`, `&LookupTable`s and "
                                 "integer parameters; the type of `" + pname + "` of `" + name + "` is none of these");
    }
    if (p.pattern->kind == ast::Pattern::Ident) env[pname] = a;
  }
  // The declared result.
  std::optional<TensorType> ret;
  const bool unitResult = !callee.ret || (callee.ret->kind == ast::Type::Tuple && callee.ret->elems.empty());
  if (!unitResult) {
    const unsigned before = diags().errorCount();
    ret = tc_.tensorTypeOf(*callee.ret, /*report=*/first);
    if (!ret) {
      badSignatures_.insert(name);
      if (diags().errorCount() == before)
        error(callee.ret->range, "a stage function returns one stream or tensor (or nothing); the result of `" + name +
                                     "` is not a tensor type");
      return {};
    }
  }
  // The body, in a scope of its own (the callee sees its parameters, not the caller's names).
  std::map<std::string, CheckedValue> outer = std::move(env_);
  env_ = std::move(env);
  const bool tupleSig = tupleSignature_;
  tupleSignature_ = false;
  inlining_.push_back(name);
  const unsigned before = diags().errorCount();
  llvm::SMRange resultRange = callee.body->range;
  std::optional<CheckedValue> result = walkStmts(callee.body->stmts, ret, /*fnBody=*/true, &resultRange);
  inlining_.pop_back();
  tupleSignature_ = tupleSig;
  env_ = std::move(outer);
  if (diags().errorCount() != before) failedCalls_.insert(name);
  if (diags().errorCount() != before || !withinOpBudget(at)) return {};
  if (!ret) {
    CheckedValue unit;
    unit.kind = CheckedValue::Unit;
    return unit;
  }
  if (!result || result->kind != CheckedValue::Tensor || !sameType(result->type, *ret))
    return fail(at, "`" + name + "` returns " + ret->str() + " but its body, run on these arguments, gives " +
                        (!result ? std::string("no value")
                                 : result->kind == CheckedValue::Tensor ? result->type.str() : receiverTypeName(*result)));
  return *result;
}

}  // namespace tcp

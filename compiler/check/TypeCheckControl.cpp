// TypeCheckControl.cpp — control flow in kernel and stage-function bodies: `for` over a constant range (unrolled) and `if` on a constant condition.
#include "TypeCheckInternal.h"

namespace tcp {

namespace {
// Every loop iteration becomes straight-line ops (the typed program, the configuration, the cycle
// model and tcpi all see the unrolled body); this bounds what one function may unroll.
constexpr uint64_t kMaxUnrolled = uint64_t(1) << 14;
constexpr size_t kMaxTypedOps = size_t(1) << 16;  // engine ops of one function after unrolling and inlining
}  // namespace

bool TypeChecker::FunctionChecker::withinOpBudget(llvm::SMRange r) {
  if (out_.ops.size() <= kMaxTypedOps) return true;
  if (!opBudgetReported_) {
    opBudgetReported_ = true;
    error(r, "`" + fn_.name + "` runs more than " + std::to_string(kMaxTypedOps) +
                 " engine ops once its loops are unrolled and its calls inlined (split the work into several kernels)");
  }
  return false;
}

// `==`, `!=`, `<`, `<=`, `>`, `>=` of integer constants and `&&`, `||` of booleans; nullopt for
// every other operator or operand kind (the caller's rule).
std::optional<CheckedValue> TypeChecker::FunctionChecker::evalCompare(const ast::Expr &e, const CheckedValue &l,
                                                                      const CheckedValue &r) {
  const std::string &op = e.text;
  CheckedValue out;
  out.kind = CheckedValue::Bool;
  out.loopVar = l.loopVar.empty() ? r.loopVar : l.loopVar;
  if (l.kind == CheckedValue::Int && r.kind == CheckedValue::Int) {
    const int64_t a = l.value, b = r.value;
    if (op == "==") out.value = a == b;
    else if (op == "!=") out.value = a != b;
    else if (op == "<") out.value = a < b;
    else if (op == "<=") out.value = a <= b;
    else if (op == ">") out.value = a > b;
    else if (op == ">=") out.value = a >= b;
    else return std::nullopt;
    return out;
  }
  if (l.kind == CheckedValue::Bool && r.kind == CheckedValue::Bool) {
    if (op == "&&") out.value = l.value && r.value;
    else if (op == "||") out.value = l.value || r.value;
    else if (op == "==") out.value = l.value == r.value;
    else if (op == "!=") out.value = l.value != r.value;
    else return std::nullopt;
    return out;
  }
  return std::nullopt;
}

// `for i in a..b { body }` (or `a..=b`, `_` for the name) with constant bounds: the body runs once per
// value, in order, each iteration in a scope of its own (its bindings end with it). A body whose
// iteration reported errors is not unrolled further (its messages would repeat).
CheckedValue TypeChecker::FunctionChecker::evalFor(const ast::Expr &e) {
  const char *where = inKernel() ? "kernel" : "stage function";
  CheckedValue unit;
  unit.kind = CheckedValue::Unit;
  if (!e.label.empty()) {
    refuseConstruct(e.range, "a loop label");
    return {};
  }
  const ast::Pattern *pat = e.pattern.get();
  if (!pat || (pat->kind != ast::Pattern::Ident && pat->kind != ast::Pattern::Wildcard)) {
    refuseConstruct(pat ? pat->range : e.range, "a destructuring `for` pattern");
    return {};
  }
  const ast::Expr *it = e.operands.empty() ? nullptr : e.operands[0].get();
  while (it && it->kind == ast::Expr::Paren) it = it->operands[0].get();
  if (!it || it->kind != ast::Expr::RangeE || it->operands.size() != 2 || !it->operands[0] || !it->operands[1]) {
    error(it ? it->range : e.range, std::string("a `for` in a ") + where +
                                        " iterates a constant range `a..b` or `a..=b` (tcp unrolls it; docs/language.md, "
                                        "\"Kernel bodies\")");
    return {};
  }
  CheckedValue lo = eval(*it->operands[0], std::nullopt), hi = eval(*it->operands[1], std::nullopt);
  if (lo.kind == CheckedValue::None || hi.kind == CheckedValue::None) return {};
  for (const auto &[v, x] : {std::pair{&lo, it->operands[0].get()}, std::pair{&hi, it->operands[1].get()}})
    if (v->kind != CheckedValue::Int) {
      error(x->range, std::string("a loop bound in a ") + where + " must be an integer constant, found " +
                          (v->kind == CheckedValue::Runtime ? "a value known only when it runs (`" + v->text + "`)"
                                                            : receiverTypeName(*v)) +
                          " (tcp unrolls the loop)");
      return {};
    }
  int64_t end = hi.value;
  if (it->inclusive) {
    if (end == INT64_MAX) {
      error(it->range, "the range `..=" + std::to_string(end) + "` overflows 64-bit integers");
      return {};
    }
    ++end;
  }
  const uint64_t count = end > lo.value ? uint64_t(end) - uint64_t(lo.value) : 0;
  if (count > kMaxUnrolled - std::min(unrolled_, kMaxUnrolled)) {
    error(it->range, "the loop runs " + std::to_string(count) + " iterations; a " + where + " unrolls at most " +
                         std::to_string(kMaxUnrolled) + " loop iterations in all (" + std::to_string(unrolled_) +
                         " so far; loops over constant ranges are unrolled into straight-line ops)");
    return {};
  }
  unrolled_ += count;
  for (int64_t i = lo.value; i < end; ++i) {
    std::map<std::string, CheckedValue> outer = env_;
    if (pat->kind == ast::Pattern::Ident) {
      CheckedValue v;
      v.kind = CheckedValue::Int;
      v.value = i;
      v.loopVar = pat->name;
      env_[pat->name] = v;
    }
    const unsigned before = tc_.diags_.errorCount();
    if (e.block) walkStmts(e.block->stmts, std::nullopt, /*fnBody=*/false, nullptr);
    env_ = std::move(outer);
    if (tc_.diags_.errorCount() != before || !withinOpBudget(it->range)) return {};
  }
  return unit;
}

// `if cond { a } else { b }` with a constant condition: only the branch taken is checked and runs
// (as `#[cfg]` would keep it); its value is the `if`'s.
CheckedValue TypeChecker::FunctionChecker::evalIf(const ast::Expr &e, const std::optional<TensorType> &expected) {
  if (e.pattern) {
    refuseConstruct(e.range, "`if let`");
    return {};
  }
  CheckedValue c = eval(*e.operands[0], std::nullopt);
  if (c.kind == CheckedValue::None) return {};
  if (c.kind != CheckedValue::Bool) {
    error(e.operands[0]->range, std::string("an `if` in a ") + (inKernel() ? "kernel" : "stage function") +
                                    " takes a condition on constants (`i == 0`, `N::SIZE > 8`), found " +
                                    (c.kind == CheckedValue::Runtime ? "a value known only when it runs (`" + c.text + "`)"
                                                                     : receiverTypeName(c)) +
                                    " (tcp takes one branch when it checks)");
    return {};
  }
  CheckedValue unit;
  unit.kind = CheckedValue::Unit;
  auto branch = [&](const ast::Block &b) {
    std::map<std::string, CheckedValue> outer = env_;
    std::optional<CheckedValue> v = walkStmts(b.stmts, expected, /*fnBody=*/false, nullptr);
    env_ = std::move(outer);
    return v ? *v : unit;
  };
  CheckedValue out = c.value ? (e.block ? branch(*e.block) : unit) : e.elseExpr ? eval(*e.elseExpr, expected) : unit;
  // A value chosen by a condition on a loop variable depends on it too.
  if (!c.loopVar.empty() && out.loopVar.empty() &&
      (out.kind == CheckedValue::Int || out.kind == CheckedValue::Float || out.kind == CheckedValue::Bool))
    out.loopVar = c.loopVar;
  return out;
}

bool TypeChecker::FunctionChecker::requireConstant(const CheckedValue &v, llvm::SMRange r, const std::string &what) {
  if (v.loopVar.empty()) return true;
  error(r, what + " is encoded in the engine's configuration, so it must be a compile-time constant, but this value "
                  "depends on the loop variable `" + v.loopVar + "` (a loop's iterations share one configuration; a loop "
                  "variable may be a tile index or an address)");
  return false;
}

}  // namespace tcp

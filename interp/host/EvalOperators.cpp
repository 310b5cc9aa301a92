// EvalOperators.cpp — unary and binary operators of the host evaluator, with overflow checks.
#include "Evaluator.h"

#include <cmath>

namespace tcp::interp {

Value Evaluator::evalUnary(const ast::Expr &e) {
  const std::string &op = e.text;
  if (op == "&" || op == "&mut" || op == "*") return eval(*e.operands[0]);  // references are transparent
  Value v = eval(*e.operands[0]);
  if (op == "-") {
    if (v.kind == Value::Float) return Value::floating(-v.f);
    int64_t x = expectInt(v, *e.operands[0]);
    if (x == std::numeric_limits<int64_t>::min()) fail(e.range, "attempt to negate with overflow");
    return Value::integer(-x);
  }
  if (op == "!") {
    if (v.kind == Value::Bool) return Value::boolean(!v.b);
    return Value::integer(~expectInt(v, *e.operands[0]));
  }
  fail(e.range, "unsupported unary operator `" + op + "`");
}

Value Evaluator::evalBinary(const ast::Expr &e) {
  const std::string &op = e.text;
  if (op == "&&" || op == "||") {
    bool l = expectBool(eval(*e.operands[0]), *e.operands[0]);
    if (op == "&&" && !l) return Value::boolean(false);
    if (op == "||" && l) return Value::boolean(true);
    return Value::boolean(expectBool(eval(*e.operands[1]), *e.operands[1]));
  }
  Value l = eval(*e.operands[0]);
  Value r = eval(*e.operands[1]);
  return arith(op, l, r, e.range);
}

Value Evaluator::arith(const std::string &op, const Value &l, const Value &r, llvm::SMRange range) {
  if (op == "==") return Value::boolean(l == r);
  if (op == "!=") return Value::boolean(l != r);
  bool isFloat = l.kind == Value::Float || r.kind == Value::Float;
  if (isFloat) {
    auto num = [&](const Value &v) {
      if (v.kind == Value::Float) return v.f;
      if (v.kind == Value::Int) return static_cast<double>(v.i);
      fail(range, std::string("expected a number, found ") + v.kindName());
    };
    double a = num(l), b = num(r);
    if (op == "+") return Value::floating(a + b);
    if (op == "-") return Value::floating(a - b);
    if (op == "*") return Value::floating(a * b);
    if (op == "/") return Value::floating(a / b);
    if (op == "%") return Value::floating(std::fmod(a, b));
    if (op == "<") return Value::boolean(a < b);
    if (op == "<=") return Value::boolean(a <= b);
    if (op == ">") return Value::boolean(a > b);
    if (op == ">=") return Value::boolean(a >= b);
    fail(range, "operator `" + op + "` does not apply to floats");
  }
  if (l.kind == Value::Bool && r.kind == Value::Bool) {
    if (op == "&") return Value::boolean(l.b && r.b);
    if (op == "|") return Value::boolean(l.b || r.b);
    if (op == "^") return Value::boolean(l.b != r.b);
  }
  if (l.kind != Value::Int || r.kind != Value::Int)
    fail(range, "operator `" + op + "` needs integers, found " + l.kindName() + " and " + r.kindName());
  int64_t a = l.i, b = r.i, out = 0;
  auto overflow = [&](const char *what) { fail(range, std::string("attempt to ") + what + " with overflow"); };
  if (op == "+") {
    if (__builtin_add_overflow(a, b, &out)) overflow("add");
  } else if (op == "-") {
    if (__builtin_sub_overflow(a, b, &out)) overflow("subtract");
  } else if (op == "*") {
    if (__builtin_mul_overflow(a, b, &out)) overflow("multiply");
  } else if (op == "/" || op == "%") {
    if (b == 0) fail(range, op == "/" ? "attempt to divide by zero" : "attempt to calculate the remainder with a divisor of zero");
    if (a == std::numeric_limits<int64_t>::min() && b == -1) overflow("divide");
    out = op == "/" ? a / b : a % b;
  } else if (op == "<<" || op == ">>") {
    if (b < 0 || b >= 64) overflow(op == "<<" ? "shift left" : "shift right");
    out = op == "<<" ? static_cast<int64_t>(static_cast<uint64_t>(a) << b) : a >> b;
  } else if (op == "&") {
    out = a & b;
  } else if (op == "|") {
    out = a | b;
  } else if (op == "^") {
    out = a ^ b;
  } else if (op == "<") {
    return Value::boolean(a < b);
  } else if (op == "<=") {
    return Value::boolean(a <= b);
  } else if (op == ">") {
    return Value::boolean(a > b);
  } else if (op == ">=") {
    return Value::boolean(a >= b);
  } else {
    fail(range, "unsupported operator `" + op + "`");
  }
  return Value::integer(out);
}

}  // namespace tcp::interp

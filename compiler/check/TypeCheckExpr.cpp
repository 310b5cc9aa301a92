// TypeCheckExpr.cpp — evaluates the expressions of kernel and stage-function bodies; every kind has a rule or is refused.
#include "Suggest.h"
#include "TypeCheckInternal.h"

#include <set>

namespace tcp {

namespace {
bool isFloatType(const ast::Type &t) {
  return t.kind == ast::Type::PathT && t.path.segments.size() == 1 &&
         (t.path.segments[0].name == "f32" || t.path.segments[0].name == "f64");
}

// The name of an expression kind the typed model does not execute, for messages.
std::string constructName(const ast::Expr &e) {
  using K = ast::Expr::Kind;
  switch (e.kind) {
    case K::If: return "`if`";
    case K::For: return "`for`";
    case K::While: return "`while`";
    case K::Loop: return "`loop`";
    case K::Match: return "`match`";
    case K::Return: return "`return` inside an expression";
    case K::Break: return "`break`";
    case K::Continue: return "`continue`";
    case K::Assign: return "assignment `" + e.text + "`";
    case K::Index: return "indexing `[]`";
    case K::Array: return "an array";
    case K::ArrayRepeat: return "an array `[e; n]`";
    case K::Closure: return "a closure";
    case K::RangeE: return "a range";
    case K::Await: return "`.await`";
    case K::Try: return "`?`";
    case K::StrLit: return "a string literal";
    case K::CharLit: return "a character literal";
    case K::Cast: return "the cast `as`";
    case K::BlockE: return "an `async` block";
    default: return "this expression";
  }
}
}  // namespace

CheckedValue TypeChecker::FunctionChecker::eval(const ast::Expr &e, const std::optional<TensorType> &expected) {
  using K = ast::Expr::Kind;
  CheckedValue v;
  switch (e.kind) {
    case K::IntLit:
      if (e.intOverflow || e.intValue > uint64_t(INT64_MAX)) {
        error(e.range, "the integer `" + e.text + "` does not fit in 63 bits");
        return {};
      }
      v.kind = CheckedValue::Int;
      v.value = static_cast<int64_t>(e.intValue);
      return v;
    case K::FloatLit:
      v.kind = CheckedValue::Float;
      v.real = e.floatValue;
      return v;
    case K::BoolLit:
      v.kind = CheckedValue::Bool;
      v.value = e.boolValue;
      return v;
    case K::Paren:
      return eval(*e.operands[0], expected);
    case K::Unary: {
      if (e.text == "&" || e.text == "&mut" || e.text == "*") return eval(*e.operands[0], expected);
      CheckedValue x = eval(*e.operands[0], std::nullopt);
      if (x.kind == CheckedValue::None) return x;
      if (e.text == "-" && x.kind == CheckedValue::Int && x.value != INT64_MIN) {
        x.value = -x.value;
        return x;
      }
      if (e.text == "-" && x.kind == CheckedValue::Float) {
        x.real = -x.real;
        return x;
      }
      if (e.text == "!" && x.kind == CheckedValue::Bool) {
        x.value = !x.value;
        return x;
      }
      refuseConstruct(e.range, "the operator `" + e.text + "` on " + receiverTypeName(x));
      return {};
    }
    case K::Binary: {
      CheckedValue l = eval(*e.operands[0], std::nullopt), r = eval(*e.operands[1], std::nullopt);
      if (l.kind == CheckedValue::None || r.kind == CheckedValue::None) return {};
      if (std::optional<CheckedValue> c = evalCompare(e, l, r)) return *c;
      if (l.loopVar.empty()) l.loopVar = r.loopVar;  // (the result of an arithmetic on a loop variable)
      if (l.kind != CheckedValue::Int || r.kind != CheckedValue::Int) {
        refuseConstruct(e.range, "the operator `" + e.text + "` on " + receiverTypeName(l) + " and " + receiverTypeName(r));
        return {};
      }
      int64_t a = l.value, b = r.value, out = 0;
      bool ok = true;
      if (e.text == "+") ok = !__builtin_add_overflow(a, b, &out);
      else if (e.text == "-") ok = !__builtin_sub_overflow(a, b, &out);
      else if (e.text == "*") ok = !__builtin_mul_overflow(a, b, &out);
      else if (e.text == "<<") { ok = b >= 0 && b < 63 && a >= 0 && (a >> (62 - b)) == 0; out = ok ? a << b : 0; }
      else if (e.text == ">>") { ok = b >= 0 && b < 64; out = ok ? a >> b : 0; }
      else if (e.text == "/" || e.text == "%") {
        if (b == 0) {
          error(e.range, "division by zero in a constant expression");
          return {};
        }
        ok = !(a == INT64_MIN && b == -1);
        out = ok ? (e.text == "/" ? a / b : a % b) : 0;
      } else {
        refuseConstruct(e.range, "the operator `" + e.text + "`");
        return {};
      }
      if (!ok) {
        error(e.range, "the constant expression `" + std::to_string(a) + " " + e.text + " " + std::to_string(b) +
                           "` overflows 64-bit integers");
        return {};
      }
      l.value = out;
      return l;
    }
    case K::Cast: {
      // `(1 << 20) as u64`: integer constants keep their value.
      CheckedValue x = eval(*e.operands[0], std::nullopt);
      if (x.kind == CheckedValue::None) return x;
      if (x.kind == CheckedValue::Int && e.type && isIntegerType(*e.type)) return x;
      // `N::SIZE as f32`: an integer constant as a floating-point operand (exact up to 2^24 in f32).
      if ((x.kind == CheckedValue::Int || x.kind == CheckedValue::Float) && e.type && isFloatType(*e.type)) {
        if (x.kind == CheckedValue::Int) x.real = double(x.value);
        x.kind = CheckedValue::Float;
        return x;
      }
      refuseConstruct(e.range, "the cast `as` of " + receiverTypeName(x));
      return {};
    }
    case K::PathE:
      return evalPath(e);
    case K::Field:
      return evalField(e);
    case K::MethodCall:
      return evalMethod(e, expected);
    case K::Call:
      return evalCall(e);
    case K::StructLit:
      if (!checkVariant(e, nullptr, "a struct literal")) return {};
      v.kind = CheckedValue::Enum;
      v.text = e.path.str();
      return v;
    case K::Tuple:
      if (e.operands.empty()) {
        v.kind = CheckedValue::Unit;
        return v;
      }
      for (const auto &o : e.operands) eval(*o, std::nullopt);  // their ops are checked all the same
      refuseConstruct(e.range, "a tuple");
      return {};
    case K::Macro: {
      const std::string name = e.macro ? e.macro->name : "?";
      error(e.range, "the macro `" + name + "!` is not supported in a " + (inKernel() ? "kernel" : "stage function") +
                         " body (its code runs on the device; macros are host code)");
      return {};
    }
    case K::For:
      return evalFor(e);
    case K::If:
      return evalIf(e, expected);
    case K::BlockE: {
      if (e.isAsync || !e.block) break;
      // A block is a scope: its bindings end with it, its value is its tail expression.
      std::map<std::string, CheckedValue> outer = env_;
      std::optional<CheckedValue> value = walkStmts(e.block->stmts, expected, /*fnBody=*/false, nullptr);
      env_ = std::move(outer);
      if (value) return *value;
      v.kind = CheckedValue::Unit;
      return v;
    }
    default:
      break;
  }
  refuseConstruct(e.range, constructName(e));
  return {};
}

CheckedValue TypeChecker::FunctionChecker::evalPath(const ast::Expr &e) {
  const ast::Path &p = e.path;
  CheckedValue v;
  if (!p.qualifiedSelf && p.segments.size() == 1) {
    const std::string &name = p.segments[0].name;
    auto it = env_.find(name);
    if (it != env_.end()) {
      checkStale(it->second, e.range);
      use(it->second);
      return it->second;
    }
    if (const catalog::Function *f = catalog::findFunction(name)) {
      refuse(e.range, "`" + name + "`", f->limitation);
      return {};
    }
    // `const NAME: u64 = 4096;`: an integer constant, folded like the expressions of the body.
    auto c = tc_.syms_.consts.find(name);
    if (c != tc_.syms_.consts.end() && c->second->value) {
      static thread_local std::set<std::string> folding;  // `const A = B; const B = A;`
      if (!folding.insert(name).second) {
        error(e.range, "the constant `" + name + "` is defined in terms of itself");
        return {};
      }
      CheckedValue value = eval(*c->second->value, std::nullopt);
      folding.erase(name);
      // An f32 constant (`const EPS: f32 = 0.00001;`) is a Vector Engine operand like a literal.
      if (value.kind == CheckedValue::Int || value.kind == CheckedValue::Float) return value;
      if (value.kind != CheckedValue::None)
        error(e.range, "the constant `" + name + "` is " + receiverTypeName(value) +
                           "; a kernel uses integer or floating-point constants");
      return {};
    }
    std::vector<std::string> names;
    for (const auto &[n, value] : env_) names.push_back(n);
    error(e.range, "unknown name `" + name + "`" + didYouMean(name, names));
    return {};
  }
  // `X::SIZE` and `<m![...]>::SIZE`: constants of the mapping algebra.
  if (!p.segments.empty() && p.segments.back().name == "SIZE" &&
      (p.qualifiedSelf || (p.segments.size() == 2 && !catalog::findEnum(p.segments[0].name)))) {
    unsigned before = tc_.diags_.errorCount();
    auto size = tc_.resolver_.evalConst(e);
    if (!size || *size > uint64_t(INT64_MAX)) {
      if (tc_.diags_.errorCount() == before) error(e.range, "`" + p.str() + "` is not a constant size here");
      return {};
    }
    v.kind = CheckedValue::Int;
    v.value = static_cast<int64_t>(*size);
    return v;
  }
  std::string text = p.str();
  if (const catalog::Function *f = catalog::findFunction(text)) {
    if (f->supported)
      error(e.range, "`" + text + "` is a function: call it as an operand, e.g. `" + text + "(&vrf)`");
    else
      refuse(e.range, "`" + text + "`", f->limitation);
    return {};
  }
  if (p.segments.size() >= 2 && catalog::findEnum(p.segments[p.segments.size() - 2].name)) {
    if (!checkVariant(e, nullptr, "`" + text + "`")) return {};
    v.kind = CheckedValue::Enum;
    v.text = text;
    return v;
  }
  error(e.range, "unknown path `" + text + "`" +
                     (p.segments.size() >= 2 ? didYouMean(p.segments[p.segments.size() - 2].name, catalog::enumNames()) : ""));
  return {};
}

CheckedValue TypeChecker::FunctionChecker::evalField(const ast::Expr &e) {
  CheckedValue base = eval(*e.operands[0], std::nullopt);
  if (base.kind == CheckedValue::None) return base;
  CheckedValue v;
  if (base.kind == CheckedValue::Device) {
    if (e.text == "main" || e.text == "sub") {
      v.kind = CheckedValue::Context;
      v.ctx = e.text == "main" ? Ctx::Main : Ctx::Sub;
      return v;
    }
    if (e.text == "tdma" || e.text == "pdma") {
      v.kind = CheckedValue::Dma;
      v.text = e.text;
      return v;
    }
    error(e.range, "`Context` has no field `" + e.text + "`" + didYouMean(e.text, {"main", "sub", "tdma", "pdma"}) +
                       " (its fields: main, sub, tdma, pdma)");
    return {};
  }
  error(e.range, "`" + receiverTypeName(base) + "` has no field `" + e.text + "`");
  return {};
}

CheckedValue TypeChecker::FunctionChecker::evalCall(const ast::Expr &e) {
  const ast::Expr &callee = *e.operands[0];
  if (callee.kind != ast::Expr::PathE || callee.path.qualifiedSelf) {
    refuseConstruct(e.range, "calling " + std::string(callee.kind == ast::Expr::PathE ? "this path" : "a computed value"));
    return {};
  }
  std::string name = callee.path.str();
  const auto &segs = callee.path.segments;
  if (segs.size() >= 2 && catalog::findEnum(segs[segs.size() - 2].name)) {  // a tuple variant `FpBinaryOp::MulF(..)`
    if (!checkVariant(e, nullptr, "`" + name + "(..)`")) return {};
    CheckedValue v;
    v.kind = CheckedValue::Enum;
    v.text = name;
    return v;
  }
  if (const catalog::Function *f = catalog::findFunction(name)) {
    if (f->supported)
      error(e.range, "`" + name + "(..)` is an operand form of the Vector Engine ops that take one (`.vector_fxp(op, " +
                         name + "(&vrf))`), not a value of its own");
    else
      refuse(e.range, "`" + name + "(..)`", f->limitation);
    return {};
  }
  if (segs.size() == 1 && tc_.syms_.fns.count(name)) return evalInlineCall(e, name);
  std::vector<std::string> fns(tc_.syms_.fnOrder.begin(), tc_.syms_.fnOrder.end());
  error(callee.range, "unknown function `" + name + "`" + (segs.size() == 1 ? didYouMean(name, fns) : ""));
  return {};
}

}  // namespace tcp

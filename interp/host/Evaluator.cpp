// Evaluator.cpp — evaluates host statements and expressions: scopes, control flow, arithmetic, paths.
#include "Evaluator.h"
#include "HostLimits.h"

#include "HostRuntime.h"

#include <cmath>
#include <limits>

namespace tcp::interp {

namespace {
constexpr unsigned kMaxCallDepth = 256;
}

void Evaluator::fail(llvm::SMRange range, const std::string &msg) { throw RuntimeError{range, msg}; }

int64_t Evaluator::expectInt(const Value &v, const ast::Expr &site) {
  if (v.kind != Value::Int) fail(site.range, std::string("expected an integer, found ") + v.kindName() + " `" + v.debug() + "`");
  return v.i;
}

bool Evaluator::expectBool(const Value &v, const ast::Expr &site) {
  if (v.kind != Value::Bool) fail(site.range, std::string("expected a bool, found ") + v.kindName() + " `" + v.debug() + "`");
  return v.b;
}

Value *Evaluator::lookup(const std::string &name) {
  for (auto it = scopes_.rbegin(); it != scopes_.rend(); ++it) {
    auto f = it->find(name);
    if (f != it->end()) return &f->second;
  }
  return nullptr;
}

void Evaluator::bind(const ast::Pattern &p, Value v) {
  switch (p.kind) {
    case ast::Pattern::Ident:
      if (scopes_.size() == 1) changedGlobals_.insert(p.name);
      scopes_.back()[p.name] = std::move(v);
      return;
    case ast::Pattern::Wildcard:
      return;
    case ast::Pattern::Tuple:
      if (v.kind != Value::Tuple || v.elems.size() != p.elems.size())
        fail(p.range, "cannot destructure " + v.debug() + " into " + std::to_string(p.elems.size()) + " names");
      for (size_t k = 0; k < p.elems.size(); ++k) bind(*p.elems[k], v.elems[k]);
      return;
    case ast::Pattern::Ref:
      if (!p.elems.empty()) bind(*p.elems[0], std::move(v));
      return;
    default:
      fail(p.range, "this pattern is not supported by tcpi's host evaluator");
  }
}

void Evaluator::execStmt(const ast::Stmt &s) {
  switch (s.kind) {
    case ast::Stmt::Let: {
      const ast::Type *savedType = hintType_;
      const ast::Expr *savedExpr = hintExpr_;
      hintType_ = s.type.get();
      hintExpr_ = s.init.get();
      Value v;
      try {
        v = s.init ? eval(*s.init) : Value::unit();
      } catch (...) {
        hintType_ = savedType;
        hintExpr_ = savedExpr;
        throw;
      }
      hintType_ = savedType;
      hintExpr_ = savedExpr;
      if (s.pattern) bind(*s.pattern, std::move(v));
      return;
    }
    case ast::Stmt::ExprS:
      if (s.init) eval(*s.init);
      return;
    default:
      return;
  }
}

// One step of the --max-steps budget: every expression, and every block (an empty loop body is one).
void Evaluator::countStep(llvm::SMRange range) {
  if (++steps_ > HostLimits::get().maxSteps)
    fail(range, "the program evaluated more than " + std::to_string(HostLimits::get().maxSteps) +
                    " expressions, tcpi's step limit (--max-steps)");
}

Value Evaluator::evalBlock(const ast::Block &b) {
  countStep(b.range);
  scopes_.emplace_back();
  struct Pop {
    std::vector<std::map<std::string, Value>> &s;
    ~Pop() { s.pop_back(); }
  } pop{scopes_};
  Value last;
  for (size_t k = 0; k < b.stmts.size(); ++k) {
    const ast::Stmt &s = *b.stmts[k];
    bool tail = k + 1 == b.stmts.size() && s.kind == ast::Stmt::ExprS && !s.semi;
    if (tail) return eval(*s.init);
    execStmt(s);
  }
  return last;
}

Value Evaluator::callFunction(const ast::Item &fn, std::vector<Value> args, llvm::SMRange callRange) {
  if (!fn.body) fail(callRange, "function `" + fn.name + "` has no body");
  if (args.size() != fn.params.size())
    fail(callRange, "function `" + fn.name + "` takes " + std::to_string(fn.params.size()) + " arguments but " +
                        std::to_string(args.size()) + " were given");
  if (++callDepth_ > kMaxCallDepth) {
    callDepth_ = 0;
    fail(callRange, "call depth exceeds " + std::to_string(kMaxCallDepth) + " (unbounded recursion?)");
  }
  // Functions see only their parameters and globals (the outermost scope).
  std::vector<std::map<std::string, Value>> saved;
  saved.swap(scopes_);
  scopes_.push_back(saved.front());
  scopes_.emplace_back();
  Value result;
  try {
    for (size_t k = 0; k < args.size(); ++k)
      if (fn.params[k].pattern) bind(*fn.params[k].pattern, std::move(args[k]));
    result = evalBlock(*fn.body);
  } catch (ControlFlow &cf) {
    if (cf.kind != ControlFlow::Return) {
      scopes_.swap(saved);
      --callDepth_;
      fail(callRange, "`break`/`continue` outside of a loop");
    }
    result = std::move(cf.value);
  } catch (...) {
    scopes_.swap(saved);
    --callDepth_;
    throw;
  }
  scopes_.swap(saved);
  --callDepth_;
  return result;
}

Value Evaluator::evalFor(const ast::Expr &e) {
  const ast::Expr &iter = *e.operands[0];
  std::vector<Value> items;
  int64_t lo = 0, hi = 0;
  bool isRange = iter.kind == ast::Expr::RangeE;
  if (isRange) {
    if (!iter.operands[0] || !iter.operands[1]) fail(iter.range, "a `for` range needs both bounds");
    lo = expectInt(eval(*iter.operands[0]), *iter.operands[0]);
    hi = expectInt(eval(*iter.operands[1]), *iter.operands[1]);
    if (iter.inclusive) {
      if (hi == std::numeric_limits<int64_t>::max()) fail(iter.range, "range end overflows");
      ++hi;
    }
  } else {
    Value v = eval(iter);
    if (v.kind != Value::Array && v.kind != Value::Tuple)
      fail(iter.range, std::string("cannot iterate over ") + v.kindName());
    items = std::move(v.elems);
    hi = static_cast<int64_t>(items.size());
  }
  for (int64_t k = lo; k < hi; ++k) {
    scopes_.emplace_back();
    try {
      if (e.pattern) bind(*e.pattern, isRange ? Value::integer(k) : items[k]);
      evalBlock(*e.block);
    } catch (ControlFlow &cf) {
      scopes_.pop_back();
      if (cf.kind == ControlFlow::Break) break;
      if (cf.kind == ControlFlow::Continue) continue;
      throw;
    } catch (...) {
      scopes_.pop_back();
      throw;
    }
    scopes_.pop_back();
  }
  return Value::unit();
}

void Evaluator::assign(const ast::Expr &target, Value v) {
  if (target.kind == ast::Expr::PathE && target.path.segments.size() == 1) {
    Value *slot = lookup(target.path.segments[0].name);
    if (!slot) fail(target.range, "cannot assign to unknown variable `" + target.path.segments[0].name + "`");
    changedGlobals_.insert(target.path.segments[0].name);
    *slot = std::move(v);
    return;
  }
  if (target.kind == ast::Expr::Index) {
    const ast::Expr &base = *target.operands[0];
    if (base.kind == ast::Expr::PathE && base.path.segments.size() == 1) {
      Value *slot = lookup(base.path.segments[0].name);
      changedGlobals_.insert(base.path.segments[0].name);
      int64_t k = expectInt(eval(*target.operands[1]), *target.operands[1]);
      if (slot && slot->kind == Value::Array) {
        if (k < 0 || static_cast<size_t>(k) >= slot->elems.size())
          fail(target.range, "index " + std::to_string(k) + " is out of bounds for length " +
                                 std::to_string(slot->elems.size()));
        slot->elems[k] = std::move(v);
        return;
      }
    }
  }
  fail(target.range, "tcpi can assign only to variables and array elements");
}

Value Evaluator::eval(const ast::Expr &e) {
  using K = ast::Expr::Kind;
  countStep(e.range);
  switch (e.kind) {
    case K::IntLit:
      if (e.intOverflow || e.intValue > static_cast<uint64_t>(std::numeric_limits<int64_t>::max()))
        fail(e.range, "integer literal `" + e.text + "` does not fit in 64 bits");
      return Value::integer(static_cast<int64_t>(e.intValue));
    case K::FloatLit: return Value::floating(e.floatValue);
    case K::BoolLit: return Value::boolean(e.boolValue);
    case K::StrLit: return Value::string(e.text);
    case K::CharLit: return Value::string(e.text);
    case K::Paren: return eval(*e.operands[0]);
    case K::PathE: return evalPath(e);
    case K::Unary: return evalUnary(e);
    case K::Binary: return evalBinary(e);
    case K::Cast: {
      Value v = eval(*e.operands[0]);
      std::string ty = e.type && e.type->kind == ast::Type::PathT && !e.type->path.segments.empty()
                           ? e.type->path.segments.back().name : "";
      if (ty == "f32" || ty == "f64") {
        double d = v.kind == Value::Float ? v.f : static_cast<double>(expectInt(v, e));
        return Value::floating(ty == "f32" ? static_cast<double>(static_cast<float>(d)) : d);  // `as f32` rounds to f32
      }
      // Rust `as` to an integer type: floats saturate (NaN → 0), integers wrap to the type's width.
      unsigned bits = ty == "i8" || ty == "u8" ? 8 : ty == "i16" || ty == "u16" ? 16 : ty == "i32" || ty == "u32" ? 32 : 64;
      bool isSigned = ty.empty() || ty[0] != 'u';
      int64_t x;
      if (v.kind == Value::Float) {
        double lo = isSigned ? -std::ldexp(1.0, int(bits) - 1) : 0.0;
        double hi = std::min(std::ldexp(1.0, int(bits - isSigned)), std::ldexp(1.0, 63));  // values are i64
        x = std::isnan(v.f) ? 0 : v.f <= lo ? int64_t(lo) : v.f >= hi ? (bits == 64 ? INT64_MAX : int64_t(hi) - 1)
                                                                     : static_cast<int64_t>(v.f);
      } else {
        x = v.kind == Value::Bool ? (v.b ? 1 : 0) : expectInt(v, e);
      }
      if (bits < 64) {
        uint64_t u = uint64_t(x) & ((uint64_t(1) << bits) - 1);
        x = isSigned && (u >> (bits - 1)) ? int64_t(u) - (int64_t(1) << bits) : int64_t(u);
      }
      return Value::integer(x);
    }
    case K::Assign: {
      if (e.text == "=") {
        assign(*e.operands[0], eval(*e.operands[1]));
        return Value::unit();
      }
      // Compound assignment `a op= b`.
      Value lhs = eval(*e.operands[0]);
      Value rhs = eval(*e.operands[1]);
      assign(*e.operands[0], arith(e.text.substr(0, e.text.size() - 1), lhs, rhs, e.range));
      return Value::unit();
    }
    case K::Tuple:
    case K::Array: {
      Value v;
      v.kind = e.kind == K::Tuple ? Value::Tuple : Value::Array;
      for (const auto &o : e.operands) v.elems.push_back(eval(*o));
      return v;
    }
    case K::ArrayRepeat: {
      Value x = eval(*e.operands[0]);
      int64_t n = expectInt(eval(*e.operands[1]), *e.operands[1]);
      if (n < 0 || n > (1 << 24)) fail(e.range, "array length " + std::to_string(n) + " is out of range");
      Value v;
      v.kind = Value::Array;
      v.elems.assign(static_cast<size_t>(n), x);
      return v;
    }
    case K::Index: {
      Value base = eval(*e.operands[0]);
      int64_t k = expectInt(eval(*e.operands[1]), *e.operands[1]);
      if (base.kind != Value::Array) fail(e.range, std::string("cannot index into ") + base.kindName());
      if (k < 0 || static_cast<size_t>(k) >= base.elems.size())
        fail(e.range, "index " + std::to_string(k) + " is out of bounds for length " + std::to_string(base.elems.size()));
      return base.elems[k];
    }
    case K::Field: {
      Value base = eval(*e.operands[0]);
      if (host_ && base.kind == Value::Object)
        if (auto v = host_->field(e, base)) return *v;
      if (base.kind == Value::Tuple && !e.text.empty() && std::isdigit(static_cast<unsigned char>(e.text[0]))) {
        size_t k = std::stoul(e.text);
        if (k < base.elems.size()) return base.elems[k];
      }
      fail(e.range, "no field `" + e.text + "` on " + base.kindName());
    }
    case K::BlockE: return evalBlock(*e.block);
    case K::If: {
      if (expectBool(eval(*e.operands[0]), *e.operands[0])) return evalBlock(*e.block);
      if (e.elseExpr) return eval(*e.elseExpr);
      return Value::unit();
    }
    case K::While: {
      while (expectBool(eval(*e.operands[0]), *e.operands[0])) {
        try {
          evalBlock(*e.block);
        } catch (ControlFlow &cf) {
          if (cf.kind == ControlFlow::Break) break;
          if (cf.kind == ControlFlow::Continue) continue;
          throw;
        }
      }
      return Value::unit();
    }
    case K::Loop: {
      for (;;) {
        try {
          evalBlock(*e.block);
        } catch (ControlFlow &cf) {
          if (cf.kind == ControlFlow::Break) return cf.value;
          if (cf.kind == ControlFlow::Continue) continue;
          throw;
        }
      }
    }
    case K::For: return evalFor(e);
    case K::Return:
      throw ControlFlow{ControlFlow::Return, e.operands.empty() || !e.operands[0] ? Value::unit() : eval(*e.operands[0])};
    case K::Break:
      throw ControlFlow{ControlFlow::Break, e.operands.empty() || !e.operands[0] ? Value::unit() : eval(*e.operands[0])};
    case K::Continue: throw ControlFlow{ControlFlow::Continue, Value::unit()};
    case K::Call: return evalCall(e);
    case K::MethodCall: return evalMethodCall(e);
    case K::Macro: return evalMacro(e);
    case K::Await: return eval(*e.operands[0]);
    case K::Closure: return makeClosure(e);
    default:
      break;
  }
  fail(e.range, "this expression is not supported by tcpi's host evaluator yet");
}

}  // namespace tcp::interp

// HostCheckExpr.cpp — host expressions: literals, operators, casts, assignments, fields, control flow and closures.
#include "HostCheckInternal.h"

#include <limits>

namespace tcp {

namespace {
bool numeric(const HostType &t) { return t.kind == HostType::Int || t.kind == HostType::Float; }
bool maybeNumeric(const HostType &t) { return numeric(t) || !t.known() || t.kind == HostType::Never; }

// The axes a host tensor's elements are indexed by (skewed and padded axes by their base).
std::vector<std::string> logicalAxisNames(const MappingRef &m) {
  std::vector<std::string> out;
  for (const AxisInfo &a : m->axes())
    if (std::find(out.begin(), out.end(), a.baseName()) == out.end()) out.push_back(a.baseName());
  return out;
}

std::string axesText(std::vector<std::string> names) {
  std::string s = "{";
  for (size_t k = 0; k < names.size(); ++k) s += (k ? ", " : "") + names[k];
  return s + "}";
}
}  // namespace

HostType HostChecker::expr(const ast::Expr &e, const ast::Type *hint) {
  using K = ast::Expr::Kind;
  switch (e.kind) {
    case K::IntLit:
      if (e.intOverflow || e.intValue > static_cast<uint64_t>(std::numeric_limits<int64_t>::max()))
        error(e.range, "integer literal `" + e.text + "` does not fit in 64 bits");
      return HostType::of(HostType::Int);
    case K::FloatLit: return HostType::of(HostType::Float);
    case K::BoolLit: return HostType::of(HostType::Bool);
    case K::StrLit:
    case K::CharLit: return HostType::of(HostType::Str);
    case K::Paren:
    case K::Await: return expr(*e.operands[0], hint);
    case K::Try:
      error(e.range, "the `?` operator is not supported by tcpi's host evaluator");
      expr(*e.operands[0]);
      return HostType();
    case K::PathE: return path(e);
    case K::Unary: return unary(e);
    case K::Binary: return binary(e);
    case K::Cast: return cast(e);
    case K::Assign: return assign(e);
    case K::Tuple: {
      if (e.operands.empty()) return HostType::of(HostType::Unit);
      HostType t = HostType::of(HostType::Tuple);
      for (const auto &o : e.operands) t.elems.push_back(expr(*o));
      return t;
    }
    case K::Array: {
      HostType elem = HostType::of(HostType::Never);
      for (const auto &o : e.operands) elem = join(elem, expr(*o));
      if (elem.kind == HostType::Never) elem = HostType();
      return HostType::vec(elem, e.operands.size());
    }
    case K::ArrayRepeat: {
      HostType elem = expr(*e.operands[0]);
      HostType n = expr(*e.operands[1]);
      if (!maybeNumeric(n) || n.kind == HostType::Float)
        error(e.operands[1]->range, "the length of `[value; length]` must be an integer, found " + n.str());
      std::optional<uint64_t> len;
      if (e.operands[1]->kind == K::IntLit) len = e.operands[1]->intValue;
      return HostType::vec(elem, len);
    }
    case K::Index: {
      if (e.operands[1]->kind == K::RangeE) {
        expr(*e.operands[0]);
        error(e.operands[1]->range, "slices `v[a..b]` are not supported by tcpi's host evaluator");
        return HostType();
      }
      HostType base = expr(*e.operands[0]);
      HostType k = expr(*e.operands[1]);
      if (k.known() && k.kind != HostType::Int && k.kind != HostType::Never)
        error(e.operands[1]->range, "tcpi indexes vectors with an integer, found " + k.str());
      if (base.kind == HostType::Vec) return base.elems.empty() ? HostType() : base.elems[0];
      if (base.known() && base.kind != HostType::Never) error(e.range, "cannot index into " + base.str() + " (tcpi indexes vectors)");
      return HostType();
    }
    case K::Field: return field(e);
    case K::BlockE: return block(*e.block, hint);
    case K::If: {
      if (e.pattern) error(e.range, "`if let` is not supported by tcpi's host evaluator (write `if x.is_some() { ... x.unwrap() ... }`)");
      HostType c = expr(*e.operands[0]);
      if (c.known() && c.kind != HostType::Bool && c.kind != HostType::Never && !e.pattern)
        error(e.operands[0]->range, "an `if` condition must be a bool, found " + c.str());
      HostType then = block(*e.block);
      if (!e.elseExpr) return HostType::of(HostType::Unit);
      return join(then, expr(*e.elseExpr));
    }
    case K::While: {
      if (!e.label.empty()) error(e.range, "loop labels are not supported by tcpi's host evaluator");
      if (e.pattern) error(e.range, "`while let` is not supported by tcpi's host evaluator");
      HostType c = expr(*e.operands[0]);
      if (c.known() && c.kind != HostType::Bool && c.kind != HostType::Never && !e.pattern)
        error(e.operands[0]->range, "a `while` condition must be a bool, found " + c.str());
      loops_.push_back(Loop{});
      block(*e.block);
      loops_.pop_back();
      return HostType::of(HostType::Unit);
    }
    case K::Loop: return loopExpr(e);
    case K::For: return forExpr(e);
    case K::Match:
      error(e.range, "`match` is not supported by tcpi's host evaluator yet (use `if`)");
      if (!e.operands.empty() && e.operands[0]) expr(*e.operands[0]);
      return HostType();
    case K::Return: {
      HostType v = !e.operands.empty() && e.operands[0] ? expr(*e.operands[0]) : HostType::of(HostType::Unit);
      if (frames_.empty()) {
        error(e.range, "`return` outside of a function");
      } else {
        Frame &f = frames_.back();
        if (f.declared && !compatible(v, *f.declared) && !(numeric(v) && numeric(*f.declared)))
          error(e.range, "`return` of " + v.str() + " from a function that returns " + f.declared->str());
        f.returned = join(f.returned, v);
      }
      return HostType::of(HostType::Never);
    }
    case K::Break:
    case K::Continue: {
      const char *what = e.kind == K::Break ? "break" : "continue";
      if (!e.label.empty()) error(e.range, "loop labels are not supported by tcpi's host evaluator");
      HostType v = e.kind == K::Break && !e.operands.empty() && e.operands[0] ? expr(*e.operands[0]) : HostType::of(HostType::Unit);
      if (loops_.empty()) {
        error(e.range, std::string("`") + what + "` outside of a loop");
      } else if (e.kind == K::Break) {
        if (!loops_.back().isLoop && v.kind != HostType::Unit)
          error(e.range, "`break` with a value works only in `loop`");
        loops_.back().broken = join(loops_.back().broken, v);
      }
      return HostType::of(HostType::Never);
    }
    case K::RangeE:
      error(e.range, "tcpi supports ranges only as the iterable of a `for` loop");
      for (const auto &o : e.operands)
        if (o) expr(*o);
      return HostType::of(HostType::Range);
    case K::Call: return call(e, hint);
    case K::MethodCall: return methodCall(e, hint);
    case K::Macro: return macro(e);
    case K::Closure: return makeClosure(e);
    case K::StructLit:
      error(e.range, "struct literals are not supported by tcpi's host evaluator (`" + e.path.str() + " { ... }`)");
      return HostType();
  }
  error(e.range, "this expression is not supported by tcpi's host evaluator");
  return HostType();
}

HostType HostChecker::unary(const ast::Expr &e) {
  const std::string &op = e.text;
  HostType v = expr(*e.operands[0]);
  if (op == "&" || op == "&mut" || op == "*") return v;  // references are transparent
  if (!v.known() || v.kind == HostType::Never) return v;
  if (op == "-" && numeric(v)) return v;
  if (op == "!" && (v.kind == HostType::Bool || v.kind == HostType::Int)) return v;
  error(e.range, "operator `" + op + "` does not apply to " + v.str());
  return HostType();
}

HostType HostChecker::binary(const ast::Expr &e) {
  const std::string &op = e.text;
  HostType l = expr(*e.operands[0]);
  HostType r = expr(*e.operands[1]);
  if (op == "&&" || op == "||") {
    for (const HostType *t : {&l, &r})
      if (t->known() && t->kind != HostType::Bool && t->kind != HostType::Never)
        error(e.range, "operator `" + op + "` needs bools, found " + t->str());
    return HostType::of(HostType::Bool);
  }
  return arith(op, l, r, e.range);
}

HostType HostChecker::arith(const std::string &op, const HostType &l, const HostType &r, llvm::SMRange range) {
  if (op == "==" || op == "!=") {
    checkComparable(l, r, range, "`" + op + "`", false);
    return HostType::of(HostType::Bool);
  }
  bool cmp = op == "<" || op == "<=" || op == ">" || op == ">=";
  HostType result = cmp ? HostType::of(HostType::Bool) : HostType();
  auto bad = [&] {
    error(range, "operator `" + op + "` does not apply to " + l.str() + " and " + r.str() +
                     (op == "+" && (l.kind == HostType::Str || r.kind == HostType::Str) ? " (use `format!`)" : ""));
    return result;
  };
  if (!maybeNumeric(l) || !maybeNumeric(r)) {
    bool bits = op == "&" || op == "|" || op == "^";
    auto boolish = [](const HostType &t) { return t.kind == HostType::Bool || !t.known() || t.kind == HostType::Never; };
    if (bits && boolish(l) && boolish(r)) return HostType::of(HostType::Bool);
    return bad();
  }
  if (cmp) return result;
  bool anyFloat = l.kind == HostType::Float || r.kind == HostType::Float;
  if (op == "<<" || op == ">>" || op == "&" || op == "|" || op == "^") {
    if (anyFloat) return bad();
    return HostType::of(HostType::Int);
  }
  if (op != "+" && op != "-" && op != "*" && op != "/" && op != "%") return bad();
  if (anyFloat) return HostType::of(HostType::Float);
  if (l.kind == HostType::Int && r.kind == HostType::Int) return HostType::of(HostType::Int);
  if (l.kind == HostType::Never) return r;
  if (r.kind == HostType::Never) return l;
  return HostType();  // an integer or a float: one operand's type is not known
}

void HostChecker::checkComparable(const HostType &l, const HostType &r, llvm::SMRange range, const std::string &what,
                                  bool sameDtype) {
  if (l.kind == HostType::HostTensor && r.kind == HostType::HostTensor) {
    if (!l.tensorKnown() || !r.tensorKnown()) return;
    if (sameDtype && l.dtype != r.dtype)
      error(range, what + " compares " + l.str() + " with " + r.str() + ": the element types differ (" +
                       num::dtypeName(l.dtype) + " and " + num::dtypeName(r.dtype) + ")");
    std::vector<std::string> a = logicalAxisNames(l.element), b = logicalAxisNames(r.element);
    std::vector<std::string> sa = a, sb = b;
    std::sort(sa.begin(), sa.end());
    std::sort(sb.begin(), sb.end());
    if (l.element->str() != r.element->str() && sa != sb)
      error(range, what + " compares tensors of different shapes: " + l.str() + " has axes " + axesText(a) + ", " +
                       r.str() + " has axes " + axesText(b));
    return;
  }
  if ((l.kind == HostType::HostTensor) != (r.kind == HostType::HostTensor) && l.known() && r.known() &&
      l.kind != HostType::Never && r.kind != HostType::Never) {
    error(range, what + " compares " + l.str() + " with " + r.str());
    return;
  }
  if (!compatible(l, r) && !(numeric(l) && numeric(r))) error(range, what + " compares " + l.str() + " with " + r.str());
}

HostType HostChecker::cast(const ast::Expr &e) {
  HostType v = expr(*e.operands[0]);
  std::string ty = e.type && e.type->kind == ast::Type::PathT && !e.type->path.segments.empty()
                       ? e.type->path.segments.back().name : "";
  static const std::set<std::string> kInts = {"i8", "i16", "i32", "i64", "isize", "u8", "u16", "u32", "u64", "usize"};
  bool toFloat = ty == "f32" || ty == "f64";
  if (!toFloat && !kInts.count(ty)) {
    error(e.type ? e.type->range : e.range,
          "tcpi's `as` converts to the integer types (i8 ... i64, u8 ... u64, usize) and to f32/f64, not to `" +
              (e.type && e.type->kind == ast::Type::PathT ? e.type->path.str() : std::string("this type")) + "`");
    return HostType();
  }
  bool ok = maybeNumeric(v) || (v.kind == HostType::Bool && !toFloat);
  if (!ok) error(e.range, "cannot cast " + v.str() + " as " + ty);
  return HostType::of(toFloat ? HostType::Float : HostType::Int);
}

HostType HostChecker::assign(const ast::Expr &e) {
  const ast::Expr &target = *e.operands[0];
  HostType value = expr(*e.operands[1]);
  HostType *slot = nullptr;
  HostType elementSlot;
  std::string what;
  if (target.kind == ast::Expr::PathE && !target.path.qualifiedSelf && target.path.segments.size() == 1) {
    const std::string &name = target.path.segments[0].name;
    slot = lookup(name);
    what = "`" + name + "`";
    if (!slot) {
      error(target.range, "cannot assign to unknown variable `" + name + "`" + hint(name, variableNames(), false));
      return HostType::of(HostType::Unit);
    }
  } else if (target.kind == ast::Expr::Index && target.operands[0]->kind == ast::Expr::PathE &&
             target.operands[0]->path.segments.size() == 1 && !target.operands[0]->path.qualifiedSelf) {
    const std::string &name = target.operands[0]->path.segments[0].name;
    HostType *base = lookup(name);
    HostType k = expr(*target.operands[1]);
    if (k.known() && k.kind != HostType::Int && k.kind != HostType::Never)
      error(target.operands[1]->range, "tcpi indexes vectors with an integer, found " + k.str());
    if (!base) {
      error(target.operands[0]->range, "cannot assign to unknown variable `" + name + "`" + hint(name, variableNames(), false));
      return HostType::of(HostType::Unit);
    }
    if (base->known() && base->kind != HostType::Vec) {
      error(target.range, "cannot assign to an element of " + base->str() + " (tcpi assigns to vector elements)");
      return HostType::of(HostType::Unit);
    }
    if (base->kind == HostType::Vec && !base->elems.empty()) slot = &base->elems[0];
    what = "an element of `" + name + "`";
  } else {
    error(target.range, "tcpi can assign only to variables and vector elements");
    return HostType::of(HostType::Unit);
  }
  // Inside a closure, a variable found only in the captured scope (or the REPL's session) is a copy:
  // tcpi's closures capture by value, so the assignment would be lost when the closure returns.
  if (!closuresRunning_.empty()) {
    const std::string &name = target.kind == ast::Expr::PathE ? target.path.segments[0].name
                                                              : target.operands[0]->path.segments[0].name;
    bool local = false;
    for (size_t k = scopes_.size(); k-- > 1 && !local;) local = scopes_[k].count(name) > 0;
    if (!local) {
      error(target.range, "the closure assigns to `" + name + "`, which it captured: tcpi's closures capture variables by "
                          "value, so the change would be lost when it returns; not supported yet (return the new value "
                          "from the closure instead)");
      return HostType::of(HostType::Unit);
    }
  }
  if (e.text != "=") {
    HostType cur = slot ? *slot : HostType();
    value = arith(e.text.substr(0, e.text.size() - 1), cur, value, e.range);
  }
  if (!slot) return HostType::of(HostType::Unit);
  if (!compatible(value, *slot) && !(numeric(value) && numeric(*slot))) {
    error(e.range, "cannot assign " + value.str() + " to " + what + " of type " + slot->str());
  } else if (!slot->known() || (numeric(value) && numeric(*slot))) {
    *slot = join(*slot, value).known() ? join(*slot, value) : value;
  } else if (slot->kind == value.kind && (slot->kind == HostType::Option || slot->kind == HostType::Vec) &&
             !slot->elems.empty() && !slot->elems[0].known()) {
    *slot = value;  // `let mut best = None; ... best = Some(x);`
  }
  return HostType::of(HostType::Unit);
}

HostType HostChecker::field(const ast::Expr &e) {
  HostType base = expr(*e.operands[0]);
  const std::string &name = e.text;
  bool tupleIndex = !name.empty() && std::isdigit(static_cast<unsigned char>(name[0]));
  if (base.kind == HostType::Tuple && tupleIndex) {
    size_t k = std::stoul(name);
    if (k < base.elems.size()) return base.elems[k];
    error(e.range, base.str() + " has no field `" + name + "` (it has " + countText(base.elems.size(), "member") + ")");
    return HostType();
  }
  if (base.kind == HostType::Context) {
    if (const HostApiEntry *api = findHostApi(HostApiEntry::Field, "Context", name)) {
      if (!api->supported()) {
        error(e.range, api->unsupported);
        return HostType();
      }
      HostType d = HostType::of(HostType::Dma);
      d.name = name;
      return d;
    }
    error(e.range, "`Context` has no field `" + name + "`" + hint(name, hostApiNames(HostApiEntry::Field, "Context")));
    return HostType();
  }
  if (!base.known() || base.kind == HostType::Never) {
    // The receiver is not known: the field must at least exist on some host value.
    if (!tupleIndex && !findHostApi(HostApiEntry::Field, "Context", name))
      error(e.range, "no host value has a field `" + name + "`" + hint(name, hostApiNames(HostApiEntry::Field, "Context")));
    return HostType();
  }
  error(e.range, base.str() + " has no field `" + name + "`" +
                     (base.kind == HostType::Tuple ? "" : " (host values have no fields except `ctx.pdma` and `ctx.tdma`)"));
  return HostType();
}

HostType HostChecker::loopExpr(const ast::Expr &e) {
  if (!e.label.empty()) error(e.range, "loop labels are not supported by tcpi's host evaluator");
  Loop l;
  l.isLoop = true;
  loops_.push_back(l);
  block(*e.block);
  HostType broken = loops_.back().broken;
  loops_.pop_back();
  return broken;  // Never when nothing breaks out
}

HostType HostChecker::forExpr(const ast::Expr &e) {
  if (!e.label.empty()) error(e.range, "loop labels are not supported by tcpi's host evaluator");
  const ast::Expr &iter = stripAwait(*e.operands[0]);
  HostType item;
  if (iter.kind == ast::Expr::RangeE) {
    if (iter.operands.size() < 2 || !iter.operands[0] || !iter.operands[1])
      error(iter.range, "a `for` range needs both bounds");
    for (const auto &o : iter.operands)
      if (o) {
        HostType b = expr(*o);
        if (b.known() && b.kind != HostType::Int && b.kind != HostType::Never)
          error(o->range, "a `for` range bound must be an integer, found " + b.str());
      }
    item = HostType::of(HostType::Int);
  } else {
    HostType t = expr(iter);
    if (t.kind == HostType::Vec) {
      item = t.elems.empty() ? HostType() : t.elems[0];
    } else if (t.kind == HostType::Tuple) {
      item = HostType::of(HostType::Never);
      for (const HostType &m : t.elems) item = join(item, m);
    } else if (t.known() && t.kind != HostType::Never) {
      error(iter.range, "cannot iterate over " + t.str() + " (tcpi iterates ranges `a..b`, vectors and tuples)");
    }
  }
  loops_.push_back(Loop{});
  scopes_.emplace_back();
  if (e.pattern) bind(*e.pattern, item);
  block(*e.block);
  scopes_.pop_back();
  loops_.pop_back();
  return HostType::of(HostType::Unit);
}

HostType HostChecker::makeClosure(const ast::Expr &e) {
  auto info = std::make_shared<ClosureInfo>();
  info->expr = &e;
  for (const Scope &s : scopes_)
    for (const auto &[name, t] : s) info->captured[name] = t;
  HostType t = HostType::of(HostType::Closure);
  t.closure = info;
  // Check the body once as written (parameters of unknown type unless annotated); every call
  // checks it again with the argument types.
  std::vector<HostType> unknown(e.params.size());
  callClosure(t, unknown, e.range);
  return t;
}

HostType HostChecker::callClosure(const HostType &closure, const std::vector<HostType> &args, llvm::SMRange site) {
  if (!closure.closure || !closure.closure->expr) return HostType();
  const ast::Expr &e = *closure.closure->expr;
  if (args.size() != e.params.size()) {
    error(site, "the closure takes " + countText(e.params.size(), "argument") + " but " + std::to_string(args.size()) +
                    (args.size() == 1 ? " was given" : " were given"));
    return HostType();
  }
  if (closuresRunning_.count(&e)) return HostType();
  closuresRunning_.insert(&e);
  std::vector<Scope> savedScopes;
  savedScopes.swap(scopes_);
  std::vector<Loop> savedLoops;
  savedLoops.swap(loops_);
  scopes_.push_back(closure.closure->captured);
  scopes_.emplace_back();
  for (size_t k = 0; k < args.size(); ++k) {
    HostType t = args[k];
    if (e.params[k].type) {
      HostType declared = typeOf(*e.params[k].type);
      if (!compatible(t, declared) && !(numeric(t) && numeric(declared)))
        error(site, "closure parameter " + std::to_string(k + 1) + " is " + declared.str() + ", the argument " + t.str());
      if (!t.known()) t = declared;
    }
    if (e.params[k].pattern) bind(*e.params[k].pattern, t);
  }
  Frame frame;
  if (e.closureRet) frame.declared = typeOf(*e.closureRet);
  frames_.push_back(frame);
  HostType body = e.block ? block(*e.block) : expr(*e.operands[0]);
  Frame done = frames_.back();
  frames_.pop_back();
  scopes_.swap(savedScopes);
  loops_.swap(savedLoops);
  closuresRunning_.erase(&e);
  return done.declared ? *done.declared : join(body, done.returned);
}

}  // namespace tcp

// HostCheck.cpp — the host-code checker: scopes, statements, patterns, host functions and the entry points (program, REPL input).
#include "HostCheckInternal.h"

#include "Suggest.h"

#include <algorithm>

namespace tcp {

std::string countText(size_t n, const char *noun) {
  return std::to_string(n) + " " + noun + (n == 1 ? "" : "s");
}

const ast::Expr &stripAwait(const ast::Expr &e) {
  const ast::Expr *x = &e;
  while ((x->kind == ast::Expr::Await || x->kind == ast::Expr::Paren || x->kind == ast::Expr::Try) &&
         !x->operands.empty() && x->operands[0])
    x = x->operands[0].get();
  return *x;
}

HostChecker::HostChecker(Symbols &symbols, const TypedProgram &typed, Diagnostics &diags)
    : syms_(symbols), typed_(typed), diags_(diags), resolver_(symbols, diags), types_(symbols, diags) {
  for (const TypedFunction &f : typed_.functions)
    if (f.isDevice) chips_ = std::max(chips_, f.chips);
}

void HostChecker::error(llvm::SMRange r, const std::string &msg) {
  if (!reported_.insert({r.Start.getPointer(), msg}).second) return;
  diags_.error(r, msg);
}

std::string HostChecker::hint(const std::string &name, const std::vector<std::string> &candidates, bool listIfFar) {
  std::string near = didYouMean(name, candidates);
  if (!near.empty() || !listIfFar || candidates.empty() || candidates.size() > 12) return near;
  std::string s = " (known: ";
  for (size_t k = 0; k < candidates.size(); ++k) s += (k ? ", " : "") + candidates[k];
  return s + ")";
}

HostType *HostChecker::lookup(const std::string &name) {
  for (auto it = scopes_.rbegin(); it != scopes_.rend(); ++it) {
    auto f = it->find(name);
    if (f != it->end()) return &f->second;
  }
  auto g = globals_.find(name);  // below every scope: the REPL session's bindings
  return g == globals_.end() ? nullptr : &g->second;
}

std::vector<std::string> HostChecker::variableNames() const {
  std::vector<std::string> out;
  for (const auto &[name, t] : globals_) out.push_back(name);
  for (const Scope &s : scopes_)
    for (const auto &[name, t] : s) out.push_back(name);
  return out;
}

const TypedFunction *HostChecker::typedFunction(const std::string &name) const {
  for (const TypedFunction &f : typed_.functions)
    if (f.name == name) return &f;
  return nullptr;
}

void HostChecker::bind(const ast::Pattern &p, const HostType &t) {
  switch (p.kind) {
    case ast::Pattern::Ident:
      if (!p.elems.empty()) {
        error(p.range, "`" + p.name + " @ pattern` bindings are not supported by tcpi's host evaluator");
        return;
      }
      scopes_.back()[p.name] = t;
      return;
    case ast::Pattern::Wildcard:
      return;
    case ast::Pattern::Tuple: {
      if (t.known() && t.kind != HostType::Never && (t.kind != HostType::Tuple || t.elems.size() != p.elems.size())) {
        error(p.range, "cannot destructure " + t.str() + " into " + countText(p.elems.size(), "name"));
        for (const auto &e : p.elems) bind(*e, HostType());
        return;
      }
      for (size_t k = 0; k < p.elems.size(); ++k)
        bind(*p.elems[k], t.kind == HostType::Tuple ? t.elems[k] : HostType());
      return;
    }
    case ast::Pattern::Ref:
      if (!p.elems.empty() && p.elems[0]) bind(*p.elems[0], t);
      return;
    default:
      error(p.range, "this pattern is not supported by tcpi's host evaluator (it binds names, `_`, tuples and `&x`)");
  }
}

HostType HostChecker::block(const ast::Block &b, const ast::Type *hint) {
  scopes_.emplace_back();
  HostType result = HostType::of(HostType::Unit);
  bool diverged = false;
  for (size_t k = 0; k < b.stmts.size(); ++k) {
    const ast::Stmt &s = *b.stmts[k];
    bool tail = k + 1 == b.stmts.size() && s.kind == ast::Stmt::ExprS && !s.semi && s.init;
    if (tail) {
      result = expr(*s.init, hint);
      break;
    }
    if (s.kind == ast::Stmt::ExprS && s.init) {
      if (expr(*s.init).kind == HostType::Never) diverged = true;
      continue;
    }
    stmt(s);
  }
  scopes_.pop_back();
  return diverged ? HostType::of(HostType::Never) : result;
}

void HostChecker::stmt(const ast::Stmt &s) {
  switch (s.kind) {
    case ast::Stmt::Let: {
      if (s.elseBlock) {
        error(s.range, "`let ... else` is not supported by tcpi's host evaluator");
        if (s.init) expr(*s.init);
        return;
      }
      HostType annotated = s.type ? typeOf(*s.type) : HostType();
      HostType value = s.init ? expr(*s.init, s.type.get()) : annotated;
      if (s.init && s.type && !compatible(value, annotated))
        error(s.init->range, "the `let` annotation is " + annotated.str() + " but the value is " + value.str());
      // The value's own type is the more precise one (an HBM tensor remembers its host layout).
      HostType bound = value.known() && value.kind != HostType::Never ? value : annotated;
      if (bound.kind == HostType::HostTensor && !bound.tensorKnown() && annotated.tensorKnown()) bound = annotated;
      if (s.pattern) bind(*s.pattern, bound);
      return;
    }
    case ast::Stmt::ExprS:
      if (s.init) expr(*s.init);
      return;
    case ast::Stmt::ItemS:
      // Items are hoisted: functions are checked on their own, axes and aliases by the resolver.
      return;
    case ast::Stmt::Empty:
      return;
  }
}

void HostChecker::checkFunction(const ast::Item &fn) {
  if (checked_.count(&fn) || inProgress_.count(&fn) || !fn.body) return;
  inProgress_.insert(&fn);
  std::vector<Scope> savedScopes;
  savedScopes.swap(scopes_);
  std::vector<Loop> savedLoops;
  savedLoops.swap(loops_);
  std::vector<std::string> savedGenerics = generics_;
  generics_.clear();
  for (const auto &g : fn.generics) generics_.push_back(g.name);
  scopes_.emplace_back();  // the globals are looked up below every scope
  Frame frame;
  frame.fn = &fn;
  if (fn.ret) frame.declared = typeOf(*fn.ret);
  for (const ast::Param &p : fn.params) {
    if (p.isSelf) {
      error(p.range, "`self` parameters are not supported by tcpi's host evaluator");
      continue;
    }
    if (p.pattern) bind(*p.pattern, p.type ? typeOf(*p.type) : HostType());
  }
  frames_.push_back(frame);
  HostType body = block(*fn.body);
  Frame done = frames_.back();
  frames_.pop_back();
  HostType result = done.declared ? *done.declared : join(body, done.returned);
  if (done.declared) {
    auto numeric = [](const HostType &t) { return t.kind == HostType::Int || t.kind == HostType::Float; };
    if (!compatible(body, *done.declared) && !(numeric(body) && numeric(*done.declared))) {
      const ast::Stmt *tail = fn.body->stmts.empty() ? nullptr : fn.body->stmts.back().get();
      llvm::SMRange at = tail && tail->kind == ast::Stmt::ExprS && !tail->semi && tail->init ? tail->init->range : fn.body->range;
      error(at, "function `" + fn.name + "` returns " + done.declared->str() + " but its body is " + body.str());
    }
  }
  results_[&fn] = result;
  scopes_.swap(savedScopes);
  loops_.swap(savedLoops);
  generics_ = savedGenerics;
  inProgress_.erase(&fn);
  checked_.insert(&fn);
}

HostType HostChecker::functionResult(const ast::Item &fn) {
  if (fn.ret && !inProgress_.count(&fn)) {
    std::vector<std::string> saved = generics_;
    generics_.clear();
    for (const auto &g : fn.generics) generics_.push_back(g.name);
    HostType t = typeOf(*fn.ret, /*report=*/false);
    generics_ = saved;
    return t;
  }
  auto it = results_.find(&fn);
  if (it != results_.end()) return it->second;
  if (inProgress_.count(&fn)) return HostType();  // recursion without a result annotation
  checkFunction(fn);
  it = results_.find(&fn);
  return it != results_.end() ? it->second : HostType();
}

void HostChecker::checkProgram() {
  for (const std::string &name : syms_.fnOrder) {
    const FnInfo &info = syms_.fns.at(name);
    if (!info.item || !info.item->body || !isHostFunction(name, info, types_)) continue;
    // tcpi calls `main` and each `#[test]` with no arguments and ignores their results.
    if ((name == "main" || info.isTest) && !info.item->params.empty())
      error(info.item->params[0].range, std::string(info.isTest ? "a `#[test]` function" : "`main`") +
                                            " takes no parameters (tcpi calls it with none)");
    checkFunction(*info.item);
  }
}

void HostChecker::checkInput(const std::vector<const ast::Stmt *> &stmts, const std::map<std::string, HostType> &changed) {
  // The session's bindings persist here; each input passes only those it (re)bound, so checking an
  // input costs what the input costs, not what the session holds.
  for (const auto &[name, t] : changed) globals_[name] = t;
  scopes_.assign(1, Scope());
  for (const ast::Stmt *s : stmts) {
    if (s->kind == ast::Stmt::ItemS) {
      if (s->item && s->item->kind == ast::Item::Fn) {
        auto it = syms_.fns.find(s->item->name);
        if (it != syms_.fns.end() && it->second.item == s->item.get() && isHostFunction(s->item->name, it->second, types_)) {
          checked_.erase(s->item.get());
          checkFunction(*s->item);
        }
      }
      continue;
    }
    if (s->kind == ast::Stmt::ExprS && s->init) expr(*s->init);
    else stmt(*s);
  }
}

void checkHostCode(Symbols &symbols, const TypedProgram &typed, Diagnostics &diags) {
  HostChecker checker(symbols, typed, diags);
  checker.checkProgram();
}

HostSessionChecker::HostSessionChecker(Symbols &symbols, const TypedProgram &typed, Diagnostics &diags)
    : checker_(std::make_unique<HostChecker>(symbols, typed, diags)) {}

HostSessionChecker::~HostSessionChecker() = default;

bool HostSessionChecker::checkInput(const std::vector<const ast::Stmt *> &stmts, const std::map<std::string, HostType> &changed) {
  unsigned before = checker_->diags_.errorCount();
  checker_->checkInput(stmts, changed);
  return checker_->diags_.errorCount() == before;
}

}  // namespace tcp

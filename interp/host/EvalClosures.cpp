// EvalClosures.cpp — closures `|x, y| body` as values (capturing the scopes they are created in) and `let` type hints.
#include "Evaluator.h"

#include "HostValue.h"

#include <set>

namespace tcp::interp {

const ast::Type *Evaluator::expectedType(const ast::Expr &e) const {
  if (!hintType_ || !hintExpr_) return nullptr;
  const ast::Expr *x = hintExpr_;
  for (;;) {
    if ((x->kind == ast::Expr::Await || x->kind == ast::Expr::Paren || x->kind == ast::Expr::Try) && !x->operands.empty() &&
        x->operands[0]) {
      x = x->operands[0].get();
    } else if (x->kind == ast::Expr::BlockE && x->block && !x->block->stmts.empty() &&
               x->block->stmts.back()->kind == ast::Stmt::ExprS && !x->block->stmts.back()->semi &&
               x->block->stmts.back()->init) {
      x = x->block->stmts.back()->init.get();  // `unsafe { HbmTensor::from_addr(0) }`: the block's tail
    } else {
      break;
    }
  }
  return x == &e ? hintType_ : nullptr;
}

namespace {
// Every name the closure body may read: single-segment paths and `{name}` in format strings (a
// superset of its free variables; parameters and locals are shadowed when it runs).
void usedNames(const ast::Expr &e, std::set<std::string> &out);

void usedNamesBlock(const ast::Block &b, std::set<std::string> &out) {
  for (const auto &st : b.stmts) {
    if (st->init) usedNames(*st->init, out);
    if (st->elseBlock) usedNamesBlock(*st->elseBlock, out);
  }
}

void usedNames(const ast::Expr &e, std::set<std::string> &out) {
  if (e.kind == ast::Expr::PathE && !e.path.qualifiedSelf && e.path.segments.size() == 1) out.insert(e.path.segments[0].name);
  if (e.kind == ast::Expr::StrLit) {
    for (size_t k = e.text.find('{'); k != std::string::npos; k = e.text.find('{', k + 1)) {
      size_t end = k + 1;
      while (end < e.text.size() && (std::isalnum(static_cast<unsigned char>(e.text[end])) || e.text[end] == '_')) ++end;
      if (end > k + 1) out.insert(e.text.substr(k + 1, end - k - 1));
    }
  }
  for (const auto &o : e.operands)
    if (o) usedNames(*o, out);
  for (const auto &f : e.fields)
    if (f.value) usedNames(*f.value, out);
    else out.insert(f.name);
  if (e.block) usedNamesBlock(*e.block, out);
  if (e.elseExpr) usedNames(*e.elseExpr, out);
  for (const auto &arm : e.arms) {
    if (arm.guard) usedNames(*arm.guard, out);
    if (arm.body) usedNames(*arm.body, out);
  }
  if (e.macro) {
    for (const auto &a : e.macro->args)
      if (a) usedNames(*a, out);
    for (const auto &entry : e.macro->indexEntries)
      if (entry.second) usedNames(*entry.second, out);
  }
}
}  // namespace

Value Evaluator::makeClosure(const ast::Expr &e) {
  auto c = std::make_shared<ClosureObj>();
  c->expr = &e;
  // Capture the values of the names the body uses (not whole scopes: they may hold large arrays).
  std::set<std::string> names;
  usedNames(e, names);
  c->env.emplace_back();
  for (const std::string &n : names)
    if (Value *v = lookup(n)) c->env.back()[n] = *v;
  return Value::object(c);
}

Value Evaluator::callClosure(const Value &f, std::vector<Value> args, llvm::SMRange callRange) {
  auto c = objectAs<ClosureObj>(f);
  if (!c) fail(callRange, std::string("expected a closure `|x| ...`, found ") + f.kindName() + " `" + f.debug() + "`");
  const ast::Expr &e = *c->expr;
  if (args.size() != e.params.size())
    fail(callRange, "the closure takes " + std::to_string(e.params.size()) + " argument" +
                        (e.params.size() == 1 ? "" : "s") + " but " + std::to_string(args.size()) +
                        (args.size() == 1 ? " was given" : " were given"));
  if (c->running) fail(callRange, "a closure cannot call itself");
  // Run in the closure's own scopes (swapped in, so calls per element copy nothing).
  c->running = true;
  scopes_.swap(c->env);
  scopes_.emplace_back();
  auto restore = [&] {
    scopes_.pop_back();
    scopes_.swap(c->env);
    c->running = false;
  };
  Value result;
  try {
    for (size_t k = 0; k < args.size(); ++k)
      if (e.params[k].pattern) bind(*e.params[k].pattern, std::move(args[k]));
    result = e.block ? evalBlock(*e.block) : eval(*e.operands[0]);
  } catch (ControlFlow &cf) {
    restore();
    if (cf.kind != ControlFlow::Return) fail(callRange, "`break`/`continue` outside of a loop");
    return std::move(cf.value);
  } catch (...) {
    restore();
    throw;
  }
  restore();
  return result;
}

}  // namespace tcp::interp

// EvalClosures.cpp — closures `|x, y| body` as values (capturing the scopes they are created in) and `let` type hints.
#include "Evaluator.h"

#include "HostValue.h"

namespace tcp::interp {

const ast::Type *Evaluator::expectedType(const ast::Expr &e) const {
  if (!hintType_ || !hintExpr_) return nullptr;
  const ast::Expr *x = hintExpr_;
  while ((x->kind == ast::Expr::Await || x->kind == ast::Expr::Paren || x->kind == ast::Expr::Try) &&
         !x->operands.empty() && x->operands[0])
    x = x->operands[0].get();
  return x == &e ? hintType_ : nullptr;
}

Value Evaluator::makeClosure(const ast::Expr &e) {
  auto c = std::make_shared<ClosureObj>();
  c->expr = &e;
  c->env = scopes_;
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

// OpAccounting.cpp — collects the engine-method calls of a function body (the source side of the "nothing is lost" invariant).
#include "OpAccounting.h"

#include "OpCatalog.h"

#include <algorithm>
#include <iterator>

namespace tcp {

std::string typedOpName(const std::string &method) {
  const catalog::Method *m = catalog::findMethod(method);
  if (!m || !m->supported || !m->emitsOp) return "";
  if (method.rfind("fetch_with_", 0) == 0) return "fetch";
  if (method == "begin_interleaved") return "begin";
  if (method == "commit_view") return "commit";
  return method;
}

namespace {
// out: the calls that run exactly once; cond: those inside a loop body or a branch (run any number
// of times, or not at all).
struct Calls {
  std::vector<std::string> once, cond;
  std::vector<std::string> functions;  // every single-name call `f(...)`
  const BodyOf *bodyOf = nullptr;  // the body a call of a stage function inlines (null: none)
  std::vector<std::string> stack;  // the calls being walked (a recursive call is the checker's error)
};
void walkBlock(const ast::Block &b, Calls &out, bool cond);

void walkExpr(const ast::Expr *e, Calls &out, bool cond) {
  if (!e) return;
  using K = ast::Expr::Kind;
  // A loop's body and an `if`'s branches run a number of times the walk does not know (the
  // condition and the iterable themselves run once).
  const bool branches = e->kind == K::For || e->kind == K::While || e->kind == K::Loop || e->kind == K::If ||
                        e->kind == K::Match;
  for (size_t k = 0; k < e->operands.size(); ++k)
    walkExpr(e->operands[k].get(), out, cond || (e->kind == K::Loop && k > 0));
  for (const auto &f : e->fields) walkExpr(f.value.get(), out, cond);
  if (e->block) walkBlock(*e->block, out, cond || branches);
  walkExpr(e->elseExpr.get(), out, cond || branches);
  for (const auto &arm : e->arms) {
    walkExpr(arm.guard.get(), out, true);
    walkExpr(arm.body.get(), out, true);
  }
  if (e->macro)
    for (const auto &a : e->macro->args) walkExpr(a.get(), out, cond);
  if (e->kind == K::MethodCall && !e->path.segments.empty()) {
    std::string name = typedOpName(e->path.segments[0].name);
    if (!name.empty()) (cond ? out.cond : out.once).push_back(name);
  }
  if (e->kind == K::Call && !e->operands.empty() && e->operands[0]->kind == K::PathE &&
      e->operands[0]->path.segments.size() == 1)
    out.functions.push_back(e->operands[0]->path.segments[0].name);
  // A stage function's call runs its body's ops where it is called.
  if (e->kind == K::Call && out.bodyOf && !e->operands.empty() && e->operands[0]->kind == K::PathE &&
      e->operands[0]->path.segments.size() == 1 && out.stack.size() < 16) {
    const std::string &callee = e->operands[0]->path.segments[0].name;
    const ast::Block *body = (*out.bodyOf)(callee);
    if (body && std::find(out.stack.begin(), out.stack.end(), callee) == out.stack.end()) {
      out.stack.push_back(callee);
      walkBlock(*body, out, cond);
      out.stack.pop_back();
    }
  }
}

void walkBlock(const ast::Block &b, Calls &out, bool cond) {
  for (const auto &s : b.stmts) {
    if (s->kind == ast::Stmt::ItemS) continue;  // nested items are functions of their own
    walkExpr(s->init.get(), out, cond);
    if (s->elseBlock) walkBlock(*s->elseBlock, out, cond);
  }
}
}  // namespace

std::vector<std::string> engineCalls(const ast::Block &body, const BodyOf &bodyOf) {
  Calls c;
  c.bodyOf = bodyOf ? &bodyOf : nullptr;
  walkBlock(body, c, false);
  c.once.insert(c.once.end(), c.cond.begin(), c.cond.end());
  return c.once;
}

std::vector<std::string> calledFunctions(const ast::Block &body) {
  Calls c;
  walkBlock(body, c, false);
  return c.functions;
}

bool opsAccountFor(const ast::Block &body, std::vector<std::string> typed, const BodyOf &bodyOf) {
  Calls c;
  c.bodyOf = bodyOf ? &bodyOf : nullptr;
  walkBlock(body, c, false);
  std::sort(typed.begin(), typed.end());
  std::sort(c.once.begin(), c.once.end());
  std::sort(c.cond.begin(), c.cond.end());
  if (c.cond.empty()) return typed == c.once;
  // Every call outside loops and branches is a typed op; the other typed ops are calls of a loop body
  // or a branch (any number of each).
  std::vector<std::string> rest;
  std::set_difference(typed.begin(), typed.end(), c.once.begin(), c.once.end(), std::back_inserter(rest));
  if (typed.size() - rest.size() != c.once.size()) return false;
  for (const std::string &n : rest)
    if (!std::binary_search(c.cond.begin(), c.cond.end(), n)) return false;
  return true;
}

}  // namespace tcp

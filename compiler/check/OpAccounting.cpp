// OpAccounting.cpp — collects the engine-method calls of a function body (the source side of the "nothing is lost" invariant).
#include "OpAccounting.h"

#include "OpCatalog.h"

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
void walkBlock(const ast::Block &b, std::vector<std::string> &out);

void walkExpr(const ast::Expr *e, std::vector<std::string> &out) {
  if (!e) return;
  for (const auto &o : e->operands) walkExpr(o.get(), out);
  for (const auto &f : e->fields) walkExpr(f.value.get(), out);
  if (e->block) walkBlock(*e->block, out);
  walkExpr(e->elseExpr.get(), out);
  for (const auto &arm : e->arms) {
    walkExpr(arm.guard.get(), out);
    walkExpr(arm.body.get(), out);
  }
  if (e->macro)
    for (const auto &a : e->macro->args) walkExpr(a.get(), out);
  if (e->kind == ast::Expr::MethodCall && !e->path.segments.empty()) {
    std::string name = typedOpName(e->path.segments[0].name);
    if (!name.empty()) out.push_back(name);
  }
}

void walkBlock(const ast::Block &b, std::vector<std::string> &out) {
  for (const auto &s : b.stmts) {
    if (s->kind == ast::Stmt::ItemS) continue;  // nested items are functions of their own
    walkExpr(s->init.get(), out);
    if (s->elseBlock) walkBlock(*s->elseBlock, out);
  }
}
}  // namespace

std::vector<std::string> engineCalls(const ast::Block &body) {
  std::vector<std::string> out;
  walkBlock(body, out);
  return out;
}

}  // namespace tcp

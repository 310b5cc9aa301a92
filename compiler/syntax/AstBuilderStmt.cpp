// AstBuilderStmt.cpp — AST building for blocks and statements.
#include "AstBuilder.h"

namespace tcp {

using namespace ast;
using P = parser::TcpParser;

BlockP AstBuilder::block(P::BlockContext *ctx) {
  if (!ctx) return nullptr;
  auto b = std::make_unique<Block>();
  b->range = range(ctx);
  innerAttrs(ctx->innerAttr(), b->innerAttrs);
  stmts(ctx->stmt(), ctx->tailExpr(), b->stmts);
  checkClosed(ctx->RBRACE(), ctx, "{");
  return b;
}

// The grammar requires ';' after an expression statement that does not end in a block, except the
// block's final expression (tailExpr); missing ones are syntax errors (SyntaxErrors.cpp).
void AstBuilder::stmts(const std::vector<P::StmtContext *> &in, P::TailExprContext *tail, std::vector<StmtP> &out) {
  for (P::StmtContext *c : in)
    if (StmtP s = stmt(c)) out.push_back(std::move(s));
  if (!tail) return;
  auto s = std::make_unique<Stmt>();
  s->range = range(tail);
  s->kind = Stmt::ExprS;
  s->init = expr(tail->expr());
  if (s->init) out.push_back(std::move(s));
}

StmtP AstBuilder::stmt(P::StmtContext *ctx) {
  auto s = std::make_unique<Stmt>();
  s->range = range(ctx);
  if (dynamic_cast<P::EmptyStmtContext *>(ctx)) {
    s->kind = Stmt::Empty;
  } else if (auto *it = dynamic_cast<P::ItemStmtContext *>(ctx)) {
    s->kind = Stmt::ItemS;
    s->item = itemKind(it->outerAttr(), it->visibility(), it->itemKind(), s->range);
    if (!s->item) return nullptr;
  } else if (auto *let = dynamic_cast<P::LetStmtContext *>(ctx)) {
    s->kind = Stmt::Let;
    s->pattern = pattern(let->pattern());
    s->type = type(let->type_());
    s->init = expr(let->expr());
    s->elseBlock = block(let->block());
  } else if (auto *bl = dynamic_cast<P::BlockLikeStmtContext *>(ctx)) {
    s->kind = Stmt::ExprS;
    s->init = blockLike(bl->blockLikeExpr());
    s->semi = bl->SEMI() != nullptr;
  } else if (auto *mc = dynamic_cast<P::BraceMacroStmtContext *>(ctx)) {
    s->kind = Stmt::ExprS;
    antlr4::ParserRuleContext *args = mc->braceMacroArgs();
    Range r = range(mc->simplePath());
    if (args) r.End = range(args).End;
    s->init = macro(r, mc->simplePath(), args);
    s->semi = mc->SEMI() != nullptr;
  } else if (auto *ex = dynamic_cast<P::ExprStmtContext *>(ctx)) {
    s->kind = Stmt::ExprS;
    s->init = expr(ex->expr());
    s->semi = ex->SEMI() != nullptr;
  } else {
    return nullptr;
  }
  if ((s->kind == Stmt::ExprS) && !s->init) return nullptr;
  return s;
}

}  // namespace tcp

// AstBuilderStmt.cpp — AST building for blocks and statements, including the missing-';' check.
#include "AstBuilder.h"

namespace tcp {

using namespace ast;
using P = parser::TcpParser;

BlockP AstBuilder::block(P::BlockContext *ctx) {
  if (!ctx) return nullptr;
  auto b = std::make_unique<Block>();
  b->range = range(ctx);
  innerAttrs(ctx->innerAttr(), b->innerAttrs);
  stmts(ctx->stmt(), b->stmts, /*tailAllowed=*/true);
  checkClosed(ctx->RBRACE(), ctx, "{");
  return b;
}

namespace {

// Statements that end in a block need no ';' (Rust's rule), nor do brace-delimited macro calls.
bool endsInBlock(P::StmtContext *ctx, const Stmt &s) {
  if (dynamic_cast<P::BlockLikeStmtContext *>(ctx)) return true;
  return s.init && s.init->kind == Expr::Macro && s.init->macro && s.init->macro->delimiter == '{';
}

}  // namespace

void AstBuilder::stmts(const std::vector<P::StmtContext *> &in, std::vector<StmtP> &out, bool tailAllowed) {
  for (size_t i = 0; i < in.size(); ++i) {
    StmtP s = stmt(in[i]);
    if (!s) continue;
    bool last = i + 1 == in.size();
    if (s->kind == Stmt::ExprS && !s->semi && !endsInBlock(in[i], *s) && !(last && tailAllowed) &&
        !quiet_ && !in[i]->exception && !hasSyntaxError(in[i]) && !(i + 1 < in.size() && hasSyntaxError(in[i + 1]))) {
      Range r = s->range;
      error({r.End, r.End}, "expected ';' after the expression");
    }
    out.push_back(std::move(s));
  }
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

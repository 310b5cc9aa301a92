// AstBuilderExpr.cpp — AST building for expressions: operators, calls, closures, control flow and macros.
#include "AstBuilder.h"

namespace tcp {

using namespace ast;
using P = parser::TcpParser;

namespace {

ExprP make(Expr::Kind kind, Range r) {
  auto e = std::make_unique<Expr>();
  e->kind = kind;
  e->range = r;
  return e;
}

}  // namespace

ExprP AstBuilder::placeholder(Range r) {
  // A missing operand after a syntax error: an empty tuple keeps the tree well formed.
  return make(Expr::Tuple, {r.End, r.End});
}

void AstBuilder::exprList(const std::vector<P::ExprContext *> &in, std::vector<ExprP> &out) {
  for (P::ExprContext *e : in)
    if (ExprP x = expr(e)) out.push_back(std::move(x));
}

ExprP AstBuilder::binary(antlr4::ParserRuleContext *ctx, std::string op, P::ExprContext *l, P::ExprContext *r,
                         Expr::Kind kind) {
  ExprP e = make(kind, range(ctx));
  e->text = std::move(op);
  ExprP lhs = expr(l), rhs = expr(r);
  e->operands.push_back(lhs ? std::move(lhs) : placeholder(e->range));
  e->operands.push_back(rhs ? std::move(rhs) : placeholder(e->range));
  return e;
}

ExprP AstBuilder::expr(P::ExprContext *ctx) {
  if (!ctx) return nullptr;
  Range r = range(ctx);
  auto unary = [&](Expr::Kind kind, P::ExprContext *x) {
    ExprP e = make(kind, r);
    ExprP inner = expr(x);
    e->operands.push_back(inner ? std::move(inner) : placeholder(r));
    return e;
  };
  if (auto *c = dynamic_cast<P::PrimaryExprContext *>(ctx)) return primary(c->primary());
  if (auto *c = dynamic_cast<P::AwaitExprContext *>(ctx)) return unary(Expr::Await, c->expr());
  if (auto *c = dynamic_cast<P::MethodCallExprContext *>(ctx)) {
    ExprP e = unary(Expr::MethodCall, c->expr());
    PathSegment seg;
    seg.name = text(c->pathIdent());
    seg.range = range(c->pathIdent());
    genericArgs(c->genericArgs(), seg);
    e->path.segments.push_back(std::move(seg));
    e->path.range = e->path.segments.back().range;
    e->text = e->path.segments.back().name;
    if (c->callArgs()) exprList(c->callArgs()->expr(), e->operands);
    return e;
  }
  if (auto *c = dynamic_cast<P::FieldExprContext *>(ctx)) {
    ExprP e = unary(Expr::Field, c->expr());
    if (c->FLOAT_LIT()) {  // `t.0.1`: two tuple fields
      std::string f = text(c->FLOAT_LIT());
      size_t dot = f.find('.');
      if (dot == std::string::npos || f.find_first_not_of("0123456789.") != std::string::npos) {
        error(range(c->FLOAT_LIT()), "expected a field name or tuple index after '.'");
        e->text = f;
        return e;
      }
      e->text = f.substr(0, dot);
      ExprP outer = make(Expr::Field, r);
      outer->text = f.substr(dot + 1);
      outer->operands.push_back(std::move(e));
      return outer;
    }
    e->text = c->IDENT() ? text(c->IDENT()) : text(c->INT_LIT());
    return e;
  }
  if (auto *c = dynamic_cast<P::CallExprContext *>(ctx)) {
    ExprP e = unary(Expr::Call, c->expr());
    if (c->callArgs()) exprList(c->callArgs()->expr(), e->operands);
    return e;
  }
  if (auto *c = dynamic_cast<P::IndexExprContext *>(ctx))
    return binary(c, "[]", c->expr(0), c->expr(1), Expr::Index);
  if (auto *c = dynamic_cast<P::TryExprContext *>(ctx)) return unary(Expr::Try, c->expr());
  if (auto *c = dynamic_cast<P::UnaryExprContext *>(ctx)) {
    ExprP e = unary(Expr::Unary, c->expr());
    e->text = c->op ? c->op->getText() : "-";
    return e;
  }
  if (auto *c = dynamic_cast<P::RefExprContext *>(ctx)) {
    ExprP e = unary(Expr::Unary, c->expr());
    e->text = c->MUT() ? "&mut" : "&";
    if (c->ANDAND()) {  // `&&x` is a reference to a reference
      ExprP outer = make(Expr::Unary, r);
      outer->text = "&";
      outer->operands.push_back(std::move(e));
      return outer;
    }
    return e;
  }
  if (auto *c = dynamic_cast<P::CastExprContext *>(ctx)) {
    ExprP e = unary(Expr::Cast, c->expr());
    e->type = castType(c->castType());
    return e;
  }
  if (auto *c = dynamic_cast<P::MulExprContext *>(ctx))
    return binary(c, c->op ? c->op->getText() : "*", c->expr(0), c->expr(1));
  if (auto *c = dynamic_cast<P::AddExprContext *>(ctx))
    return binary(c, c->op ? c->op->getText() : "+", c->expr(0), c->expr(1));
  if (auto *c = dynamic_cast<P::ShiftExprContext *>(ctx))
    return binary(c, c->shiftOp() && c->shiftOp()->SHL() ? "<<" : ">>", c->expr(0), c->expr(1));
  if (auto *c = dynamic_cast<P::BitAndExprContext *>(ctx)) return binary(c, "&", c->expr(0), c->expr(1));
  if (auto *c = dynamic_cast<P::BitXorExprContext *>(ctx)) return binary(c, "^", c->expr(0), c->expr(1));
  if (auto *c = dynamic_cast<P::BitOrExprContext *>(ctx)) return binary(c, "|", c->expr(0), c->expr(1));
  if (auto *c = dynamic_cast<P::CompareExprContext *>(ctx)) {
    std::string op = "==";
    if (P::CompareOpContext *o = c->compareOp()) {
      if (o->NE()) op = "!=";
      else if (o->LT()) op = "<";
      else if (o->LE()) op = "<=";
      else if (o->GT()) op = o->EQ() ? ">=" : ">";
    }
    return binary(c, op, c->expr(0), c->expr(1));
  }
  if (auto *c = dynamic_cast<P::AndExprContext *>(ctx)) return binary(c, "&&", c->expr(0), c->expr(1));
  if (auto *c = dynamic_cast<P::OrExprContext *>(ctx)) return binary(c, "||", c->expr(0), c->expr(1));
  if (auto *c = dynamic_cast<P::RangeExprContext *>(ctx)) {
    ExprP e = binary(c, c->op ? c->op->getText() : "..", c->expr(0), c->expr(1), Expr::RangeE);
    e->inclusive = c->op && c->op->getType() == P::DOTDOTEQ;
    return e;
  }
  if (auto *c = dynamic_cast<P::RangeFromExprContext *>(ctx)) {
    ExprP e = unary(Expr::RangeE, c->expr());
    e->text = "..";
    e->operands.push_back(nullptr);
    return e;
  }
  if (auto *c = dynamic_cast<P::RangeToExprContext *>(ctx)) {
    ExprP e = make(Expr::RangeE, r);
    e->inclusive = c->op && c->op->getType() == P::DOTDOTEQ;
    e->text = e->inclusive ? "..=" : "..";
    e->operands.push_back(nullptr);
    ExprP hi = expr(c->expr());
    e->operands.push_back(hi ? std::move(hi) : placeholder(r));
    return e;
  }
  if (dynamic_cast<P::RangeFullExprContext *>(ctx)) {
    ExprP e = make(Expr::RangeE, r);
    e->text = "..";
    e->operands.push_back(nullptr);
    e->operands.push_back(nullptr);
    return e;
  }
  if (auto *c = dynamic_cast<P::AssignExprContext *>(ctx)) {
    std::string op = "=";
    if (P::AssignOpContext *o = c->assignOp()) {
      if (!o->GT().empty()) op = ">>=";
      else op = text(o);
    }
    return binary(c, op, c->expr(0), c->expr(1), Expr::Assign);
  }
  auto closure = [&](P::ClosureParamsContext *ps, P::ClosureHeadContext *head) {
    bool isMove = head && head->MOVE(), isAsync = head && head->ASYNC();
    ExprP e = make(Expr::Closure, r);
    e->isMove = isMove;
    e->isAsync = isAsync;
    if (ps) {
      for (P::ClosureParamContext *p : ps->closureParam()) {
        ClosureParam cp;
        cp.pattern = patternNoTop(p->patternNoTop());
        cp.type = type(p->type_());
        e->params.push_back(std::move(cp));
      }
    }
    return e;
  };
  if (auto *c = dynamic_cast<P::TypedClosureExprContext *>(ctx)) {
    ExprP e = closure(c->closureParams(), c->closureHead());
    e->closureRet = type(c->type_());
    e->block = block(c->block());
    return e;
  }
  if (auto *c = dynamic_cast<P::ClosureExprContext *>(ctx)) {
    ExprP e = closure(c->closureParams(), c->closureHead());
    ExprP body = expr(c->expr());
    if (body && body->kind == Expr::BlockE && !body->isUnsafe && !body->isAsync)
      e->block = std::move(body->block);
    else
      e->operands.push_back(body ? std::move(body) : placeholder(r));
    return e;
  }
  if (auto *c = dynamic_cast<P::ReturnExprContext *>(ctx)) {
    ExprP e = make(Expr::Return, r);
    if (ExprP v = expr(c->expr())) e->operands.push_back(std::move(v));
    return e;
  }
  if (auto *c = dynamic_cast<P::BreakExprContext *>(ctx)) {
    ExprP e = make(Expr::Break, r);
    e->label = text(c->LIFETIME());
    if (ExprP v = expr(c->expr())) e->operands.push_back(std::move(v));
    return e;
  }
  if (auto *c = dynamic_cast<P::ContinueExprContext *>(ctx)) {
    ExprP e = make(Expr::Continue, r);
    e->label = text(c->LIFETIME());
    return e;
  }
  return nullptr;  // an alternative ANTLR could not complete; the parser reported it
}

ExprP AstBuilder::primary(P::PrimaryContext *ctx) {
  if (!ctx) return nullptr;
  Range r = range(ctx);
  if (auto *c = dynamic_cast<P::LiteralPrimaryContext *>(ctx)) return literal(c->literal());
  if (auto *c = dynamic_cast<P::PathPrimaryContext *>(ctx)) {
    ExprP e = make(Expr::PathE, r);
    e->path = pathExpr(c->pathExpr());
    return e;
  }
  if (auto *c = dynamic_cast<P::QualifiedPathPrimaryContext *>(ctx)) {
    ExprP e = make(Expr::PathE, r);
    e->path = qualifiedPath(c->qualifiedPath());
    return e;
  }
  if (auto *c = dynamic_cast<P::StructLitPrimaryContext *>(ctx)) {
    ExprP e = make(Expr::StructLit, r);
    e->path = pathExpr(c->pathExpr());
    if (P::StructLitBodyContext *b = c->structLitBody()) {
      for (P::StructFieldContext *f : b->structField()) {
        StructField field;
        field.range = range(f);
        field.name = f->IDENT() ? text(f->IDENT()) : text(f->INT_LIT());
        field.value = expr(f->expr());
        e->fields.push_back(std::move(field));
      }
      if (b->DOTDOT()) {
        e->hasRest = true;
        if (ExprP base = expr(b->expr())) e->operands.push_back(std::move(base));
      }
    }
    return e;
  }
  if (auto *c = dynamic_cast<P::MapMacroPrimaryContext *>(ctx)) {
    ExprP e = make(Expr::Macro, r);
    e->macro = std::make_unique<MacroCall>();
    e->macro->name = "m";
    e->macro->delimiter = '[';
    e->macro->mapping = mapExpr(c->mapExpr());
    if (c->mapExpr()) e->macro->rawText = text(c->mapExpr());
    if (!c->mapExpr() && !ctx->exception) error(r, "expected a mapping expression inside 'm![...]'");
    return e;
  }
  if (auto *c = dynamic_cast<P::IndexMacroPrimaryContext *>(ctx)) {
    ExprP e = make(Expr::Macro, r);
    e->macro = std::make_unique<MacroCall>();
    e->macro->name = "i";
    e->macro->delimiter = '[';
    for (P::IndexEntryContext *entry : c->indexEntry()) {
      MapExprP key = mapConcat(entry->mapConcat());
      ExprP value = expr(entry->expr());
      if (key && value) e->macro->indexEntries.emplace_back(std::move(key), std::move(value));
    }
    if (c->INDEX_OPEN() && c->RBRACK())
      e->macro->rawText = between(range(c->INDEX_OPEN()).End, range(c->RBRACK()).Start);
    return e;
  }
  if (auto *c = dynamic_cast<P::MacroPrimaryContext *>(ctx)) return macro(c);
  if (auto *c = dynamic_cast<P::ParenPrimaryContext *>(ctx)) {
    P::ParenLikeContext *p = c->parenLike();
    if (!p) return nullptr;
    std::vector<P::ExprContext *> items = p->expr();
    if (items.size() == 1 && p->COMMA().empty()) {
      ExprP e = make(Expr::Paren, r);
      ExprP inner = expr(items[0]);
      e->operands.push_back(inner ? std::move(inner) : placeholder(r));
      return e;
    }
    ExprP e = make(Expr::Tuple, r);
    exprList(items, e->operands);
    return e;
  }
  if (auto *c = dynamic_cast<P::RepeatPrimaryContext *>(ctx))
    return binary(c, ";", c->expr(0), c->expr(1), Expr::ArrayRepeat);
  if (auto *c = dynamic_cast<P::ArrayPrimaryContext *>(ctx)) {
    ExprP e = make(Expr::Array, r);
    exprList(c->expr(), e->operands);
    return e;
  }
  if (auto *c = dynamic_cast<P::BlockLikePrimaryContext *>(ctx)) return blockLike(c->blockLikeExpr());
  return nullptr;
}

ExprP AstBuilder::macro(P::MacroPrimaryContext *ctx) { return macro(range(ctx), ctx->simplePath(), ctx->macroArgs()); }

ExprP AstBuilder::macro(Range r, P::SimplePathContext *path, antlr4::ParserRuleContext *args) {
  ExprP e = make(Expr::Macro, r);
  e->macro = std::make_unique<MacroCall>();
  MacroCall &m = *e->macro;
  m.name = simplePath(path).str();
  if (!args) return e;
  antlr4::Token *open = args->getStart();
  antlr4::Token *close = args->getStop();
  if (open && open->getType() != antlr4::Token::EOF) m.delimiter = open->getText()[0];
  if (open && close && close->getTokenIndex() > open->getTokenIndex())
    m.rawText = between(src_.rangeOf(open).End, src_.rangeOf(close).Start);
  if (auto *x = dynamic_cast<P::ExprMacroArgsContext *>(args)) {
    exprList(x->expr(), m.args);
    m.argsParsed = true;
  } else if (auto *x = dynamic_cast<P::ExprBraceMacroArgsContext *>(args)) {
    exprList(x->expr(), m.args);
    m.argsParsed = true;
  } else if (auto *x = dynamic_cast<P::RepeatMacroArgsContext *>(args)) {
    exprList(x->expr(), m.args);
    m.repeat = true;
    m.argsParsed = true;
  }
  if (m.name == "m") error(e->range, "write mapping expressions as 'm![...]'");
  return e;
}

ExprP AstBuilder::blockLike(P::BlockLikeExprContext *ctx) {
  if (!ctx) return nullptr;
  Range r = range(ctx);
  auto blockE = [&](P::BlockContext *b) {
    ExprP e = make(Expr::BlockE, r);
    e->block = block(b);
    return e;
  };
  auto labelOf = [&](P::LabelContext *l) { return l ? text(l->LIFETIME()) : std::string(); };
  if (auto *c = dynamic_cast<P::BlockExprContext *>(ctx)) return blockE(c->block());
  if (auto *c = dynamic_cast<P::UnsafeBlockExprContext *>(ctx)) {
    ExprP e = blockE(c->block());
    e->isUnsafe = true;
    return e;
  }
  if (auto *c = dynamic_cast<P::AsyncBlockExprContext *>(ctx)) {
    ExprP e = blockE(c->block());
    e->isAsync = true;
    e->isMove = c->MOVE() != nullptr;
    return e;
  }
  if (auto *c = dynamic_cast<P::ConstBlockExprContext *>(ctx)) return blockE(c->block());
  if (auto *c = dynamic_cast<P::IfLikeExprContext *>(ctx)) return ifExpr(c->ifExpr());
  if (auto *c = dynamic_cast<P::LoopExprContext *>(ctx)) {
    ExprP e = make(Expr::Loop, r);
    e->label = labelOf(c->label());
    e->block = block(c->block());
    return e;
  }
  if (auto *c = dynamic_cast<P::WhileExprContext *>(ctx)) {
    ExprP e = make(Expr::While, r);
    e->label = labelOf(c->label());
    condition(c->condExpr(), *e);
    e->block = block(c->block());
    return e;
  }
  if (auto *c = dynamic_cast<P::ForExprContext *>(ctx)) {
    ExprP e = make(Expr::For, r);
    e->label = labelOf(c->label());
    e->pattern = pattern(c->pattern());
    condition(c->condExpr(), *e);
    e->block = block(c->block());
    return e;
  }
  if (auto *c = dynamic_cast<P::MatchExprContext *>(ctx)) {
    ExprP e = make(Expr::Match, r);
    condition(c->condExpr(), *e);
    if (P::MatchArmsContext *arms = c->matchArms()) {
      for (P::MatchArmContext *a : arms->matchArm()) {
        Expr::Arm arm;
        arm.range = range(a);
        arm.pattern = pattern(a->pattern());
        std::vector<P::ExprContext *> xs = a->expr();
        if (a->IF() && !xs.empty()) {
          arm.guard = expr(xs[0]);
          xs.erase(xs.begin());
        }
        arm.body = xs.empty() ? placeholder(arm.range) : expr(xs[0]);
        if (!arm.body) arm.body = placeholder(arm.range);
        e->arms.push_back(std::move(arm));
      }
      checkClosed(arms->RBRACE(), arms, "{");
    }
    return e;
  }
  return nullptr;
}

ExprP AstBuilder::ifExpr(P::IfExprContext *ctx) {
  if (!ctx) return nullptr;
  ExprP e = make(Expr::If, range(ctx));
  condition(ctx->condExpr(), *e);
  std::vector<P::BlockContext *> blocks = ctx->block();
  if (!blocks.empty()) e->block = block(blocks[0]);
  if (blocks.size() > 1) {
    e->elseExpr = make(Expr::BlockE, range(blocks[1]));
    e->elseExpr->block = block(blocks[1]);
  } else if (P::IfExprContext *elif = ctx->ifExpr()) {
    e->elseExpr = ifExpr(elif);
  }
  return e;
}

void AstBuilder::condition(P::CondExprContext *ctx, Expr &out) {
  if (!ctx) {
    out.operands.push_back(placeholder(out.range));
    return;
  }
  if (ctx->LET()) out.pattern = pattern(ctx->pattern());
  ExprP c = expr(ctx->expr());
  out.operands.push_back(c ? std::move(c) : placeholder(range(ctx)));
}

}  // namespace tcp

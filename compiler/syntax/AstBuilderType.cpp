// AstBuilderType.cpp — AST building for types, paths (type, expression, qualified) and generic arguments.
#include "AstBuilder.h"

namespace tcp {

using namespace ast;
using P = parser::TcpParser;

namespace {

TypeP make(Type::Kind kind, Range r) {
  auto t = std::make_unique<Type>();
  t->kind = kind;
  t->range = r;
  return t;
}

}  // namespace

TypeP AstBuilder::type(P::Type_Context *ctx) {
  if (!ctx) return nullptr;
  Range r = range(ctx);
  if (auto *c = dynamic_cast<P::PathTypeContext *>(ctx)) {
    TypeP t = make(Type::PathT, r);
    t->path = typePath(c->typePath());
    return t;
  }
  if (auto *c = dynamic_cast<P::QualifiedPathTypeContext *>(ctx)) {
    TypeP t = make(Type::PathT, r);
    t->path = qualifiedPath(c->qualifiedPath());
    return t;
  }
  if (auto *c = dynamic_cast<P::RefTypeContext *>(ctx)) {
    TypeP t = make(Type::Ref, r);
    t->lifetime = text(c->LIFETIME());
    t->mut = c->MUT() != nullptr;
    if (TypeP inner = type(c->type_())) t->elems.push_back(std::move(inner));
    return t;
  }
  if (auto *c = dynamic_cast<P::RefRefTypeContext *>(ctx)) {
    TypeP inner = make(Type::Ref, r);
    inner->lifetime = text(c->LIFETIME());
    inner->mut = c->MUT() != nullptr;
    if (TypeP x = type(c->type_())) inner->elems.push_back(std::move(x));
    TypeP t = make(Type::Ref, r);
    t->elems.push_back(std::move(inner));
    return t;
  }
  if (auto *c = dynamic_cast<P::PtrTypeContext *>(ctx)) {
    TypeP t = make(Type::Ptr, r);
    t->mut = c->MUT() != nullptr;
    if (TypeP inner = type(c->type_())) t->elems.push_back(std::move(inner));
    return t;
  }
  if (dynamic_cast<P::UnitTypeContext *>(ctx)) return make(Type::Tuple, r);
  if (auto *c = dynamic_cast<P::ParenTypeContext *>(ctx)) return type(c->type_());
  if (auto *c = dynamic_cast<P::TupleTypeContext *>(ctx)) {
    TypeP t = make(Type::Tuple, r);
    for (P::Type_Context *e : c->type_())
      if (TypeP x = type(e)) t->elems.push_back(std::move(x));
    return t;
  }
  if (auto *c = dynamic_cast<P::ArrayTypeContext *>(ctx)) {
    TypeP t = make(Type::Array, r);
    if (TypeP x = type(c->type_())) t->elems.push_back(std::move(x));
    t->arrayLen = expr(c->expr());
    return t;
  }
  if (auto *c = dynamic_cast<P::SliceTypeContext *>(ctx)) {
    TypeP t = make(Type::Slice, r);
    if (TypeP x = type(c->type_())) t->elems.push_back(std::move(x));
    return t;
  }
  if (auto *c = dynamic_cast<P::MappingTypeContext *>(ctx)) {
    TypeP t = make(Type::Mapping, r);
    t->mapping = mapExpr(c->mapExpr());
    if (!t->mapping && !ctx->exception) error(r, "expected a mapping expression inside 'm![...]'");
    checkClosed(c->RBRACK(), c, "[");
    return t;
  }
  if (dynamic_cast<P::InferTypeContext *>(ctx)) return make(Type::Infer, r);
  if (dynamic_cast<P::NeverTypeContext *>(ctx)) return make(Type::Never, r);
  auto traitType = [&](Type::Kind kind, P::TypeBoundsContext *b) {
    TypeP t = make(kind, r);
    std::vector<TypeP> bs = bounds(b);
    if (!bs.empty()) t->path = std::move(bs[0]->path);
    return t;
  };
  if (auto *c = dynamic_cast<P::ImplTraitTypeContext *>(ctx)) return traitType(Type::ImplTrait, c->typeBounds());
  if (auto *c = dynamic_cast<P::DynTraitTypeContext *>(ctx)) return traitType(Type::DynTrait, c->typeBounds());
  if (auto *c = dynamic_cast<P::FnPtrTypeContext *>(ctx)) {
    TypeP t = make(Type::FnPtr, r);
    std::vector<P::Type_Context *> ts = c->type_();
    size_t nParams = ts.size() - (c->RARROW() && !ts.empty() ? 1 : 0);
    for (size_t i = 0; i < nParams; ++i)
      if (TypeP x = type(ts[i])) t->elems.push_back(std::move(x));
    if (c->RARROW() && !ts.empty()) t->ret = type(ts.back());
    return t;
  }
  return nullptr;
}

TypeP AstBuilder::castType(P::CastTypeContext *ctx) {
  if (!ctx) return nullptr;
  Range r = range(ctx);
  if (auto *c = dynamic_cast<P::PathCastTypeContext *>(ctx)) {
    TypeP t = make(Type::PathT, r);
    t->path.range = r;
    t->path.global = ctx->getStart() && ctx->getStart()->getType() == P::PATHSEP;
    for (P::CastSegmentContext *s : c->castSegment()) {
      PathSegment seg;
      seg.name = text(s->pathIdent());
      seg.range = range(s);
      genericArgs(s->genericArgs(), seg);
      t->path.segments.push_back(std::move(seg));
    }
    return t;
  }
  if (auto *c = dynamic_cast<P::RefCastTypeContext *>(ctx)) {
    TypeP t = make(Type::Ref, r);
    t->mut = c->MUT() != nullptr;
    if (TypeP inner = castType(c->castType())) t->elems.push_back(std::move(inner));
    return t;
  }
  if (auto *c = dynamic_cast<P::PtrCastTypeContext *>(ctx)) {
    TypeP t = make(Type::Ptr, r);
    t->mut = c->MUT() != nullptr;
    if (TypeP inner = castType(c->castType())) t->elems.push_back(std::move(inner));
    return t;
  }
  if (auto *c = dynamic_cast<P::TupleCastTypeContext *>(ctx)) {
    std::vector<P::Type_Context *> ts = c->type_();
    if (ts.size() == 1 && c->COMMA().empty()) return type(ts[0]);
    TypeP t = make(Type::Tuple, r);
    for (P::Type_Context *e : ts)
      if (TypeP x = type(e)) t->elems.push_back(std::move(x));
    return t;
  }
  if (auto *c = dynamic_cast<P::MappingCastTypeContext *>(ctx)) {
    TypeP t = make(Type::Mapping, r);
    t->mapping = mapExpr(c->mapExpr());
    return t;
  }
  if (dynamic_cast<P::InferCastTypeContext *>(ctx)) return make(Type::Infer, r);
  return nullptr;
}

Path AstBuilder::typePath(P::TypePathContext *ctx) {
  Path p;
  if (!ctx) return p;
  p.range = range(ctx);
  p.global = ctx->getStart() && ctx->getStart()->getType() == P::PATHSEP;
  for (P::TypePathSegmentContext *s : ctx->typePathSegment()) {
    PathSegment seg;
    seg.name = text(s->pathIdent());
    seg.range = range(s);
    if (s->genericArgs()) {
      genericArgs(s->genericArgs(), seg);
    } else if (s->LPAREN()) {  // `Fn(A, B) -> C`: inputs as type arguments, the output as a binding
      seg.hasGenerics = true;
      std::vector<P::Type_Context *> ts = s->type_();
      size_t nParams = ts.size() - (s->RARROW() && !ts.empty() ? 1 : 0);
      for (size_t i = 0; i < ts.size(); ++i) {
        GenericArg a;
        a.range = range(ts[i]);
        a.type = type(ts[i]);
        a.kind = i < nParams ? GenericArg::TypeArg : GenericArg::Binding;
        if (a.kind == GenericArg::Binding) a.name = "Output";
        seg.generics.push_back(std::move(a));
      }
    }
    p.segments.push_back(std::move(seg));
  }
  return p;
}

Path AstBuilder::pathExpr(P::PathExprContext *ctx) {
  Path p;
  if (!ctx) return p;
  p.range = range(ctx);
  p.global = ctx->getStart() && ctx->getStart()->getType() == P::PATHSEP;
  exprSegments(ctx->pathExprSegment(), p);
  return p;
}

void AstBuilder::exprSegments(const std::vector<P::PathExprSegmentContext *> &segments, Path &p) {
  for (P::PathExprSegmentContext *s : segments) {
    PathSegment seg;
    seg.name = text(s->pathIdent());
    seg.range = range(s);
    genericArgs(s->genericArgs(), seg);
    p.segments.push_back(std::move(seg));
  }
}

Path AstBuilder::qualifiedPath(P::QualifiedPathContext *ctx) {
  Path p;
  if (!ctx) return p;
  p.range = range(ctx);
  p.qualifiedSelf = type(ctx->type_());
  exprSegments(ctx->pathExprSegment(), p);
  return p;
}

Path AstBuilder::simplePath(P::SimplePathContext *ctx) {
  Path p;
  if (!ctx) return p;
  p.range = range(ctx);
  p.global = ctx->getStart() && ctx->getStart()->getType() == P::PATHSEP;
  for (P::PathIdentContext *id : ctx->pathIdent()) {
    PathSegment seg;
    seg.name = text(id);
    seg.range = range(id);
    p.segments.push_back(std::move(seg));
  }
  return p;
}

void AstBuilder::genericArgs(P::GenericArgsContext *ctx, PathSegment &seg) {
  if (!ctx) return;
  seg.hasGenerics = true;
  for (P::GenericArgContext *a : ctx->genericArg()) seg.generics.push_back(genericArg(a));
}

GenericArg AstBuilder::genericArg(P::GenericArgContext *ctx) {
  GenericArg a;
  a.kind = GenericArg::TypeArg;
  a.range = range(ctx);
  if (auto *c = dynamic_cast<P::LifetimeArgContext *>(ctx)) {
    a.kind = GenericArg::Lifetime;
    a.name = text(c->LIFETIME());
  } else if (auto *c = dynamic_cast<P::BindingArgContext *>(ctx)) {
    a.kind = GenericArg::Binding;
    a.name = text(c->IDENT());
    a.type = type(c->type_());
  } else if (auto *c = dynamic_cast<P::TypeArgContext *>(ctx)) {
    a.type = type(c->type_());
  } else if (auto *c = dynamic_cast<P::BlockConstArgContext *>(ctx)) {
    a.kind = GenericArg::ConstArg;
    a.expr = std::make_unique<Expr>();
    a.expr->kind = Expr::BlockE;
    a.expr->range = a.range;
    a.expr->block = block(c->block());
  } else if (auto *c = dynamic_cast<P::LiteralConstArgContext *>(ctx)) {
    a.kind = GenericArg::ConstArg;
    a.expr = literal(c->literal(), c->MINUS() != nullptr);
    if (a.expr && c->MINUS()) a.expr->range = a.range;
  }
  return a;
}

}  // namespace tcp

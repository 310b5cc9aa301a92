// AstBuilderPattern.cpp — AST building for patterns (let, params, closures, for loops, match arms).
#include "AstBuilder.h"

#include <cctype>

namespace tcp {

using namespace ast;
using P = parser::TcpParser;

namespace {

PatternP make(Pattern::Kind kind, Range r) {
  auto p = std::make_unique<Pattern>();
  p->kind = kind;
  p->range = r;
  return p;
}

}  // namespace

PatternP AstBuilder::pattern(P::PatternContext *ctx) {
  if (!ctx) return nullptr;
  std::vector<P::PatternNoTopContext *> alts = ctx->patternNoTop();
  if (alts.size() == 1) return patternNoTop(alts[0]);
  PatternP p = make(Pattern::Or, range(ctx));
  for (P::PatternNoTopContext *a : alts)
    if (PatternP x = patternNoTop(a)) p->elems.push_back(std::move(x));
  return p;
}

PatternP AstBuilder::patternNoTop(P::PatternNoTopContext *ctx) {
  if (!ctx) return nullptr;
  Range r = range(ctx);
  auto list = [&](Pattern &out, const std::vector<P::PatternContext *> &in) {
    for (P::PatternContext *x : in)
      if (PatternP e = pattern(x)) out.elems.push_back(std::move(e));
  };
  auto rangeEnd = [&](P::PatternRangeEndContext *e) -> ExprP {
    if (!e) return nullptr;
    if (e->literal()) {
      ExprP x = literal(e->literal(), e->MINUS() != nullptr);
      if (x) x->range = range(e);
      return x;
    }
    auto x = std::make_unique<Expr>();
    x->kind = Expr::PathE;
    x->range = range(e);
    x->path = pathExpr(e->pathExpr());
    return x;
  };
  if (auto *c = dynamic_cast<P::RangePatternContext *>(ctx)) {
    PatternP p = make(Pattern::RangeP, r);
    p->literal = rangeEnd(c->patternRangeEnd(0));
    p->rangeHi = rangeEnd(c->patternRangeEnd(1));
    return p;
  }
  if (auto *c = dynamic_cast<P::LiteralPatternContext *>(ctx)) {
    PatternP p = make(Pattern::Literal, r);
    p->literal = literal(c->literal(), c->MINUS() != nullptr);
    if (p->literal) p->literal->range = r;
    return p;
  }
  if (dynamic_cast<P::WildcardPatternContext *>(ctx)) return make(Pattern::Wildcard, r);
  if (dynamic_cast<P::RestPatternContext *>(ctx)) return make(Pattern::Rest, r);
  if (auto *c = dynamic_cast<P::RefPatternContext *>(ctx)) {
    PatternP p = make(Pattern::Ref, r);
    p->mut = c->MUT() != nullptr;
    if (PatternP x = patternNoTop(c->patternNoTop())) p->elems.push_back(std::move(x));
    if (c->ANDAND()) {  // `&&p`
      PatternP outer = make(Pattern::Ref, r);
      outer->elems.push_back(std::move(p));
      return outer;
    }
    return p;
  }
  if (auto *c = dynamic_cast<P::TuplePatternContext *>(ctx)) {
    PatternP p = make(Pattern::Tuple, r);
    list(*p, c->pattern());
    return p;
  }
  if (auto *c = dynamic_cast<P::SlicePatternContext *>(ctx)) {
    PatternP p = make(Pattern::SliceP, r);
    list(*p, c->pattern());
    return p;
  }
  if (auto *c = dynamic_cast<P::TupleStructPatternContext *>(ctx)) {
    PatternP p = make(Pattern::TupleStruct, r);
    p->path = pathExpr(c->pathExpr());
    list(*p, c->pattern());
    return p;
  }
  if (auto *c = dynamic_cast<P::StructPatternContext *>(ctx)) {
    PatternP p = make(Pattern::StructP, r);
    p->path = pathExpr(c->pathExpr());
    p->hasRest = c->DOTDOT() != nullptr;
    for (P::FieldPatternContext *f : c->fieldPattern()) {
      p->fieldNames.push_back(text(f->IDENT()));
      if (f->pattern()) {
        p->elems.push_back(pattern(f->pattern()));
      } else {  // shorthand `x`, `ref mut x`
        PatternP x = make(Pattern::Ident, range(f));
        x->name = text(f->IDENT());
        x->mut = f->MUT() != nullptr;
        x->byRef = f->REF() != nullptr;
        p->elems.push_back(std::move(x));
      }
    }
    return p;
  }
  if (auto *c = dynamic_cast<P::IdentPatternContext *>(ctx)) {
    std::string name = text(c->IDENT());
    bool plain = !c->REF() && !c->MUT() && !c->AT();
    // A lone capitalised name (`None`, `Unconditional`) names a constant or variant, not a binding.
    if (plain && !name.empty() && std::isupper(static_cast<unsigned char>(name[0]))) {
      PatternP p = make(Pattern::PathP, r);
      PathSegment seg;
      seg.name = name;
      seg.range = r;
      p->path.segments.push_back(std::move(seg));
      p->path.range = r;
      return p;
    }
    PatternP p = make(Pattern::Ident, r);
    p->name = name;
    p->mut = c->MUT() != nullptr;
    p->byRef = c->REF() != nullptr;
    if (PatternP sub = patternNoTop(c->patternNoTop())) p->elems.push_back(std::move(sub));
    return p;
  }
  if (auto *c = dynamic_cast<P::PathPatternContext *>(ctx)) {
    PatternP p = make(Pattern::PathP, r);
    p->path = pathExpr(c->pathExpr());
    return p;
  }
  if (auto *c = dynamic_cast<P::QualifiedPathPatternContext *>(ctx)) {
    PatternP p = make(Pattern::PathP, r);
    p->path = qualifiedPath(c->qualifiedPath());
    return p;
  }
  return nullptr;
}

}  // namespace tcp

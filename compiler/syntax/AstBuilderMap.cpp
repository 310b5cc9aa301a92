// AstBuilderMap.cpp — AST building for mapping expressions `m![...]`: pairs, concatenation, postfix operators.
#include "AstBuilder.h"
#include "Literals.h"
#include "Parser.h"

#include <algorithm>

namespace tcp {

using namespace ast;
using P = parser::TcpParser;

namespace {

MapExprP make(MapExpr::Kind kind, Range r) {
  auto m = std::make_unique<MapExpr>();
  m->kind = kind;
  m->range = r;
  return m;
}

ExprP intExpr(uint64_t v, Range r, const std::string &spelling) {
  auto e = std::make_unique<Expr>();
  e->kind = Expr::IntLit;
  e->range = r;
  e->intValue = v;
  e->text = spelling;
  return e;
}

// The depth of a node from its children's.
void setDepth(MapExpr &m) {
  for (const MapExprP &c : m.children)
    if (c) m.depth = std::max(m.depth, c->depth + 1);
}

// Marks an integer atom other than 1 (`2` in `2#`) while it is still an Identity.
constexpr const char *kBareNumber = "<number>";

const char *opName(size_t type) {
  switch (type) {
    case P::SLASH: return "/";
    case P::PERCENT: return "%";
    case P::POUND: return "#";
    case P::EQ: return "=";
    default: return "@";
  }
}

}  // namespace

MapExprP AstBuilder::mapExpr(P::MapExprContext *ctx) {
  if (!ctx) return nullptr;
  std::vector<MapExprP> parts;
  for (P::MapConcatContext *c : ctx->mapConcat())
    if (MapExprP m = mapConcat(c)) parts.push_back(std::move(m));
  if (parts.empty()) return nullptr;
  if (parts.size() == 1) return std::move(parts[0]);
  MapExprP pair = make(MapExpr::Pair, range(ctx));
  pair->children = std::move(parts);
  setDepth(*pair);
  return pair;
}

// `a + b + ...` and `a * b * ...`: the operands' node of `kind`, or the single operand as it is.
MapExprP AstBuilder::naryMap(MapExpr::Kind kind, std::vector<MapExprP> parts, antlr4::ParserRuleContext *ctx,
                             const std::vector<antlr4::tree::TerminalNode *> &ops, const char *op) {
  if (parts.empty()) return nullptr;
  if (parts.size() == 1 && ops.empty()) return std::move(parts[0]);
  MapExprP node = make(kind, range(ctx));
  node->children = std::move(parts);
  setDepth(*node);
  if (ops.size() >= node->children.size() && !ctx->exception)
    error(range(ops.back()), std::string("expected a mapping expression after '") + op + "'");
  return node;
}

MapExprP AstBuilder::mapConcat(P::MapConcatContext *ctx) {
  if (!ctx) return nullptr;
  std::vector<MapExprP> parts;
  for (P::MapOuterContext *c : ctx->mapOuter())
    if (MapExprP m = mapOuter(c)) parts.push_back(std::move(m));
  return naryMap(MapExpr::Concat, std::move(parts), ctx, ctx->PLUS(), "+");
}

MapExprP AstBuilder::mapOuter(P::MapOuterContext *ctx) {
  if (!ctx) return nullptr;
  std::vector<MapExprP> parts;
  for (P::MapPostfixContext *c : ctx->mapPostfix())
    if (MapExprP m = mapPostfix(c)) parts.push_back(std::move(m));
  return naryMap(MapExpr::OuterSum, std::move(parts), ctx, ctx->STAR(), "*");
}

MapExprP AstBuilder::mapPostfix(P::MapPostfixContext *ctx) {
  if (!ctx) return nullptr;
  MapExprP m = mapSuffixes(mapAtom(ctx->mapAtom()), ctx->mapSuffix());
  if (m) finishNumber(*m);
  return m;
}

// An integer atom stays an Identity carrying its value until its suffixes are known: `n#` makes it
// a Dummy; otherwise only `1` (the identity) is a mapping.
void AstBuilder::finishNumber(MapExpr &m) {
  if (m.kind != MapExpr::Identity || !m.amount) return;
  if (m.name == kBareNumber) {
    const std::string &n = m.amount->text;
    error(m.range, "the number " + n + " is not a mapping: write 1 (identity), '" + n + "#' or '# " + n +
                       "' (unused positions), or '" + n + "z' (zeros)");
  }
  m.name.clear();
  m.amount.reset();
}

MapExprP AstBuilder::mapSuffixes(MapExprP base, const std::vector<P::MapSuffixContext *> &suffixes) {
  for (P::MapSuffixContext *s : suffixes) {
    if (!base || !s->op) return base;
    size_t op = s->op->getType();
    Range r = {base->range.Start, range(s).End};
    if (!s->mapSize()) {
      if (op == P::POUND && base->kind == MapExpr::Identity && base->amount) {  // `n#`
        base->kind = MapExpr::Dummy;
        base->name.clear();
        base->range = r;
        continue;
      }
      if (!s->exception)
        error(range(s), std::string("expected a mapping expression after '") + opName(op) +
                            "': a size such as 8, X::SIZE or (N * 2)");
      continue;
    }
    finishNumber(*base);
    MapExpr::Kind kind = op == P::SLASH     ? MapExpr::Stride
                         : op == P::PERCENT ? MapExpr::Modulo
                         : op == P::POUND   ? MapExpr::Pad
                         : op == P::EQ      ? MapExpr::Resize
                                            : MapExpr::Offset;
    // Every walk of a mapping recurses through its tree: a chain of operators is as deep as it is long.
    if (base->depth >= kMaxMappingDepth) {
      error(r, "mapping expression nested deeper than " + std::to_string(kMaxMappingDepth) +
                   " levels (operators applied in a row or nested groups); split it with a type alias");
      return base;
    }
    MapExprP m = make(kind, r);
    m->children.push_back(std::move(base));
    m->amount = mapSize(s->mapSize());
    setDepth(*m);
    base = std::move(m);
  }
  return base;
}

MapExprP AstBuilder::mapAtom(P::MapAtomContext *ctx) {
  if (!ctx) return nullptr;
  Range r = range(ctx);
  if (auto *c = dynamic_cast<P::MapSymbolContext *>(ctx)) {
    MapExprP m = make(MapExpr::Symbol, r);
    m->name = c->IDENT() ? text(c->IDENT()) : text(c->PRIMED_IDENT());
    return m;
  }
  if (auto *c = dynamic_cast<P::MapLiteralContext *>(ctx)) {
    IntLiteral lit = decodeInt(text(c->INT_LIT()));
    MapExprP m = make(MapExpr::Identity, r);
    m->amount = intExpr(lit.value, r, lit.digits);
    if (lit.suffix == "z") {  // `nz`: n positions filled with zeros
      m->kind = MapExpr::Dummy;
      m->zero = true;
    } else if (!lit.suffix.empty() || !lit.valid || lit.overflow) {
      error(r, "'" + text(c->INT_LIT()) + "' is not a mapping: write 1, 'n#' or 'nz'");
    } else if (lit.value != 1) {
      m->name = kBareNumber;
    }
    return m;
  }
  if (auto *c = dynamic_cast<P::MapDummyContext *>(ctx)) {
    MapExprP m = make(MapExpr::Dummy, r);
    m->amount = mapSize(c->mapSize());
    return m;
  }
  if (auto *c = dynamic_cast<P::MapEscapeContext *>(ctx)) {
    MapExprP m = make(MapExpr::Escape, r);
    m->name = typePath(c->typePath()).str();
    return m;
  }
  if (auto *c = dynamic_cast<P::MapGroupContext *>(ctx)) {
    MapExprP m = mapExpr(c->mapExpr());
    if (!m) return nullptr;
    if (m->kind == MapExpr::Pair) m->grouped = true;
    m->range = r;
    return m;
  }
  if (auto *c = dynamic_cast<P::MapParenContext *>(ctx)) {
    MapExprP m = mapExpr(c->mapExpr());
    if (m) m->range = r;
    return m;
  }
  if (auto *c = dynamic_cast<P::MapLinCombContext *>(ctx)) {
    MapExprP m = make(MapExpr::LinComb, r);
    for (P::LinTermContext *t : c->linTerm()) {
      MapExprP child = mapPostfix(t->mapPostfix());
      if (!child) continue;
      ExprP stride;
      if (t->COLON()) {
        stride = mapSize(t->mapSize());
        child = mapSuffixes(std::move(child), t->mapSuffix());
      }
      m->children.push_back(std::move(child));
      m->strides.push_back(std::move(stride));
    }
    setDepth(*m);
    return m;
  }
  return nullptr;
}

ExprP AstBuilder::mapSize(P::MapSizeContext *ctx) {
  if (!ctx) return nullptr;
  Range r = range(ctx);
  if (auto *c = dynamic_cast<P::SizeLiteralContext *>(ctx)) {
    IntLiteral lit = decodeInt(text(c->INT_LIT()));
    if (!lit.suffix.empty() && !isIntSuffix(lit.suffix))
      error(r, "invalid suffix '" + lit.suffix + "' on a mapping size");
    if (lit.overflow) error(r, "mapping size '" + text(c->INT_LIT()) + "' does not fit in 64 bits");
    ExprP e = intExpr(lit.value, r, lit.digits);
    e->suffix = lit.suffix;
    e->intOverflow = lit.overflow;
    return e;
  }
  if (auto *c = dynamic_cast<P::SizePathContext *>(ctx)) {
    auto e = std::make_unique<Expr>();
    e->kind = Expr::PathE;
    e->range = r;
    e->path = pathExpr(c->pathExpr());
    return e;
  }
  if (auto *c = dynamic_cast<P::SizeQualifiedContext *>(ctx)) {
    auto e = std::make_unique<Expr>();
    e->kind = Expr::PathE;
    e->range = r;
    e->path = qualifiedPath(c->qualifiedPath());
    return e;
  }
  if (auto *c = dynamic_cast<P::SizeParenContext *>(ctx)) {
    auto e = std::make_unique<Expr>();
    e->kind = Expr::Paren;
    e->range = r;
    ExprP inner = expr(c->expr());
    e->operands.push_back(inner ? std::move(inner) : placeholder(r));
    return e;
  }
  if (auto *c = dynamic_cast<P::SizeBlockContext *>(ctx)) return expr(c->expr());
  return nullptr;
}

}  // namespace tcp

// AstBuilder.cpp — AST building for files, items, attributes and generic parameters (plus shared helpers).
#include "AstBuilder.h"

#include "TokenPrep.h"

#include <algorithm>

namespace tcp {

using namespace ast;
using P = parser::TcpParser;

// ------------------------------------------------------------------------------------ helpers

Range AstBuilder::range(antlr4::ParserRuleContext *ctx) const {
  if (!ctx || !ctx->getStart()) return {};
  antlr4::Token *stop = ctx->getStop();
  // An empty context (an optional rule that matched nothing) has its stop before its start.
  if (!stop || stop->getTokenIndex() < ctx->getStart()->getTokenIndex()) {
    Range r = src_.rangeOf(ctx->getStart());
    return {r.Start, r.Start};
  }
  return src_.rangeOf(ctx->getStart(), stop);
}

Range AstBuilder::range(antlr4::tree::TerminalNode *node) const {
  return node ? src_.rangeOf(node->getSymbol()) : Range();
}

std::string AstBuilder::text(antlr4::ParserRuleContext *ctx) const {
  Range r = range(ctx);
  if (!r.isValid()) return {};
  return between(r.Start, r.End);
}

std::string AstBuilder::text(antlr4::tree::TerminalNode *node) const {
  return node ? src_.textOf(node->getSymbol()).str() : std::string();
}

std::string AstBuilder::between(llvm::SMLoc from, llvm::SMLoc to) {
  if (!from.isValid() || !to.isValid() || to.getPointer() < from.getPointer()) return {};
  return std::string(from.getPointer(), to.getPointer());
}

void AstBuilder::error(Range r, const std::string &msg) { diags_.error(r, msg); }

bool AstBuilder::hasSyntaxError(antlr4::ParserRuleContext *ctx) const {
  if (!ctx || !ctx->getStart()) return false;
  size_t first = ctx->getStart()->getTokenIndex();
  size_t last = ctx->getStop() ? ctx->getStop()->getTokenIndex() + 1 : first;
  auto it = std::lower_bound(errorTokens_.begin(), errorTokens_.end(), first);
  return it != errorTokens_.end() && *it <= last;
}

// Reports a closing bracket ANTLR let go missing at end of file (the grammar allows it for excerpts).
void AstBuilder::checkClosed(antlr4::tree::TerminalNode *closer, antlr4::ParserRuleContext *ctx, const char *what) {
  if (closer || eofErrorReported_ || !ctx || ctx->exception) return;
  error(range(ctx->getStart()), std::string("unbalanced '") + what + "': the file ends before its closing '" +
                                    (what[0] == '{' ? "}" : what[0] == '(' ? ")" : "]") + "'");
}

// ------------------------------------------------------------------------------------ files

std::unique_ptr<Program> AstBuilder::program(P::ProgramContext *ctx) {
  auto prog = std::make_unique<Program>();
  if (!ctx) return prog;
  innerAttrs(ctx->innerAttr(), prog->innerAttrs);
  for (P::ItemContext *it : ctx->item())
    if (ItemP item = this->item(it)) prog->items.push_back(std::move(item));
  return prog;
}

std::vector<StmtP> AstBuilder::repl(P::ReplInputContext *ctx) {
  std::vector<StmtP> out;
  if (!ctx) return out;
  std::vector<Attribute> ignored;
  innerAttrs(ctx->innerAttr(), ignored);
  quiet_ = hasSyntaxError(ctx);
  stmts(ctx->stmt(), ctx->tailExpr(), out);
  return out;
}

// ------------------------------------------------------------------------------------ attributes

Attribute AstBuilder::attribute(P::AttrBodyContext *body, bool inner, Range r) {
  Attribute a;
  a.inner = inner;
  a.range = r;
  if (!body) return a;
  a.name = simplePath(body->simplePath()).str();
  a.rawText = text(body);
  P::AttrInputContext *in = body->attrInput();
  if (!in) return a;
  if (P::AttrArgsContext *args = in->attrArgs()) {
    for (P::AttrArgContext *arg : args->attrArg()) {
      if (arg->EQ()) {
        a.args.emplace_back(text(arg->pathIdent()), expr(arg->expr()));
      } else if (ExprP e = expr(arg->expr())) {
        if (e->kind == Expr::PathE)
          a.args.emplace_back(e->path.str(), nullptr);
        else
          a.args.emplace_back(std::string(), std::move(e));
      }
    }
  } else if (in->EQ()) {
    a.args.emplace_back("=", expr(in->expr()));
  }
  return a;
}

std::vector<Attribute> AstBuilder::outerAttrs(const std::vector<P::OuterAttrContext *> &attrs) {
  std::vector<Attribute> out;
  for (P::OuterAttrContext *a : attrs) out.push_back(attribute(a->attrBody(), false, range(a)));
  return out;
}

void AstBuilder::innerAttrs(const std::vector<P::InnerAttrContext *> &attrs, std::vector<Attribute> &out) {
  for (P::InnerAttrContext *a : attrs) out.push_back(attribute(a->attrBody(), true, range(a)));
}

// ------------------------------------------------------------------------------------ items

ItemP AstBuilder::item(P::ItemContext *ctx) {
  if (auto *reg = dynamic_cast<P::RegularItemContext *>(ctx))
    return itemKind(reg->outerAttr(), reg->visibility(), reg->itemKind(), range(ctx));
  auto *mac = dynamic_cast<P::MacroInvocationItemContext *>(ctx);
  if (!mac || !mac->macroItem()) return nullptr;
  auto item = std::make_unique<Item>();
  item->kind = Item::MacroItem;
  item->range = range(ctx);
  item->attrs = outerAttrs(mac->outerAttr());
  P::MacroItemContext *m = mac->macroItem();
  item->macro = std::make_unique<MacroCall>();
  item->macro->name = simplePath(m->simplePath()).str();
  item->name = item->macro->name;
  antlr4::tree::TerminalNode *open = m->LBRACE() ? m->LBRACE() : m->LPAREN() ? m->LPAREN() : m->LBRACK();
  antlr4::tree::TerminalNode *close = m->RBRACE() ? m->RBRACE() : m->RPAREN() ? m->RPAREN() : m->RBRACK();
  if (open) item->macro->delimiter = text(open)[0];
  if (open && close)
    item->macro->rawText = between(range(open).End, range(close).Start);
  return item;
}

ItemP AstBuilder::itemKind(std::vector<P::OuterAttrContext *> attrs, P::VisibilityContext *vis,
                           P::ItemKindContext *kind, Range r) {
  if (!kind) return nullptr;
  auto item = std::make_unique<Item>();
  item->range = r;
  item->attrs = outerAttrs(attrs);
  item->isPub = vis != nullptr;
  auto skipped = [&](const char *keyword) {
    item->kind = Item::Skipped;
    item->name = keyword;
  };
  if (auto *c = kind->axesItem()) {
    axes(c, *item);
  } else if (auto *c = kind->typeAlias()) {
    typeAlias(c, *item);
  } else if (auto *c = kind->fnItem()) {
    fnItem(c, *item);
  } else if (auto *c = kind->useItem()) {
    useItem(c, *item);
  } else if (auto *c = kind->externCrate()) {
    item->kind = Item::ExternCrate;
    item->name = !c->IDENT().empty() ? text(c->IDENT(0)) : "self";
  } else if (auto *c = kind->constItem()) {
    item->kind = Item::Const;
    item->name = c->IDENT() ? text(c->IDENT()) : "_";
    item->type = type(c->type_());
    item->value = expr(c->expr());
  } else if (auto *c = kind->staticItem()) {
    item->kind = Item::Const;
    item->name = text(c->IDENT());
    item->type = type(c->type_());
    item->value = expr(c->expr());
  } else if (kind->implItem() || kind->headerlessImpl()) {
    skipped("impl");
  } else if (auto *c = kind->structItem()) {
    skipped("struct");
    if (c->IDENT()) item->declName = text(c->IDENT());
  } else if (auto *c = kind->enumItem()) {
    skipped("enum");
    if (c->IDENT()) item->declName = text(c->IDENT());
  } else if (auto *c = kind->traitItem()) {
    skipped("trait");
    if (c->IDENT()) item->declName = text(c->IDENT());
  } else if (kind->macroRulesItem()) {
    skipped("macro_rules");
  } else if (auto *c = kind->modItem()) {
    if (c->SEMI() && c->IDENT()) {
      item->kind = Item::Mod;
      item->name = text(c->IDENT());
    } else {
      skipped("mod");
    }
  } else {
    return nullptr;
  }
  return item;
}

void AstBuilder::axes(P::AxesItemContext *ctx, Item &out) {
  out.kind = Item::Axes;
  out.name = "axes";
  for (P::AxisDeclContext *d : ctx->axisDecl()) {
    AxisDecl decl;
    decl.range = range(d);
    std::vector<P::AxisNameContext *> names = d->axisName();
    if (names.empty()) continue;
    decl.name = text(names[0]);
    if (d->MINUS() && names.size() == 3) {  // `B' = B - A`
      decl.skewBase = text(names[1]);
      decl.skewBy = text(names[2]);
    } else if (d->mapConcat()) {  // `B' = # 2 + B + # 4`
      decl.padded = mapConcat(d->mapConcat());
    } else {
      decl.size = expr(d->expr());
    }
    out.axes.push_back(std::move(decl));
  }
  checkClosed(ctx->RBRACK(), ctx, "[");
}

void AstBuilder::typeAlias(P::TypeAliasContext *ctx, Item &out) {
  out.kind = Item::TypeAlias;
  out.name = text(ctx->IDENT());
  genericParams(ctx->genericParams(), out.generics);
  out.type = type(ctx->type_());
  if (!ctx->type_() && !ctx->exception)
    error(range(ctx->IDENT()), "type alias '" + out.name + "' needs a definition: 'type " + out.name + " = ...;'");
}

void AstBuilder::fnItem(P::FnItemContext *ctx, Item &out) {
  out.kind = Item::Fn;
  out.name = text(ctx->pathIdent());
  if (P::FnQualifiersContext *q = ctx->fnQualifiers()) {
    out.isConst = q->CONST() != nullptr;
    out.isAsync = q->ASYNC() != nullptr;
    out.isUnsafe = q->UNSAFE() != nullptr;
  }
  P::FnBodyContext *body = ctx->fnBody();
  P::BlockContext *blk = body ? body->block() : nullptr;
  bool missing = body && body->SEMI() && isSyntheticSemi(body->SEMI()->getSymbol());
  bool truncated = blk && !blk->RBRACE() && !blk->exception;
  // Library excerpts: a `pub fn` whose body the renderer hid (or cut off), or one with a `where`
  // clause (the library's trait-bounded API; kernels and stage functions never have one),
  // documents the library.
  if (out.isPub && (missing || truncated || ctx->whereClause())) {
    out.kind = Item::Skipped;
    out.name = "fn";
    return;
  }
  genericParams(ctx->genericParams(), out.generics);
  if (P::FnParamsContext *ps = ctx->fnParams())
    for (P::FnParamContext *p : ps->fnParam()) param(p, out);
  out.ret = type(ctx->type_());
  bool wasQuiet = quiet_;
  quiet_ = quiet_ || hasSyntaxError(ctx);
  out.body = block(blk);
  quiet_ = wasQuiet;
}

void AstBuilder::param(P::FnParamContext *ctx, Item &out) {
  Param p;
  p.range = range(ctx);
  if (auto *s = dynamic_cast<P::SelfFnParamContext *>(ctx)) {
    P::SelfParamContext *sp = s->selfParam();
    p.isSelf = true;
    if (sp) {
      p.selfRef = sp->AND() != nullptr;
      p.selfMut = sp->MUT() != nullptr;
      p.type = type(sp->type_());
    }
  } else if (auto *t = dynamic_cast<P::TypedFnParamContext *>(ctx)) {
    p.pattern = pattern(t->pattern());
    p.type = type(t->type_());
  } else if (auto *a = dynamic_cast<P::AnonFnParamContext *>(ctx)) {
    p.type = type(a->type_());
  }
  out.params.push_back(std::move(p));
}

void AstBuilder::useItem(P::UseItemContext *ctx, Item &out) {
  out.kind = Item::Use;
  std::string path;
  for (char c : text(ctx->useTree()))
    if (c != ' ' && c != '\t' && c != '\n' && c != '\r') path += c;
  out.usePath = path;
  out.name = path;
  useTree(ctx->useTree(), {}, {}, out.uses);
}

void AstBuilder::useTree(P::UseTreeContext *ctx, std::vector<std::string> prefix, std::vector<Range> ranges,
                         std::vector<UseEntry> &out) {
  if (!ctx) return;
  if (P::SimplePathContext *sp = ctx->simplePath())
    for (P::PathIdentContext *id : sp->pathIdent()) {
      prefix.push_back(text(id));
      ranges.push_back(range(id));
    }
  if (ctx->STAR() || ctx->LBRACE()) {
    if (ctx->STAR()) {
      UseEntry e;
      e.path = prefix;
      e.segmentRanges = ranges;
      e.glob = true;
      e.range = range(ctx);
      out.push_back(std::move(e));
    }
    for (P::UseTreeContext *child : ctx->useTree()) useTree(child, prefix, ranges, out);
    return;
  }
  UseEntry e;
  e.path = std::move(prefix);
  e.segmentRanges = std::move(ranges);
  e.range = range(ctx);
  if (ctx->AS()) e.rename = ctx->IDENT() ? text(ctx->IDENT()) : "_";
  out.push_back(std::move(e));
}

// ------------------------------------------------------------------------------------ generics

void AstBuilder::genericParams(P::GenericParamsContext *ctx, std::vector<GenericParam> &out) {
  if (!ctx) return;
  for (P::GenericParamContext *g : ctx->genericParam()) {
    GenericParam p;
    p.range = range(g);
    if (auto *l = dynamic_cast<P::LifetimeParamContext *>(g)) {
      p.kind = GenericParam::LifetimeP;
      p.name = text(l->LIFETIME());
    } else if (auto *c = dynamic_cast<P::ConstParamContext *>(g)) {
      p.kind = GenericParam::ConstP;
      p.name = text(c->IDENT());
      p.constType = type(c->type_());
      if (P::GenericArgContext *d = c->genericArg()) {
        GenericArg arg = genericArg(d);
        p.defaultValue = std::move(arg.expr);
      }
    } else if (auto *t = dynamic_cast<P::TypeParamContext *>(g)) {
      p.kind = GenericParam::TypeP_;
      p.name = text(t->IDENT());
      p.bounds = bounds(t->typeBounds());
    } else {
      continue;
    }
    out.push_back(std::move(p));
  }
}

std::vector<TypeP> AstBuilder::bounds(P::TypeBoundsContext *ctx) {
  std::vector<TypeP> out;
  if (!ctx) return out;
  for (P::TypeBoundContext *b : ctx->typeBound()) {
    if (!b->typePath()) continue;  // lifetime bounds carry nothing the tools use
    auto t = std::make_unique<Type>();
    t->kind = Type::PathT;
    t->range = range(b);
    t->path = typePath(b->typePath());
    out.push_back(std::move(t));
  }
  return out;
}

}  // namespace tcp

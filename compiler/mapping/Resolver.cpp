// Resolver.cpp — hoists items, declares axes/aliases/functions and walks the program checking mappings.
#include "Resolver.h"

#include <algorithm>

namespace tcp {

void Resolver::collectItems(const ast::Block &block, std::vector<const ast::Item *> &out) {
  for (const auto &s : block.stmts) {
    if (s->kind != ast::Stmt::ItemS || !s->item) continue;
    out.push_back(s->item.get());
    if (s->item->kind == ast::Item::Fn && s->item->body) collectItems(*s->item->body, out);
  }
}

void Resolver::resolveProgram(const ast::Program &program) {
  std::vector<const ast::Item *> items;
  for (const auto &it : program.items) {
    items.push_back(it.get());
    if (it->kind == ast::Item::Fn && it->body) collectItems(*it->body, items);
  }
  // `const` items first (a size may name one: `m![1 # NUM_CHIPS]`), then axes (their sizes may use
  // earlier axes' `X::SIZE`), then every other name.
  checkInnerAttributes(program.innerAttrs);
  for (const ast::Item *it : items)
    if (it->kind == ast::Item::Const) declareItem(*it);
  for (const ast::Item *it : items)
    if (it->kind == ast::Item::Axes) {
      checkAttributes(*it, nullptr);
      declareAxes(*it);
    }
  for (const ast::Item *it : items)
    if (it->kind != ast::Item::Axes && it->kind != ast::Item::Const) declareItem(*it);
  for (const ast::Item *it : items) checkItem(*it);
}

void Resolver::declareAxes(const ast::Item &item) {
  for (const ast::AxisDecl &d : item.axes) {
    if (const AxisInfo *prev = syms_.axes.find(d.name)) {
      (void)prev;
      diags_.error(d.range, "duplicate axis `" + d.name + "`: it is already declared");
      auto r = syms_.axisRanges.find(d.name);
      if (r != syms_.axisRanges.end()) diags_.note(r->second, "`" + d.name + "` first declared here");
      continue;
    }
    AxisInfo info;
    info.name = d.name;
    if (!d.skewBase.empty()) {
      const AxisInfo *base = syms_.axes.find(d.skewBase);
      const AxisInfo *by = syms_.axes.find(d.skewBy);
      if (!base || !by) {
        diags_.error(d.range, "skewed axis `" + d.name + "` refers to undeclared axis `" +
                                  (!base ? d.skewBase : d.skewBy) + "`; declare it before `" + d.name + "`");
        continue;
      }
      info.size = base->size;
      info.skewBase = d.skewBase;
      info.skewBy = d.skewBy;
    } else if (d.padded) {
      if (!paddedAxis(d, info)) continue;
    } else {
      if (!d.size) continue;
      auto v = evalConst(*d.size);
      if (!v) continue;
      if (*v == 0) {
        diags_.error(d.size->range, "axis `" + d.name + "` has size 0; axis sizes must be positive");
        continue;
      }
      info.size = *v;
    }
    syms_.axes.add(info);
    syms_.axisRanges[d.name] = d.range;
  }
}

void Resolver::declareItem(const ast::Item &item) {
  if (item.kind != ast::Item::Fn) checkAttributes(item, nullptr);  // a function's: with its FnInfo below
  switch (item.kind) {
    case ast::Item::Axes:
      declareAxes(item);
      break;
    case ast::Item::TypeAlias: {
      auto it = syms_.aliases.find(item.name);
      if (it != syms_.aliases.end()) {
        // The REPL may redefine an alias; in a file it is an error.
        diags_.error(item.range, "duplicate type alias `" + item.name + "`");
        diags_.note(it->second.item->range, "`" + item.name + "` first defined here");
        break;
      }
      AliasInfo info;
      info.item = &item;
      syms_.aliases[item.name] = info;
      syms_.aliasOrder.push_back(item.name);
      break;
    }
    case ast::Item::Fn: {
      FnInfo f;
      f.item = &item;
      checkAttributes(item, &f);
      if (syms_.fns.count(item.name) && item.name != "main") {
        diags_.error(item.range, "duplicate function `" + item.name + "`");
        diags_.note(syms_.fns[item.name].item->range, "`" + item.name + "` first defined here");
        break;
      }
      if (!syms_.fns.count(item.name)) syms_.fnOrder.push_back(item.name);
      syms_.fns[item.name] = f;
      break;
    }
    case ast::Item::Skipped:
      if (!item.declName.empty()) syms_.declaredTypes.insert(item.declName);
      break;
    case ast::Item::MacroItem:  // nothing would expand it: refused rather than skipped
      diags_.error(item.range, "unknown item macro `" + item.name +
                                   "!`: the one item macro is `axes![...]` (host code calls macros such as `println!` "
                                   "inside functions)");
      break;
    case ast::Item::Const:
      if (!syms_.consts.count(item.name)) syms_.consts[item.name] = &item;
      break;
    default:
      break;
  }
}

bool Resolver::isGeneric(const std::string &name) const {
  return std::find(generics_.begin(), generics_.end(), name) != generics_.end();
}

void Resolver::pushGenerics(const std::vector<ast::GenericParam> &params) {
  for (const auto &g : params) generics_.push_back(g.name);
}

void Resolver::popGenerics(size_t n) { generics_.resize(generics_.size() - n); }

void Resolver::checkItem(const ast::Item &item) {
  switch (item.kind) {
    case ast::Item::TypeAlias:
      if (!item.generics.empty()) {
        pushGenerics(item.generics);
        if (item.type) checkType(*item.type);
        popGenerics(item.generics.size());
      } else {
        aliasMapping(item.name, item.range, /*report=*/false);
        // Non-mapping aliases (tensor types) still have mappings inside to check.
        if (item.type && item.type->kind != ast::Type::Mapping) checkType(*item.type);
      }
      break;
    case ast::Item::Fn: {
      pushGenerics(item.generics);
      for (const auto &g : item.generics) {
        if (g.constType) checkType(*g.constType);
      }
      for (const auto &p : item.params)
        if (p.type) checkType(*p.type);
      if (item.ret) checkType(*item.ret);
      if (item.body) checkBlock(*item.body);
      popGenerics(item.generics.size());
      break;
    }
    case ast::Item::Const:
      if (item.type) checkType(*item.type);
      if (item.value) checkExpr(*item.value);
      break;
    default:
      break;
  }
}

void Resolver::checkType(const ast::Type &t) {
  if (t.kind == ast::Type::Mapping) {
    if (t.mapping) {
      opaque_ = false;
      lowerMapping(*t.mapping);
      opaque_ = false;
    }
    return;
  }
  if (t.kind == ast::Type::PathT || t.kind == ast::Type::ImplTrait || t.kind == ast::Type::DynTrait)
    checkPath(t.path);
  for (const auto &e : t.elems)
    if (e) checkType(*e);
  if (t.arrayLen) checkExpr(*t.arrayLen);
  if (t.ret) checkType(*t.ret);
}

void Resolver::checkGenericArgs(const std::vector<ast::GenericArg> &args) {
  for (const auto &a : args) {
    if (a.type) checkType(*a.type);
    if (a.expr) checkExpr(*a.expr);
  }
}

void Resolver::checkPath(const ast::Path &p) {
  if (p.qualifiedSelf) checkType(*p.qualifiedSelf);
  for (const auto &s : p.segments) checkGenericArgs(s.generics);
}

void Resolver::checkBlock(const ast::Block &b) {
  checkInnerAttributes(b.innerAttrs);
  for (const auto &s : b.stmts) checkStmt(*s);
}

void Resolver::checkPattern(const ast::Pattern &p) {
  for (const auto &e : p.elems)
    if (e) checkPattern(*e);
  if (p.literal) checkExpr(*p.literal);
}

void Resolver::checkStmt(const ast::Stmt &s) {
  switch (s.kind) {
    case ast::Stmt::Let:
      if (s.pattern) checkPattern(*s.pattern);
      if (s.type) checkType(*s.type);
      if (s.init) checkExpr(*s.init);
      if (s.elseBlock) checkBlock(*s.elseBlock);
      break;
    case ast::Stmt::ExprS:
      if (s.init) checkExpr(*s.init);
      break;
    default:
      break;  // items were checked when hoisted
  }
}

void Resolver::checkExpr(const ast::Expr &e) {
  using K = ast::Expr::Kind;
  if (e.kind == K::PathE || e.kind == K::StructLit || e.kind == K::MethodCall) checkPath(e.path);
  for (const auto &o : e.operands)
    if (o) checkExpr(*o);
  if (e.type) checkType(*e.type);
  for (const auto &f : e.fields)
    if (f.value) checkExpr(*f.value);
  for (const auto &p : e.params) {
    if (p.pattern) checkPattern(*p.pattern);
    if (p.type) checkType(*p.type);
  }
  if (e.closureRet) checkType(*e.closureRet);
  if (e.block) checkBlock(*e.block);
  if (e.elseExpr) checkExpr(*e.elseExpr);
  if (e.pattern) checkPattern(*e.pattern);
  for (const auto &arm : e.arms) {
    if (arm.pattern) checkPattern(*arm.pattern);
    if (arm.guard) checkExpr(*arm.guard);
    if (arm.body) checkExpr(*arm.body);
  }
  if (e.macro) {
    for (const auto &a : e.macro->args)
      if (a) checkExpr(*a);
    for (const auto &[key, value] : e.macro->indexEntries) {
      if (key) {
        opaque_ = false;
        lowerMapping(*key);
      }
      if (value) checkExpr(*value);
    }
    if (e.macro->mapping) {
      opaque_ = false;
      lowerMapping(*e.macro->mapping);
    }
  }
}

}  // namespace tcp

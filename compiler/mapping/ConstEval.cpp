// ConstEval.cpp — folds the constant size expressions used in axes![...] and m![...] operands.
#include "Resolver.h"

#include <algorithm>

namespace tcp {

namespace {
bool mulOverflow(uint64_t a, uint64_t b, uint64_t *r) { return __builtin_mul_overflow(a, b, r); }
bool addOverflow(uint64_t a, uint64_t b, uint64_t *r) { return __builtin_add_overflow(a, b, r); }
}  // namespace

std::optional<uint64_t> Resolver::evalConst(const ast::Expr &e) {
  using K = ast::Expr::Kind;
  switch (e.kind) {
    case K::IntLit:
      if (e.intOverflow) {
        diags_.error(e.range, "integer literal `" + e.text + "` does not fit in 64 bits");
        return std::nullopt;
      }
      return e.intValue;
    case K::Paren:
      return evalConst(*e.operands[0]);
    case K::BlockE:
      // `{ N }` const-generic blocks: a single tail expression.
      if (e.block && e.block->stmts.size() == 1 && e.block->stmts[0]->kind == ast::Stmt::ExprS &&
          e.block->stmts[0]->init)
        return evalConst(*e.block->stmts[0]->init);
      break;
    case K::PathE: {
      const ast::Path &p = e.path;
      // `<m![...]>::SIZE`
      if (p.qualifiedSelf && p.segments.size() == 1 && p.segments[0].name == "SIZE") {
        MappingRef m = mappingOfType(*p.qualifiedSelf);
        if (m) return m->size();
        if (!opaque_) diags_.error(e.range, "`<...>::SIZE` needs a mapping type");
        return std::nullopt;
      }
      // `X::SIZE` where X is an axis or a mapping alias
      if (!p.qualifiedSelf && p.segments.size() == 2 && p.segments[1].name == "SIZE") {
        const std::string &n = p.segments[0].name;
        if (const AxisInfo *a = syms_.axes.find(n)) return a->size;
        if (syms_.aliases.count(n)) {
          MappingRef m = aliasMapping(n, e.range, /*report=*/true);
          if (m) return m->size();
          return std::nullopt;
        }
        if (isGeneric(n)) {
          opaque_ = true;
          return std::nullopt;
        }
        diags_.error(p.segments[0].range, "unknown axis or alias `" + n + "` in `" + n + "::SIZE`");
        return std::nullopt;
      }
      if (p.segments.size() == 1 && isGeneric(p.segments[0].name)) {
        opaque_ = true;
        return std::nullopt;
      }
      // a `const` item: `const NUM_CHIPS: usize = 4;` makes `m![1 # NUM_CHIPS]` a size (manual "Size Constraint")
      if (!p.qualifiedSelf && p.segments.size() == 1) {
        const std::string &n = p.segments[0].name;
        auto c = syms_.consts.find(n);
        if (c != syms_.consts.end() && c->second->value) {
          if (std::find(constsInProgress_.begin(), constsInProgress_.end(), n) != constsInProgress_.end()) {
            diags_.error(e.range, "the constant `" + n + "` is defined in terms of itself");
            return std::nullopt;
          }
          constsInProgress_.push_back(n);
          std::optional<uint64_t> v = evalConst(*c->second->value);
          constsInProgress_.pop_back();
          return v;
        }
      }
      break;
    }
    case K::Unary:
      if (e.text == "-") {
        diags_.error(e.range, "a size must be a non-negative integer");
        return std::nullopt;
      }
      break;
    case K::Binary: {
      auto l = evalConst(*e.operands[0]);
      auto r = evalConst(*e.operands[1]);
      if (!l || !r) return std::nullopt;
      uint64_t out = 0;
      const std::string &op = e.text;
      bool overflow = false;
      if (op == "+") overflow = addOverflow(*l, *r, &out);
      else if (op == "*") overflow = mulOverflow(*l, *r, &out);
      else if (op == "-") {
        if (*r > *l) {
          diags_.error(e.range, "size expression `" + std::to_string(*l) + " - " + std::to_string(*r) +
                                    "` is negative");
          return std::nullopt;
        }
        out = *l - *r;
      } else if (op == "/" || op == "%") {
        if (*r == 0) {
          diags_.error(e.range, "division by zero in a size expression");
          return std::nullopt;
        }
        out = op == "/" ? *l / *r : *l % *r;
      } else if (op == "<<") {
        overflow = *r >= 64 || (*l >> (63 - *r)) > 1 || ((*l << *r) >> *r) != *l;
        out = overflow ? 0 : *l << *r;
      } else if (op == ">>") {
        out = *r >= 64 ? 0 : *l >> *r;
      } else {
        break;
      }
      if (overflow) {
        diags_.error(e.range, "size expression overflows 64 bits");
        return std::nullopt;
      }
      return out;
    }
    default:
      break;
  }
  diags_.error(e.range, "expected a constant size (an integer, `X::SIZE` or arithmetic on them)");
  return std::nullopt;
}

}  // namespace tcp

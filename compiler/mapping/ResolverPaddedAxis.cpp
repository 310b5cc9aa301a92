// ResolverPaddedAxis.cpp — declares a padded (derived) axis `B' = # 2 + B + # 4` from its concatenation.
#include "Resolver.h"

namespace tcp {

namespace {
std::string quoted(const std::string &s) { return "`" + s + "`"; }
const char *kShape = "; a padded axis is `# left + Axis + # right` (either pad optional, e.g. `B' = # 2 + B + # 4`)";
}  // namespace

bool Resolver::paddedAxis(const ast::AxisDecl &d, AxisInfo &info) {
  const ast::MapExpr &m = *d.padded;
  std::vector<const ast::MapExpr *> parts;
  if (m.kind == ast::MapExpr::Concat) {
    for (const ast::MapExprP &c : m.children)
      if (c) parts.push_back(c.get());
  } else {
    parts.push_back(&m);
  }
  const ast::MapExpr *base = nullptr;
  uint64_t left = 0, right = 0;
  bool ok = true;
  for (const ast::MapExpr *p : parts) {
    if (p->kind == ast::MapExpr::Symbol) {
      if (base) {
        diags_.error(p->range, "padded axis " + quoted(d.name) + " pads two axes (" + quoted(base->name) + " and " +
                                   quoted(p->name) + ")" + kShape);
        return false;
      }
      base = p;
      continue;
    }
    if (p->kind != ast::MapExpr::Dummy || p->zero) {
      diags_.error(p->range, "padded axis " + quoted(d.name) + ": this part is neither an axis nor padding `# n`" + kShape);
      ok = false;
      continue;
    }
    std::optional<uint64_t> n = evalSizeOperand(*p);
    if (!n) {
      ok = false;
      continue;
    }
    (base ? right : left) += *n;
  }
  if (!ok) return false;
  if (!base) {
    diags_.error(m.range, "padded axis " + quoted(d.name) + " pads no axis" + kShape);
    return false;
  }
  if (base->name == d.name) {
    diags_.error(base->range, "padded axis " + quoted(d.name) + " is defined in terms of itself");
    return false;
  }
  const AxisInfo *b = syms_.axes.find(base->name);
  if (!b) {
    diags_.error(base->range, "padded axis " + quoted(d.name) + " refers to undeclared axis " + quoted(base->name) +
                                  "; declare it before " + quoted(d.name));
    return false;
  }
  if (!b->skewBase.empty()) {
    diags_.error(base->range, "padded axis " + quoted(d.name) + " pads the skewed axis " + quoted(b->name) +
                                  "; pad a declared axis");
    return false;
  }
  AxisInfo plain = *b;
  if (!plain.padBase.empty()) {  // `C' = # 1 + B'` with `B' = # 2 + B`: C' = # 3 + B
    left += plain.padLeft;
    right += plain.padRight;
    plain.name = plain.padBase;
    plain.size = plain.padBaseSize;
  }
  if (left > UINT64_MAX / 4 || right > UINT64_MAX / 4 || plain.size > UINT64_MAX / 4) {
    diags_.error(m.range, "padded axis " + quoted(d.name) + " is too large");
    return false;
  }
  info.padBase = plain.name;
  info.padBaseSize = plain.size;
  info.padLeft = left;
  info.padRight = right;
  info.size = left + plain.size + right;
  return true;
}

}  // namespace tcp

// MappingLowering.cpp — turns m![...] syntax into checked Mapping values, with located diagnostics.
#include "Resolver.h"
#include "Suggest.h"

#include <llvm/ADT/StringExtras.h>

namespace tcp {

namespace {
std::string quoted(const std::string &s) { return "`" + s + "`"; }

// The closest declared axis to `name` (edit distance ≤ 2), for "did you mean" hints.
std::string closestAxis(const AxisTable &axes, const std::string &name) {
  std::vector<std::string> names;
  for (const AxisInfo &a : axes.all()) names.push_back(a.name);
  return nearestName(name, names);
}
}  // namespace

std::optional<uint64_t> Resolver::evalSizeOperand(const ast::MapExpr &m) {
  if (!m.amount) return std::nullopt;
  return evalConst(*m.amount);
}

MappingRef Resolver::lowerSymbol(const ast::MapExpr &m) {
  if (syms_.axes.find(m.name)) {
    std::string err;
    MappingRef r = Mapping::symbol(syms_.axes, m.name, &err);
    if (!r) diags_.error(m.range, err);
    return r;
  }
  if (isGeneric(m.name)) {
    opaque_ = true;
    return nullptr;
  }
  if (syms_.aliases.count(m.name)) {
    diags_.error(m.range, "`" + m.name + "` is a type alias, not an axis; escape it as `{ " + m.name +
                              " }` to use its mapping");
    return nullptr;
  }
  std::string msg = "unknown axis " + quoted(m.name);
  if (syms_.axes.all().empty()) {
    msg += "; no axes are declared (declare it with `axes![" + m.name + " = <size>]`)";
  } else {
    std::string near = closestAxis(syms_.axes, m.name);
    if (!near.empty())
      msg += "; did you mean " + quoted(near) + "?";
    else
      msg += "; declare it in `axes![...]`";
  }
  diags_.error(m.range, msg);
  return nullptr;
}

MappingRef Resolver::lowerEscape(const ast::MapExpr &m) {
  if (isGeneric(m.name)) {
    opaque_ = true;
    return nullptr;
  }
  if (!syms_.aliases.count(m.name)) {
    if (syms_.axes.find(m.name)) {
      diags_.error(m.range, "`{ " + m.name + " }` escapes a type alias, but " + quoted(m.name) +
                                " is an axis; write it without braces");
    } else {
      diags_.error(m.range, "unknown alias " + quoted(m.name) + " in escape `{ " + m.name + " }`");
    }
    return nullptr;
  }
  return aliasMapping(m.name, m.range, /*report=*/true);
}

bool Resolver::lowerAll(const std::vector<ast::MapExprP> &children, std::vector<MappingRef> &out) {
  bool ok = true;
  for (const auto &c : children) {
    MappingRef r = lowerMapping(*c);  // lower every part so that every error is reported
    ok = ok && r;
    out.push_back(r);
  }
  return ok;
}

MappingRef Resolver::lowerMapping(const ast::MapExpr &m) {
  using K = ast::MapExpr::Kind;
  std::string err;
  auto fail = [&](MappingRef r) {
    if (!r && !err.empty()) diags_.error(m.range, err);
    return r;
  };
  switch (m.kind) {
    case K::Symbol:
      return lowerSymbol(m);
    case K::Identity:
      return Mapping::identity();
    case K::Escape:
      return lowerEscape(m);
    case K::Pair: {
      std::vector<MappingRef> parts;
      if (!lowerAll(m.children, parts)) return nullptr;
      if (parts.empty()) return Mapping::identity();
      MappingRef acc = parts.back();
      for (size_t i = parts.size() - 1; i-- > 0 && acc;) acc = Mapping::pair(parts[i], acc, &err);
      return fail(acc);
    }
    case K::Concat: {
      std::vector<MappingRef> parts;
      if (!lowerAll(m.children, parts)) return nullptr;
      // A position in another part has the padded axis' coordinate 0, which is its left pad: every
      // element of that part would vanish (docs/language.md, padded axes).
      if (parts.size() > 1)
        for (const MappingRef &p : parts)
          for (const AxisInfo &a : p->axes())
            if (!a.padBase.empty() && a.padLeft > 0) {
              diags_.error(m.range, "the padded axis " + quoted(a.name) + " inside a concatenation is not supported yet: "
                                    "a position in another part has " + quoted(a.name) + " coordinate 0, its left pad "
                                    "(concatenate the base axis " + quoted(a.padBase) + " instead)");
              return nullptr;
            }
      return fail(Mapping::concat(std::move(parts), &err));
    }
    case K::LinComb: {
      std::vector<std::pair<MappingRef, uint64_t>> terms;
      bool ok = true;
      for (size_t i = 0; i < m.children.size(); ++i) {
        MappingRef r = lowerMapping(*m.children[i]);
        uint64_t stride = 1;
        if (i < m.strides.size() && m.strides[i]) {
          auto v = evalConst(*m.strides[i]);
          if (!v) ok = false;
          else stride = *v;
        }
        ok = ok && r;
        terms.emplace_back(r, stride);
      }
      if (!ok) return nullptr;
      return fail(Mapping::lincomb(std::move(terms), &err));
    }
    case K::OuterSum: {
      // "e1 * e2 is equivalent to $(e1 : size_S(e2), e2 : 1)" ("Linear combination"): with that stride a
      // position splits into (p / size(e2), p % size(e2)) one way only, which is the pair [e1, e2], so it is
      // lowered as the pair (n-ary: each stride is the product of the sizes after it) and the sequencers,
      // the normal form and equivalence treat it as one.
      std::vector<MappingRef> parts;
      if (!lowerAll(m.children, parts)) return nullptr;
      MappingRef acc = parts.back();
      for (size_t i = parts.size() - 1; i-- > 0 && acc;) acc = Mapping::pair(parts[i], acc, &err);
      return fail(acc);
    }
    case K::Dummy: {
      auto n = evalSizeOperand(m);
      if (!n) return nullptr;
      return Mapping::dummy(*n, m.zero);
    }
    case K::Pad:
    case K::Resize:
    case K::Stride:
    case K::Modulo:
    case K::Offset: {
      assert(!m.children.empty() && "postfix mapping operator without operand");
      MappingRef inner = lowerMapping(*m.children[0]);
      auto n = evalSizeOperand(m);
      if (!inner || !n) return nullptr;
      if (*n == 0 && m.kind != K::Offset && m.kind != K::Pad) {
        const char *what = m.kind == K::Stride ? "stride" : m.kind == K::Modulo ? "modulo" : "resize";
        diags_.error(m.amount ? m.amount->range : m.range,
                     std::string(what) + " by 0 in `" + inner->body() + "`; sizes must be positive");
        return nullptr;
      }
      switch (m.kind) {
        case K::Pad: return fail(Mapping::pad(inner, *n, &err));
        case K::Resize: return fail(Mapping::resize(inner, *n, &err));
        case K::Stride: return fail(Mapping::stride(inner, *n, &err));
        case K::Modulo: return fail(Mapping::modulo(inner, *n, &err));
        default: return fail(Mapping::offset(inner, *n, &err));
      }
    }
  }
  assert(false && "unhandled mapping kind");
  return nullptr;
}

MappingRef Resolver::aliasMapping(const std::string &name, llvm::SMRange useRange, bool report) {
  auto it = syms_.aliases.find(name);
  if (it == syms_.aliases.end()) return nullptr;
  AliasInfo &info = it->second;
  if (info.state == AliasInfo::Resolved) return info.mapping;
  if (info.state == AliasInfo::Resolving) {
    if (report)
      diags_.error(useRange, "type alias " + quoted(name) + " refers to itself through its own mapping");
    info.failed = true;
    return nullptr;
  }
  info.state = AliasInfo::Resolving;
  const ast::Item &item = *info.item;
  MappingRef result;
  if (item.type && item.generics.empty()) {
    std::vector<std::string> saved;
    saved.swap(generics_);
    bool savedOpaque = opaque_;
    opaque_ = false;
    unsigned before = diags_.errorCount();
    result = mappingOfType(*item.type);
    if (diags_.errorCount() != before) info.failed = true;
    opaque_ = savedOpaque;
    generics_.swap(saved);
  }
  info.mapping = result;
  info.state = AliasInfo::Resolved;
  if (!result && report && !info.failed)
    diags_.error(useRange, "type alias " + quoted(name) + " does not name a mapping `m![...]`");
  return result;
}

MappingRef Resolver::mappingOfType(const ast::Type &t) {
  if (t.kind == ast::Type::Mapping && t.mapping) return lowerMapping(*t.mapping);
  if (t.kind == ast::Type::PathT && t.path.segments.size() == 1 && !t.path.qualifiedSelf &&
      t.path.segments[0].generics.empty() && syms_.aliases.count(t.path.segments[0].name))
    return aliasMapping(t.path.segments[0].name, t.range, /*report=*/false);
  return nullptr;
}

}  // namespace tcp

// HostCheckTypes.cpp — host types from the AST: `let` annotations, parameter and result types of host functions.
#include "HostCheckInternal.h"

#include <algorithm>

namespace tcp {

HostType HostChecker::typeOf(const ast::Type &t, bool report) {
  using T = ast::Type;
  switch (t.kind) {
    case T::Ref:
    case T::Ptr:
      return !t.elems.empty() && t.elems[0] ? typeOf(*t.elems[0], report) : HostType();
    case T::Tuple: {
      if (t.elems.empty()) return HostType::of(HostType::Unit);
      HostType out = HostType::of(HostType::Tuple);
      for (const auto &e : t.elems) out.elems.push_back(e ? typeOf(*e, report) : HostType());
      return out;
    }
    case T::Array:
    case T::Slice: {
      HostType elem = !t.elems.empty() && t.elems[0] ? typeOf(*t.elems[0], report) : HostType();
      std::optional<uint64_t> n;
      if (t.arrayLen) n = resolver_.evalConst(*t.arrayLen);
      return HostType::vec(elem, n);
    }
    case T::Infer: return HostType();
    case T::Never: return HostType::of(HostType::Never);
    case T::FnPtr: return HostType::of(HostType::Closure);
    case T::ImplTrait:
    case T::DynTrait: {
      std::string n = t.path.segments.empty() ? "" : t.path.segments.back().name;
      if (n == "Fn" || n == "FnMut" || n == "FnOnce") return HostType::of(HostType::Closure);
      if (report) error(t.range, "`" + t.path.str() + "` trait types are not host types tcpi knows (closures are `impl Fn(...)`)");
      return HostType();
    }
    case T::Mapping: {
      HostType out = HostType::of(HostType::Mapping);
      out.mapping = resolver_.mappingOfType(t);
      return out;
    }
    case T::PathT: break;
  }
  if (t.path.segments.empty()) return HostType();
  const ast::PathSegment &seg = t.path.segments.back();
  const std::string &n = seg.name;
  auto arg = [&](size_t k) -> HostType {
    std::vector<const ast::GenericArg *> gs;
    for (const auto &g : seg.generics)
      if (g.kind == ast::GenericArg::TypeArg && g.type) gs.push_back(&g);
    return k < gs.size() ? typeOf(*gs[k]->type, report) : HostType();
  };
  static const std::set<std::string> kInts = {"i4", "i8", "i16", "i32", "i64", "i128", "isize",
                                              "u8", "u16", "u32", "u64", "u128", "usize"};
  static const std::set<std::string> kFloats = {"f32", "f64", "bf16", "f16", "f8e4m3", "f8e5m2"};
  if (t.path.segments.size() == 1 && std::find(generics_.begin(), generics_.end(), n) != generics_.end()) return HostType();
  if (kInts.count(n)) return HostType::of(HostType::Int);
  if (kFloats.count(n)) return HostType::of(HostType::Float);
  if (n == "bool") return HostType::of(HostType::Bool);
  if (n == "String" || n == "str" || n == "char") return HostType::of(HostType::Str);
  if (n == "Vec") return HostType::vec(arg(0));
  if (n == "Option") return HostType::option(arg(0));
  if (n == "Context") return HostType::of(HostType::Context);
  if (n == "SmallRng") return HostType::of(HostType::Rng);
  if (n == "LookupTable") {
    std::string err;
    auto lt = lookupTableTypeOf(t, &err);
    if (!lt && !err.empty() && report) error(t.range, err);
    HostType out = HostType::of(HostType::Table);
    if (lt) {
      out.table = *lt;
      out.tableKnown = true;
    }
    return out;
  }
  if (t.path.segments.size() == 1 && seg.generics.empty() && syms_.aliases.count(n)) {
    const AliasInfo &info = syms_.aliases.at(n);
    if (info.item && info.item->type && info.item->type->kind == ast::Type::Mapping) {
      HostType out = HostType::of(HostType::Mapping);
      out.mapping = resolver_.aliasMapping(n, t.range, false);
      return out;
    }
  }
  if (auto tt = types_.tensorTypeOf(t, report)) {
    if (tt->tier == Tier::Host) return HostType::hostTensor(tt->dtype, tt->element);
    if (tt->tier == Tier::Hbm)
      return tt->isView ? HostType::hbmView(tt->dtype, tt->chip, tt->element) : HostType::hbmTensor(tt->dtype, tt->chip, tt->element);
    if (report)
      error(t.range, "`" + t.path.str() + "` is a device tensor type: host code holds HostTensor and HbmTensor values "
                     "(the other tiers exist inside kernels)");
    return HostType();
  }
  if (n == "HostTensor") return HostType::of(HostType::HostTensor);
  if (n == "HbmTensor") return HostType::of(HostType::HbmTensor);
  if (t.path.segments.size() == 1 && syms_.aliases.count(n)) {
    const AliasInfo &info = syms_.aliases.at(n);
    if (info.item && info.item->type && info.item->generics.empty()) {
      if (aliasDepth_ > 32) return HostType();  // an alias cycle (reported where it is used as a mapping)
      ++aliasDepth_;
      HostType out = typeOf(*info.item->type, report);
      --aliasDepth_;
      return out;
    }
    return HostType();
  }
  if (report) {
    std::vector<std::string> names = {"i8", "i16", "i32", "i64", "u8", "u32", "u64", "usize", "f32", "f64", "bool",
                                      "String", "Vec", "Option", "Context", "SmallRng", "HostTensor", "HbmTensor",
                                      "LookupTable"};
    for (const std::string &a : syms_.aliasOrder) names.push_back(a);
    error(t.range, "unknown type `" + t.path.str() + "` in host code" + hint(n, names, false));
  }
  return HostType();
}

}  // namespace tcp

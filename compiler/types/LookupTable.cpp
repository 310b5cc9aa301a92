// LookupTable.cpp — `LookupTable<In, Out>` types: parsing from the AST, index types and entry counts.
#include "LookupTable.h"

namespace tcp {

std::string LookupTableType::str() const {
  return std::string("LookupTable<") + num::dtypeName(in) + ", " + num::dtypeName(out) + ">";
}

bool tableIndexType(num::DType d) {
  using num::DType;
  return d == DType::i4 || d == DType::i8 || d == DType::f8e4m3 || d == DType::f8e5m2;
}

uint64_t tableEntries(num::DType in) { return uint64_t(1) << num::storageBits(in); }

std::optional<LookupTableType> lookupTableTypeOfGenerics(const ast::PathSegment &seg, std::string *error) {
  std::vector<const ast::GenericArg *> gs;
  for (const auto &g : seg.generics)
    if (g.kind != ast::GenericArg::Lifetime) gs.push_back(&g);
  if (gs.empty()) return std::nullopt;
  std::optional<num::DType> d[2];
  for (size_t k = 0; k < gs.size() && k < 2; ++k) {
    const ast::Type *t = gs[k]->type.get();
    if (t && t->kind == ast::Type::PathT && t->path.segments.size() == 1) d[k] = num::parseDType(t->path.segments[0].name);
  }
  if (gs.size() != 2 || !d[0] || !d[1]) {
    *error = "`LookupTable<In, Out>` takes two element types: the type it is indexed by and the type of its entries "
             "(e.g. `LookupTable<i8, bf16>`)";
    return std::nullopt;
  }
  LookupTableType t{*d[0], *d[1]};
  if (!tableIndexType(t.in)) {
    *error = std::string("a LookupTable is indexed by a 4- or 8-bit type (i4, i8, f8e4m3, f8e5m2: 16 or 256 entries, one "
                         "per value); ") + num::dtypeName(t.in) + " would need " +
             (num::storageBits(t.in) >= 32 ? std::string("2^32") : std::to_string(tableEntries(t.in))) +
             " entries (the manual gives no table capacity; its table is indexed by i8)";
    return std::nullopt;
  }
  if (t.out == num::DType::i5 || t.out == num::DType::i9) {
    *error = std::string("the entries of a LookupTable are a storage type (i4, i8, i16, i32, f8e4m3, f8e5m2, bf16, f16, "
                         "f32), not the adapter-internal ") + num::dtypeName(t.out);
    return std::nullopt;
  }
  return t;
}

std::optional<LookupTableType> lookupTableTypeOf(const ast::Type &t, std::string *error) {
  const ast::Type *x = &t;
  while (x->kind == ast::Type::Ref && !x->elems.empty() && x->elems[0]) x = x->elems[0].get();
  if (x->kind != ast::Type::PathT || x->path.segments.empty() || x->path.segments.back().name != "LookupTable")
    return std::nullopt;
  const ast::PathSegment &seg = x->path.segments.back();
  auto r = lookupTableTypeOfGenerics(seg, error);
  if (!r && error->empty())
    *error = "`LookupTable<In, Out>` takes two element types: the type it is indexed by and the type of its entries "
             "(e.g. `LookupTable<i8, bf16>`)";
  return r;
}

}  // namespace tcp

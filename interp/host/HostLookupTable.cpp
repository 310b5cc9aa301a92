// HostLookupTable.cpp — host API of `LookupTable<In, Out>`: from_fn, from_vec, len, get, into_vec.
#include "HostRuntime.h"

#include "HostTensorOps.h"

namespace tcp::interp {

namespace {
// The In value whose bit pattern is k (i8: 0..127 then -128..-1).
Value indexValue(num::DType in, uint64_t k) { return elementValue(in, uint32_t(k)); }

std::string orderText(num::DType in) {
  uint64_t n = tableEntries(in);
  if (num::isInteger(in))
    return "in bit-pattern order: 0.." + std::to_string(n / 2 - 1) + " then -" + std::to_string(n / 2) + "..-1";
  return "in bit-pattern order of " + std::string(num::dtypeName(in));
}
}  // namespace

std::string LookupTableObj::debug() const {
  constexpr size_t kShown = 8;
  std::string s = data.type.str() + " [";
  for (size_t k = 0; k < data.entries.size() && k < kShown; ++k)
    s += (k ? ", " : "") + elementValue(data.type.out, data.entries[k]).debug();
  return s + ", ... (" + std::to_string(data.entries.size()) + " entries)]";
}

bool LookupTableObj::equals(const HostObject &o) const {
  auto *t = dynamic_cast<const LookupTableObj *>(&o);
  return t && t->data.type.in == data.type.in && t->data.type.out == data.type.out && t->data.entries == data.entries;
}

Value HostRuntime::lookupTableCall(const ast::Expr &e, const std::string &fn, const ast::Path &p) {
  // The type: `LookupTable::<In, Out>::fn` or the let annotation `let t: LookupTable<In, Out> = ...`.
  std::optional<LookupTableType> ty;
  std::string err;
  for (const auto &seg : p.segments)
    if (seg.name == "LookupTable" && !seg.generics.empty()) {
      ty = lookupTableTypeOfGenerics(seg, &err);
      if (!ty) fail(e.range, err);
    }
  if (!ty)
    if (const ast::Type *hint = ev_.expectedType(e)) {
      ty = lookupTableTypeOf(*hint, &err);
      if (!ty && !err.empty()) fail(hint->range, err);
    }
  if (!ty)
    fail(e.range, "cannot infer the table type of `LookupTable::" + fn + "`: write `LookupTable::<i8, i8>::" + fn +
                      "(...)` or annotate the `let` with `LookupTable<In, Out>`");
  auto a = args(e, 1);
  if (a.size() != 1)
    fail(e.range, "`LookupTable::" + fn + "` takes 1 argument, found " + std::to_string(a.size()));
  auto obj = std::make_shared<LookupTableObj>();
  obj->data.type = *ty;
  const uint64_t n = tableEntries(ty->in);
  std::vector<uint32_t> &entries = obj->data.entries;
  entries.assign(n, 0);
  const ast::Expr &site = *e.operands[1];
  if (fn == "from_fn") {
    // One call per entry, in index (bit-pattern) order, with the In value as argument.
    for (uint64_t k = 0; k < n; ++k) {
      Value x = indexValue(ty->in, k);
      Value v = callClosure(a[0], {x}, site);
      try {
        entries[k] = elementBits(ty->out, v);
      } catch (const HostError &e2) {
        std::string hint = num::isInteger(ty->out) && v.kind == Value::Int
                               ? std::string(" (wrap it with `as ") + num::dtypeName(ty->out) + "` or clamp it)" : "";
        fail(site.range, "the entry for " + x.debug() + " (index " + std::to_string(k) + "): " + e2.message + hint);
      }
    }
    return Value::object(obj);
  }
  if (fn == "from_vec") {
    if (a[0].kind != Value::Array) fail(site.range, std::string("expected a vec![...], found ") + a[0].kindName());
    if (a[0].elems.size() != n)
      fail(site.range, "a " + ty->str() + " has " + std::to_string(n) + " entries, one per " + num::dtypeName(ty->in) +
                           " value " + orderText(ty->in) + "; the vector has " + std::to_string(a[0].elems.size()) +
                           " values");
    for (uint64_t k = 0; k < n; ++k) {
      try {
        entries[k] = elementBits(ty->out, a[0].elems[k]);
      } catch (const HostError &e2) {
        fail(site.range, "entry " + std::to_string(k) + " (for " + indexValue(ty->in, k).debug() + "): " + e2.message);
      }
    }
    return Value::object(obj);
  }
  fail(e.range, "`LookupTable::" + fn + "` is not part of tcpi's host API (from_fn, from_vec)");
}

Value HostRuntime::lookupTableMethod(const ast::Expr &e, const std::string &method, const std::shared_ptr<LookupTableObj> &t) {
  size_t argc = e.operands.size() - 1;
  const LookupTableData &d = t->data;
  if (method == "len" && argc == 0) return Value::integer(static_cast<int64_t>(d.entries.size()));
  if (method == "clone" && argc == 0) return Value::object(t);
  if ((method == "into_vec" || method == "to_vec") && argc == 0) {
    Value v;
    v.kind = Value::Array;
    for (uint32_t b : d.entries) v.elems.push_back(elementValue(d.type.out, b));
    return v;
  }
  if (method == "get" && argc == 1) {
    // The entry for an In value (what the Fetch Adapter outputs for it).
    Value x = ev_.eval(*e.operands[1]);
    uint32_t bits;
    try {
      bits = elementBits(d.type.in, x);
    } catch (const HostError &err) {
      fail(e.operands[1]->range, err.message);
    }
    return elementValue(d.type.out, d.entries[tableIndex(d.type.in, bits)]);
  }
  fail(e.range, "no method `" + method + "` on LookupTable in tcpi's host API (get(x), len(), into_vec())");
}

}  // namespace tcp::interp

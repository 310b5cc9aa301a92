// HostValueType.cpp — the static host type of a runtime value (the REPL checks each input against its bindings).
#include "HostValue.h"
#include "Session.h"

namespace tcp::interp {

HostType hostTypeOfValue(const Value &v) {
  switch (v.kind) {
    case Value::Unit: return HostType::of(HostType::Unit);
    case Value::Int: return HostType::of(HostType::Int);
    case Value::Float: return HostType::of(HostType::Float);
    case Value::Bool: return HostType::of(HostType::Bool);
    case Value::Str: return HostType::of(HostType::Str);
    case Value::IndexV: return HostType::of(HostType::Index);
    case Value::OptionV: return HostType::option(v.elems.empty() ? HostType() : hostTypeOfValue(v.elems[0]));
    case Value::Tuple: {
      if (v.elems.empty()) return HostType::of(HostType::Unit);
      HostType t = HostType::of(HostType::Tuple);
      for (const Value &e : v.elems) t.elems.push_back(hostTypeOfValue(e));
      return t;
    }
    case Value::Array: {
      HostType elem = HostType::of(HostType::Never);
      for (const Value &e : v.elems) elem = join(elem, hostTypeOfValue(e));
      if (elem.kind == HostType::Never) elem = HostType();
      return HostType::vec(elem, v.elems.size());
    }
    case Value::MappingV: {
      HostType t = HostType::of(HostType::Mapping);
      t.mapping = v.mapping;
      return t;
    }
    case Value::Object: break;
  }
  if (auto t = objectAs<HostTensorObj>(v)) return HostType::hostTensor(t->data.dtype, t->data.mapping);
  if (auto h = objectAs<HbmTensorObj>(v)) {
    HostType t = h->view ? HostType::hbmView(h->type.dtype, h->type.chip, h->type.element)
                         : HostType::hbmTensor(h->type.dtype, h->type.chip, h->type.element);
    if (h->source && !h->view) t.source = h->source->mapping;
    return t;
  }
  if (auto c = objectAs<ContextObj>(v)) {
    HostType t = HostType::of(HostType::Context);
    t.chips = c->chips;
    return t;
  }
  if (auto d = objectAs<DmaObj>(v)) {
    HostType t = HostType::of(HostType::Dma);
    t.name = d->name;
    return t;
  }
  if (objectAs<RngObj>(v)) return HostType::of(HostType::Rng);
  if (auto l = objectAs<LookupTableObj>(v)) {
    HostType t = HostType::of(HostType::Table);
    t.table = l->data.type;
    t.tableKnown = true;
    return t;
  }
  if (auto c = objectAs<ClosureObj>(v)) {
    auto info = std::make_shared<ClosureInfo>();
    info->expr = c->expr;
    for (const auto &scope : c->env)
      for (const auto &[name, value] : scope) info->captured[name] = hostTypeOfValue(value);
    HostType t = HostType::of(HostType::Closure);
    t.closure = info;
    return t;
  }
  return HostType();  // a function named as a value
}

}  // namespace tcp::interp

// HostType.cpp — host value types: spelling, compatibility and joins.
#include "HostType.h"

#include "MappingNormalForm.h"

namespace tcp {

HostType HostType::vec(HostType elem, std::optional<uint64_t> length) {
  HostType t = of(Vec);
  t.elems.push_back(std::move(elem));
  t.length = length;
  return t;
}

HostType HostType::option(HostType inner) {
  HostType t = of(Option);
  t.elems.push_back(std::move(inner));
  return t;
}

HostType HostType::hostTensor(num::DType d, MappingRef element) {
  HostType t = of(HostTensor);
  t.dtype = d;
  t.element = std::move(element);
  return t;
}

HostType HostType::hbmTensor(num::DType d, MappingRef chip, MappingRef element) {
  HostType t = of(HbmTensor);
  t.dtype = d;
  t.chip = std::move(chip);
  t.element = std::move(element);
  return t;
}

HostType HostType::hbmView(num::DType d, MappingRef chip, MappingRef element) {
  HostType t = hbmTensor(d, std::move(chip), std::move(element));
  t.kind = HbmView;
  return t;
}

std::string HostType::str() const {
  auto inner = [&](size_t k) { return k < elems.size() ? elems[k].str() : std::string("_"); };
  switch (kind) {
    case Unknown: return "_";
    case Never: return "!";
    case Unit: return "()";
    case Bool: return "bool";
    case Int: return "integer";
    case Float: return "float";
    case Str: return "String";
    case Vec: return "Vec<" + inner(0) + ">";
    case Option: return "Option<" + inner(0) + ">";
    case Tuple: {
      std::string s = "(";
      for (size_t k = 0; k < elems.size(); ++k) s += (k ? ", " : "") + elems[k].str();
      return s + (elems.size() == 1 ? ",)" : ")");
    }
    case Range: return "Range";
    case Closure: return "closure";
    case Context: return "Context";
    case Dma: return name == "tdma" ? "TensorDma" : "PcieDma";
    case Rng: return "SmallRng";
    case HostTensor:
      if (!element) return "HostTensor";
      return std::string("HostTensor<") + num::dtypeName(dtype) + ", " + element->str() + ">";
    case HbmTensor:
      if (!element || !chip) return "HbmTensor";
      return std::string("HbmTensor<") + num::dtypeName(dtype) + ", " + chip->str() + ", " + element->str() + ">";
    case HbmView:
      if (!element || !chip) return "HbmTensorView";
      return std::string("HbmTensorView<") + num::dtypeName(dtype) + ", " + chip->str() + ", " + element->str() + ">";
    case Table: return tableKnown ? table.str() : "LookupTable";
    case Index: return "Index";
    case Mapping: return mapping ? "mapping " + mapping->str() : "mapping";
  }
  return "_";
}

std::string HostType::apiOwner() const {
  switch (kind) {
    case Vec: return "Vec";
    case Str: return "String";
    case Option: return "Option";
    case Context: return "Context";
    case Dma: return "Dma";
    case Rng: return "SmallRng";
    case HostTensor: return "HostTensor";
    case HbmTensor: return "HbmTensor";
    case HbmView: return "HbmTensorView";
    case Table: return "LookupTable";
    case Index: return "Index";
    case Mapping: return "mapping";
    default: return str();
  }
}

namespace {
bool sameMapping(const MappingRef &a, const MappingRef &b) {
  if (!a || !b) return true;
  return a->str() == b->str() || equivalent(a, b);
}
}  // namespace

bool compatible(const HostType &a, const HostType &b) {
  if (!a.known() || !b.known() || a.kind == HostType::Never || b.kind == HostType::Never) return true;
  if (a.kind != b.kind) return false;
  switch (a.kind) {
    case HostType::Vec:
    case HostType::Option:
      return a.elems.empty() || b.elems.empty() || compatible(a.elems[0], b.elems[0]);
    case HostType::Tuple:
      if (a.elems.size() != b.elems.size()) return false;
      for (size_t k = 0; k < a.elems.size(); ++k)
        if (!compatible(a.elems[k], b.elems[k])) return false;
      return true;
    case HostType::HostTensor:
      if (!a.tensorKnown() || !b.tensorKnown()) return true;
      return a.dtype == b.dtype && sameMapping(a.element, b.element);
    case HostType::HbmTensor:
    case HostType::HbmView:
      if (!a.tensorKnown() || !b.tensorKnown()) return true;
      return a.dtype == b.dtype && sameMapping(a.chip, b.chip) && sameMapping(a.element, b.element);
    case HostType::Table:
      return !a.tableKnown || !b.tableKnown || (a.table.in == b.table.in && a.table.out == b.table.out);
    case HostType::Dma:
      return a.name.empty() || b.name.empty() || a.name == b.name;
    default:
      return true;
  }
}

HostType join(const HostType &a, const HostType &b) {
  if (a.kind == HostType::Never) return b;
  if (b.kind == HostType::Never) return a;
  if (!a.known() || !b.known()) return HostType();
  if ((a.kind == HostType::Int && b.kind == HostType::Float) || (a.kind == HostType::Float && b.kind == HostType::Int))
    return HostType::of(HostType::Float);  // tcpi's arithmetic mixes the two
  if (a.kind != b.kind) return HostType();
  HostType out = a;
  switch (a.kind) {
    case HostType::Vec:
      out.elems = {join(a.elems.empty() ? HostType() : a.elems[0], b.elems.empty() ? HostType() : b.elems[0])};
      if (a.length != b.length) out.length.reset();
      return out;
    case HostType::Option:
      out.elems = {join(a.elems.empty() ? HostType() : a.elems[0], b.elems.empty() ? HostType() : b.elems[0])};
      return out;
    case HostType::Tuple:
      if (a.elems.size() != b.elems.size()) return HostType();
      for (size_t k = 0; k < a.elems.size(); ++k) out.elems[k] = join(a.elems[k], b.elems[k]);
      return out;
    case HostType::HostTensor:
    case HostType::HbmTensor:
    case HostType::HbmView:
      if (!compatible(a, b)) {
        out.element = out.chip = out.source = nullptr;  // a tensor of either type
        return out;
      }
      if (!a.source || !b.source || a.source->str() != b.source->str()) out.source = nullptr;
      return out;
    case HostType::Table:
      if (!compatible(a, b)) out.tableKnown = false;
      return out;
    case HostType::Closure:
      if (a.closure != b.closure) out.closure = nullptr;
      return out;
    case HostType::Mapping:
      if (!a.mapping || !b.mapping || a.mapping->str() != b.mapping->str()) out.mapping = nullptr;
      return out;
    default:
      return out;
  }
}

}  // namespace tcp

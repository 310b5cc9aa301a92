// DeliberateSlice.cpp — rebuilds a mapping without its resizes (the coordinates before a deliberate slice).
#include "DeliberateSlice.h"

#include <algorithm>

namespace tcp {

bool hasDeliberateSlice(const MappingRef &m) {
  if (!m) return false;
  if (m->kind() == Mapping::Resize && !m->children().empty() && m->amount() < m->children()[0]->size()) return true;
  for (const MappingRef &c : m->children())
    if (hasDeliberateSlice(c)) return true;
  return false;
}

MappingRef withoutDeliberateSlices(const MappingRef &m) {
  if (!m || !hasDeliberateSlice(m)) return m;
  std::vector<MappingRef> kids;
  for (const MappingRef &c : m->children()) {
    MappingRef k = withoutDeliberateSlices(c);
    if (!k) return nullptr;
    kids.push_back(k);
  }
  std::string err;
  switch (m->kind()) {
    case Mapping::Resize: return kids[0];
    case Mapping::Pair: return Mapping::pair(kids[0], kids[1], &err);
    case Mapping::Pad: return Mapping::pad(kids[0], std::max(m->amount(), kids[0]->size()), &err);
    case Mapping::Stride: return Mapping::stride(kids[0], m->amount(), &err);
    case Mapping::Modulo: return Mapping::modulo(kids[0], m->amount(), &err);
    case Mapping::Offset: return Mapping::offset(kids[0], m->amount(), &err);
    case Mapping::Concat: return Mapping::concat(kids, &err);
    case Mapping::LinComb: {
      std::vector<std::pair<MappingRef, uint64_t>> terms;
      for (size_t i = 0; i < kids.size() && i < m->strides().size(); ++i) terms.push_back({kids[i], m->strides()[i]});
      return Mapping::lincomb(terms, &err);
    }
    default: return m;
  }
}

}  // namespace tcp

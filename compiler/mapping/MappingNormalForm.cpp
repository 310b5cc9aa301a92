// MappingNormalForm.cpp — canonical invariants of normal forms, their evaluation and equivalence.
#include "MappingNormalFormDetail.h"

#include <algorithm>
#include <cassert>

namespace tcp {

using namespace nf;

bool NfDim::operator==(const NfDim &o) const {
  if (kind != o.kind || count != o.count || limit != o.limit) return false;
  switch (kind) {
    case Term: return axis.name == o.axis.name && axis.size == o.axis.size && stride == o.stride;
    case Padding: return true;
    case Opaque: return sub->str() == o.sub->str();
  }
  return false;
}

bool NormalForm::pure() const {
  if (!skews.empty()) return false;
  for (const NfDim &d : dims)
    if (d.kind == NfDim::Opaque) return false;
  return true;
}

uint64_t NormalForm::base(std::string_view axis) const {
  for (const auto &[info, value] : bases)
    if (info.name == axis) return value;
  return 0;
}

bool NormalForm::operator==(const NormalForm &o) const {
  if (size != o.size || none != o.none || dims != o.dims || bases.size() != o.bases.size() ||
      skews.size() != o.skews.size())
    return false;
  for (size_t i = 0; i < bases.size(); ++i)
    if (bases[i].first.name != o.bases[i].first.name || bases[i].second != o.bases[i].second) return false;
  for (size_t i = 0; i < skews.size(); ++i)
    if (skews[i].name != o.skews[i].name) return false;
  return true;
}

std::optional<Index> NormalForm::map(uint64_t i) const {
  if (none || i >= size) return std::nullopt;
  Index acc;
  for (size_t k = dims.size(); k-- > 0;) {
    const NfDim &d = dims[k];
    uint64_t digit = i % d.count;
    i /= d.count;
    if (d.kind == NfDim::Opaque) {
      auto part = d.sub->mapPartial(digit);
      if (!part) return std::nullopt;
      acc.add(*part);
      continue;
    }
    if (digit >= d.limit) return std::nullopt;
    if (d.kind == NfDim::Term) acc.add(d.axis.name, static_cast<int64_t>(digit * d.stride));
  }
  for (const auto &[info, value] : bases) acc.add(info.name, static_cast<int64_t>(value));
  return finishIndex(std::move(acc), axes);
}

std::string NormalForm::dump() const {
  if (none) return std::string("none ") + std::to_string(size) + (zero ? "z" : "#");
  std::string s = "[";
  for (size_t k = 0; k < dims.size(); ++k) {
    const NfDim &d = dims[k];
    if (k) s += ", ";
    if (d.kind == NfDim::Term)
      s += d.axis.name + "*" + std::to_string(d.stride) + " x" + std::to_string(d.count) +
           (d.limit < d.count ? " <" + std::to_string(d.limit) : "");
    else if (d.kind == NfDim::Padding)
      s += "pad x" + std::to_string(d.count);
    else
      s += "{" + d.sub->body() + "}";
  }
  s += "]";
  for (const auto &[info, value] : bases) s += " +" + info.name + ":" + std::to_string(value);
  return s;
}

namespace nf {

void addBase(NormalForm &nf, const AxisInfo &axis, uint64_t value) {
  if (value == 0) return;
  auto it = std::lower_bound(nf.bases.begin(), nf.bases.end(), axis.name,
                             [](const auto &entry, const std::string &name) { return entry.first.name < name; });
  if (it != nf.bases.end() && it->first.name == axis.name) {
    if (__builtin_add_overflow(it->second, value, &it->second)) it->second = UINT64_MAX;  // past the axis
  }
  else
    nf.bases.insert(it, {axis, value});
}

void addBases(NormalForm &nf, const Index &partial, const std::vector<AxisInfo> &axes) {
  for (const auto &[name, value] : partial.entries()) {
    assert(value > 0 && "negative coordinate in a partial index");
    for (const AxisInfo &a : axes)
      if (a.name == name) addBase(nf, a, static_cast<uint64_t>(value));
  }
}

void makeNone(NormalForm &nf, bool zero) {
  nf.none = true;
  nf.zero = nf.zero || zero;
  nf.dims.clear();
  nf.bases.clear();
}

NormalForm leaf(const MappingRef &sub) {
  NormalForm r;
  r.size = sub->size();
  if (r.size == 0) {
    makeNone(r);
    return r;
  }
  NfDim d;
  d.kind = NfDim::Opaque;
  d.count = d.limit = r.size;
  d.sub = sub;
  r.dims.push_back(d);
  canonicalize(r);
  return r;
}

namespace {

// Tightens or relaxes a term's limit against its axis bound; false when no digit is an element.
bool canonicalTerm(NormalForm &nf, NfDim &d, bool &changed) {
  uint64_t base = nf.base(d.axis.name), size = d.axis.size;
  if (base >= size) return false;
  uint64_t axisLimit = ceilDiv(size - base, d.stride);  // digits below this stay inside the axis
  uint64_t eff = std::min({d.limit, d.count, axisLimit});
  if (eff == 0) return false;
  if (eff == 1) {  // only digit 0: an axis-less padding dimension
    d.kind = NfDim::Padding;
    d.limit = 1;
    d.stride = 1;
    changed = true;
    return true;
  }
  uint64_t limit = eff >= axisLimit ? d.count : eff;
  changed = changed || limit != d.limit;
  d.limit = limit;
  return true;
}

// Merges dims[k] (major) and dims[k + 1] when one dimension describes both.
bool mergeAdjacent(NormalForm &nf, size_t k) {
  NfDim &x = nf.dims[k];
  NfDim &y = nf.dims[k + 1];
  if (x.kind == NfDim::Padding && (y.kind == NfDim::Padding || y.kind == NfDim::Term)) {
    // Only x = 0 is an element: the pair is y padded to x.count * y.count.
    y.count *= x.count;
    nf.dims.erase(nf.dims.begin() + k);
    return true;
  }
  if (x.kind == NfDim::Term && y.kind == NfDim::Term && x.axis.name == y.axis.name && y.limit == y.count) {
    uint64_t span;
    if (__builtin_mul_overflow(y.stride, y.count, &span) || span != x.stride) return false;
    x.stride = y.stride;
    x.limit *= y.count;
    x.count *= y.count;
    nf.dims.erase(nf.dims.begin() + k + 1);
    return true;
  }
  return false;
}

}  // namespace

void canonicalize(NormalForm &nf) {
  bool changed = true;
  while (changed && !nf.none) {
    changed = false;
    for (const auto &[axis, value] : nf.bases)
      if (value >= axis.size) makeNone(nf);  // every index would be outside the axis
    if (nf.none) break;
    for (size_t k = 0; k < nf.dims.size() && !nf.none;) {
      NfDim &d = nf.dims[k];
      if (d.kind == NfDim::Term && !canonicalTerm(nf, d, changed)) {
        makeNone(nf);
        break;
      }
      if (d.kind == NfDim::Padding && d.limit == 0) {
        makeNone(nf);
        break;
      }
      if (d.count == 1) {
        if (d.kind == NfDim::Opaque && d.sub->multiValued()) {  // may hold several indices: keep
          ++k;
          continue;
        }
        if (d.kind == NfDim::Opaque) {
          auto part = d.sub->mapPartial(0);
          if (!part) {
            makeNone(nf);
            break;
          }
          addBases(nf, *part, d.sub->axes());
        }
        nf.dims.erase(nf.dims.begin() + k);
        changed = true;
        continue;
      }
      ++k;
    }
    for (size_t k = 0; !nf.none && k + 1 < nf.dims.size();) {
      if (mergeAdjacent(nf, k))
        changed = true;
      else
        ++k;
    }
  }
  if (nf.none) makeNone(nf);
}

}  // namespace nf

// ---------------------------------------------------------------- public entry points

NormalForm normalForm(const MappingRef &m) {
  assert(m);
  NormalForm nf = build(*m);
  nf.axes = m->axes();
  for (const AxisInfo &a : nf.axes)
    if (!a.skewBase.empty()) nf.skews.push_back(a);
  std::sort(nf.skews.begin(), nf.skews.end(), [](const AxisInfo &a, const AxisInfo &b) { return a.name < b.name; });
  if (nf.none) nf.skews.clear();
  return nf;
}

MappingRef normalize(const MappingRef &m) { return toMapping(normalForm(m)); }

Equivalence decideEquivalence(const MappingRef &a, const MappingRef &b, uint64_t exhaustiveLimit) {
  if (a->size() != b->size()) return Equivalence::NotEquivalent;
  NormalForm na = normalForm(a), nb = normalForm(b);
  if (na == nb) return Equivalence::Equivalent;
  if (na.pure() && nb.pure()) return Equivalence::NotEquivalent;
  if (a->size() > exhaustiveLimit) return Equivalence::Unknown;
  for (uint64_t i = 0; i < a->size(); ++i)
    if (a->map(i) != b->map(i)) return Equivalence::NotEquivalent;
  return Equivalence::Equivalent;
}

bool equivalent(const MappingRef &a, const MappingRef &b) {
  return decideEquivalence(a, b) == Equivalence::Equivalent;
}

}  // namespace tcp

// MappingNormalFormBuild.cpp — normal forms of whole trees, concatenations and linear combinations.
#include "MappingNormalFormDetail.h"

#include <cassert>

namespace tcp::nf {

namespace {

NormalForm single(const AxisInfo &axis) {
  NormalForm nf;
  nf.size = axis.size;
  if (axis.size == 0) {
    makeNone(nf);
    return nf;
  }
  NfDim d;
  d.axis = axis;
  d.count = d.limit = axis.size;
  nf.dims.push_back(d);
  canonicalize(nf);
  return nf;
}

NormalForm noneOf(uint64_t size, bool zero) {
  NormalForm nf;
  nf.size = size;
  makeNone(nf, zero);
  return nf;
}

}  // namespace

NormalForm build(const Mapping &m) {
  const auto &ch = m.children();
  switch (m.kind()) {
    case Mapping::Symbol: return single(m.axisInfo());
    case Mapping::Identity: return NormalForm();
    case Mapping::Pair: return pairNF(build(*ch[0]), build(*ch[1]));
    case Mapping::Pad: return padNF(build(*ch[0]), m.amount());
    case Mapping::Resize:
    case Mapping::Modulo: return resizeNF(build(*ch[0]), m.amount());
    case Mapping::Stride: return strideNF(build(*ch[0]), m.amount());
    case Mapping::Offset: return offsetNF(build(*ch[0]), m.amount());
    case Mapping::Dummy: return noneOf(m.size(), m.zero());
    case Mapping::Concat: return concatNF(ch);
    case Mapping::LinComb: return lincombNF(m);
  }
  assert(false && "unknown mapping kind");
  return {};
}

// Concatenation: parts normalized and flattened (associativity), empty parts dropped, adjacent
// dummies merged; `E + k#` is `E # (|E| + k)`; a single part is itself. Otherwise opaque.
NormalForm concatNF(const std::vector<MappingRef> &raw) {
  std::vector<MappingRef> parts;
  for (const MappingRef &p : raw) {
    MappingRef c = toMapping(build(*p));
    std::vector<MappingRef> pieces = c->kind() == Mapping::Concat ? c->children() : std::vector<MappingRef>{c};
    for (MappingRef &q : pieces) {
      if (q->size() == 0) continue;
      if (q->kind() == Mapping::Dummy && !parts.empty() && parts.back()->kind() == Mapping::Dummy &&
          parts.back()->zero() == q->zero()) {
        parts.back() = Mapping::dummy(parts.back()->size() + q->size(), q->zero());
        continue;
      }
      parts.push_back(q);
    }
  }
  uint64_t total = 0;
  bool allDummy = true, allZero = true;
  for (const MappingRef &p : parts) {
    total += p->size();
    allDummy = allDummy && p->kind() == Mapping::Dummy;
    allZero = allZero && p->zero();
  }
  if (parts.empty()) return noneOf(0, false);
  if (allDummy) return noneOf(total, allZero);
  if (parts.size() == 1) return build(*parts[0]);
  if (parts.size() == 2 && parts[1]->kind() == Mapping::Dummy && !parts[1]->zero())
    return padNF(build(*parts[0]), total);
  return leaf(Mapping::concat(parts, nullptr));
}

// Linear combination: terms normalized; a term whose part is the identity adds nothing; a single
// term of stride 1 (or of one position) is its part. Otherwise opaque.
NormalForm lincombNF(const Mapping &m) {
  std::vector<std::pair<MappingRef, uint64_t>> terms;
  for (size_t k = 0; k < m.children().size(); ++k) {
    MappingRef c = toMapping(build(*m.children()[k]));
    if (c->kind() == Mapping::Identity) continue;
    terms.emplace_back(c, m.strides()[k]);
  }
  if (terms.empty()) return NormalForm();
  // One term: stride 1, or a single position (the stride never applies), is the part itself.
  if (terms.size() == 1 && (terms[0].second == 1 || terms[0].first->size() == 1)) return build(*terms[0].first);
  for (const auto &t : terms)
    if (t.first->size() == 0) return noneOf(0, false);
  return leaf(Mapping::lincomb(terms, nullptr));
}

}  // namespace tcp::nf

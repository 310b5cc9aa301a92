// MappingEval.cpp — positions to coordinates by mixed-radix digits over a mapping's factorization.
#include "MappingEval.h"

#include "MappingFactor.h"

namespace tcp {

std::optional<MappingEval> MappingEval::of(const MappingRef &m) {
  if (!m || m->multiValued()) return std::nullopt;
  for (const AxisInfo &a : m->axes())
    if (!a.skewBase.empty() || !a.padBase.empty()) return std::nullopt;
  Factorization f = factorization(m);
  if (f.size != m->size()) return std::nullopt;
  MappingEval e;
  e.size_ = f.size;
  e.none_ = f.none;
  e.axes_ = f.axes;
  for (size_t k = f.terms.size(); k-- > 0;) {
    const FactorTerm &t = f.terms[k];
    if (t.kind == FactorTerm::Opaque) return std::nullopt;
    Term term{t.count, t.limit, t.base, t.axisStride, -1};
    if (t.kind == FactorTerm::Axis) {
      for (size_t a = 0; a < e.axes_.size(); ++a)
        if (e.axes_[a].name == t.axis.name) term.axis = int(a);
      if (term.axis < 0) return std::nullopt;
    }
    e.terms_.push_back(term);
  }
  return e;
}

bool MappingEval::coords(uint64_t i, int64_t *out) const {
  if (none_ || i >= size_) return false;
  for (size_t k = 0; k < axes_.size(); ++k) out[k] = 0;
  for (const Term &t : terms_) {
    uint64_t d = i % t.count;
    i /= t.count;
    if (d >= t.limit) return false;
    if (t.axis >= 0) out[t.axis] += int64_t(t.base + d * t.axisStride);
  }
  for (size_t k = 0; k < axes_.size(); ++k)
    if (out[k] < 0 || uint64_t(out[k]) >= axes_[k].size) return false;
  return true;
}

std::vector<int64_t> MappingEval::linear(const std::vector<int64_t> &weight) const {
  std::vector<int64_t> out(size_, -1);
  std::vector<int64_t> c(axes_.size());
  for (uint64_t i = 0; i < size_; ++i) {
    if (!coords(i, c.data())) continue;
    int64_t v = 0;
    for (size_t k = 0; k < c.size(); ++k) v += c[k] * weight[k];
    out[i] = v;
  }
  return out;
}

}  // namespace tcp

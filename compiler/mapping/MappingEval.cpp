// MappingEval.cpp — positions to coordinates by mixed-radix digits over a mapping's factorization.
#include "MappingEval.h"

#include "MappingFactor.h"

#include <algorithm>

namespace tcp {

std::optional<MappingEval> MappingEval::of(const MappingRef &m) {
  if (!m || m->multiValued()) return std::nullopt;
  Factorization f = factorization(m);
  if (f.size != m->size()) return std::nullopt;
  MappingEval e;
  e.size_ = f.size;
  e.none_ = f.none;
  e.axes_ = f.axes;
  e.raw_ = f.axes.size();
  auto slot = [&e](const std::string &name, uint64_t size) {
    for (size_t a = 0; a < e.axes_.size(); ++a)
      if (e.axes_[a].name == name) return int(a);
    e.axes_.emplace_back(name, size);
    return int(e.axes_.size() - 1);
  };
  for (size_t a = 0; a < e.raw_; ++a) {
    const AxisInfo info = e.axes_[a];
    if (!info.skewBase.empty()) {
      e.finish_.push_back({Finish::Skew, int(a), slot(info.skewBase, info.size), slot(info.skewBy, 0)});
    }
  }
  for (size_t a = 0; a < e.raw_; ++a) {
    const AxisInfo info = e.axes_[a];
    if (!info.padBase.empty()) e.finish_.push_back({Finish::Pad, int(a), slot(info.padBase, info.padBaseSize), -1});
  }
  for (size_t k = f.terms.size(); k-- > 0;) {
    const FactorTerm &t = f.terms[k];
    if (t.kind == FactorTerm::Opaque) return std::nullopt;
    Term term{t.count, t.limit, t.base, t.axisStride, -1};
    if (t.kind == FactorTerm::Axis) {
      for (size_t a = 0; a < e.raw_; ++a)
        if (e.axes_[a].name == t.axis.name) term.axis = int(a);
      if (term.axis < 0) return std::nullopt;
    }
    e.terms_.push_back(term);
  }
  uint64_t volume = 1;
  for (const Term &t : e.terms_) volume *= t.count;
  if (!e.none_ && volume != e.size_) return std::nullopt;  // digits must cover the positions exactly
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
  // finishIndex (Index.cpp) on integers: bounds of the accumulated coordinates, then skewed axes
  // (B' = B - A: B = (B' + A) mod |B|) and padded axes (B' = # l + B + # r: B = B' - l) resolved.
  for (size_t k = 0; k < raw_; ++k)
    if (out[k] != 0 && (out[k] < 0 || uint64_t(out[k]) >= axes_[k].size)) return false;
  for (const Finish &f : finish_) {
    const AxisInfo &a = axes_[size_t(f.axis)];
    if (f.kind == Finish::Skew) {
      if (a.size == 0) return false;
      int64_t base = int64_t((uint64_t(out[f.axis]) + uint64_t(out[f.by])) % a.size);
      out[f.axis] = 0;
      out[f.base] += base;
      if (uint64_t(out[f.base]) >= a.size) return false;
    } else {
      int64_t b = out[f.axis] - int64_t(a.padLeft);
      if (b < 0 || uint64_t(b) >= a.padBaseSize) return false;
      out[f.axis] = 0;
      out[f.base] += b;
      if (out[f.base] < 0 || uint64_t(out[f.base]) >= a.padBaseSize) return false;
    }
  }
  return true;
}

bool MappingEval::addTerm(Runs &set, uint64_t shift, uint64_t digits, uint64_t stride, int64_t end, uint64_t budget) {
  uint64_t most = 0;
  if (__builtin_mul_overflow(uint64_t(set.size()), digits, &most) || most > budget) return false;
  Runs next;
  if (digits == 0 || end <= 0 || shift >= uint64_t(end)) {
    set.clear();
    return true;
  }
  // Digits past the axis add nothing (shifts only grow with d).
  digits = std::min(digits, (uint64_t(end) - shift - 1) / std::max<uint64_t>(stride, 1) + 1);
  const int64_t last = int64_t(shift + (digits - 1) * stride);
  for (const auto &[lo, hi] : set) {
    if (lo + int64_t(shift) >= end) break;
    if (hi - lo >= int64_t(stride)) {  // the shifted copies of a run at least `stride` long touch: one run
      next.emplace_back(lo + int64_t(shift), std::min(hi + last, end));
      continue;
    }
    for (uint64_t d = 0; d < digits; ++d) {
      const int64_t by = int64_t(shift + d * stride);
      if (lo + by >= end) break;
      next.emplace_back(lo + by, std::min(hi + by, end));
    }
  }
  if (!std::is_sorted(next.begin(), next.end())) std::sort(next.begin(), next.end());
  set.clear();
  for (const auto &r : next) {
    if (!set.empty() && r.first <= set.back().second) set.back().second = std::max(set.back().second, r.second);
    else set.push_back(r);
  }
  return true;
}

std::optional<MappingEval::Product> MappingEval::product(uint64_t budget) const {
  // A padded axis B' whose base B has no terms of its own (nor another padded axis) resolves per
  // axis: B's coordinates are B''s within [l, l + |B|), less l. Skews couple two axes.
  std::vector<char> baseTaken(axes_.size(), 0);
  for (const Finish &f : finish_) {
    if (f.kind != Finish::Pad || size_t(f.base) < raw_ || baseTaken[size_t(f.base)]) return std::nullopt;
    baseTaken[size_t(f.base)] = 1;
  }
  Product p;
  p.coords.assign(axes_.size(), Runs{{0, 1}});
  p.empty = none_ || size_ == 0;
  for (const Term &t : terms_) p.empty |= std::min(t.count, t.limit) == 0;
  if (p.empty) return p;
  // Per axis, its terms finest stride first (sums commute; the runs then grow in order).
  std::vector<const Term *> order;
  for (const Term &t : terms_)
    if (t.axis >= 0) order.push_back(&t);
  std::stable_sort(order.begin(), order.end(), [](const Term *a, const Term *b) {
    return a->axis != b->axis ? a->axis < b->axis : a->axisStride < b->axisStride;
  });
  for (const Term *t : order) {
    // Coordinates only grow: a partial sum past the axis (other than 0) stays past it.
    const int64_t end = int64_t(std::max<uint64_t>(axes_[size_t(t->axis)].size, 1));
    Runs &set = p.coords[size_t(t->axis)];
    if (!addTerm(set, t->base, std::min(t->count, t->limit), t->axisStride, end, budget)) return std::nullopt;
    if (set.empty()) {
      p.empty = true;
      return p;
    }
  }
  for (const Finish &f : finish_) {
    const AxisInfo &a = axes_[size_t(f.axis)];
    const int64_t lo = int64_t(a.padLeft), hi = lo + int64_t(a.padBaseSize);
    Runs &base = p.coords[size_t(f.base)];
    base.clear();
    for (const auto &[from, to] : p.coords[size_t(f.axis)])
      if (std::max(from, lo) < std::min(to, hi)) base.emplace_back(std::max(from, lo) - lo, std::min(to, hi) - lo);
    p.coords[size_t(f.axis)] = Runs{{0, 1}};
    if (base.empty()) {
      p.empty = true;
      return p;
    }
  }
  return p;
}

std::vector<int64_t> MappingEval::linear(const std::vector<int64_t> &weight) const {
  std::vector<int64_t> out(size_, -1);
  linearRange(weight, 0, size_, out.data());
  return out;
}

void MappingEval::linearRange(const std::vector<int64_t> &weight, uint64_t begin, uint64_t end, int64_t *out) const {
  end = std::min(end, size_);
  if (begin >= end) return;
  std::fill(out, out + (end - begin), -1);
  std::vector<int64_t> c(axes_.size());
  if (none_) return;
  if (terms_.empty() || !finish_.empty()) {
    for (uint64_t i = begin; i < end; ++i) {
      if (!coords(i, c.data())) continue;
      int64_t v = 0;
      for (size_t k = 0; k < c.size(); ++k) v += c[k] * weight[k];
      out[i - begin] = v;
    }
    return;
  }
  // The minor term varies fastest: the outer terms' coordinates are found once per run of it.
  const Term &inner = terms_[0];
  const uint64_t digits = std::min(inner.count, inner.limit);
  for (uint64_t j = begin / inner.count; j * inner.count < end; ++j) {
    std::fill(c.begin(), c.end(), 0);
    uint64_t rest = j;
    bool ok = true;
    for (size_t k = 1; k < terms_.size() && ok; ++k) {
      const Term &t = terms_[k];
      uint64_t d = rest % t.count;
      rest /= t.count;
      ok = d < t.limit;
      if (t.axis >= 0) c[size_t(t.axis)] += int64_t(t.base + d * t.axisStride);
    }
    for (size_t k = 0; k < c.size() && ok; ++k)
      ok = int(k) == inner.axis || uint64_t(c[k]) < axes_[k].size;
    if (!ok) continue;
    int64_t v = 0;
    for (size_t k = 0; k < c.size(); ++k) v += c[k] * weight[k];
    const uint64_t first = j * inner.count;
    const uint64_t lo = std::max(first, begin) - first, hi = std::min(std::min(first + digits, end), first + inner.count) - first;
    int64_t *o = out + (first + lo - begin);  // o[d - lo]: position first + d
    if (inner.axis < 0) {
      for (uint64_t d = lo; d < hi; ++d) o[d - lo] = v;
      continue;
    }
    const size_t a = size_t(inner.axis);
    const uint64_t limit = axes_[a].size;
    const int64_t w = weight[a];
    for (uint64_t d = lo; d < hi; ++d) {
      uint64_t coord = uint64_t(c[a]) + inner.base + d * inner.axisStride;
      if (coord >= limit) break;  // coordinates only grow with d
      o[d - lo] = v + int64_t(inner.base + d * inner.axisStride) * w;
    }
  }
}

}  // namespace tcp

// MappingFactor.cpp — factorization into per-axis terms, and locating terms in a buffer's factors.
#include "MappingFactor.h"

#include "MappingNormalFormDetail.h"

#include <algorithm>
#include <cassert>

namespace tcp {

uint64_t FactorTerm::valid() const {
  if (kind == Padding) return std::min<uint64_t>(limit, 1);
  if (kind == Opaque) return count;
  if (base >= axis.size) return 0;
  return std::min(limit, nf::ceilDiv(axis.size - base, axisStride));
}

std::string FactorTerm::str() const {
  switch (kind) {
    case Padding: return "1 # " + std::to_string(count);
    case Opaque: return sub->body();
    case Axis: break;
  }
  if (count == 1) {
    MappingRef x = Mapping::symbol(axis);
    if (base) x = Mapping::offset(x, base, nullptr);
    return Mapping::resize(x, 1, nullptr)->body();
  }
  NfDim d;
  d.axis = axis;
  d.stride = axisStride;
  d.count = count;
  d.limit = limit;
  return nf::termTree(d, base)->body();
}

Factorization factorization(const MappingRef &m) {
  NormalForm nf = normalForm(m);
  Factorization f;
  f.size = nf.size;
  f.none = nf.none;
  f.axes = nf.axes;
  if (nf.none) return f;
  for (const auto &[axis, value] : nf::constantAxes(nf)) {
    FactorTerm t;
    t.axis = axis;
    t.base = value;
    f.terms.push_back(t);
  }
  std::vector<std::string> attached;
  for (const NfDim &d : nf.dims) {
    FactorTerm t;
    t.count = d.count;
    t.limit = d.limit;
    if (d.kind == NfDim::Term) {
      t.axis = d.axis;
      t.axisStride = d.stride;
      if (std::find(attached.begin(), attached.end(), d.axis.name) == attached.end()) {
        attached.push_back(d.axis.name);
        t.base = nf.base(d.axis.name);
      }
    } else if (d.kind == NfDim::Padding) {
      t.kind = FactorTerm::Padding;
    } else {
      t.kind = FactorTerm::Opaque;
      t.sub = d.sub;
    }
    f.terms.push_back(t);
  }
  uint64_t volume = 1;
  for (size_t k = f.terms.size(); k-- > 0;) {
    f.terms[k].bufStride = volume;
    volume *= f.terms[k].count;
  }
  assert(volume == f.size && "factor counts do not multiply to the mapping size");
  return f;
}

std::vector<FactorTerm> factorize(const MappingRef &m) { return factorization(m).terms; }

std::optional<Index> Factorization::map(uint64_t i) const {
  if (none || i >= size) return std::nullopt;
  Index acc;
  for (size_t k = terms.size(); k-- > 0;) {
    const FactorTerm &t = terms[k];
    uint64_t d = i % t.count;
    i /= t.count;
    if (t.kind == FactorTerm::Opaque) {
      auto part = t.sub->mapPartial(d);
      if (!part) return std::nullopt;
      acc.add(*part);
      continue;
    }
    if (d >= t.limit) return std::nullopt;
    if (t.kind == FactorTerm::Axis) acc.add(t.axis.name, static_cast<int64_t>(t.base + d * t.axisStride));
  }
  return finishIndex(std::move(acc), axes);
}

// ---------------------------------------------------------------- comparing and locating

AxisOverlap overlap(const FactorTerm &t, const FactorTerm &u) {
  AxisOverlap o;
  if (t.kind != FactorTerm::Axis || u.kind != FactorTerm::Axis || t.axis.name != u.axis.name) return o;
  uint64_t need = std::max<uint64_t>(t.valid(), 1);
  uint64_t tLo = t.axisStride, tHi = t.axisStride * need;  // t's strides: [tLo, tHi)
  uint64_t uLo = u.axisStride, uHi = u.axisStride * u.count;
  uint64_t lo = std::max(tLo, uLo), hi = std::min(tHi, uHi);
  if (lo >= hi) return o;
  o.disjoint = false;
  o.inner = lo / tLo;
  o.step = lo / uLo;
  o.aligned = lo % tLo == 0 && lo % uLo == 0;
  if (tHi <= uHi) {  // t ends inside u: its top digit may be partial (`A = 3` inside `A`)
    o.common = nf::ceilDiv(tHi, lo);
    o.outer = 1;
  } else {
    o.aligned = o.aligned && hi % lo == 0 && tHi % hi == 0;
    o.common = hi / lo;
    o.outer = nf::ceilDiv(tHi, hi);
  }
  return o;
}

std::optional<std::string> sharedDigit(const std::vector<FactorTerm> &terms) {
  for (size_t i = 0; i < terms.size(); ++i)
    for (size_t j = i + 1; j < terms.size(); ++j) {
      const FactorTerm &u = terms[i], &v = terms[j];
      if (u.kind != FactorTerm::Axis || v.kind != FactorTerm::Axis || u.axis.name != v.axis.name) continue;
      if (u.valid() <= 1 || v.valid() <= 1) continue;
      if (std::max(u.axisStride, v.axisStride) < std::min(u.axisStride * u.valid(), v.axisStride * v.valid()))
        return "`" + u.str() + "` and `" + v.str() + "` both hold digits of axis `" + u.axis.name + "`";
    }
  return std::nullopt;
}

namespace {

bool namesAxis(const MappingRef &sub, const std::string &axis) {
  for (const AxisInfo &a : sub->axes())
    if (a.name == axis) return true;
  return false;
}

Placement fail(Placement::Status status, std::string message) {
  Placement p;
  p.status = status;
  p.message = std::move(message);
  return p;
}

std::string q(const std::string &s) { return "`" + s + "`"; }

// The buffer term of the axis whose stride range holds the coordinate stride `at`. A term's digits
// from its limit on are padding, not coordinates (`1 # 4, C % 4` factorizes as `C = 4 # 16`, whose
// digits 4.. are the padding above it, not `C / 4 % 4`): only its valid digits hold `at`.
const FactorTerm *holding(const std::vector<const FactorTerm *> &terms, uint64_t at, bool validOnly = true) {
  for (const FactorTerm *u : terms)
    if (u->axisStride <= at && at / u->axisStride < (validOnly ? std::max<uint64_t>(u->limit, 1) : u->count)) return u;
  return nullptr;
}

}  // namespace

Placement locate(const FactorTerm &term, const std::vector<FactorTerm> &buf) {
  Placement p;
  if (term.kind == FactorTerm::Opaque) {
    // The buffer holding the very same opaque part (a `$(W + Fw)` window row): read it in place.
    for (size_t i = 0; term.sub && i < buf.size(); ++i)
      if (buf[i].kind == FactorTerm::Opaque && buf[i].sub && buf[i].count == term.count &&
          buf[i].sub->str() == term.sub->str()) {
        p.pieces.push_back({term.count, buf[i].bufStride, i});
        return p;
      }
    return fail(Placement::Unsupported, "the term " + q(term.str()) + " does not decompose into axis terms");
  }
  if (term.kind == FactorTerm::Padding) {
    p.status = Placement::Broadcast;
    p.pieces.push_back({term.count, 0, 0});
    return p;
  }
  const std::string &axis = term.axis.name;
  std::vector<const FactorTerm *> terms;
  for (const FactorTerm &u : buf) {
    if (u.kind == FactorTerm::Axis && u.axis.name == axis && u.count > 1) terms.push_back(&u);
    if (u.kind == FactorTerm::Opaque && namesAxis(u.sub, axis))
      return fail(Placement::Unsupported, "axis " + q(axis) + " sits in the buffer part " + q(u.sub->body()) +
                                              ", which does not decompose into axis terms");
  }
  if (terms.empty()) {
    p.status = Placement::Broadcast;
    p.pieces.push_back({term.count, 0, 0});
    return p;
  }
  // Two terms that hold the same digit of the axis put one coordinate at two strides; a loop steps a
  // digit by one stride, so the placement would be wrong.
  std::vector<FactorTerm> ofAxis;
  for (const FactorTerm *u : terms) ofAxis.push_back(*u);
  if (std::optional<std::string> shared = sharedDigit(ofAxis))
    return fail(Placement::Unsupported, "in the buffer " + *shared + "; a sequencer loop steps each digit by one stride, "
                                        "so such a buffer is not supported yet");
  auto indexOf = [&](const FactorTerm *u) { return static_cast<size_t>(u - buf.data()); };
  uint64_t cur = term.axisStride, left = term.valid();
  std::vector<Piece> minorFirst;
  while (left > 1) {
    const FactorTerm *u = holding(terms, cur);
    if (!u)
      return fail(Placement::Insufficient, "insufficient input: " + q(term.str()) + " needs axis " + q(axis) +
                                               " at stride " + std::to_string(cur) + ", which the buffer does not hold");
    if (cur % u->axisStride != 0)
      return fail(Placement::Incompatible, "incompatible shapes: " + q(term.str()) + " and the buffer's " +
                                               q(u->str()) + " split axis " + q(axis) + " differently");
    uint64_t step = cur / u->axisStride;
    if (step * (left - 1) < u->count) {  // the rest of the term fits in u
      if (step * (left - 1) >= u->limit)
        return fail(Placement::Insufficient, "insufficient input: " + q(term.str()) + " needs more of axis " +
                                                 q(axis) + " than the buffer's " + q(u->str()) + " holds");
      minorFirst.push_back({left, u->bufStride * step, indexOf(u)});
      left = 1;
      break;
    }
    if (u->count % step != 0)
      return fail(Placement::Incompatible, "incompatible shapes: " + q(term.str()) + " and the buffer's " +
                                               q(u->str()) + " split axis " + q(axis) + " differently");
    if (u->limit < u->count)
      return fail(Placement::Insufficient, "insufficient input: " + q(term.str()) + " needs all of the buffer's " +
                                               q(u->str()) + ", which holds only " + std::to_string(u->limit));
    uint64_t k = u->count / step;
    minorFirst.push_back({k, u->bufStride * step, indexOf(u)});
    cur = u->axisStride * u->count;
    left = nf::ceilDiv(left, k);
  }
  if (minorFirst.empty()) {  // a single element of the axis: any stride reads it
    const FactorTerm *u = holding(terms, cur, false);
    minorFirst.push_back({term.count, u ? u->bufStride * (cur / u->axisStride) : 0, u ? indexOf(u) : 0});
  }
  // Stretch the major piece over the term's padding digits (`C # 16` over a buffer `C # 32`).
  uint64_t inner = 1;
  for (size_t k = 0; k + 1 < minorFirst.size(); ++k) inner *= minorFirst[k].count;
  if (term.count % inner != 0)
    return fail(Placement::Incompatible, "incompatible shapes: the padding of " + q(term.str()) +
                                             " does not follow the buffer's terms of axis " + q(axis));
  minorFirst.back().count = term.count / inner;
  p.pieces.assign(minorFirst.rbegin(), minorFirst.rend());
  return p;
}

std::optional<uint64_t> bufferOffset(const std::string &axis, uint64_t coordinate, const std::vector<FactorTerm> &buf) {
  std::vector<const FactorTerm *> terms;
  uint64_t base = 0;
  for (const FactorTerm &u : buf) {
    if (u.kind != FactorTerm::Axis || u.axis.name != axis) continue;
    base += u.base;
    if (u.count > 1) terms.push_back(&u);
  }
  if (coordinate < base) return std::nullopt;
  coordinate -= base;
  std::sort(terms.begin(), terms.end(), [](auto *a, auto *b) { return a->axisStride > b->axisStride; });
  uint64_t offset = 0;
  for (const FactorTerm *u : terms) {
    uint64_t digit = coordinate / u->axisStride;
    if (digit >= u->count) return std::nullopt;
    offset += digit * u->bufStride;
    coordinate -= digit * u->axisStride;
  }
  if (coordinate != 0) return std::nullopt;
  return offset;
}

}  // namespace tcp

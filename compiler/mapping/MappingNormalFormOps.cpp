// MappingNormalFormOps.cpp — stride, resize, pad, offset and pair pushed through normal forms.
#include "MappingNormalFormDetail.h"

#include <algorithm>
#include <cassert>
#include <numeric>

namespace tcp::nf {

namespace {

uint64_t restSize(const NormalForm &nf, size_t k) {
  uint64_t p = 1;
  for (size_t j = k + 1; j < nf.dims.size(); ++j) p *= nf.dims[j].count;
  return p;
}

// Replaces dims[k] by the dimensions and bases of `part` (whose size is the dim's count).
void splice(NormalForm &nf, size_t k, NormalForm part) {
  if (part.none) {
    makeNone(nf);
    return;
  }
  nf.dims.erase(nf.dims.begin() + k);
  nf.dims.insert(nf.dims.begin() + k, part.dims.begin(), part.dims.end());
  for (const auto &[axis, value] : part.bases) addBase(nf, axis, value);
}

NormalForm applyToSub(Mapping::Kind op, const MappingRef &sub, uint64_t n);

// The dimension at digit 0 only (consumed by a stride or resize): keeps its constant part.
void fixAtZero(NormalForm &nf, size_t k) {
  NfDim d = nf.dims[k];
  if (d.kind == NfDim::Opaque && d.sub->multiValued()) {  // a linear combination: keep all indices
    splice(nf, k, applyToSub(Mapping::Resize, d.sub, 1));
    return;
  }
  nf.dims.erase(nf.dims.begin() + k);
  if (d.kind == NfDim::Opaque) {
    auto part = d.sub->mapPartial(0);
    if (!part) return makeNone(nf);
    addBases(nf, *part, d.sub->axes());
  } else if (d.limit == 0) {
    makeNone(nf);
  }
}

// `op(E, n)` on a mapping that does not decompose: one opaque dimension (after the cheap
// simplifications of nested operators: `E / a / b` = `E / ab`, `E @ a @ b` = `E @ (a + b)`, ...).
NormalForm opaqueOp(Mapping::Kind op, const NormalForm &nf, uint64_t n);

NormalForm applyToSub(Mapping::Kind op, const MappingRef &sub, uint64_t n) {
  const auto &ch = sub->children();
  auto amount = sub->amount();
  if ((op == Mapping::Stride && n == 1) || (op == Mapping::Offset && n == 0) ||
      ((op == Mapping::Resize || op == Mapping::Pad) && n == sub->size()))
    return leaf(sub);
  if (sub->kind() == Mapping::Dummy) {  // no element before, none after
    NormalForm none;
    none.size = op == Mapping::Stride ? sub->size() / n : op == Mapping::Offset ? sub->size() - n : n;
    makeNone(none, sub->zero());
    return none;
  }
  // Nested operators fold (`E / a / b` = `E / ab`) and the folded operator is pushed through E
  // again: it may now follow E's dimensions.
  switch (op) {
    case Mapping::Stride:
      if (sub->kind() == Mapping::Stride) return strideNF(build(*ch[0]), amount * n);
      return leaf(Mapping::stride(sub, n, nullptr));
    case Mapping::Resize:
      if (sub->kind() == Mapping::Resize || sub->kind() == Mapping::Modulo) return resizeNF(build(*ch[0]), n);
      if (sub->kind() == Mapping::Pad) {
        if (n >= ch[0]->size()) return padNF(build(*ch[0]), n);
        return resizeNF(build(*ch[0]), n);
      }
      if (sub->kind() == Mapping::Concat) {
        std::vector<MappingRef> kept;
        for (const MappingRef &p : ch) {
          if (n == 0) break;
          kept.push_back(n >= p->size() ? p : Mapping::resize(p, n, nullptr));
          n -= std::min(n, p->size());
        }
        return concatNF(kept);
      }
      if (sub->size() % n == 0) return leaf(Mapping::modulo(sub, n, nullptr));
      return leaf(Mapping::resize(sub, n, nullptr));
    case Mapping::Pad:
      if (sub->kind() == Mapping::Pad) return padNF(build(*ch[0]), n);
      if (sub->kind() == Mapping::Concat) {
        std::vector<MappingRef> parts = ch;
        parts.push_back(Mapping::dummy(n - sub->size(), false));
        return concatNF(parts);
      }
      return leaf(Mapping::pad(sub, n, nullptr));
    case Mapping::Offset:
      if (sub->kind() == Mapping::Offset) return offsetNF(build(*ch[0]), amount + n);
      if (sub->kind() == Mapping::Concat) {
        std::vector<MappingRef> kept;
        for (const MappingRef &p : ch) {
          if (n >= p->size()) {
            n -= p->size();
            continue;
          }
          kept.push_back(n ? Mapping::offset(p, n, nullptr) : p);
          n = 0;
        }
        if (kept.empty()) return leaf(Mapping::dummy(0, false));
        return concatNF(kept);
      }
      return leaf(Mapping::offset(sub, n, nullptr));
    default:
      break;
  }
  assert(false && "not a unary operator");
  return {};
}

NormalForm opaqueOp(Mapping::Kind op, const NormalForm &nf, uint64_t n) {
  return applyToSub(op, toMapping(nf), n);
}

// Splits dims[k] into (count / g, g) when the limit allows it; false if it cannot.
bool splitDim(NormalForm &nf, size_t k, uint64_t g) {
  NfDim d = nf.dims[k];
  if (d.kind == NfDim::Opaque) return false;
  NfDim outer = d, inner = d;
  outer.count = d.count / g;
  inner.count = g;
  if (d.kind == NfDim::Term && __builtin_mul_overflow(d.stride, g, &outer.stride)) return false;
  if (d.limit == d.count) {
    outer.limit = outer.count;
    inner.limit = g;
  } else if (d.limit % g == 0) {
    outer.limit = d.limit / g;
    inner.limit = g;
  } else if (d.limit <= g) {
    outer.limit = 1;
    inner.limit = d.limit;
  } else {
    return false;
  }
  nf.dims[k] = outer;
  nf.dims.insert(nf.dims.begin() + k + 1, inner);
  return true;
}

}  // namespace

NormalForm strideNF(NormalForm nf, uint64_t n) {
  assert(n > 0 && nf.size % n == 0);
  nf.size /= n;
  if (nf.none || n == 1) return nf;
  size_t k = nf.dims.size();  // dims at k and after are consumed or kept at digit 0
  while (n > 1 && !nf.none) {
    assert(k > 0);
    NfDim &d = nf.dims[--k];
    if (d.count == 1) continue;  // a linear combination held at digit 0
    if (n % d.count == 0) {      // the minor dim only ever sits at digit 0
      n /= d.count;
      fixAtZero(nf, k);
      canonicalize(nf);  // new constant coordinates may tighten or relax other dims
      k = nf.dims.size();
    } else if (d.count % n == 0) {
      if (d.kind == NfDim::Opaque) {
        splice(nf, k, applyToSub(Mapping::Stride, d.sub, n));
      } else {
        d.count /= n;
        d.limit = nf::ceilDiv(d.limit, n);
        if (d.kind == NfDim::Term && __builtin_mul_overflow(d.stride, n, &d.stride)) {
          d.kind = NfDim::Padding;  // a step past 2^64 leaves any axis: only digit 0 remains
          d.stride = d.limit = 1;
        }
      }
      n = 1;
    } else {
      uint64_t g = std::gcd(n, d.count);
      if (g == 1 || !splitDim(nf, k, g)) {
        // Stuck: what remains is a stride that does not follow the dimensions.
        nf.size *= n;
        canonicalize(nf);
        return opaqueOp(Mapping::Stride, nf, n);
      }
      k += 2;  // revisit the inner part (it divides n) and then the outer part
    }
  }
  canonicalize(nf);
  return nf;
}

NormalForm resizeNF(NormalForm nf, uint64_t n) {
  assert(n <= nf.size);
  if (n == nf.size) return nf;
  nf.size = n;
  if (n == 0) {
    makeNone(nf);
    return nf;
  }
  if (nf.none) return nf;
  // Walk from the major dimension: it keeps n / rest digits, or only digit 0 when n < rest.
  while (!nf.none) {
    size_t k = 0;
    while (k < nf.dims.size() && nf.dims[k].count == 1) ++k;  // linear combinations at digit 0
    assert(k < nf.dims.size());
    uint64_t rest = restSize(nf, k);
    NfDim &d = nf.dims[k];
    if (n % rest == 0) {
      uint64_t keep = n / rest;
      assert(keep >= 1 && keep <= d.count);
      if (d.kind == NfDim::Opaque) {
        if (keep != d.count) splice(nf, k, applyToSub(Mapping::Resize, d.sub, keep));
      } else {
        d.count = keep;
        d.limit = std::min(d.limit, keep);
      }
      break;
    }
    if (n > rest) {  // a partial row: rows of `rest` positions, the last one cut short
      nf.size = d.count * rest;
      return opaqueOp(Mapping::Resize, nf, n);
    }
    fixAtZero(nf, k);
    canonicalize(nf);
  }
  canonicalize(nf);
  return nf;
}

NormalForm padNF(NormalForm nf, uint64_t n) {
  assert(n >= nf.size);
  if (n == nf.size) return nf;
  uint64_t old = nf.size;
  nf.size = n;
  if (nf.none) return nf;
  if (nf.dims.empty()) {  // a single element: it becomes `1 # n` (plus the constant coordinates)
    NfDim d;
    d.kind = NfDim::Padding;
    d.count = n;
    d.limit = 1;
    nf.dims.push_back(d);
    canonicalize(nf);
    return nf;
  }
  uint64_t rest = old / nf.dims[0].count;
  if (n % rest != 0) {
    nf.size = old;
    return opaqueOp(Mapping::Pad, nf, n);
  }
  NfDim &d = nf.dims[0];
  if (d.kind == NfDim::Opaque) {
    splice(nf, 0, applyToSub(Mapping::Pad, d.sub, n / rest));
  } else {
    d.count = n / rest;  // the limit stays: digits past the old count are padding
  }
  canonicalize(nf);
  return nf;
}

NormalForm offsetNF(NormalForm nf, uint64_t n) {
  assert(n <= nf.size);
  if (n == 0) return nf;
  uint64_t old = nf.size;
  nf.size -= n;
  if (nf.size == 0) {
    makeNone(nf);
    return nf;
  }
  if (nf.none) return nf;
  uint64_t rest = old / nf.dims[0].count;
  if (n % rest != 0) {
    nf.size = old;
    return opaqueOp(Mapping::Offset, nf, n);
  }
  uint64_t k = n / rest;
  NfDim &d = nf.dims[0];
  if (d.kind == NfDim::Opaque) {
    splice(nf, 0, applyToSub(Mapping::Offset, d.sub, k));
  } else {
    d.count -= k;
    d.limit = d.limit > k ? d.limit - k : 0;
    uint64_t shift = 0;
    if (d.kind == NfDim::Term && __builtin_mul_overflow(k, d.stride, &shift)) makeNone(nf);  // past the axis
    else if (d.kind == NfDim::Term) addBase(nf, d.axis, shift);
  }
  canonicalize(nf);
  return nf;
}

NormalForm pairNF(NormalForm major, const NormalForm &minor) {
  major.size *= minor.size;
  major.zero = major.zero || minor.zero;
  if (major.none || minor.none) {
    makeNone(major);
    return major;
  }
  major.dims.insert(major.dims.end(), minor.dims.begin(), minor.dims.end());
  for (const auto &[axis, value] : minor.bases) addBase(major, axis, value);
  canonicalize(major);
  return major;
}

}  // namespace tcp::nf

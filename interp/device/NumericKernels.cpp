// NumericKernels.cpp — the Highway kernels (compiled per target by foreach_target.h) and their runtime dispatch (references: NumericReference.cpp, dot products: NumericDot.cpp).
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "NumericKernels.cpp"  // found through the interp/device include directory
#include <hwy/foreach_target.h>                  // IWYU pragma: keep
#include <hwy/highway.h>

#include "NumericKernels.h"
#include "Numerics.h"

#include <cassert>
#include <cfloat>

HWY_BEFORE_NAMESPACE();
namespace tcp::num {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

using DF = hn::ScalableTag<float>;
using DI = hn::ScalableTag<int32_t>;
using DU = hn::ScalableTag<uint32_t>;
using DI64 = hn::Repartition<int64_t, DI>;
using DU64 = hn::Repartition<uint64_t, DI>;

const char *TargetNameImpl() { return hwy::TargetName(HWY_TARGET); }

#if HWY_TARGET == HWY_SCALAR
// Single-lane fallback (chosen by Highway for GCC < 12.3 instead of EMU128): the scalar references.
void Bf16ToF32(const uint16_t *in, float *out, size_t n) { ref::bf16ToF32(in, out, n); }
void F32ToBf16(const float *in, uint16_t *out, size_t n) { ref::f32ToBf16(in, out, n); }
void ReduceTreeBf16(const uint16_t *x, const uint16_t *w, size_t p, unsigned d, float *o) { ref::reduceTreeBf16(x, w, p, d, o); }
void ReduceTreeI8(const int8_t *x, const int8_t *w, size_t p, unsigned d, int32_t *o) { ref::reduceTreeI8(x, w, p, d, o); }
void AddWrapI32(const int32_t *a, const int32_t *b, int32_t *o, size_t n) { ref::addWrapI32(a, b, o, n); }
void AddSatI32(const int32_t *a, const int32_t *b, int32_t *o, size_t n) { ref::addSatI32(a, b, o, n); }
void SubWrapI32(const int32_t *a, const int32_t *b, int32_t *o, size_t n) { ref::subWrapI32(a, b, o, n); }
void SubSatI32(const int32_t *a, const int32_t *b, int32_t *o, size_t n) { ref::subSatI32(a, b, o, n); }
void MulWrapI32(const int32_t *a, const int32_t *b, int32_t *o, size_t n) { ref::mulWrapI32(a, b, o, n); }
void MulSatI32(const int32_t *a, const int32_t *b, int32_t *o, size_t n) { ref::mulSatI32(a, b, o, n); }
void AddF32(const float *a, const float *b, float *o, size_t n) { ref::addF32(a, b, o, n); }
void SubF32(const float *a, const float *b, float *o, size_t n) { ref::subF32(a, b, o, n); }
void MulF32(const float *a, const float *b, float *o, size_t n) { ref::mulF32(a, b, o, n); }
#else

// Subnormal -> zero of the same sign (Numerics.h DAZ/FTZ). NaN and normal lanes pass unchanged.
HWY_INLINE hn::Vec<DF> Flush(DF d, hn::Vec<DF> v) {
  const auto tiny = hn::Lt(hn::Abs(v), hn::Set(d, FLT_MIN));
  return hn::IfThenElse(tiny, hn::And(v, hn::Set(d, -0.0f)), v);
}
HWY_INLINE hn::Vec<DF> Canon(DF d, hn::Vec<DF> v) {
  const auto nan = hn::BitCast(d, hn::Set(DU(), kCanonicalNanF32));
  return hn::IfThenElse(hn::IsNaN(v), nan, Flush(d, v));
}

// N bf16 lanes (as u16) widened to f32 with DAZ; NaNs keep some NaN pattern (callers canonicalize).
HWY_INLINE hn::Vec<DF> LoadBf16(DF d, const uint16_t *p) {
  const hn::Rebind<uint16_t, DF> d16;
  const auto u = hn::PromoteTo(DU(), hn::LoadU(d16, p));
  return Flush(d, hn::BitCast(d, hn::ShiftLeft<16>(u)));
}

void Bf16ToF32(const uint16_t *in, float *out, size_t n) {
  const DF d;
  const size_t N = hn::Lanes(d);
  size_t i = 0;
  for (; i + N <= n; i += N) hn::StoreU(Canon(d, LoadBf16(d, in + i)), d, out + i);
  ref::bf16ToF32(in + i, out + i, n - i);
}

void F32ToBf16(const float *in, uint16_t *out, size_t n) {
  const DF df;
  const DU du;
  const DI di;
  const hn::Rebind<uint16_t, DF> d16;
  const size_t N = hn::Lanes(df);
  size_t i = 0;
  for (; i + N <= n; i += N) {
    const auto u = hn::BitCast(du, hn::LoadU(df, in + i));
    const auto a = hn::BitCast(di, hn::And(u, hn::Set(du, 0x7FFFFFFFu)));
    const auto hi = hn::ShiftRight<16>(u);
    // RNE: add 0x7FFF plus the lowest kept bit; a carry may propagate into the exponent (up to inf).
    const auto rounded = hn::ShiftRight<16>(hn::Add(u, hn::Add(hn::Set(du, 0x7FFFu), hn::And(hi, hn::Set(du, 1u)))));
    const auto signedZero = hn::And(hi, hn::Set(du, 0x8000u));
    auto r = hn::IfThenElse(hn::RebindMask(du, hn::Lt(a, hn::Set(di, 0x00800000))), signedZero, rounded);
    r = hn::IfThenElse(hn::RebindMask(du, hn::Gt(a, hn::Set(di, 0x7F800000))), hn::Set(du, kCanonicalNanBf16), r);
    hn::StoreU(hn::DemoteTo(d16, hn::BitCast(di, r)), d16, out + i);  // r <= 0xFFFF: no saturation
  }
  ref::f32ToBf16(in + i, out + i, n - i);
}

// In-place adjacent-pair tree levels over `nvec` consecutive vectors in `buf` (lane order = product
// order): output lane j of a level = add(in[2j], in[2j+1]). ConcatEven/ConcatOdd of (lo, hi) yield the
// even and odd lanes of the 2N-lane stream lo|hi in order, so pairs never cross vectors. Returns nvec.
template <class D, class Add>
HWY_INLINE size_t PairLevels(D d, hn::TFromD<D> *HWY_RESTRICT buf, size_t nvec, unsigned levels, Add add) {
  const size_t N = hn::Lanes(d);
  for (unsigned l = 0; l < levels; ++l) {
    assert(nvec % 2 == 0 && "tree level needs pairs of vectors");
    for (size_t i = 0; i < nvec / 2; ++i) {
      const auto lo = hn::Load(d, buf + 2 * i * N), hi = hn::Load(d, buf + (2 * i + 1) * N);
      hn::Store(add(hn::ConcatEven(d, hi, lo), hn::ConcatOdd(d, hi, lo)), d, buf + i * N);
    }
    nvec /= 2;
  }
  return nvec;
}

// Batches of N packets (N = f32 lanes) keep at least one full vector after the deepest level.
void ReduceTreeBf16(const uint16_t *x, const uint16_t *w, size_t packets, unsigned depth, float *out) {
  assert(depth <= 5);
  const DF d;
  const size_t N = hn::Lanes(d), L = kBf16PacketLanes, outPer = L >> depth;
  HWY_ALIGN float buf[kBf16PacketLanes * HWY_LANES(float)];
  size_t p = 0;
  for (; p + N <= packets; p += N) {
    const size_t nvec = L;  // N packets * L lanes / N lanes per vector
    const uint16_t *xs = x + p * L, *ws = w + p * L;
    for (size_t v = 0; v < nvec; ++v)
      hn::Store(Flush(d, hn::Mul(LoadBf16(d, xs + v * N), LoadBf16(d, ws + v * N))), d, buf + v * N);
    const size_t left = PairLevels(d, buf, nvec, depth, [d](auto a, auto b) { return Flush(d, hn::Add(a, b)); });
    float *o = out + p * outPer;
    for (size_t v = 0; v < left; ++v) hn::StoreU(Canon(d, hn::Load(d, buf + v * N)), d, o + v * N);
  }
  ref::reduceTreeBf16(x + p * L, w + p * L, packets - p, depth, out + p * outPer);
}

// Integer sums are exact (|sum| <= 64 * 2^14), so any association gives the tree's result; the same
// pair levels are used anyway so partial depths come out in lane order. Level 1 is the widening
// multiply-pairwise-add (x86 pmaddwd): lane j = x[2j]*w[2j] + x[2j+1]*w[2j+1].
void ReduceTreeI8(const int8_t *x, const int8_t *w, size_t packets, unsigned depth, int32_t *out) {
  assert(depth <= 6);
  const DI d;
  const hn::Repartition<int16_t, DI> d16;  // 2N lanes
  const hn::Rebind<int8_t, decltype(d16)> d8x2;
  const hn::Rebind<int8_t, DI> d8;
  const size_t N = hn::Lanes(d), L = kI8PacketLanes, outPer = L >> depth;
  HWY_ALIGN int32_t buf[kI8PacketLanes * HWY_LANES(int32_t)];
  size_t p = 0;
  for (; p + N <= packets; p += N) {
    const int8_t *xs = x + p * L, *ws = w + p * L;
    size_t left;
    if (depth == 0) {
      for (size_t v = 0; v < L; ++v) {
        const auto a = hn::PromoteTo(d, hn::LoadU(d8, xs + v * N)), b = hn::PromoteTo(d, hn::LoadU(d8, ws + v * N));
        hn::Store(hn::Mul(a, b), d, buf + v * N);
      }
      left = L;
    } else {
      for (size_t v = 0; v < L / 2; ++v) {
        const auto a = hn::PromoteTo(d16, hn::LoadU(d8x2, xs + v * 2 * N));
        const auto b = hn::PromoteTo(d16, hn::LoadU(d8x2, ws + v * 2 * N));
        auto sum1 = hn::Zero(d);
        const auto sum0 = hn::ReorderWidenMulAccumulate(d, a, b, hn::Zero(d), sum1);
        hn::Store(hn::RearrangeToOddPlusEven(sum0, sum1), d, buf + v * N);
      }
      left = PairLevels(d, buf, L / 2, depth - 1, [](auto u, auto v) { return hn::Add(u, v); });
    }
    int32_t *o = out + p * outPer;
    for (size_t v = 0; v < left; ++v) hn::StoreU(hn::Load(d, buf + v * N), d, o + v * N);
  }
  ref::reduceTreeI8(x + p * L, w + p * L, packets - p, depth, out + p * outPer);
}

// ---- elementwise i32 ----
template <class Op>
HWY_INLINE void BinaryI32(const int32_t *a, const int32_t *b, int32_t *out, size_t n, Op op,
                          void (*tail)(const int32_t *, const int32_t *, int32_t *, size_t)) {
  const DI d;
  const size_t N = hn::Lanes(d);
  size_t i = 0;
  for (; i + N <= n; i += N) hn::StoreU(op(d, hn::LoadU(d, a + i), hn::LoadU(d, b + i)), d, out + i);
  tail(a + i, b + i, out + i, n - i);
}

// Saturation bound with the sign of `a`: a < 0 ? INT32_MIN : INT32_MAX.
HWY_INLINE hn::Vec<DI> BoundLike(DI d, hn::Vec<DI> a) { return hn::Xor(hn::ShiftRight<31>(a), hn::Set(d, INT32_MAX)); }

struct AddWrapOp { HWY_INLINE hn::Vec<DI> operator()(DI, hn::Vec<DI> a, hn::Vec<DI> b) const { return hn::Add(a, b); } };
struct SubWrapOp { HWY_INLINE hn::Vec<DI> operator()(DI, hn::Vec<DI> a, hn::Vec<DI> b) const { return hn::Sub(a, b); } };
struct MulWrapOp { HWY_INLINE hn::Vec<DI> operator()(DI, hn::Vec<DI> a, hn::Vec<DI> b) const { return hn::Mul(a, b); } };
struct AddSatOp {
  HWY_INLINE hn::Vec<DI> operator()(DI d, hn::Vec<DI> a, hn::Vec<DI> b) const {
    const auto r = hn::Add(a, b);
    const auto overflow = hn::And(hn::Xor(a, r), hn::Xor(b, r));  // sign set iff a, b agree and r differs
    return hn::IfThenElse(hn::Lt(overflow, hn::Zero(d)), BoundLike(d, a), r);
  }
};
struct SubSatOp {
  HWY_INLINE hn::Vec<DI> operator()(DI d, hn::Vec<DI> a, hn::Vec<DI> b) const {
    const auto r = hn::Sub(a, b);
    const auto overflow = hn::And(hn::Xor(a, b), hn::Xor(a, r));  // sign set iff a, b differ and r != sign(a)
    return hn::IfThenElse(hn::Lt(overflow, hn::Zero(d)), BoundLike(d, a), r);
  }
};
struct MulSatOp {
  HWY_INLINE hn::Vec<DI64> Clamp(DI64 d, hn::Vec<DI64> p) const {
    const auto hi = hn::Set(d, int64_t(INT32_MAX)), lo = hn::Set(d, int64_t(INT32_MIN));
    p = hn::IfThenElse(hn::Gt(p, hi), hi, p);
    return hn::IfThenElse(hn::Lt(p, lo), lo, p);
  }
  HWY_INLINE hn::Vec<DI> operator()(DI d, hn::Vec<DI> a, hn::Vec<DI> b) const {
    const DI64 d64;
    const DU64 du64;
    // Exact 64-bit products of even lanes, then of odd lanes moved down into even position.
    const auto even = Clamp(d64, hn::MulEven(a, b));
    const auto ao = hn::BitCast(d, hn::ShiftRight<32>(hn::BitCast(du64, a)));
    const auto bo = hn::BitCast(d, hn::ShiftRight<32>(hn::BitCast(du64, b)));
    const auto odd = Clamp(d64, hn::MulEven(ao, bo));
    return hn::OddEven(hn::BitCast(d, hn::ShiftLeft<32>(hn::BitCast(du64, odd))), hn::BitCast(d, even));
  }
};

void AddWrapI32(const int32_t *a, const int32_t *b, int32_t *o, size_t n) { BinaryI32(a, b, o, n, AddWrapOp(), ref::addWrapI32); }
void AddSatI32(const int32_t *a, const int32_t *b, int32_t *o, size_t n) { BinaryI32(a, b, o, n, AddSatOp(), ref::addSatI32); }
void SubWrapI32(const int32_t *a, const int32_t *b, int32_t *o, size_t n) { BinaryI32(a, b, o, n, SubWrapOp(), ref::subWrapI32); }
void SubSatI32(const int32_t *a, const int32_t *b, int32_t *o, size_t n) { BinaryI32(a, b, o, n, SubSatOp(), ref::subSatI32); }
void MulWrapI32(const int32_t *a, const int32_t *b, int32_t *o, size_t n) { BinaryI32(a, b, o, n, MulWrapOp(), ref::mulWrapI32); }
void MulSatI32(const int32_t *a, const int32_t *b, int32_t *o, size_t n) { BinaryI32(a, b, o, n, MulSatOp(), ref::mulSatI32); }

// ---- elementwise f32: flush inputs, IEEE op, flush + canonicalize result ----
template <class Op>
HWY_INLINE void BinaryF32(const float *a, const float *b, float *out, size_t n, Op op,
                          void (*tail)(const float *, const float *, float *, size_t)) {
  const DF d;
  const size_t N = hn::Lanes(d);
  size_t i = 0;
  for (; i + N <= n; i += N) {
    const auto x = Flush(d, hn::LoadU(d, a + i)), y = Flush(d, hn::LoadU(d, b + i));
    hn::StoreU(Canon(d, op(x, y)), d, out + i);
  }
  tail(a + i, b + i, out + i, n - i);
}
void AddF32(const float *a, const float *b, float *o, size_t n) {
  BinaryF32(a, b, o, n, [](auto x, auto y) { return hn::Add(x, y); }, ref::addF32);
}
void SubF32(const float *a, const float *b, float *o, size_t n) {
  BinaryF32(a, b, o, n, [](auto x, auto y) { return hn::Sub(x, y); }, ref::subF32);
}
void MulF32(const float *a, const float *b, float *o, size_t n) {
  BinaryF32(a, b, o, n, [](auto x, auto y) { return hn::Mul(x, y); }, ref::mulF32);
}

#endif  // HWY_TARGET == HWY_SCALAR
}  // namespace HWY_NAMESPACE
}  // namespace tcp::num
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace tcp::num {

HWY_EXPORT(TargetNameImpl);
HWY_EXPORT(Bf16ToF32);
HWY_EXPORT(F32ToBf16);
HWY_EXPORT(ReduceTreeBf16);
HWY_EXPORT(ReduceTreeI8);
HWY_EXPORT(AddWrapI32);
HWY_EXPORT(AddSatI32);
HWY_EXPORT(SubWrapI32);
HWY_EXPORT(SubSatI32);
HWY_EXPORT(MulWrapI32);
HWY_EXPORT(MulSatI32);
HWY_EXPORT(AddF32);
HWY_EXPORT(SubF32);
HWY_EXPORT(MulF32);

const char *kernelTargetName() { return HWY_DYNAMIC_DISPATCH(TargetNameImpl)(); }

std::vector<std::string> compiledKernelTargets() {
  std::vector<std::string> names;
  // Lower bits are better targets in Highway's encoding.
  for (int64_t t = HWY_TARGETS; t != 0; t &= t - 1) names.emplace_back(hwy::TargetName(t & -t));
  return names;
}

void bf16ToF32(const uint16_t *in, float *out, size_t n) { HWY_DYNAMIC_DISPATCH(Bf16ToF32)(in, out, n); }
void f32ToBf16(const float *in, uint16_t *out, size_t n) { HWY_DYNAMIC_DISPATCH(F32ToBf16)(in, out, n); }
void reduceTreeBf16(const uint16_t *x, const uint16_t *w, size_t packets, unsigned depth, float *out) {
  HWY_DYNAMIC_DISPATCH(ReduceTreeBf16)(x, w, packets, depth, out);
}
void reduceTreeI8(const int8_t *x, const int8_t *w, size_t packets, unsigned depth, int32_t *out) {
  HWY_DYNAMIC_DISPATCH(ReduceTreeI8)(x, w, packets, depth, out);
}
void addWrapI32(const int32_t *a, const int32_t *b, int32_t *o, size_t n) { HWY_DYNAMIC_DISPATCH(AddWrapI32)(a, b, o, n); }
void addSatI32(const int32_t *a, const int32_t *b, int32_t *o, size_t n) { HWY_DYNAMIC_DISPATCH(AddSatI32)(a, b, o, n); }
void subWrapI32(const int32_t *a, const int32_t *b, int32_t *o, size_t n) { HWY_DYNAMIC_DISPATCH(SubWrapI32)(a, b, o, n); }
void subSatI32(const int32_t *a, const int32_t *b, int32_t *o, size_t n) { HWY_DYNAMIC_DISPATCH(SubSatI32)(a, b, o, n); }
void mulWrapI32(const int32_t *a, const int32_t *b, int32_t *o, size_t n) { HWY_DYNAMIC_DISPATCH(MulWrapI32)(a, b, o, n); }
void mulSatI32(const int32_t *a, const int32_t *b, int32_t *o, size_t n) { HWY_DYNAMIC_DISPATCH(MulSatI32)(a, b, o, n); }
void addF32(const float *a, const float *b, float *o, size_t n) { HWY_DYNAMIC_DISPATCH(AddF32)(a, b, o, n); }
void subF32(const float *a, const float *b, float *o, size_t n) { HWY_DYNAMIC_DISPATCH(SubF32)(a, b, o, n); }
void mulF32(const float *a, const float *b, float *o, size_t n) { HWY_DYNAMIC_DISPATCH(MulF32)(a, b, o, n); }

}  // namespace tcp::num
#endif  // HWY_ONCE

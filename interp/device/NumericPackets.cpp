// NumericPackets.cpp — the Reducer tree over gathered f32 packets (the contraction fast path; Highway per target) and its scalar reference.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "NumericPackets.cpp"  // found through the interp/device include directory
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

#if HWY_TARGET == HWY_SCALAR
void ReduceTreeF32Packets(const float *x, const uint32_t *xIdx, const float *w, const uint32_t *wIdx, size_t packets,
                          unsigned depth, bool noSubnormals, float *out) {
  ref::reduceTreeF32Packets(x, xIdx, w, wIdx, packets, depth, noSubnormals, out);
}
#else
// The helpers are this file's own (NumericTiles.cpp has a FlushIf, a Canon and a Tree of its own).
namespace {
using DF = hn::ScalableTag<float>;
using DU = hn::ScalableTag<uint32_t>;
constexpr size_t kL = kBf16PacketLanes;

// Subnormal -> zero of the same sign (as NumericKernels.cpp's Flush), or nothing when the caller has
// shown that no value can be subnormal.
template <bool kFlush>
HWY_INLINE hn::Vec<DF> FlushIf(DF d, hn::Vec<DF> v) {
  if constexpr (!kFlush) {
    return v;
  } else {
    const auto tiny = hn::Lt(hn::Abs(v), hn::Set(d, FLT_MIN));
    return hn::IfThenElse(tiny, hn::And(v, hn::Set(d, -0.0f)), v);
  }
}
HWY_INLINE hn::Vec<DF> Canon(DF d, hn::Vec<DF> v) {
  const auto nan = hn::BitCast(d, hn::Set(DU(), kCanonicalNanF32));
  return hn::IfThenElse(hn::IsNaN(v), nan, FlushIf<true>(d, v));
}

// A group is N packets (N = f32 lanes): 32 leaf vectors, leaf v = lanes [v*N, v*N + N) of the group's
// lane stream. PairLevels in NumericKernels.cpp makes vector i of level l from vectors 2i and 2i+1 of
// level l - 1; Node<l>(v) is the same vector computed depth-first, in registers.
template <int kLevel, bool kFlush>
struct Tree {
  static HWY_INLINE hn::Vec<DF> Node(DF d, const float *const *xs, const float *const *ws, size_t v) {
    const auto lo = Tree<kLevel - 1, kFlush>::Node(d, xs, ws, 2 * v);
    const auto hi = Tree<kLevel - 1, kFlush>::Node(d, xs, ws, 2 * v + 1);
    return FlushIf<kFlush>(d, hn::Add(hn::ConcatEven(d, hi, lo), hn::ConcatOdd(d, hi, lo)));
  }
};
template <bool kFlush>
struct Tree<0, kFlush> {
  static HWY_INLINE hn::Vec<DF> Node(DF d, const float *const *xs, const float *const *ws, size_t v) {
    const size_t lane = v * hn::Lanes(d), q = lane / kL, off = lane % kL;
    return FlushIf<kFlush>(d, hn::Mul(hn::LoadU(d, xs[q] + off), hn::LoadU(d, ws[q] + off)));
  }
};

template <int kDepth, bool kFlush>
size_t Groups(const float *x, const uint32_t *xIdx, const float *w, const uint32_t *wIdx, size_t packets, float *out) {
  const DF d;
  const size_t N = hn::Lanes(d), outPer = kL >> kDepth;
  const float *xs[64], *ws[64];
  assert(N <= 64 && N <= kL);
  size_t p = 0;
  for (; p + N <= packets; p += N) {
    for (size_t q = 0; q < N; ++q) {
      xs[q] = x + size_t(xIdx[p + q]) * kL;
      ws[q] = w + size_t(wIdx[p + q]) * kL;
    }
    float *o = out + p * outPer;
    for (size_t i = 0; i < (kL >> kDepth); ++i) hn::StoreU(Canon(d, Tree<kDepth, kFlush>::Node(d, xs, ws, i)), d, o + i * N);
  }
  return p;
}

template <bool kFlush>
size_t GroupsAt(unsigned depth, const float *x, const uint32_t *xIdx, const float *w, const uint32_t *wIdx, size_t packets,
                float *out) {
  switch (depth) {
    case 0: return Groups<0, kFlush>(x, xIdx, w, wIdx, packets, out);
    case 1: return Groups<1, kFlush>(x, xIdx, w, wIdx, packets, out);
    case 2: return Groups<2, kFlush>(x, xIdx, w, wIdx, packets, out);
    case 3: return Groups<3, kFlush>(x, xIdx, w, wIdx, packets, out);
    case 4: return Groups<4, kFlush>(x, xIdx, w, wIdx, packets, out);
    default: return Groups<5, kFlush>(x, xIdx, w, wIdx, packets, out);
  }
}
}  // namespace

void ReduceTreeF32Packets(const float *x, const uint32_t *xIdx, const float *w, const uint32_t *wIdx, size_t packets,
                          unsigned depth, bool noSubnormals, float *out) {
  assert(depth <= 5);
  const size_t done = noSubnormals ? GroupsAt<false>(depth, x, xIdx, w, wIdx, packets, out)
                                   : GroupsAt<true>(depth, x, xIdx, w, wIdx, packets, out);
  ref::reduceTreeF32Packets(x, xIdx + done, w, wIdx + done, packets - done, depth, noSubnormals,
                            out + done * (kL >> depth));
}
#endif  // HWY_TARGET == HWY_SCALAR

}  // namespace HWY_NAMESPACE
}  // namespace tcp::num
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace tcp::num {

HWY_EXPORT(ReduceTreeF32Packets);

void reduceTreeF32Packets(const float *x, const uint32_t *xIdx, const float *w, const uint32_t *wIdx, size_t packets,
                          unsigned depth, bool noSubnormals, float *out) {
  HWY_DYNAMIC_DISPATCH(ReduceTreeF32Packets)(x, xIdx, w, wIdx, packets, depth, noSubnormals, out);
}

namespace ref {
void reduceTreeF32Packets(const float *x, const uint32_t *xIdx, const float *w, const uint32_t *wIdx, size_t packets,
                          unsigned depth, bool, float *out) {
  assert(depth <= 5);
  const size_t L = kBf16PacketLanes;
  for (size_t p = 0; p < packets; ++p) {
    const float *a = x + size_t(xIdx[p]) * L, *b = w + size_t(wIdx[p]) * L;
    float lane[kBf16PacketLanes];
    for (size_t j = 0; j < L; ++j) lane[j] = num::mulF32(a[j], b[j]);
    size_t count = L;
    for (unsigned k = 0; k < depth; ++k) {
      count /= 2;
      for (size_t j = 0; j < count; ++j) lane[j] = num::addF32(lane[2 * j], lane[2 * j + 1]);
    }
    for (size_t j = 0; j < count; ++j) out[p * count + j] = canonicalizeF32(lane[j]);
  }
}
}  // namespace ref

}  // namespace tcp::num
#endif  // HWY_ONCE

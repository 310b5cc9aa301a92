// NumericTiles.cpp — the contraction's blocked kernels (Highway per target) and their scalar references: the Reducer tree over transposed tiles of f32 packets, the accumulator's gathered adds.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "NumericTiles.cpp"  // found through the interp/device include directory
#include <hwy/foreach_target.h>                // IWYU pragma: keep
#include <hwy/highway.h>

#include "NumericKernels.h"
#include "Numerics.h"

#include <algorithm>
#include <cassert>
#include <cfloat>
#include <cstring>

HWY_BEFORE_NAMESPACE();
namespace tcp::num {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

#if HWY_TARGET == HWY_SCALAR || HWY_HAVE_SCALABLE
void ReduceTreeF32Tiles(const float *tiles, const float *bcast, const TileTask *tasks, size_t count, const uint32_t *outIdx,
                        unsigned depth, size_t outLanes, bool noSubnormals, float *out) {
  ref::reduceTreeF32Tiles(tiles, bcast, tasks, count, outIdx, depth, outLanes, noSubnormals, out);
}
void AddGatherF32(float *acc, const float *src, const int32_t *idx, size_t n) { ref::addGatherF32(acc, src, idx, n); }
void AccumulateRunsF32(const float *src, const int32_t *bases, size_t rounds, size_t runs, float *out) {
  ref::accumulateRunsF32(src, bases, rounds, runs, out);
}
#else
// The helpers are this file's own (NumericPackets.cpp has a FlushIf, a Canon and a Tree of its own).
namespace {
// At most kTileLanes f32 lanes per vector: a tile's lane v is one packet (AVX-512: all 16 at once;
// AVX2: 8 at a time, a partial tile of at most 8 packets in one; 128-bit targets: 4 at a time).
using DT = hn::CappedTag<float, kTileLanes>;
using VT = hn::Vec<DT>;
constexpr size_t kL = kBf16PacketLanes;

template <bool kFlush>
HWY_INLINE VT FlushIf(DT d, VT v) {
  if constexpr (!kFlush) {
    return v;
  } else {
    const auto tiny = hn::Lt(hn::Abs(v), hn::Set(d, FLT_MIN));
    return hn::IfThenElse(tiny, hn::And(v, hn::Set(d, -0.0f)), v);
  }
}
HWY_INLINE VT Canon(DT d, VT v) {
  const auto nan = hn::BitCast(d, hn::Set(hn::RebindToUnsigned<DT>(), kCanonicalNanF32));
  return hn::IfThenElse(hn::IsNaN(v), nan, FlushIf<true>(d, v));
}

// Node<l>(v) of kB trees at once: the level-l sum v of the packets tile lane (one per vector lane)
// times broadcast packet b, built depth-first in registers with the pair order of reduceTreeBf16
// (vector = lanes [sub, sub + N) of the tile; leaf j = tile row j times broadcast lane j).
template <int kLevel, int kB, bool kFlush>
struct Tree {
  static HWY_INLINE void Node(DT d, const float *tile, const float *const *bs, size_t v, VT *res) {
    VT lo[kB], hi[kB];
    Tree<kLevel - 1, kB, kFlush>::Node(d, tile, bs, 2 * v, lo);
    Tree<kLevel - 1, kB, kFlush>::Node(d, tile, bs, 2 * v + 1, hi);
    for (int b = 0; b < kB; ++b) res[b] = FlushIf<kFlush>(d, hn::Add(lo[b], hi[b]));
  }
};
template <int kB, bool kFlush>
struct Tree<0, kB, kFlush> {
  static HWY_INLINE void Node(DT d, const float *tile, const float *const *bs, size_t v, VT *res) {
    const VT t = hn::LoadU(d, tile + v * kTileLanes);
    for (int b = 0; b < kB; ++b) res[b] = FlushIf<kFlush>(d, hn::Mul(t, hn::Set(d, bs[b][v])));
  }
};

// Packet of tile lane v of task t (its output position / outLanes).
HWY_INLINE size_t PacketOf(const TileTask &t, const uint32_t *outIdx, size_t v) {
  return t.step != 0 ? size_t(t.out0) + v * size_t(t.step) : size_t(outIdx[t.out0 + v]);
}

// kB tasks over the same tile: every sum q < outLanes of each, stored at its packet's place.
template <int kDepth, int kB, bool kFlush>
HWY_INLINE void Block(const float *tiles, const float *bcast, const TileTask *ts, const uint32_t *outIdx, size_t outLanes,
                      float *out) {
  const DT d;
  const size_t N = hn::Lanes(d);
  const float *bs[kB];
  for (int b = 0; b < kB; ++b) bs[b] = bcast + size_t(ts[b].bcast) * kL;
  HWY_ALIGN float lanes[kTileLanes];
  const size_t tileLanes = ts[0].lanes;  // (tasks on one tile: one count)
  for (size_t sub = 0; sub < tileLanes; sub += N) {
    const float *tile = tiles + size_t(ts[0].tile) * kL * kTileLanes + sub;
    const size_t n = std::min(N, tileLanes - sub);
    for (size_t q = 0; q < outLanes; ++q) {
      VT res[kB];
      Tree<kDepth, kB, kFlush>::Node(d, tile, bs, q, res);
      for (int b = 0; b < kB; ++b) {
        hn::Store(Canon(d, res[b]), d, lanes);
        if (ts[b].step != 0) {
          const size_t stride = size_t(ts[b].step) * outLanes;
          float *o = out + (size_t(ts[b].out0) + sub * size_t(ts[b].step)) * outLanes + q;
          for (size_t v = 0; v < n; ++v) o[v * stride] = lanes[v];
        } else {
          for (size_t v = 0; v < n; ++v) out[PacketOf(ts[b], outIdx, sub + v) * outLanes + q] = lanes[v];
        }
      }
    }
  }
}

template <int kDepth, bool kFlush>
void Tasks(const float *tiles, const float *bcast, const TileTask *tasks, size_t count, const uint32_t *outIdx,
           size_t outLanes, float *out) {
  constexpr int kB = kDepth >= 4 ? 4 : 1;  // broadcast packets per tile load (shallow trees keep 1)
  size_t i = 0;
  while (i < count) {
    size_t run = 1;  // tasks on the same tile
    while (i + run < count && tasks[i + run].tile == tasks[i].tile) ++run;
    size_t j = 0;
    for (; j + kB <= run; j += kB) Block<kDepth, kB, kFlush>(tiles, bcast, tasks + i + j, outIdx, outLanes, out);
    for (; j < run; ++j) Block<kDepth, 1, kFlush>(tiles, bcast, tasks + i + j, outIdx, outLanes, out);
    i += run;
  }
}

template <bool kFlush>
void TasksAt(unsigned depth, const float *tiles, const float *bcast, const TileTask *tasks, size_t count,
             const uint32_t *outIdx, size_t outLanes, float *out) {
  switch (depth) {
    case 0: return Tasks<0, kFlush>(tiles, bcast, tasks, count, outIdx, outLanes, out);
    case 1: return Tasks<1, kFlush>(tiles, bcast, tasks, count, outIdx, outLanes, out);
    case 2: return Tasks<2, kFlush>(tiles, bcast, tasks, count, outIdx, outLanes, out);
    case 3: return Tasks<3, kFlush>(tiles, bcast, tasks, count, outIdx, outLanes, out);
    case 4: return Tasks<4, kFlush>(tiles, bcast, tasks, count, outIdx, outLanes, out);
    default: return Tasks<5, kFlush>(tiles, bcast, tasks, count, outIdx, outLanes, out);
  }
}
}  // namespace

void ReduceTreeF32Tiles(const float *tiles, const float *bcast, const TileTask *tasks, size_t count, const uint32_t *outIdx,
                        unsigned depth, size_t outLanes, bool noSubnormals, float *out) {
  assert(depth <= 5 && outLanes <= (kL >> depth));
  if (noSubnormals) TasksAt<false>(depth, tiles, bcast, tasks, count, outIdx, outLanes, out);
  else TasksAt<true>(depth, tiles, bcast, tasks, count, outIdx, outLanes, out);
}
// acc[i] = addF32(acc[i], src[idx[i]]): operands flushed, the sum flushed and canonicalized.
void AddGatherF32(float *acc, const float *src, const int32_t *idx, size_t n) {
  using DF = hn::ScalableTag<float>;
  const DF d;
  const hn::RebindToSigned<DF> di;
  const size_t N = hn::Lanes(d);
  auto flush = [&](hn::Vec<DF> v) {
    return hn::IfThenElse(hn::Lt(hn::Abs(v), hn::Set(d, FLT_MIN)), hn::And(v, hn::Set(d, -0.0f)), v);
  };
  const auto nan = hn::BitCast(d, hn::Set(hn::RebindToUnsigned<DF>(), kCanonicalNanF32));
  size_t i = 0;
  for (; i + N <= n; i += N) {
    const auto a = flush(hn::LoadU(d, acc + i)), b = flush(hn::GatherIndex(d, src, hn::LoadU(di, idx + i)));
    const auto sum = hn::Add(a, b);
    hn::StoreU(hn::IfThenElse(hn::IsNaN(sum), nan, flush(sum)), d, acc + i);
  }
  ref::addGatherF32(acc + i, src, idx + i, n - i);
}
// The same adds over kRunLanes consecutive sources per round, the sums kept in registers: four runs
// side by side, as each round's add waits on the one before.
void AccumulateRunsF32(const float *src, const int32_t *bases, size_t rounds, size_t runs, float *out) {
  using DR = hn::CappedTag<float, kRunLanes>;
  using VR = hn::Vec<DR>;
  const DR d;
  const size_t N = hn::Lanes(d);
  auto flush = [&](VR v) { return hn::IfThenElse(hn::Lt(hn::Abs(v), hn::Set(d, FLT_MIN)), hn::And(v, hn::Set(d, -0.0f)), v); };
  const VR nan = hn::BitCast(d, hn::Set(hn::RebindToUnsigned<DR>(), kCanonicalNanF32));
  auto add = [&](VR a, VR b) {
    const VR sum = hn::Add(flush(a), flush(b));
    return hn::IfThenElse(hn::IsNaN(sum), nan, flush(sum));
  };
  size_t k = 0;
  for (; k + 4 <= runs; k += 4) {
    const int32_t *b0 = bases + k * rounds, *b1 = b0 + rounds, *b2 = b1 + rounds, *b3 = b2 + rounds;
    for (size_t j = 0; j < kRunLanes; j += N) {
      VR v0 = hn::LoadU(d, src + b0[0] + j), v1 = hn::LoadU(d, src + b1[0] + j);
      VR v2 = hn::LoadU(d, src + b2[0] + j), v3 = hn::LoadU(d, src + b3[0] + j);
      for (size_t r = 1; r < rounds; ++r) {
        v0 = add(v0, hn::LoadU(d, src + b0[r] + j));
        v1 = add(v1, hn::LoadU(d, src + b1[r] + j));
        v2 = add(v2, hn::LoadU(d, src + b2[r] + j));
        v3 = add(v3, hn::LoadU(d, src + b3[r] + j));
      }
      float *o = out + k * kRunLanes + j;
      hn::StoreU(v0, d, o);
      hn::StoreU(v1, d, o + kRunLanes);
      hn::StoreU(v2, d, o + 2 * kRunLanes);
      hn::StoreU(v3, d, o + 3 * kRunLanes);
    }
  }
  for (; k < runs; ++k) {
    const int32_t *b = bases + k * rounds;
    for (size_t j = 0; j < kRunLanes; j += N) {
      VR v = hn::LoadU(d, src + b[0] + j);
      for (size_t r = 1; r < rounds; ++r) v = add(v, hn::LoadU(d, src + b[r] + j));
      hn::StoreU(v, d, out + k * kRunLanes + j);
    }
  }
}
#endif  // HWY_TARGET == HWY_SCALAR || HWY_HAVE_SCALABLE

}  // namespace HWY_NAMESPACE
}  // namespace tcp::num
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace tcp::num {

HWY_EXPORT(ReduceTreeF32Tiles);
HWY_EXPORT(AddGatherF32);
HWY_EXPORT(AccumulateRunsF32);

void addGatherF32(float *acc, const float *src, const int32_t *idx, size_t n) {
  HWY_DYNAMIC_DISPATCH(AddGatherF32)(acc, src, idx, n);
}
void accumulateRunsF32(const float *src, const int32_t *bases, size_t rounds, size_t runs, float *out) {
  HWY_DYNAMIC_DISPATCH(AccumulateRunsF32)(src, bases, rounds, runs, out);
}

void reduceTreeF32Tiles(const float *tiles, const float *bcast, const TileTask *tasks, size_t count,
                        const uint32_t *outIdx, unsigned depth, size_t outLanes, bool noSubnormals, float *out) {
  HWY_DYNAMIC_DISPATCH(ReduceTreeF32Tiles)(tiles, bcast, tasks, count, outIdx, depth, outLanes, noSubnormals, out);
}

namespace ref {
void addGatherF32(float *acc, const float *src, const int32_t *idx, size_t n) {
  for (size_t i = 0; i < n; ++i) acc[i] = num::addF32(acc[i], src[idx[i]]);
}
void accumulateRunsF32(const float *src, const int32_t *bases, size_t rounds, size_t runs, float *out) {
  for (size_t k = 0; k < runs; ++k) {
    const int32_t *b = bases + k * rounds;
    float *o = out + k * kRunLanes;
    std::memcpy(o, src + b[0], kRunLanes * sizeof(float));  // the first arrival's bits as they are
    for (size_t r = 1; r < rounds; ++r)
      for (size_t j = 0; j < kRunLanes; ++j) o[j] = num::addF32(o[j], src[size_t(b[r]) + j]);
  }
}
void reduceTreeF32Tiles(const float *tiles, const float *bcast, const TileTask *tasks, size_t count,
                        const uint32_t *outIdx, unsigned depth, size_t outLanes, bool, float *out) {
  assert(depth <= 5);
  const size_t L = kBf16PacketLanes;
  for (size_t i = 0; i < count; ++i) {
    const TileTask &t = tasks[i];
    const float *tile = tiles + size_t(t.tile) * L * kTileLanes, *b = bcast + size_t(t.bcast) * L;
    for (size_t v = 0; v < t.lanes; ++v) {
      float lane[kBf16PacketLanes];
      for (size_t j = 0; j < L; ++j) lane[j] = num::mulF32(tile[j * kTileLanes + v], b[j]);
      size_t n = L;
      for (unsigned k = 0; k < depth; ++k) {
        n /= 2;
        for (size_t j = 0; j < n; ++j) lane[j] = num::addF32(lane[2 * j], lane[2 * j + 1]);
      }
      size_t k = t.step != 0 ? size_t(t.out0) + v * size_t(t.step) : size_t(outIdx[t.out0 + v]);
      for (size_t q = 0; q < outLanes; ++q) out[k * outLanes + q] = canonicalizeF32(lane[q]);
    }
  }
}
}  // namespace ref

}  // namespace tcp::num
#endif  // HWY_ONCE

// NumericKernels.h — vectorized (Highway runtime-dispatched) RNGD hot loops, each with its scalar reference.
//
// Every kernel in tcp::num has a twin in tcp::num::ref implementing the same rule one element at a time
// with the scalar functions of Numerics.h. The vector version must be bit-identical to the reference on
// every input (tests/unit/numerics_test.cpp checks this on every compiled target the CPU supports).
// Float rules are those of Numerics.h (RNE, subnormals flushed to signed zero, canonical NaN).
//
// ---- Reducer tree order ----------------------------------------------------------------------------
// A packet holds L = 2^D lanes (bf16: L = 32, D = 5; i8: L = 64, D = 6). Lane j's product is
//   p[0][j] = mul(x[j], w[j])                       (bf16: mulF32 of the widened operands: exact or flushed)
// and level k (1 <= k <= D) adds ADJACENT pairs of level k-1:
//   p[k][j] = add(p[k-1][2j], p[k-1][2j+1])          j = 0 .. L/2^k - 1
// i.e. (0,1),(2,3),... then ((0,1),(2,3)),((4,5),(6,7)),... For floats `add` is addF32 (flush after every
// add); for integers it is exact i32 addition. A partial depth d < D leaves L/2^d sums per packet,
// sum j covering lanes [j*2^d, (j+1)*2^d) — the manual's "spatial reduction eliminates Packet % 2^n".
//
// ---- Temporal accumulation (dot products) ------------------------------------------------------------
// dot*(a, b, n) splits n elements into packets (the last one zero-padded: missing lanes are products +0),
// reduces each with the full tree and accumulates packet sums in order like the Reducer's accumulator:
// acc = s[0] (store), then acc = add(acc, s[t]) for t = 1, 2, ... (floats: addF32; ints: wrapping i32).
// dot of zero elements is +0.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace tcp::num {

inline constexpr unsigned kBf16PacketLanes = 32;  // 64-byte MAC packet, tree depth 5
inline constexpr unsigned kI8PacketLanes = 64;    // tree depth 6

// ---- Dispatch introspection ----
// Highway target the dispatcher selects on this CPU (e.g. "AVX3", "AVX2", "SSE4", "EMU128").
const char *kernelTargetName();
// Highway targets compiled into this binary, best first (each is used only if the CPU supports it).
std::vector<std::string> compiledKernelTargets();

// ---- Conversions (RNGD rules) ----
void bf16ToF32(const uint16_t *in, float *out, size_t n);
void f32ToBf16(const float *in, uint16_t *out, size_t n);

// ---- Reducer spatial tree ----
// x, w: `packets` packets of 2^D lanes each; out: packets * 2^(D - depth) sums (depth <= D).
void reduceTreeBf16(const uint16_t *x, const uint16_t *w, size_t packets, unsigned depth, float *out);
void reduceTreeI8(const int8_t *x, const int8_t *w, size_t packets, unsigned depth, int32_t *out);
// The bf16 tree over gathered packets (NumericPackets.cpp; the contraction fast path): packet k is the
// 32 f32 lanes at x + xIdx[k] * 32 times those at w + wIdx[k] * 32, bf16 values widened to f32 with
// subnormals flushed (NaN payloads may vary). Same products, pair order, flushes and canonical NaN as
// reduceTreeBf16; out: packets * (32 >> depth) sums. noSubnormals: the caller has shown that no
// product or sum can be subnormal (every nonzero value is a multiple of some g >= FLT_MIN), so the
// flushes, which would change nothing, are skipped.
void reduceTreeF32Packets(const float *x, const uint32_t *xIdx, const float *w, const uint32_t *wIdx, size_t packets,
                          unsigned depth, bool noSubnormals, float *out);
// The same tree over transposed tiles (NumericTiles.cpp; the contraction's blocked path). A tile holds
// kTileLanes packets of 32 f32 lanes transposed: lane j of tile packet v at tile[j * kTileLanes + v].
// Task t multiplies each packet of tile t.tile by the packet at bcast + t.bcast * 32 (one operand
// broadcast over the tile), and writes tile packet v's sums q < outLanes at out[k * outLanes + q], k =
// t.out0 + v * t.step (or outIdx[t.out0 + v] when step is 0). Tasks on the same tile should be
// adjacent (they share its loads). Same products, pair order, flushes and canonical NaN as
// reduceTreeBf16; noSubnormals as for reduceTreeF32Packets. A tile holds `lanes` packets (its tasks
// share it): a partial tile's other lanes repeat its last packet and are not written.
inline constexpr unsigned kTileLanes = 16;
struct TileTask {
  uint32_t tile, bcast, out0;
  int32_t step;
  uint32_t lanes = kTileLanes;  // the tile's packets: lanes [0, lanes) of it
};
void reduceTreeF32Tiles(const float *tiles, const float *bcast, const TileTask *tasks, size_t count,
                        const uint32_t *outIdx, unsigned depth, size_t outLanes, bool noSubnormals, float *out);
// The accumulator's adds over gathered sources (NumericTiles.cpp): acc[i] = addF32(acc[i], src[idx[i]]), i < n.
void addGatherF32(float *acc, const float *src, const int32_t *idx, size_t n);
// The accumulator over runs of kRunLanes destinations whose sources are consecutive in every round,
// in registers, several runs at once (NumericTiles.cpp). Run k (bases[k * rounds ...]):
// out[k * kRunLanes + j] = src[bases[k * rounds] + j] (its bits as they are), then addF32 of
// src[bases[k * rounds + r] + j] for r = 1 .. rounds - 1 in order; rounds >= 1.
inline constexpr unsigned kRunLanes = 8;
void accumulateRunsF32(const float *src, const int32_t *bases, size_t rounds, size_t runs, float *out);
// Widened dot products: spatial tree per packet, then temporal accumulation (see above).
float dotBf16(const uint16_t *a, const uint16_t *b, size_t n);
int32_t dotI8(const int8_t *a, const int8_t *b, size_t n);

// ---- Elementwise i32 (Vector Engine Fxp cluster) ----
void addWrapI32(const int32_t *a, const int32_t *b, int32_t *out, size_t n);  // AddFxp
void addSatI32(const int32_t *a, const int32_t *b, int32_t *out, size_t n);   // AddFxpSat
void subWrapI32(const int32_t *a, const int32_t *b, int32_t *out, size_t n);  // SubFxp
void subSatI32(const int32_t *a, const int32_t *b, int32_t *out, size_t n);   // SubFxpSat
void mulWrapI32(const int32_t *a, const int32_t *b, int32_t *out, size_t n);  // MulInt
void mulSatI32(const int32_t *a, const int32_t *b, int32_t *out, size_t n);   // saturating integer multiply

// ---- Elementwise f32 (Vector Engine float cluster) ----
void addF32(const float *a, const float *b, float *out, size_t n);
void subF32(const float *a, const float *b, float *out, size_t n);
void mulF32(const float *a, const float *b, float *out, size_t n);

// ---- Scalar references: same signatures and results, one element at a time ----
namespace ref {
void bf16ToF32(const uint16_t *in, float *out, size_t n);
void f32ToBf16(const float *in, uint16_t *out, size_t n);
void reduceTreeBf16(const uint16_t *x, const uint16_t *w, size_t packets, unsigned depth, float *out);
void reduceTreeI8(const int8_t *x, const int8_t *w, size_t packets, unsigned depth, int32_t *out);
void reduceTreeF32Packets(const float *x, const uint32_t *xIdx, const float *w, const uint32_t *wIdx, size_t packets,
                          unsigned depth, bool noSubnormals, float *out);  // always flushes
void reduceTreeF32Tiles(const float *tiles, const float *bcast, const TileTask *tasks, size_t count,
                        const uint32_t *outIdx, unsigned depth, size_t outLanes, bool noSubnormals, float *out);  // always flushes
void addGatherF32(float *acc, const float *src, const int32_t *idx, size_t n);
void accumulateRunsF32(const float *src, const int32_t *bases, size_t rounds, size_t runs, float *out);
float dotBf16(const uint16_t *a, const uint16_t *b, size_t n);
int32_t dotI8(const int8_t *a, const int8_t *b, size_t n);
void addWrapI32(const int32_t *a, const int32_t *b, int32_t *out, size_t n);
void addSatI32(const int32_t *a, const int32_t *b, int32_t *out, size_t n);
void subWrapI32(const int32_t *a, const int32_t *b, int32_t *out, size_t n);
void subSatI32(const int32_t *a, const int32_t *b, int32_t *out, size_t n);
void mulWrapI32(const int32_t *a, const int32_t *b, int32_t *out, size_t n);
void mulSatI32(const int32_t *a, const int32_t *b, int32_t *out, size_t n);
void addF32(const float *a, const float *b, float *out, size_t n);
void subF32(const float *a, const float *b, float *out, size_t n);
void mulF32(const float *a, const float *b, float *out, size_t n);
// Naive left-to-right sum of the lane products of one bf16 packet (NOT the RNGD order; for tests).
float sequentialDotBf16(const uint16_t *a, const uint16_t *b, size_t n);
}  // namespace ref

}  // namespace tcp::num

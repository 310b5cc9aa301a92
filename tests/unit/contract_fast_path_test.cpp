// contract_fast_path_test.cpp — the contraction fast path equals the reference element by element (random shapes, types, weights, every Highway target).
#include "DeviceContract.h"
#include "DeviceMemory.h"
#include "NumericKernels.h"
#include "Numerics.h"

#include <gtest/gtest.h>
#include <hwy/targets.h>

#include <algorithm>
#include <cstring>
#include <functional>
#include <random>
#include <vector>

using namespace tcp;
using namespace tcp::interp;

namespace {

void forEachTarget(const std::function<void()> &body) {
  struct Restore {
    ~Restore() { hwy::SetSupportedTargetsForTest(0); }
  } restore;
  for (int64_t t : hwy::SupportedAndGeneratedTargets()) {
    hwy::SetSupportedTargetsForTest(t);
    SCOPED_TRACE(hwy::TargetName(t));
    body();
  }
}

// A random element of `d` as a stream lane (bits right-aligned, integers sign-extended). `tiny` makes
// bf16 values with small exponents (products and sums then underflow: the flushing kernel runs).
uint32_t randomLane(std::mt19937 &rng, num::DType d, bool tiny) {
  unsigned bits = num::storageBits(d);
  uint32_t v = rng() & ((bits >= 32 ? 0u : (1u << bits)) - 1u);
  if (d == num::DType::bf16) {
    switch (rng() % 16) {
      case 0: return 0x7FC0u | (rng() & 0x3Fu);            // NaNs with payloads
      case 1: return (rng() & 1) ? 0x7F80u : 0xFF80u;       // infinities
      case 2: return (rng() & 0x8000u) | (rng() & 0x7Fu);   // subnormals (DAZ) and zeros
      default: break;
    }
    uint32_t exp = tiny ? 1 + rng() % 60 : 100 + rng() % 40;
    return (rng() & 0x8000u) | (exp << 7) | (rng() & 0x7Fu);
  }
  if (num::isInteger(d) && bits < 32) {
    uint32_t m = 1u << (bits - 1);
    v = (v ^ m) - m;
  }
  return v;
}

struct Case {
  num::DType d;
  ContractShape shape;
  unsigned depth;
  std::vector<int32_t> wpos;
  std::vector<uint32_t> cur;
  std::vector<uint8_t> trf;
};

// Weight positions in the layouts chains produce (contiguous packets repeating over time, as the
// GEMM sample's) and in arbitrary ones (random positions, masked lanes, whole zero packets).
Case randomCase(std::mt19937 &rng, num::DType d, bool tiny) {
  Case c;
  c.d = d;
  unsigned D = num::reducerTreeDepth(d);
  size_t L = size_t(1) << D;
  size_t P = 1 + rng() % L;
  if (rng() % 2) P = L;
  c.depth = unsigned(rng() % (D + 1));
  size_t sums = L >> c.depth, Q = 1 + rng() % sums;
  size_t R = 1 + rng() % 8, T = 1 + rng() % 200;
  c.shape = ContractShape{R, T, P, L, Q, sums};
  size_t rowElems = kTrfRowBytes * 8 / num::storageBits(d);
  size_t period = 1 + rng() % 8;  // time steps after which the weights repeat
  int layout = int(rng() % 3);
  c.wpos.resize(R * T * P);
  for (size_t r = 0; r < R; ++r)
    for (size_t t = 0; t < T; ++t)
      for (size_t p = 0; p < P; ++p) {
        int32_t &w = c.wpos[(r * T + t) * P + p];
        size_t tt = t % period;
        if (layout == 0) w = int32_t(r * rowElems + (tt * P + p) % rowElems);
        else if (layout == 1) w = rng() % 5 == 0 ? -1 : int32_t(r * rowElems + rng() % rowElems);
        else w = tt == 0 ? -1 : int32_t(((r + tt) % 8) * rowElems + (p * 3) % rowElems);
      }
  c.cur.resize(T * P);
  for (uint32_t &v : c.cur) v = randomLane(rng, d, tiny);
  c.trf.resize(kTrfBytes);
  ElemCodec codec(d);
  for (size_t i = 0; i < kTrfRows * rowElems; ++i) codec.store(c.trf.data(), i, randomLane(rng, d, tiny));
  return c;
}

}  // namespace

TEST(ContractFastPath, EqualsReferenceOnRandomShapesAndTypes) {
  std::mt19937 rng(1234);
  const num::DType types[] = {num::DType::bf16, num::DType::i8, num::DType::i4, num::DType::i5, num::DType::i9,
                              num::DType::f8e4m3, num::DType::f8e5m2};
  forEachTarget([&] {
    for (num::DType d : types) {
      if (!num::isReducerInput(d)) continue;
      SCOPED_TRACE(num::dtypeName(d));
      for (int trial = 0; trial < 12; ++trial) {
        Case c = randomCase(rng, d, trial % 3 == 0);
        ContractKernel k(d, d, c.depth, c.shape, c.wpos);
        std::vector<uint32_t> fast, ref;
        k.run(c.cur, c.trf.data(), fast);
        k.runReference(c.cur, c.trf.data(), ref);
        ASSERT_EQ(fast.size(), c.shape.rows * c.shape.times * c.shape.outLanes);
        ASSERT_EQ(fast.size(), ref.size());
        for (size_t i = 0; i < ref.size(); ++i)
          ASSERT_EQ(fast[i], ref[i]) << "trial " << trial << ", output " << i << " of R " << c.shape.rows << " T "
                                     << c.shape.times << " P " << c.shape.lanes << " depth " << c.depth << " Q "
                                     << c.shape.outLanes;
      }
    }
  });
}

TEST(ContractFastPath, DistinctWeightPacketsAreGatheredOnce) {
  // The GEMM sample's weights repeat over I: 8 Rows × 4 × 32 distinct packets for 8 × 4096 packets.
  const size_t R = 8, T = 32 * 4 * 32, L = 32;
  std::vector<int32_t> wpos(R * T * L);
  for (size_t r = 0; r < R; ++r)
    for (size_t t = 0; t < T; ++t)
      for (size_t p = 0; p < L; ++p) wpos[(r * T + t) * L + p] = int32_t(r * 4096 + (t % 128) * 32 + p);
  ContractKernel k(num::DType::bf16, num::DType::bf16, 5, ContractShape{R, T, L, L, 1, 1}, wpos);
  EXPECT_EQ(k.distinctWeightPackets(), R * 128);
}

TEST(ContractFastPath, PacketTreeKernelEqualsScalarTreeOnEveryTarget) {
  std::mt19937 rng(99);
  const size_t L = num::kBf16PacketLanes, X = 37, W = 11, packets = 203;
  std::vector<uint16_t> xb(X * L), wb(W * L);
  std::vector<float> x(X * L), w(W * L);
  std::vector<uint32_t> xi(packets), wi(packets);
  for (bool tiny : {false, true}) {
    for (size_t i = 0; i < xb.size(); ++i) xb[i] = uint16_t(randomLane(rng, num::DType::bf16, tiny));
    for (size_t i = 0; i < wb.size(); ++i) wb[i] = uint16_t(randomLane(rng, num::DType::bf16, tiny));
    num::ref::bf16ToF32(xb.data(), x.data(), xb.size());
    num::ref::bf16ToF32(wb.data(), w.data(), wb.size());
    for (size_t k = 0; k < packets; ++k) xi[k] = uint32_t(rng() % X), wi[k] = uint32_t(rng() % W);
    // The same packets materialized for the bf16 reference tree.
    std::vector<uint16_t> mx(packets * L), mw(packets * L);
    for (size_t k = 0; k < packets; ++k) {
      std::memcpy(&mx[k * L], &xb[xi[k] * L], L * 2);
      std::memcpy(&mw[k * L], &wb[wi[k] * L], L * 2);
    }
    forEachTarget([&] {
      for (unsigned depth = 0; depth <= 5; ++depth) {
        std::vector<float> fast(packets * (L >> depth)), ref(fast.size());
        num::reduceTreeF32Packets(x.data(), xi.data(), w.data(), wi.data(), packets, depth, false, fast.data());
        num::ref::reduceTreeBf16(mx.data(), mw.data(), packets, depth, ref.data());
        for (size_t i = 0; i < ref.size(); ++i)
          ASSERT_EQ(num::f32Bits(fast[i]), num::f32Bits(ref[i])) << "depth " << depth << " sum " << i << " tiny " << tiny;
      }
    });
  }
}

namespace {
// run() equals runReference() bit for bit on every compiled target, for random bf16 streams of
// `lanes` lanes and TRFs of `trfElems` random elements, ordinary and tiny (subnormal products).
void expectFastEqualsReference(const ContractKernel &k, size_t lanes, size_t trfElems, unsigned depth, std::mt19937 &rng) {
  for (bool tiny : {false, true}) {
    std::vector<uint32_t> cur(lanes);
    for (uint32_t &v : cur) v = randomLane(rng, num::DType::bf16, tiny);
    std::vector<uint8_t> trf(kTrfBytes);
    ElemCodec codec(num::DType::bf16);
    for (size_t i = 0; i < trfElems; ++i) codec.store(trf.data(), i, randomLane(rng, num::DType::bf16, tiny));
    forEachTarget([&] {
      std::vector<uint32_t> fast, ref;
      k.run(cur, trf.data(), fast);
      k.runReference(cur, trf.data(), ref);
      ASSERT_EQ(fast.size(), ref.size());
      for (size_t i = 0; i < ref.size(); ++i) ASSERT_EQ(fast[i], ref[i]) << "depth " << depth << " output " << i << " tiny " << tiny;
    });
  }
}
}  // namespace

TEST(ContractFastPath, GemmShapedStepRunsOnTilesAndEqualsReference) {
  // The GEMM sample's layout (weights repeat over I): every packet goes through the blocked tile kernel.
  std::mt19937 rng(7);
  const size_t R = 8, T = 5 * 4 * 32, L = 32;
  std::vector<int32_t> wpos(R * T * L);
  for (size_t r = 0; r < R; ++r)
    for (size_t t = 0; t < T; ++t)
      for (size_t p = 0; p < L; ++p) wpos[(r * T + t) * L + p] = int32_t(r * 4096 + (t % 128) * 32 + p);
  for (unsigned depth : {5u, 3u, 0u}) {
    size_t sums = L >> depth, Q = depth == 3 ? 2 : sums;
    ContractKernel k(num::DType::bf16, num::DType::bf16, depth, ContractShape{R, T, L, L, Q, sums}, wpos);
    EXPECT_EQ(k.tiledPackets(), R * T);
    expectFastEqualsReference(k, T * L, kTrfRows * 4096, depth, rng);
  }
}

TEST(ContractFastPath, WeightTilesWithARestEqualReference) {
  // Every stream packet is read by 20 packets with weights of their own: tiles of weight packets, 16
  // per stream packet, and 4 left over for the per-packet rest;
  // a third of the weight packets are gathered (lanes reversed, one lane zero), not consecutive.
  std::mt19937 rng(11);
  const size_t R = 20, T = 37, L = 32;
  std::vector<int32_t> wpos(R * T * L);
  for (size_t k = 0; k < R * T; ++k)
    for (size_t p = 0; p < L; ++p)
      wpos[k * L + p] = k % 3 == 0 ? (p == 5 ? -1 : int32_t(k * L + (L - 1 - p))) : int32_t(k * L + p);
  for (unsigned depth : {5u, 2u}) {
    const size_t sums = L >> depth;
    ContractKernel k(num::DType::bf16, num::DType::bf16, depth, ContractShape{R, T, L, L, sums, sums}, wpos);
    EXPECT_EQ(k.tiledPackets(), 16 * T);
    expectFastEqualsReference(k, T * L, R * T * L, depth, rng);
  }
}

TEST(ContractFastPath, OutputsInTaskOrderArePacketOrderPermuted) {
  // Tasks whose packets are not affine (weights shared over Rows and J/8: a GEMM's accumulate input),
  // partial tiles and packets in no task: with outputsInTaskOrder every packet's sums land at its slot.
  std::mt19937 rng(5);
  const size_t R = 8, T = 3 * 4 * 32 + 1, L = 32;
  std::vector<int32_t> wpos(R * T * L);
  for (size_t r = 0; r < R; ++r)
    for (size_t t = 0; t < T; ++t)
      for (size_t p = 0; p < L; ++p) wpos[(r * T + t) * L + p] = int32_t(r * 4096 + (t % 128) * 32 + p);
  for (unsigned depth : {5u, 3u}) {
    const size_t sums = L >> depth, Q = depth == 3 ? 2 : sums;
    const ContractShape shape{R, T, L, L, Q, sums};
    ContractKernel plain(num::DType::bf16, num::DType::bf16, depth, shape, wpos);
    ContractKernel ordered(num::DType::bf16, num::DType::bf16, depth, shape, wpos);
    const std::vector<uint32_t> slot = ordered.outputsInTaskOrder();
    ASSERT_EQ(slot.size(), R * T);
    std::vector<uint32_t> sorted = slot;
    std::sort(sorted.begin(), sorted.end());
    for (size_t k = 1; k < sorted.size(); ++k) ASSERT_LT(sorted[k - 1], sorted[k]);  // one slot per packet (a partial tile leaves gaps)
    std::vector<uint32_t> cur(T * L);
    for (uint32_t &v : cur) v = randomLane(rng, num::DType::bf16, false);
    std::vector<uint8_t> trf(kTrfBytes);
    ElemCodec codec(num::DType::bf16);
    for (size_t i = 0; i < kTrfRows * 4096; ++i) codec.store(trf.data(), i, randomLane(rng, num::DType::bf16, false));
    std::vector<uint32_t> a, b;
    plain.run(cur, trf.data(), a);
    ordered.run(cur, trf.data(), b);
    ASSERT_GE(b.size(), (size_t(sorted.back()) + 1) * Q);
    for (size_t k = 0; k < R * T; ++k)
      for (size_t q = 0; q < Q; ++q) ASSERT_EQ(b[slot[k] * Q + q], a[k * Q + q]) << "packet " << k;
  }
}

TEST(ContractFastPath, TileKernelEqualsScalarTreeOnEveryTarget) {
  std::mt19937 rng(5);
  const size_t L = num::kBf16PacketLanes, V = num::kTileLanes, tiles = 9, B = 13, taskCount = 40;
  for (bool tiny : {false, true}) {
    std::vector<uint16_t> tb(tiles * V * L), bb(B * L);  // tile packets (untransposed) and broadcast packets
    for (uint16_t &v : tb) v = uint16_t(randomLane(rng, num::DType::bf16, tiny));
    for (uint16_t &v : bb) v = uint16_t(randomLane(rng, num::DType::bf16, tiny));
    std::vector<float> tf(tb.size()), bf(bb.size()), tiled(tb.size());
    num::ref::bf16ToF32(tb.data(), tf.data(), tb.size());
    num::ref::bf16ToF32(bb.data(), bf.data(), bb.size());
    for (size_t t = 0; t < tiles; ++t)
      for (size_t v = 0; v < V; ++v)
        for (size_t j = 0; j < L; ++j) tiled[(t * L + j) * V + v] = tf[(t * V + v) * L + j];
    // Tasks adjacent by tile (runs of 1 to 6), affine outputs or through outIdx; every packet once.
    std::vector<num::TileTask> tasks;
    std::vector<uint32_t> outIdx;
    for (size_t i = 0; i < taskCount; ++i) {
      uint32_t tile = uint32_t(std::min(tiles - 1, i / 5 + (rng() % 2)));
      if (!tasks.empty() && tile < tasks.back().tile) tile = tasks.back().tile;
      // Some tiles partial: lanes [0, n) only (one count per tile), the others neither computed nor written.
      const uint32_t n = tile % 3 == 0 ? uint32_t(V) : uint32_t(8 + (tile * 5) % (V - 7));
      if (i % 3 == 0) tasks.push_back({tile, uint32_t(rng() % B), uint32_t(i), int32_t(taskCount), n});
      else {
        tasks.push_back({tile, uint32_t(rng() % B), uint32_t(outIdx.size()), 0, n});
        for (size_t v = 0; v < V; ++v) outIdx.push_back(uint32_t(i + v * taskCount));
        std::shuffle(outIdx.end() - V, outIdx.end(), rng);
      }
    }
    forEachTarget([&] {
      for (unsigned depth = 0; depth <= 5; ++depth) {
        const size_t sums = L >> depth, Q = 1 + rng() % sums;
        std::vector<float> fast(taskCount * V * Q, -1.0f), ref(fast.size(), -1.0f);  // (a lane not written stays -1)
        num::reduceTreeF32Tiles(tiled.data(), bf.data(), tasks.data(), tasks.size(), outIdx.data(), depth, Q, false,
                                fast.data());
        // The reference: the materialized packets through the bf16 reference tree.
        for (const num::TileTask &t : tasks)
          for (size_t v = 0; v < t.lanes; ++v) {
            size_t k = t.step ? t.out0 + v * size_t(t.step) : outIdx[t.out0 + v];
            std::vector<float> s(sums);
            num::ref::reduceTreeBf16(&tb[(t.tile * V + v) * L], &bb[t.bcast * L], 1, depth, s.data());
            for (size_t q = 0; q < Q; ++q) ref[k * Q + q] = s[q];
          }
        for (size_t i = 0; i < ref.size(); ++i)
          ASSERT_EQ(num::f32Bits(fast[i]), num::f32Bits(ref[i])) << "depth " << depth << " output " << i << " tiny " << tiny;
      }
    });
  }
}

namespace {
// A bf16 with a biased exponent in [lo, hi] and a random sign and mantissa.
uint32_t bf16WithExponent(std::mt19937 &rng, unsigned lo, unsigned hi) {
  return (rng() & 0x8000u) | ((lo + rng() % (hi - lo + 1)) << 7) | (rng() & 0x7Fu);
}
}  // namespace

TEST(ContractFastPath, StreamReadFromDmEqualsReferenceIncludingOverflowingProducts) {
  // A folded fetch (runFromDm; packets repeat over a broadcast axis, some lanes masked, some packets
  // not contiguous), time classes, and products that overflow f32 (inf - inf in the tree: NaN; a
  // fused multiply-add would give an infinity).
  std::mt19937 rng(11);
  const size_t R = 8, T = 4 * 2 * 32, P = 32, L = 32, dmElems = 8192;
  std::vector<int32_t> wpos(R * T * P), streamPos(T * P);
  std::vector<uint32_t> timeClass(T);
  for (size_t t = 0; t < T; ++t) {
    const size_t i = t / 64, j4 = t / 32 % 2, kc = t % 32;
    timeClass[t] = uint32_t(j4 * 32 + kc);
    for (size_t p = 0; p < P; ++p) {
      int32_t pos = int32_t(i * 1024 + kc * 32 + p);
      if (kc == 3) pos = int32_t((i * 1024 + p * 7) % dmElems);  // not contiguous
      if (kc == 5 && p % 4 == 0) pos = -1;                       // masked
      streamPos[t * P + p] = pos;
      for (size_t r = 0; r < R; ++r) wpos[(r * T + t) * P + p] = int32_t(r * 4096 + timeClass[t] * 32 + p);
    }
  }
  for (bool huge : {false, true}) {
    std::vector<uint8_t> dm(dmElems * 2), trf(kTrfBytes);
    ElemCodec codec(num::DType::bf16);
    for (size_t i = 0; i < dmElems; ++i)
      codec.store(dm.data(), i, huge ? bf16WithExponent(rng, 190, 254) : randomLane(rng, num::DType::bf16, false));
    for (size_t i = 0; i < kTrfRows * 4096; ++i)
      codec.store(trf.data(), i, huge ? bf16WithExponent(rng, 190, 254) : randomLane(rng, num::DType::bf16, false));
    std::vector<uint32_t> cur(T * P, 0);
    for (size_t i = 0; i < cur.size(); ++i)
      if (streamPos[i] >= 0) cur[i] = codec.load(dm.data(), uint64_t(streamPos[i]));
    for (unsigned depth : {5u, 2u}) {
      const size_t sums = L >> depth;
      ContractShape shape{R, T, P, L, sums, sums};
      ContractSource source{&streamPos, &timeClass};
      ContractKernel k(num::DType::bf16, num::DType::bf16, depth, shape,
                       [&](size_t n, int32_t *pos) { std::copy(&wpos[n * P], &wpos[n * P] + P, pos); }, source);
      EXPECT_EQ(k.distinctWeightPackets(), R * 64);
      EXPECT_EQ(k.tiledPackets(), R * T);
      forEachTarget([&] {
        std::vector<uint32_t> fast, ref;
        k.runFromDm(dm.data(), trf.data(), fast);
        k.runReference(cur, trf.data(), ref);
        ASSERT_EQ(fast.size(), ref.size());
        size_t nans = 0;
        for (size_t i = 0; i < ref.size(); ++i) {
          ASSERT_EQ(fast[i], ref[i]) << "huge " << huge << " depth " << depth << " output " << i;
          nans += ref[i] == num::kCanonicalNanF32;
        }
        if (huge && depth == 5) {
          EXPECT_GT(nans, 0u);  // the overflow case is exercised
        }
      });
    }
  }
}

TEST(ContractFastPath, GemvShapedStreamTilesReadFromDmEqualReference) {
  // A GEMV (one Row; every stream packet distinct, the weights repeat): tiles of stream packets are
  // written straight from DM; 20 rows of 16 packets leave a rest (20 = 2 tiles of 8 + 4 per weight).
  std::mt19937 rng(3);
  const size_t R = 1, T = 20 * 16, P = 32, L = 32, dmElems = T * P + 64;
  std::vector<int32_t> wpos(R * T * P), streamPos(T * P);
  std::vector<uint32_t> timeClass(T);
  for (size_t t = 0; t < T; ++t) {
    timeClass[t] = uint32_t(t % 16);
    for (size_t p = 0; p < P; ++p) {
      streamPos[t * P + p] = t % 7 == 3 && p % 5 == 0 ? -1 : int32_t(t * P + p);
      wpos[t * P + p] = int32_t((t % 16) * 32 + p);
    }
  }
  for (bool tiny : {false, true}) {
    std::vector<uint8_t> dm(dmElems * 2), trf(kTrfBytes);
    ElemCodec codec(num::DType::bf16);
    for (size_t i = 0; i < dmElems; ++i) codec.store(dm.data(), i, randomLane(rng, num::DType::bf16, tiny));
    for (size_t i = 0; i < 4096; ++i) codec.store(trf.data(), i, randomLane(rng, num::DType::bf16, tiny));
    std::vector<uint32_t> cur(T * P, 0);
    for (size_t i = 0; i < cur.size(); ++i)
      if (streamPos[i] >= 0) cur[i] = codec.load(dm.data(), uint64_t(streamPos[i]));
    ContractSource source{&streamPos, &timeClass};
    ContractKernel k(num::DType::bf16, num::DType::bf16, 5, ContractShape{R, T, P, L, 1, 1},
                     [&](size_t n, int32_t *pos) { std::copy(&wpos[n * P], &wpos[n * P] + P, pos); }, source);
    EXPECT_EQ(k.tiledPackets(), 16u * 16u);
    forEachTarget([&] {
      std::vector<uint32_t> fast, ref;
      k.runFromDm(dm.data(), trf.data(), fast);
      k.runReference(cur, trf.data(), ref);
      ASSERT_EQ(fast.size(), ref.size());
      for (size_t i = 0; i < ref.size(); ++i) ASSERT_EQ(fast[i], ref[i]) << "tiny " << tiny << " output " << i;
    });
  }
}

TEST(ContractFastPath, APartialTileNeverSharesAFullTilesId) {
  // One broadcast packet over 24 packets whose weight packets are 0..7, 7 eight times, 0..7: the full
  // tile [0..7, 7 x 8] and the partial tile [0..7] padded with 7 hold the same packets, but tasks on one
  // tile share its count, so they must be two tiles.
  std::vector<uint32_t> xid(24, 0), wid;
  for (uint32_t w = 0; w < 8; ++w) wid.push_back(w);
  for (int k = 0; k < 8; ++k) wid.push_back(7);
  for (uint32_t w = 0; w < 8; ++w) wid.push_back(w);
  TilePlan p = TilePlan::of(xid, 1, wid, 8);
  ASSERT_EQ(p.tasks.size(), 2u);
  EXPECT_TRUE(p.rest.empty());
  EXPECT_NE(p.tasks[0].tile, p.tasks[1].tile);
  EXPECT_EQ(p.tasks[0].lanes + p.tasks[1].lanes, 24u);
}

// device_contraction_test.cpp — the Contraction Engine in the CPU model against answer keys: Time broadcast,
// f8 trees, depth-0 truncation with Sequential beats.
#include "DeviceTestUtil.h"

using namespace tcp;
using namespace tcp::interp;
using namespace tcp::devtest;

namespace {

// "Batched MatMul, K contraction by Reducer" (case study) as a kernel: VMK, VNK -> VMN with N = 24
// on 8 Rows (N % 8) and N / 8 = 3 tiled in Time by the Stream Adapter (the stream holds no N).
const std::string kBatchedSource = ContractionKernel{"V = 2, M = 4, N = 24, K = 32", "bf16", "V, M, K", "V, N, K", "f32", "V, M, N", "N % 8", "V, N / 8, K",
       "        .fetch::<bf16, m![N % 8, V, N / 8], m![K]>()\n"
       "        .collect::<m![N % 8, V, N / 8, K / 16], m![K % 16]>()\n",
       "        .fetch::<bf16, m![V, M], m![K]>()\n"
       "        .collect::<m![V, M, K / 16], m![K % 16]>()\n"
       "        .align::<m![V, M, N / 8], m![K], _, _>(&wt)\n"
       "        .contract::<m![1]>()\n"
       "        .accumulate::<m![V, M, N / 8], m![N % 8]>(AccumulationKind::Interleaved)\n"}.source();

// GEMV over K = 64 f8e4m3 lanes: one computation packet per M, the depth-6 tree.
const std::string kF8Source = ContractionKernel{"M = 4, N = 8, K = 64", "f8e4m3", "M, K", "N, K", "f32", "M, N", "N", "K",
       "        .fetch::<f8e4m3, m![N], m![K]>()\n"
       "        .collect::<m![N, K / 32], m![K % 32]>()\n",
       "        .fetch::<f8e4m3, m![M], m![K]>()\n"
       "        .collect::<m![M, K / 32], m![K % 32]>()\n"
       "        .align::<m![M], m![K], _, _>(&wt)\n"
       "        .contract::<m![1]>()\n"
       "        .accumulate::<m![M], m![N]>(AccumulationKind::Interleaved)\n"}.source();

// Depth 0 on a 64-lane i8 packet: the Reducer keeps the first 32 products ("Reducer" > Resize), which
// Sequential mode outputs in 8-element beats (Packet_outer = K % 32 / 8 joins Time after the Row).
const std::string kTruncSource = ContractionKernel{"M = 4, N = 8, K = 64", "i8", "M, K", "N, K", "i32", "M, N, K % 32", "N", "K",
       "        .fetch::<i8, m![N], m![K]>()\n"
       "        .collect::<m![N, K / 32], m![K % 32]>()\n",
       "        .fetch::<i8, m![M], m![K]>()\n"
       "        .collect::<m![M, K / 32], m![K % 32]>()\n"
       "        .align::<m![M], m![K], _, _>(&wt)\n"
       "        .contract::<m![K % 32]>()\n"
       "        .accumulate::<m![M, N, K % 32 / 8], m![K % 8]>(AccumulationKind::Sequential)\n"}.source();

// Adjacent pairwise f32 adds over `lanes` widened products (the Reducer tree's order).
float treeSum(std::vector<float> level) {
  while (level.size() > 1) {
    std::vector<float> next(level.size() / 2);
    for (size_t j = 0; j < next.size(); ++j) next[j] = num::addF32(level[2 * j], level[2 * j + 1]);
    level = std::move(next);
  }
  return level[0];
}

HostData f8Host(MappingRef m, uint32_t seed) {
  std::mt19937 rng(seed);
  HostData h;
  h.dtype = num::DType::f8e4m3;
  h.mapping = m;
  h.bits.assign(m->size(), 0);
  for (uint64_t i = 0; i < m->size(); ++i) h.bits[i] = rng() & 0xF7;  // exponent < 15: no NaN
  return h;
}

}  // namespace

TEST(DeviceContraction, TimeBroadcastTilesActivations) {
  Kernel k = compileKernel("batched.tcp", kBatchedSource.c_str());
  ASSERT_TRUE(k.fn);
  const TensorType &xt = k.fn->params[0].second, &wt = k.fn->params[1].second;
  HostData x = randomHost(num::DType::bf16, xt.element, 31), w = randomHost(num::DType::bf16, wt.element, 32);
  Device dev(1);
  dev.toHbm(x, xt, 0);
  dev.toHbm(w, wt, 1 << 28);
  uint64_t out = timedLaunch(dev, *k.fn, *k.cfg, {0, 1 << 28}, "batched matmul 2x4x24x32");
  HostData res = dev.toHost(*k.fn->result, out, k.fn->result->element);
  const size_t V = 2, M = 4, N = 24, K = 32;
  ASSERT_EQ(res.bits.size(), V * M * N);
  for (size_t v = 0; v < V; ++v)
    for (size_t m = 0; m < M; ++m)
      for (size_t n = 0; n < N; ++n) {
        std::vector<float> p(K);
        for (size_t kk = 0; kk < K; ++kk)
          p[kk] = num::mulF32(bf(x.bits[(v * M + m) * K + kk]), bf(w.bits[(v * N + n) * K + kk]));
        EXPECT_EQ(res.bits[(v * M + m) * N + n], num::f32Bits(treeSum(p))) << v << "," << m << "," << n;
      }
}

TEST(DeviceContraction, F8TreeOfDepthSix) {
  Kernel k = compileKernel("f8.tcp", kF8Source.c_str());
  ASSERT_TRUE(k.fn);
  const TensorType &xt = k.fn->params[0].second, &wt = k.fn->params[1].second;
  HostData x = f8Host(xt.element, 41), w = f8Host(wt.element, 42);
  Device dev(1);
  dev.toHbm(x, xt, 0);
  dev.toHbm(w, wt, 1 << 28);
  uint64_t out = timedLaunch(dev, *k.fn, *k.cfg, {0, 1 << 28}, "f8 gemv 4x8x64");
  HostData res = dev.toHost(*k.fn->result, out, k.fn->result->element);
  const size_t M = 4, N = 8, K = 64;
  ASSERT_EQ(res.bits.size(), M * N);
  auto f8 = [](uint32_t b) { return num::floatToF32(num::DType::f8e4m3, b); };
  for (size_t m = 0; m < M; ++m)
    for (size_t n = 0; n < N; ++n) {
      std::vector<float> p(K);
      for (size_t kk = 0; kk < K; ++kk) p[kk] = num::mulF32(f8(x.bits[m * K + kk]), f8(w.bits[n * K + kk]));
      EXPECT_EQ(res.bits[m * N + n], num::f32Bits(treeSum(p))) << m << "," << n;
    }
}

TEST(DeviceContraction, DepthZeroTruncatesToThirtyTwoLanes) {
  Kernel k = compileKernel("trunc.tcp", kTruncSource.c_str());
  ASSERT_TRUE(k.fn);
  const TensorType &xt = k.fn->params[0].second, &wt = k.fn->params[1].second;
  HostData x = randomHost(num::DType::i8, xt.element, 51), w = randomHost(num::DType::i8, wt.element, 52);
  Device dev(1);
  dev.toHbm(x, xt, 0);
  dev.toHbm(w, wt, 1 << 28);
  uint64_t out = timedLaunch(dev, *k.fn, *k.cfg, {0, 1 << 28}, "i8 depth-0 4x8x64");
  HostData res = dev.toHost(*k.fn->result, out, k.fn->result->element);
  const size_t M = 4, N = 8, K = 64;
  ASSERT_EQ(res.bits.size(), M * N * 32);
  for (size_t m = 0; m < M; ++m)
    for (size_t n = 0; n < N; ++n)
      for (size_t kk = 0; kk < 32; ++kk)
        EXPECT_EQ(int32_t(res.bits[(m * N + n) * 32 + kk]),
                  int32_t(int8_t(x.bits[m * K + kk])) * int32_t(int8_t(w.bits[n * K + kk])))
            << m << "," << n << "," << kk;
}

namespace {

// A 1-D convolution with shift-reuse ("2D Convolution" case studies, Filter-Stride 1 on W only):
// the two flits of $(W + Fw) (32 bf16) stay in the flit buffer while Fw = 0, 1, 2 shifts them.
const std::string kConvSource = ContractionKernel{"K = 4, W = 30, Fw = 3, C = 8", "bf16", "K, $(W + Fw)", "C, K, Fw", "f32", "C, W # 32", "C", "K, Fw",
       "        .fetch::<bf16, m![C], m![K, Fw]>()\n"
       "        .collect::<m![C], m![[K, Fw] # 16]>()\n",
       "        .fetch::<bf16, m![K], m![$(W + Fw)]>()\n"
       "        .collect::<m![K, $(W + Fw) / 16], m![$(W + Fw) % 16]>()\n"
       "        .align::<m![K, Fw], m![W # 32], _, _>(&wt)\n"
       "        .contract::<m![W # 32]>()\n"
       "        .accumulate::<m![C, W # 32 / 8], m![W # 32 % 8]>(AccumulationKind::Sequential)\n"}.source();

}  // namespace

TEST(DeviceContraction, ShiftReuseSlidesTheWindow) {
  Kernel k = compileKernel("conv.tcp", kConvSource.c_str());
  ASSERT_TRUE(k.fn);
  const TensorType &xt = k.fn->params[0].second, &wt = k.fn->params[1].second;
  HostData x = randomHost(num::DType::bf16, xt.element, 61), w = randomHost(num::DType::bf16, wt.element, 62);
  Device dev(1);
  dev.toHbm(x, xt, 0);
  dev.toHbm(w, wt, 1 << 28);
  uint64_t out = timedLaunch(dev, *k.fn, *k.cfg, {0, 1 << 28}, "conv 1d shift-reuse");
  HostData res = dev.toHost(*k.fn->result, out, k.fn->result->element);
  const size_t K = 4, W = 30, F = 3, C = 8;
  ASSERT_EQ(res.bits.size(), C * 32);
  for (size_t c = 0; c < C; ++c)
    for (size_t wi = 0; wi < W; ++wi) {
      float acc = 0;
      for (size_t kk = 0; kk < K; ++kk)  // time order: K outer, Fw inner; depth 0: one product per lane
        for (size_t f = 0; f < F; ++f) {
          float p = num::mulF32(bf(x.bits[kk * 32 + wi + f]), bf(w.bits[(c * K + kk) * F + f]));
          acc = kk == 0 && f == 0 ? p : num::addF32(acc, p);
        }
      EXPECT_EQ(res.bits[c * 32 + wi], num::f32Bits(acc)) << c << "," << wi;
    }
}

namespace {

// The manual's Interleaved example ("Reducer" > Interleaved Mode, line 4453) as a kernel: depth 2 leaves
// m![K % 16 / 4 # 8] whose padding the program slices; Interleaved appends K % 16 / 4 to OutTime.
const std::string kInterleavedSource = ContractionKernel{"M = 4, N = 8, K = 64", "bf16", "M, K", "N, K", "f32", "M, K % 16 / 4, N", "N", "K",
       "        .fetch::<bf16, m![N], m![K]>()\n"
       "        .collect::<m![N, K / 16], m![K % 16]>()\n",
       "        .fetch::<bf16, m![K / 16, M], m![K % 16]>()\n"
       "        .collect::<m![K / 16, M], m![K % 16]>()\n"
       "        .align::<m![K / 16, M], m![K % 16 # 32], _, _>(&wt)\n"
       "        .contract::<m![K % 16 / 4]>()\n"
       "        .accumulate::<m![M, K % 16 / 4], m![N]>(AccumulationKind::Interleaved)\n"}.source();

}  // namespace

TEST(DeviceContraction, InterleavedWithSlicedPadding) {
  Kernel k = compileKernel("interleaved.tcp", kInterleavedSource.c_str());
  ASSERT_TRUE(k.fn);
  const TensorType &xt = k.fn->params[0].second, &wt = k.fn->params[1].second;
  HostData x = randomHost(num::DType::bf16, xt.element, 71), w = randomHost(num::DType::bf16, wt.element, 72);
  Device dev(1);
  dev.toHbm(x, xt, 0);
  dev.toHbm(w, wt, 1 << 28);
  uint64_t out = timedLaunch(dev, *k.fn, *k.cfg, {0, 1 << 28}, "interleaved 4x8x64");
  HostData res = dev.toHost(*k.fn->result, out, k.fn->result->element);
  const size_t M = 4, N = 8, K = 64;
  ASSERT_EQ(res.bits.size(), M * 4 * N);
  auto prod = [&](size_t m, size_t n, size_t kk) { return num::mulF32(bf(x.bits[m * K + kk]), bf(w.bits[n * K + kk])); };
  for (size_t m = 0; m < M; ++m)
    for (size_t k4 = 0; k4 < 4; ++k4)
      for (size_t n = 0; n < N; ++n) {
        float acc = 0;
        for (size_t k16 = 0; k16 < 4; ++k16) {  // K / 16 in time order; the depth-2 tree sums 4 adjacent lanes
          size_t b = k16 * 16 + k4 * 4;
          float s = num::addF32(num::addF32(prod(m, n, b), prod(m, n, b + 1)), num::addF32(prod(m, n, b + 2), prod(m, n, b + 3)));
          acc = k16 == 0 ? s : num::addF32(acc, s);
        }
        EXPECT_EQ(res.bits[(m * 4 + k4) * N + n], num::f32Bits(acc)) << m << "," << k4 << "," << n;
      }
}

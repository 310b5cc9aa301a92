// device_contraction_test.cpp — the Contraction Engine in the CPU model against answer keys: Time broadcast,
// f8 trees, depth-0 truncation with Sequential beats.
#include "DeviceTestUtil.h"

using namespace tcp;
using namespace tcp::interp;
using namespace tcp::devtest;

namespace {

// "Batched MatMul, K contraction by Reducer" (case study) as a kernel: VMK, VNK -> VMN with N = 24
// on 8 Rows (N % 8) and N / 8 = 3 tiled in Time by the Stream Adapter (the stream holds no N).
const char *kBatchedSource = R"tcp(axes![V = 2, M = 4, N = 24, K = 32];

type Chip = m![1];
type Cluster = m![1 # 2];
type Slice = m![1 # 256];

#[device(chip = 1)]
fn kernel(
    ctx: &mut Context,
    x: &HbmTensor<bf16, Chip, m![V, M, K]>,
    w: &HbmTensor<bf16, Chip, m![V, N, K]>,
) -> HbmTensor<f32, Chip, m![V, M, N]> {
    let x: DmTensor<bf16, Chip, Cluster, Slice, m![V, M, K]> = x.to_dm(&mut ctx.tdma, 0);
    let w: DmTensor<bf16, Chip, Cluster, Slice, m![V, N, K]> = w.to_dm(&mut ctx.tdma, 1 << 12);
    let wt: TrfTensor<bf16, Chip, Cluster, Slice, m![N % 8], m![V, N / 8, K]> = ctx
        .sub
        .begin(w.view())
        .fetch::<bf16, m![N % 8, V, N / 8], m![K]>()
        .collect::<m![N % 8, V, N / 8, K / 16], m![K % 16]>()
        .to_trf(TrfAddress::Full);
    let r: DmTensor<f32, Chip, Cluster, Slice, m![V, M, N]> = ctx
        .main
        .begin(x.view())
        .fetch::<bf16, m![V, M], m![K]>()
        .collect::<m![V, M, K / 16], m![K % 16]>()
        .align::<m![V, M, N / 8], m![K], _, _>(&wt)
        .contract::<m![1]>()
        .accumulate::<m![V, M, N / 8], m![N % 8]>(AccumulationKind::Interleaved)
        .commit(1 << 13);
    r.to_hbm(&mut ctx.tdma, 2 << 28)
}
)tcp";

// GEMV over K = 64 f8e4m3 lanes: one computation packet per M, the depth-6 tree.
const char *kF8Source = R"tcp(axes![M = 4, N = 8, K = 64];

type Chip = m![1];
type Cluster = m![1 # 2];
type Slice = m![1 # 256];

#[device(chip = 1)]
fn kernel(
    ctx: &mut Context,
    x: &HbmTensor<f8e4m3, Chip, m![M, K]>,
    w: &HbmTensor<f8e4m3, Chip, m![N, K]>,
) -> HbmTensor<f32, Chip, m![M, N]> {
    let x: DmTensor<f8e4m3, Chip, Cluster, Slice, m![M, K]> = x.to_dm(&mut ctx.tdma, 0);
    let w: DmTensor<f8e4m3, Chip, Cluster, Slice, m![N, K]> = w.to_dm(&mut ctx.tdma, 1 << 12);
    let wt: TrfTensor<f8e4m3, Chip, Cluster, Slice, m![N], m![K]> = ctx
        .sub
        .begin(w.view())
        .fetch::<f8e4m3, m![N], m![K]>()
        .collect::<m![N, K / 32], m![K % 32]>()
        .to_trf(TrfAddress::Full);
    let r: DmTensor<f32, Chip, Cluster, Slice, m![M, N]> = ctx
        .main
        .begin(x.view())
        .fetch::<f8e4m3, m![M], m![K]>()
        .collect::<m![M, K / 32], m![K % 32]>()
        .align::<m![M], m![K], _, _>(&wt)
        .contract::<m![1]>()
        .accumulate::<m![M], m![N]>(AccumulationKind::Interleaved)
        .commit(1 << 13);
    r.to_hbm(&mut ctx.tdma, 2 << 28)
}
)tcp";

// Depth 0 on a 64-lane i8 packet: the Reducer keeps the first 32 products ("Reducer" > Resize), which
// Sequential mode outputs in 8-element beats (Packet_outer = K % 32 / 8 joins Time after the Row).
const char *kTruncSource = R"tcp(axes![M = 4, N = 8, K = 64];

type Chip = m![1];
type Cluster = m![1 # 2];
type Slice = m![1 # 256];

#[device(chip = 1)]
fn kernel(
    ctx: &mut Context,
    x: &HbmTensor<i8, Chip, m![M, K]>,
    w: &HbmTensor<i8, Chip, m![N, K]>,
) -> HbmTensor<i32, Chip, m![M, N, K % 32]> {
    let x: DmTensor<i8, Chip, Cluster, Slice, m![M, K]> = x.to_dm(&mut ctx.tdma, 0);
    let w: DmTensor<i8, Chip, Cluster, Slice, m![N, K]> = w.to_dm(&mut ctx.tdma, 1 << 12);
    let wt: TrfTensor<i8, Chip, Cluster, Slice, m![N], m![K]> = ctx
        .sub
        .begin(w.view())
        .fetch::<i8, m![N], m![K]>()
        .collect::<m![N, K / 32], m![K % 32]>()
        .to_trf(TrfAddress::Full);
    let r: DmTensor<i32, Chip, Cluster, Slice, m![M, N, K % 32]> = ctx
        .main
        .begin(x.view())
        .fetch::<i8, m![M], m![K]>()
        .collect::<m![M, K / 32], m![K % 32]>()
        .align::<m![M], m![K], _, _>(&wt)
        .contract::<m![K % 32]>()
        .accumulate::<m![M, N, K % 32 / 8], m![K % 8]>(AccumulationKind::Sequential)
        .commit(1 << 13);
    r.to_hbm(&mut ctx.tdma, 2 << 28)
}
)tcp";

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
  Kernel k = compileKernel("batched.tcp", kBatchedSource);
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
  Kernel k = compileKernel("f8.tcp", kF8Source);
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
  Kernel k = compileKernel("trunc.tcp", kTruncSource);
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
const char *kConvSource = R"tcp(axes![K = 4, W = 30, Fw = 3, C = 8];

type Chip = m![1];
type Cluster = m![1 # 2];
type Slice = m![1 # 256];

#[device(chip = 1)]
fn kernel(
    ctx: &mut Context,
    x: &HbmTensor<bf16, Chip, m![K, $(W + Fw)]>,
    w: &HbmTensor<bf16, Chip, m![C, K, Fw]>,
) -> HbmTensor<f32, Chip, m![C, W # 32]> {
    let x: DmTensor<bf16, Chip, Cluster, Slice, m![K, $(W + Fw)]> = x.to_dm(&mut ctx.tdma, 0);
    let w: DmTensor<bf16, Chip, Cluster, Slice, m![C, K, Fw]> = w.to_dm(&mut ctx.tdma, 1 << 12);
    let wt: TrfTensor<bf16, Chip, Cluster, Slice, m![C], m![K, Fw]> = ctx
        .sub
        .begin(w.view())
        .fetch::<bf16, m![C], m![K, Fw]>()
        .collect::<m![C], m![[K, Fw] # 16]>()
        .to_trf(TrfAddress::Full);
    let r: DmTensor<f32, Chip, Cluster, Slice, m![C, W # 32]> = ctx
        .main
        .begin(x.view())
        .fetch::<bf16, m![K], m![$(W + Fw)]>()
        .collect::<m![K, $(W + Fw) / 16], m![$(W + Fw) % 16]>()
        .align::<m![K, Fw], m![W # 32], _, _>(&wt)
        .contract::<m![W # 32]>()
        .accumulate::<m![C, W # 32 / 8], m![W # 32 % 8]>(AccumulationKind::Sequential)
        .commit(1 << 13);
    r.to_hbm(&mut ctx.tdma, 2 << 28)
}
)tcp";

}  // namespace

TEST(DeviceContraction, ShiftReuseSlidesTheWindow) {
  Kernel k = compileKernel("conv.tcp", kConvSource);
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
const char *kInterleavedSource = R"tcp(axes![M = 4, N = 8, K = 64];

type Chip = m![1];
type Cluster = m![1 # 2];
type Slice = m![1 # 256];

#[device(chip = 1)]
fn kernel(
    ctx: &mut Context,
    x: &HbmTensor<bf16, Chip, m![M, K]>,
    w: &HbmTensor<bf16, Chip, m![N, K]>,
) -> HbmTensor<f32, Chip, m![M, K % 16 / 4, N]> {
    let x: DmTensor<bf16, Chip, Cluster, Slice, m![M, K]> = x.to_dm(&mut ctx.tdma, 0);
    let w: DmTensor<bf16, Chip, Cluster, Slice, m![N, K]> = w.to_dm(&mut ctx.tdma, 1 << 12);
    let wt: TrfTensor<bf16, Chip, Cluster, Slice, m![N], m![K]> = ctx
        .sub
        .begin(w.view())
        .fetch::<bf16, m![N], m![K]>()
        .collect::<m![N, K / 16], m![K % 16]>()
        .to_trf(TrfAddress::Full);
    let r: DmTensor<f32, Chip, Cluster, Slice, m![M, K % 16 / 4, N]> = ctx
        .main
        .begin(x.view())
        .fetch::<bf16, m![K / 16, M], m![K % 16]>()
        .collect::<m![K / 16, M], m![K % 16]>()
        .align::<m![K / 16, M], m![K % 16 # 32], _, _>(&wt)
        .contract::<m![K % 16 / 4]>()
        .accumulate::<m![M, K % 16 / 4], m![N]>(AccumulationKind::Interleaved)
        .commit(1 << 13);
    r.to_hbm(&mut ctx.tdma, 2 << 28)
}
)tcp";

}  // namespace

TEST(DeviceContraction, InterleavedWithSlicedPadding) {
  Kernel k = compileKernel("interleaved.tcp", kInterleavedSource);
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

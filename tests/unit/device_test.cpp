// device_test.cpp — the CPU model of TCP: HBM transfers through mappings and the manual's kernels against scalar answer keys.
#include "Device.h"
#include "Driver.h"
#include "MappingTestUtil.h"
#include "NumericKernels.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <llvm/Support/raw_ostream.h>
#include <random>

using namespace tcp;
using namespace tcp::interp;

namespace {

MappingRef parseMapping(const tcp::testing::Axes &axes, const std::string &text) {
  return tcp::testing::MappingParser(axes.table, text).parse();
}

TensorType hbmType(num::DType d, MappingRef chip, MappingRef element) {
  TensorType t;
  t.tier = Tier::Hbm;
  t.dtype = d;
  t.chip = std::move(chip);
  t.element = std::move(element);
  return t;
}

HostData randomHost(num::DType d, MappingRef m, uint32_t seed) {
  std::mt19937 rng(seed);
  HostData h;
  h.dtype = d;
  h.mapping = m;
  h.bits.assign(m->size(), 0);
  for (uint64_t i = 0; i < m->size(); ++i) {
    if (!m->map(i)) continue;
    uint32_t r = rng();
    switch (d) {
      case num::DType::i8: h.bits[i] = uint32_t(int32_t(int8_t(r))); break;
      case num::DType::i4: h.bits[i] = uint32_t(int32_t(r % 16) - 8); break;
      case num::DType::i16: h.bits[i] = uint32_t(int32_t(int16_t(r))); break;
      case num::DType::bf16: h.bits[i] = num::f32ToBf16(std::uniform_real_distribution<float>(-1.f, 1.f)(rng)); break;
      default: h.bits[i] = r; break;
    }
  }
  return h;
}

// The value at each tensor index, for comparing tensors laid out by different mappings.
std::map<std::string, uint32_t> byIndex(const HostData &h, const AxisTable &axes) {
  std::map<std::string, uint32_t> out;
  for (uint64_t i = 0; i < h.mapping->size(); ++i)
    if (auto idx = h.mapping->map(i)) {
      idx->sortBy(axes);
      out[idx->str()] = h.bits[i];
    }
  return out;
}

struct Kernel {
  std::unique_ptr<Compilation> comp;
  const TypedFunction *fn = nullptr;
  const FunctionConfig *cfg = nullptr;
};

Kernel compileKernel(const std::string &relPath, const char *text = nullptr) {
  Kernel k;
  k.comp = std::make_unique<Compilation>(llvm::errs());
  EXPECT_TRUE(text ? k.comp->loadText(text, relPath) : k.comp->load(std::string(TCP_SOURCE_DIR) + "/" + relPath));
  EXPECT_TRUE(k.comp->run(Phase::Config, nullptr)) << relPath;
  for (const TypedFunction &f : k.comp->typed().functions)
    if (f.isDevice) k.fn = &f;
  if (k.fn)
    for (const FunctionConfig &c : k.comp->lowered().functions)
      if (c.name == k.fn->name) k.cfg = &c;
  EXPECT_TRUE(k.fn && k.cfg) << relPath;
  return k;
}

// Launches and reports the wall time in the test log.
uint64_t timedLaunch(Device &dev, const TypedFunction &fn, const FunctionConfig &cfg, const std::vector<uint64_t> &args,
                     const char *what) {
  auto t0 = std::chrono::steady_clock::now();
  std::optional<uint64_t> out;
  try {
    out = dev.launch(fn, cfg, args);
  } catch (const DeviceError &e) {
    ADD_FAILURE() << what << ": " << e.message;
    return 0;
  }
  double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  std::printf("[ timing   ] %s: launch %.1f ms\n", what, ms);
  EXPECT_TRUE(out.has_value());
  return out.value_or(0);
}

float bf(uint32_t bits) { return num::bf16ToF32(uint16_t(bits)); }

// The manual's Sequential accumulation example ("Contraction Engine"), with a partial spatial reduction.
const char *kSequentialSource = R"tcp(axes![M = 4, N = 8, K = 64];

type Chip = m![1];
type Cluster = m![1 # 2];
type Slice = m![1 # 256];

#[device(chip = 1)]
fn kernel(
    ctx: &mut Context,
    x: &HbmTensor<bf16, Chip, m![M, K]>,
    w: &HbmTensor<bf16, Chip, m![N, K]>,
) -> HbmTensor<f32, Chip, m![M, N, K % 16 / 4]> {
    let x: DmTensor<bf16, Chip, Cluster, Slice, m![M, K]> = x.to_dm(&mut ctx.tdma, 0);
    let w: DmTensor<bf16, Chip, Cluster, Slice, m![N, K]> = w.to_dm(&mut ctx.tdma, 1 << 12);
    let wt: TrfTensor<bf16, Chip, Cluster, Slice, m![N], m![K]> = ctx
        .sub
        .begin(w.view())
        .fetch::<bf16, m![N], m![K]>()
        .collect::<m![N, K / 16], m![K % 16]>()
        .to_trf(TrfAddress::Full);
    let r: DmTensor<f32, Chip, Cluster, Slice, m![M, N, K % 16 / 4]> = ctx
        .main
        .begin(x.view())
        .fetch::<bf16, m![K / 16, M], m![K % 16]>()
        .collect::<m![K / 16, M], m![K % 16]>()
        .align::<m![K / 16, M], m![K % 16 # 32], _, _>(&wt)
        .contract::<m![K % 16 / 4 # 8]>()
        .accumulate::<m![M, N], m![K % 16 / 4 # 8]>(AccumulationKind::Sequential)
        .commit(1 << 13);
    r.to_hbm(&mut ctx.tdma, 2 << 28)
}
)tcp";

// An i8 dot product: 64-lane packets, depth-6 tree, i32 accumulation.
const char *kDotI8Source = R"tcp(axes![A = 4096];

type Chip = m![1];
type Cluster = m![1 # 2];
type Slice = m![1 # 256];

#[device(chip = 1)]
fn kernel(
    ctx: &mut Context,
    lhs: &HbmTensor<i8, Chip, m![A]>,
    rhs: &HbmTensor<i8, Chip, m![A]>,
) -> HbmTensor<i32, Chip, m![1]> {
    let lhs: DmTensor<i8, Chip, Cluster, Slice, m![A]> = lhs.to_dm(&mut ctx.tdma, 0);
    let rhs: DmTensor<i8, Chip, Cluster, Slice, m![A]> = rhs.to_dm(&mut ctx.tdma, 1 << 13);
    let rhs: TrfTensor<i8, Chip, Cluster, Slice, m![1], m![A]> = ctx
        .sub
        .begin(rhs.view())
        .fetch::<i8, m![1], m![A]>()
        .collect::<m![1, A / 32], m![A % 32]>()
        .to_trf(TrfAddress::Full);
    let result: DmTensor<i32, Chip, Cluster, Slice, m![1 # 8]> = ctx
        .main
        .begin(lhs.view())
        .fetch::<i8, m![1], m![A]>()
        .collect::<m![A / 32], m![A % 32]>()
        .align::<m![A / 64], m![A % 64], _, _>(&rhs)
        .contract::<m![1]>()
        .accumulate::<m![1], m![1 # 8]>(AccumulationKind::Interleaved)
        .commit(1 << 14);
    result.to_hbm(&mut ctx.tdma, 2 << 28)
}
)tcp";

// GEMV whose vector reaches every slice through the Switch Engine (Broadcast01) instead of the DMA.
const char *kSwitchGemvSource = R"tcp(axes![I = 256, J = 2048];

type Chip = m![1];
type Cluster = m![1 # 2];

#[device(chip = 1)]
fn kernel(
    ctx: &mut Context,
    matrix: &HbmTensor<bf16, Chip, m![I, J]>,
    vector: &HbmTensor<bf16, Chip, m![J]>,
) -> HbmTensor<bf16, Chip, m![I]> {
    let matrix: DmTensor<bf16, Chip, Cluster, m![I], m![J]> = matrix.to_dm(&mut ctx.tdma, 0);
    // The vector lands in slice 0 only; the switch broadcasts it to every slice.
    let vector: DmTensor<bf16, Chip, Cluster, m![1 # 256], m![J]> = vector.to_dm(&mut ctx.tdma, 1 << 12);
    let vector_trf: TrfTensor<bf16, Chip, Cluster, m![I], m![1], m![J]> = ctx
        .sub
        .begin(vector.view())
        .fetch::<bf16, m![1], m![J]>()
        .switch::<m![I], m![1]>(SwitchConfig::Broadcast01 { slice1: 256, slice0: 1, time0: 1 })
        .collect::<m![J / 16], m![J % 16]>()
        .to_trf(TrfAddress::Full);
    let result: DmTensor<bf16, Chip, Cluster, m![I], m![1 # 8]> = ctx
        .main
        .begin(matrix.view())
        .fetch::<bf16, m![J / 32], m![J % 32]>()
        .collect::<m![J / 16], m![J % 16]>()
        .align::<m![J / 32], m![J % 32], _, _>(&vector_trf)
        .contract::<m![1]>()
        .accumulate::<m![1], m![1 # 8]>(AccumulationKind::Interleaved)
        .cast::<bf16, m![1 # 16]>()
        .commit(1 << 13);
    result.to_hbm(&mut ctx.tdma, 2 << 28)
}
)tcp";

// 002 over two chips: Chip = m![A / 2048], each chip's 256 slices hold 8 elements.
const char *kTwoChipSource = R"tcp(axes![A = 4096];
type Chip = m![A / 2048];
type Cluster = m![1 # 2]; // 1 active cluster; hardware has 2 per chip
type Slice = m![A / 8 % 256];
#[tokio::main]
async fn main() {
let mut ctx = Context::acquire();
let mut rng = SmallRng::seed_from_u64(42);
let input = HostTensor::<i32, m![A]>::rand(&mut rng);
let in_hbm = input.to_hbm(&mut ctx.pdma, 0).await;
let out_hbm = launch(kernel, (&mut ctx, &in_hbm)).await;
let _out = out_hbm.to_host::<m![A]>(&mut ctx.pdma).await;
}
#[device(chip = 2)]
fn kernel(ctx: &mut Context, input: &HbmTensor<i32, Chip, m![A % 2048]>) -> HbmTensor<i32, Chip, m![A % 2048]> {
let dm = input.to_dm::<Cluster, Slice, m![A % 8]>(&mut ctx.tdma, 0);
let result = ctx
.main
.begin(dm.view())
.fetch::<i32, m![1], m![A % 8]>()
.collect::<m![1], m![A % 8]>()
.vector_init()
.vector_intra_slice_branch(BranchMode::Unconditional)
.vector_fxp(FxpBinaryOp::AddFxp, 1)
.vector_final()
.commit::<m![A % 8]>(1 << 12);
result.to_hbm(&mut ctx.tdma, 1 << 28)
}
)tcp";

// The same with i4: 128-lane packets, depth-7 tree (the scalar reducer path).
const char *kDotI4Source = R"tcp(axes![A = 4096];

type Chip = m![1];
type Cluster = m![1 # 2];
type Slice = m![1 # 256];

#[device(chip = 1)]
fn kernel(
    ctx: &mut Context,
    lhs: &HbmTensor<i4, Chip, m![A]>,
    rhs: &HbmTensor<i4, Chip, m![A]>,
) -> HbmTensor<i32, Chip, m![1]> {
    let lhs: DmTensor<i4, Chip, Cluster, Slice, m![A]> = lhs.to_dm(&mut ctx.tdma, 0);
    let rhs: DmTensor<i4, Chip, Cluster, Slice, m![A]> = rhs.to_dm(&mut ctx.tdma, 1 << 13);
    let rhs: TrfTensor<i4, Chip, Cluster, Slice, m![1], m![A]> = ctx
        .sub
        .begin(rhs.view())
        .fetch::<i4, m![1], m![A]>()
        .collect::<m![1, A / 64], m![A % 64]>()
        .to_trf(TrfAddress::Full);
    let result: DmTensor<i32, Chip, Cluster, Slice, m![1 # 8]> = ctx
        .main
        .begin(lhs.view())
        .fetch::<i4, m![1], m![A]>()
        .collect::<m![A / 64], m![A % 64]>()
        .align::<m![A / 128], m![A % 128], _, _>(&rhs)
        .contract::<m![1]>()
        .accumulate::<m![1], m![1 # 8]>(AccumulationKind::Interleaved)
        .commit(1 << 14);
    result.to_hbm(&mut ctx.tdma, 2 << 28)
}
)tcp";

// Two chains: the second begins from the DM tensor the first committed.
const char *kPipelineSource = R"tcp(axes![A = 2048];

type Chip = m![1];
type Cluster = m![1 # 2];
type Slice = m![A / 8 # 256];

#[device(chip = 1)]
fn kernel(ctx: &mut Context, input: &HbmTensor<i32, Chip, m![A]>) -> HbmTensor<i32, Chip, m![A]> {
    let dm = input.to_dm::<Cluster, Slice, m![A % 8]>(&mut ctx.tdma, 0);
    let plus: DmTensor<i32, Chip, Cluster, Slice, m![A % 8]> = ctx
        .main
        .begin(dm.view())
        .fetch::<i32, m![1], m![A % 8]>()
        .collect::<m![1], m![A % 8]>()
        .vector_init()
        .vector_intra_slice_branch(BranchMode::Unconditional)
        .vector_fxp(FxpBinaryOp::AddFxp, 1)
        .vector_final()
        .commit::<m![A % 8]>(1 << 12);
    let times: DmTensor<i32, Chip, Cluster, Slice, m![A % 8]> = ctx
        .main
        .begin(plus.view())
        .fetch::<i32, m![1], m![A % 8]>()
        .collect::<m![1], m![A % 8]>()
        .vector_init()
        .vector_intra_slice_branch(BranchMode::Unconditional)
        .vector_fxp(FxpBinaryOp::MulInt, 3)
        .vector_final()
        .commit::<m![A % 8]>(1 << 13);
    times.to_hbm(&mut ctx.tdma, 1 << 28)
}
)tcp";

}  // namespace

TEST(Device, HbmRoundTripThroughReorderingAndPadding) {
  tcp::testing::Axes ax{{"A", 8}, {"B", 6}, {"X", 64}};
  MappingRef host = parseMapping(ax, "A, B"), one = parseMapping(ax, "1");
  HostData in = randomHost(num::DType::i32, host, 1);
  for (const char *layout : {"A, B", "B, A", "A, B # 8", "A / 2, B, A % 2", "B # 7, A"}) {
    Device dev(1);
    TensorType t = hbmType(num::DType::i32, one, parseMapping(ax, layout));
    dev.toHbm(in, t, 4096);
    for (const char *back : {"A, B", "B, A", "B, A # 9"}) {
      HostData out = dev.toHost(t, 4096, parseMapping(ax, back));
      EXPECT_EQ(byIndex(out, ax.table), byIndex(in, ax.table)) << layout << " -> " << back;
    }
  }
}

TEST(Device, HbmBytesAreExactAndPaddingIsNotWritten) {
  tcp::testing::Axes ax{{"A", 8}, {"B", 6}, {"X", 64}, {"Y", 32}};
  MappingRef one = parseMapping(ax, "1");
  Device dev(1);
  // 64 bytes of 0x55, then an i8 tensor with two padding bytes per row over them.
  HostData fill{num::DType::i8, parseMapping(ax, "X"), std::vector<uint32_t>(64, 0x55)};
  TensorType raw = hbmType(num::DType::i8, one, parseMapping(ax, "X"));
  dev.toHbm(fill, raw, 100);
  HostData in = randomHost(num::DType::i8, parseMapping(ax, "A, B"), 2);
  dev.toHbm(in, hbmType(num::DType::i8, one, parseMapping(ax, "A, B # 8")), 100);
  HostData bytes = dev.toHost(raw, 100, parseMapping(ax, "X"));
  for (unsigned a = 0; a < 8; ++a)
    for (unsigned b = 0; b < 8; ++b)
      EXPECT_EQ(int8_t(bytes.bits[a * 8 + b]), b < 6 ? int8_t(in.bits[a * 6 + b]) : int8_t(0x55)) << a << "," << b;
  // i4: two per byte, low nibble first.
  HostData nibbles = randomHost(num::DType::i4, parseMapping(ax, "X"), 3);
  dev.toHbm(nibbles, hbmType(num::DType::i4, one, parseMapping(ax, "X")), 1000);
  HostData packed = dev.toHost(hbmType(num::DType::i8, one, parseMapping(ax, "Y")), 1000, parseMapping(ax, "Y"));
  for (unsigned k = 0; k < 32; ++k)
    EXPECT_EQ(uint8_t(packed.bits[k]), uint8_t((nibbles.bits[2 * k] & 0xF) | ((nibbles.bits[2 * k + 1] & 0xF) << 4)));
  // Never-written bytes read as zero; far addresses are sparse.
  HostData zero = dev.toHost(raw, 40ull << 30, parseMapping(ax, "X"));
  for (uint32_t v : zero.bits) EXPECT_EQ(v, 0u);
}

TEST(Device, HbmAcrossChipsAndRangeErrors) {
  tcp::testing::Axes ax{{"A", 8}, {"B", 6}};
  Device dev(2);
  HostData in = randomHost(num::DType::bf16, parseMapping(ax, "A, B"), 4);
  TensorType t = hbmType(num::DType::bf16, parseMapping(ax, "A / 4"), parseMapping(ax, "B, A % 4"));
  dev.toHbm(in, t, 0);
  EXPECT_EQ(byIndex(dev.toHost(t, 0, parseMapping(ax, "B, A")), ax.table), byIndex(in, ax.table));
  try {
    dev.toHbm(in, t, (48ull << 30) - 8);
    FAIL() << "expected a DeviceError";
  } catch (const DeviceError &e) {
    EXPECT_NE(e.message.find("HBM"), std::string::npos) << e.message;
    EXPECT_NE(e.message.find(std::to_string(48ull << 30)), std::string::npos) << e.message;
  }
  TensorType four = hbmType(num::DType::bf16, parseMapping(ax, "A / 2"), parseMapping(ax, "B, A % 2"));
  EXPECT_THROW(dev.toHbm(in, four, 0), DeviceError);  // 4 chips needed
}

TEST(DeviceKernel, ConstantAdd) {
  Kernel k = compileKernel("tests/conformance/manual/002_kernel.tcp");
  ASSERT_TRUE(k.fn);
  const TensorType &t = k.fn->params[0].second;
  HostData in = randomHost(num::DType::i32, t.element, 5);
  in.bits[0] = 0x7FFFFFFF;  // wraps
  Device dev(1);
  dev.toHbm(in, t, 0);
  uint64_t out = timedLaunch(dev, *k.fn, *k.cfg, {0}, "002 constant add");
  HostData res = dev.toHost(*k.fn->result, out, t.element);
  for (size_t i = 0; i < in.bits.size(); ++i) ASSERT_EQ(res.bits[i], in.bits[i] + 1u) << i;
}

// vector_fxp with each FxpBinaryOp and an immediate: 002 with the operator replaced.
struct FxpCase {
  const char *op;
  int32_t imm;
  int32_t (*ref)(int32_t, int32_t);
};
class DeviceFxp : public ::testing::TestWithParam<FxpCase> {};

TEST_P(DeviceFxp, MatchesNumerics) {
  const FxpCase &c = GetParam();
  std::ifstream f(std::string(TCP_SOURCE_DIR) + "/tests/conformance/manual/002_kernel.tcp");
  std::string text((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  std::string from = "vector_fxp(FxpBinaryOp::AddFxp, 1)";
  size_t at = text.find(from);
  ASSERT_NE(at, std::string::npos);
  text.replace(at, from.size(), std::string("vector_fxp(FxpBinaryOp::") + c.op + ", " + std::to_string(c.imm) + ")");
  Kernel k = compileKernel(std::string(c.op) + ".tcp", text.c_str());
  ASSERT_TRUE(k.fn);
  const TensorType &t = k.fn->params[0].second;
  HostData in = randomHost(num::DType::i32, t.element, 20);
  in.bits[0] = 0x7FFFFFFF;
  in.bits[1] = 0x80000000;
  in.bits[2] = 0xFFFFFFFF;
  Device dev(1);
  dev.toHbm(in, t, 0);
  uint64_t out = timedLaunch(dev, *k.fn, *k.cfg, {0}, c.op);
  HostData res = dev.toHost(*k.fn->result, out, t.element);
  for (size_t i = 0; i < in.bits.size(); ++i) ASSERT_EQ(int32_t(res.bits[i]), c.ref(int32_t(in.bits[i]), c.imm)) << c.op << " " << i;
}

INSTANTIATE_TEST_SUITE_P(
    DeviceKernel, DeviceFxp,
    ::testing::Values(FxpCase{"AddFxpSat", 2147483000, [](int32_t a, int32_t b) { return num::addSat<int32_t>(a, b); }},
                      FxpCase{"SubFxp", 7, [](int32_t a, int32_t b) { return num::subWrap<int32_t>(a, b); }},
                      FxpCase{"SubFxpSat", 2147483000, [](int32_t a, int32_t b) { return num::subSat<int32_t>(a, b); }},
                      FxpCase{"MulInt", -3, [](int32_t a, int32_t b) { return num::mulWrap<int32_t>(a, b); }},
                      FxpCase{"MulFxp", 1 << 30, [](int32_t a, int32_t b) { return num::mulFxp(a, b); }},
                      FxpCase{"LeftShift", 3, [](int32_t a, int32_t b) { return num::shlWrap<int32_t>(a, unsigned(b)); }},
                      FxpCase{"LeftShiftSat", 3, [](int32_t a, int32_t b) { return num::shlSat<int32_t>(a, unsigned(b)); }},
                      FxpCase{"LogicRightShift", 5, [](int32_t a, int32_t b) { return num::lshr<int32_t>(a, unsigned(b)); }},
                      FxpCase{"ArithRightShift", 5, [](int32_t a, int32_t b) { return num::ashr<int32_t>(a, unsigned(b)); }},
                      FxpCase{"ArithRightShiftRound", 5,
                              [](int32_t a, int32_t b) { return num::ashrRound<int32_t>(a, unsigned(b)); }}),
    [](const ::testing::TestParamInfo<FxpCase> &info) { return std::string(info.param.op); });

TEST(DeviceKernel, ConstantAddOnTwoChips) {
  Kernel k = compileKernel("two_chips.tcp", kTwoChipSource);
  ASSERT_TRUE(k.fn);
  const TensorType &t = k.fn->params[0].second;
  MappingRef host = Mapping::pair(t.chip, t.element);  // m![A / 2048, A % 2048] = m![A]
  HostData in = randomHost(num::DType::i32, host, 21);
  Device dev(2);
  dev.toHbm(in, t, 0);
  uint64_t out = timedLaunch(dev, *k.fn, *k.cfg, {0}, "002 on two chips");
  HostData res = dev.toHost(*k.fn->result, out, host);
  for (size_t i = 0; i < in.bits.size(); ++i) ASSERT_EQ(res.bits[i], in.bits[i] + 1u) << i;
  EXPECT_THROW(Device(1).launch(*k.fn, *k.cfg, {0}), DeviceError);  // needs two chips
}

TEST(DeviceKernel, ChainReadsTheCommitOfAnother) {
  Kernel k = compileKernel("pipeline.tcp", kPipelineSource);
  ASSERT_TRUE(k.fn);
  const TensorType &t = k.fn->params[0].second;
  HostData in = randomHost(num::DType::i32, t.element, 22);
  Device dev(1);
  dev.toHbm(in, t, 0);
  uint64_t out = timedLaunch(dev, *k.fn, *k.cfg, {0}, "two chained kernels");
  HostData res = dev.toHost(*k.fn->result, out, t.element);
  for (size_t i = 0; i < in.bits.size(); ++i)
    ASSERT_EQ(int32_t(res.bits[i]), num::mulWrap<int32_t>(num::addWrap<int32_t>(int32_t(in.bits[i]), 1), 3)) << i;
}

TEST(DeviceKernel, LaunchErrorsAreDeviceErrors) {
  Kernel k = compileKernel("tests/conformance/manual/003_kernel.tcp");
  ASSERT_TRUE(k.fn);
  Device dev(1);
  EXPECT_THROW(dev.launch(*k.fn, *k.cfg, {0}), DeviceError);                    // one tensor short
  EXPECT_THROW(dev.launch(*k.fn, *k.cfg, {0, 48ull << 30}), DeviceError);       // beyond HBM
  TypedFunction big = *k.fn;
  for (TypedOp &op : big.ops)
    if (op.name == "to_vrf") op.address = (8 << 10) - 8;  // 32 bytes from 8 KB - 8
  try {
    dev.launch(big, *k.cfg, {0, 1 << 28});
    FAIL() << "expected a DeviceError";
  } catch (const DeviceError &e) {
    EXPECT_NE(e.message.find("VrfTensor"), std::string::npos) << e.message;
    EXPECT_NE(e.message.find("8192"), std::string::npos) << e.message;
  }
}

TEST(DeviceKernel, ElementwiseMulWithVrf) {
  Kernel k = compileKernel("tests/conformance/manual/003_kernel.tcp");
  ASSERT_TRUE(k.fn);
  const TensorType &t = k.fn->params[0].second;
  HostData lhs = randomHost(num::DType::i32, t.element, 6), rhs = randomHost(num::DType::i32, t.element, 7);
  Device dev(1);
  dev.toHbm(lhs, t, 0);
  dev.toHbm(rhs, t, 1 << 28);
  uint64_t out = timedLaunch(dev, *k.fn, *k.cfg, {0, 1 << 28}, "003 elementwise mul");
  HostData res = dev.toHost(*k.fn->result, out, t.element);
  for (size_t i = 0; i < lhs.bits.size(); ++i)
    ASSERT_EQ(int32_t(res.bits[i]), num::mulWrap<int32_t>(int32_t(lhs.bits[i]), int32_t(rhs.bits[i]))) << i;
}

TEST(DeviceKernel, DmAddressClashCorruptsData) {
  Kernel k = compileKernel("tests/conformance/manual/003_kernel.tcp");
  ASSERT_TRUE(k.fn);
  // Move rhs's DM copy to byte 16: it overwrites lhs elements 4..7 of every slice (8 i32 at 0..31).
  TypedFunction clash = *k.fn;
  for (TypedOp &op : clash.ops)
    if (op.address == std::optional<uint64_t>(4096) && (op.name == "to_dm" || op.name == "begin")) op.address = 16;
  const TensorType &t = k.fn->params[0].second;
  HostData lhs = randomHost(num::DType::i32, t.element, 8), rhs = randomHost(num::DType::i32, t.element, 9);
  Device dev(1);
  dev.toHbm(lhs, t, 0);
  dev.toHbm(rhs, t, 1 << 28);
  uint64_t out = timedLaunch(dev, clash, *k.cfg, {0, 1 << 28}, "003 with a DM clash");
  HostData res = dev.toHost(*k.fn->result, out, t.element);
  size_t corrupted = 0;
  for (size_t i = 0; i < lhs.bits.size(); ++i) {
    int32_t a = int32_t(i % 8 < 4 ? lhs.bits[i] : rhs.bits[i - 4]);
    ASSERT_EQ(int32_t(res.bits[i]), num::mulWrap<int32_t>(a, int32_t(rhs.bits[i]))) << i;
    corrupted += res.bits[i] != uint32_t(num::mulWrap<int32_t>(int32_t(lhs.bits[i]), int32_t(rhs.bits[i])));
  }
  EXPECT_GT(corrupted, 1000u);
  // A commit beyond the 512 KB of DM is a DeviceError naming the tensor, address and limit.
  for (TypedOp &op : clash.ops)
    if (op.name == "commit") op.address = (512 << 10) - 16;
  try {
    dev.launch(clash, *k.cfg, {0, 1 << 28});
    FAIL() << "expected a DeviceError";
  } catch (const DeviceError &e) {
    EXPECT_NE(e.message.find("DmTensor<i32"), std::string::npos) << e.message;
    EXPECT_NE(e.message.find(std::to_string((512 << 10) - 16)), std::string::npos) << e.message;
    EXPECT_NE(e.message.find(std::to_string(512 << 10)), std::string::npos) << e.message;
  }
}

TEST(DeviceKernel, DotProduct) {
  Kernel k = compileKernel("tests/conformance/manual/004_kernel.tcp");
  ASSERT_TRUE(k.fn);
  const TensorType &t = k.fn->params[0].second;
  HostData lhs = randomHost(num::DType::bf16, t.element, 10), rhs = randomHost(num::DType::bf16, t.element, 11);
  Device dev(1);
  dev.toHbm(lhs, t, 0);
  dev.toHbm(rhs, t, 1 << 28);
  uint64_t out = timedLaunch(dev, *k.fn, *k.cfg, {0, 1 << 28}, "004 dot product");
  HostData res = dev.toHost(*k.fn->result, out, k.fn->result->element);
  ASSERT_EQ(res.bits.size(), 1u);
  double sum = 0;
  std::vector<uint16_t> a(2048), b(2048);
  for (size_t i = 0; i < 2048; ++i) {
    a[i] = uint16_t(lhs.bits[i]);
    b[i] = uint16_t(rhs.bits[i]);
    sum += double(bf(a[i])) * double(bf(b[i]));
  }
  EXPECT_NEAR(bf(res.bits[0]), sum, 1e-2 * std::max(1.0, std::fabs(sum)));
  // Bit-exact: products widened to f32, pairwise tree per 32-lane packet, packets accumulated in order.
  EXPECT_EQ(res.bits[0], num::f32ToBf16(num::ref::dotBf16(a.data(), b.data(), 2048)));
}

class DeviceGemv : public ::testing::TestWithParam<const char *> {};

TEST_P(DeviceGemv, MatchesScalarTreeOrder) {
  bool sw = std::string(GetParam()) == "switch";
  Kernel k = sw ? compileKernel("switch_gemv.tcp", kSwitchGemvSource) : compileKernel("samples/hello/gemv.tcp");
  ASSERT_TRUE(k.fn);
  const TensorType &mt = k.fn->params[0].second, &vt = k.fn->params[1].second;
  HostData m = randomHost(num::DType::bf16, mt.element, 12), v = randomHost(num::DType::bf16, vt.element, 13);
  Device dev(1);
  dev.toHbm(m, mt, 0);
  dev.toHbm(v, vt, 1 << 28);
  uint64_t out = timedLaunch(dev, *k.fn, *k.cfg, {0, 1 << 28}, sw ? "gemv 256x2048 (switch broadcast)" : "gemv 256x2048");
  HostData res = dev.toHost(*k.fn->result, out, k.fn->result->element);
  const size_t I = 256, J = 2048;
  ASSERT_EQ(res.bits.size(), I);
  std::vector<uint16_t> x(J), row(J);
  for (size_t j = 0; j < J; ++j) x[j] = uint16_t(v.bits[j]);
  for (size_t i = 0; i < I; ++i) {
    double sum = 0;
    for (size_t j = 0; j < J; ++j) {
      row[j] = uint16_t(m.bits[i * J + j]);
      sum += double(bf(row[j])) * double(bf(x[j]));
    }
    EXPECT_NEAR(bf(res.bits[i]), sum, 1e-2 * std::max(1.0, std::fabs(sum))) << i;
    ASSERT_EQ(res.bits[i], num::f32ToBf16(num::ref::dotBf16(row.data(), x.data(), J))) << i;
  }
}

INSTANTIATE_TEST_SUITE_P(DeviceKernel, DeviceGemv, ::testing::Values("dma", "switch"));

TEST(DeviceKernel, Gemm) {
  Kernel k = compileKernel("samples/hello/gemm.tcp");
  ASSERT_TRUE(k.fn);
  const TensorType &at = k.fn->params[0].second, &bt = k.fn->params[1].second;
  HostData a = randomHost(num::DType::bf16, at.element, 14), b = randomHost(num::DType::bf16, bt.element, 15);
  Device dev(1);
  dev.toHbm(a, at, 0);
  dev.toHbm(b, bt, 1 << 28);
  uint64_t out = timedLaunch(dev, *k.fn, *k.cfg, {0, 1 << 28}, "gemm 512x512x1024");
  HostData res = dev.toHost(*k.fn->result, out, k.fn->result->element);
  const size_t I = 512, J = 512, K = 1024;
  ASSERT_EQ(res.bits.size(), I * J);
  std::vector<uint16_t> arow(K), bcol(K);
  size_t mismatches = 0;
  for (size_t j = 0; j < J; ++j) {
    for (size_t kk = 0; kk < K; ++kk) bcol[kk] = uint16_t(b.bits[kk * J + j]);
    for (size_t i = 0; i < I; ++i) {
      for (size_t kk = 0; kk < K; ++kk) arow[kk] = uint16_t(a.bits[i * K + kk]);
      // The vectorized dot is bit-identical to the scalar reference (numerics_test); checked on a sample below.
      uint32_t want = num::f32ToBf16(num::dotBf16(arow.data(), bcol.data(), K));
      mismatches += res.bits[i * J + j] != want;
      if ((i * 31 + j) % 997 == 0) {
        EXPECT_EQ(want, num::f32ToBf16(num::ref::dotBf16(arow.data(), bcol.data(), K)));
        double sum = 0;
        for (size_t kk = 0; kk < K; ++kk) sum += double(bf(arow[kk])) * double(bf(bcol[kk]));
        EXPECT_NEAR(bf(res.bits[i * J + j]), sum, 1e-2 * std::max(1.0, std::fabs(sum))) << i << "," << j;
      }
    }
  }
  EXPECT_EQ(mismatches, 0u);
}

TEST(DeviceKernel, SequentialPartialReduction) {
  Kernel k = compileKernel("sequential.tcp", kSequentialSource);
  ASSERT_TRUE(k.fn);
  const TensorType &xt = k.fn->params[0].second, &wt = k.fn->params[1].second;
  HostData x = randomHost(num::DType::bf16, xt.element, 16), w = randomHost(num::DType::bf16, wt.element, 17);
  Device dev(1);
  dev.toHbm(x, xt, 0);
  dev.toHbm(w, wt, 1 << 28);
  uint64_t out = timedLaunch(dev, *k.fn, *k.cfg, {0, 1 << 28}, "sequential 4x8x64");
  HostData res = dev.toHost(*k.fn->result, out, k.fn->result->element);
  const size_t M = 4, N = 8, K = 64;
  ASSERT_EQ(res.bits.size(), M * N * 4);
  auto prod = [&](size_t m, size_t n, size_t kk) { return num::mulF32(bf(x.bits[m * K + kk]), bf(w.bits[n * K + kk])); };
  for (size_t m = 0; m < M; ++m)
    for (size_t n = 0; n < N; ++n)
      for (size_t k4 = 0; k4 < 4; ++k4) {
        float acc = 0;
        for (size_t k16 = 0; k16 < 4; ++k16) {  // time order; the tree pairs adjacent lanes
          size_t b = k16 * 16 + k4 * 4;
          float s = num::addF32(num::addF32(prod(m, n, b), prod(m, n, b + 1)), num::addF32(prod(m, n, b + 2), prod(m, n, b + 3)));
          acc = k16 == 0 ? s : num::addF32(acc, s);
        }
        EXPECT_EQ(res.bits[(m * N + n) * 4 + k4], num::f32Bits(acc)) << m << "," << n << "," << k4 << " got "
            << num::f32FromBits(res.bits[(m * N + n) * 4 + k4]) << " want " << acc << " first " << prod(m, n, k4 * 4);
      }
}

class DeviceIntDot : public ::testing::TestWithParam<num::DType> {};

TEST_P(DeviceIntDot, ExactWrappingSum) {
  num::DType dt = GetParam();
  Kernel k = dt == num::DType::i8 ? compileKernel("dot_i8.tcp", kDotI8Source) : compileKernel("dot_i4.tcp", kDotI4Source);
  ASSERT_TRUE(k.fn);
  const TensorType &t = k.fn->params[0].second;
  HostData lhs = randomHost(dt, t.element, 18), rhs = randomHost(dt, t.element, 19);
  Device dev(1);
  dev.toHbm(lhs, t, 0);
  dev.toHbm(rhs, t, 1 << 28);
  uint64_t out = timedLaunch(dev, *k.fn, *k.cfg, {0, 1 << 28}, dt == num::DType::i8 ? "i8 dot 4096" : "i4 dot 4096");
  HostData res = dev.toHost(*k.fn->result, out, k.fn->result->element);
  std::vector<int8_t> a(4096), b(4096);
  int64_t sum = 0;
  for (size_t i = 0; i < 4096; ++i) {
    a[i] = int8_t(lhs.bits[i]);
    b[i] = int8_t(rhs.bits[i]);
    sum += int64_t(a[i]) * b[i];
  }
  EXPECT_EQ(int32_t(res.bits[0]), int32_t(sum));
  EXPECT_EQ(int32_t(res.bits[0]), num::ref::dotI8(a.data(), b.data(), 4096));
}

INSTANTIATE_TEST_SUITE_P(DeviceKernel, DeviceIntDot, ::testing::Values(num::DType::i8, num::DType::i4),
                         [](const ::testing::TestParamInfo<num::DType> &info) { return num::dtypeName(info.param); });

// Every kernel of the manual corpus and the samples that checks runs on random inputs, or stops with a
// DeviceError naming what the model does not support; the summary goes to the test log.
TEST(DeviceKernel, CorpusRunsOrReportsDeviceErrors) {
  std::vector<std::string> files;
  for (const char *dir : {"tests/conformance/manual", "samples/hello"})
    for (const auto &e : std::filesystem::directory_iterator(std::string(TCP_SOURCE_DIR) + "/" + dir))
      if (e.path().extension() == ".tcp") files.push_back(e.path().string());
  std::sort(files.begin(), files.end());
  unsigned ran = 0, refused = 0;
  for (const std::string &path : files) {
    std::string diag;
    llvm::raw_string_ostream diagOut(diag);
    Compilation comp(diagOut);
    if (!comp.load(path) || !comp.run(Phase::Config, nullptr)) continue;
    for (const TypedFunction &fn : comp.typed().functions) {
      if (!fn.isDevice) continue;
      const FunctionConfig *cfg = nullptr;
      for (const FunctionConfig &c : comp.lowered().functions)
        if (c.name == fn.name) cfg = &c;
      if (!cfg) continue;
      std::string name = std::filesystem::path(path).filename().string() + ":" + fn.name;
      try {
        Device dev(std::max(1u, fn.chips));
        std::vector<uint64_t> args;
        for (size_t p = 0; p < fn.params.size(); ++p) {
          const TensorType &t = fn.params[p].second;
          args.push_back(uint64_t(p + 1) << 30);
          dev.toHbm(randomHost(t.dtype, t.element, unsigned(p)), t, args.back());
        }
        auto t0 = std::chrono::steady_clock::now();
        std::optional<uint64_t> out = dev.launch(fn, *cfg, args);
        double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
        if (out && fn.result) dev.toHost(*fn.result, *out, fn.result->element);
        std::printf("[ corpus   ] %-40s ran in %.1f ms\n", name.c_str(), ms);
        ++ran;
      } catch (const DeviceError &e) {
        std::printf("[ corpus   ] %-40s DeviceError: %s\n", name.c_str(), e.message.c_str());
        ++refused;
      }
    }
  }
  std::printf("[ corpus   ] %u kernels ran, %u refused\n", ran, refused);
  EXPECT_GE(ran, 5u);
}

// device_kernels_test.cpp — the CPU model on kernels written for it: vector ops, two chips, chained kernels, partial and integer reductions.
#include "DeviceTestUtil.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>

using namespace tcp;
using namespace tcp::interp;
using namespace tcp::devtest;

namespace {

// The manual's Sequential accumulation example ("Contraction Engine"), with a partial spatial reduction.
const std::string kSequentialSource = ContractionKernel{"M = 4, N = 8, K = 64", "bf16", "M, K", "N, K", "f32", "M, N, K % 16 / 4", "N", "K",
       "        .fetch::<bf16, m![N], m![K]>()\n"
       "        .collect::<m![N, K / 16], m![K % 16]>()\n",
       "        .fetch::<bf16, m![K / 16, M], m![K % 16]>()\n"
       "        .collect::<m![K / 16, M], m![K % 16]>()\n"
       "        .align::<m![K / 16, M], m![K % 16 # 32], _, _>(&wt)\n"
       "        .contract::<m![K % 16 / 4 # 8]>()\n"
       "        .accumulate::<m![M, N], m![K % 16 / 4 # 8]>(AccumulationKind::Sequential)\n"}.source();

// An integer dot product over A = 4096: `flit` lanes per collected flit, `mac` lanes per Reducer packet
// (i8: 32 / 64, depth-6 tree; i4: 64 / 128, depth-7 tree on the scalar reducer path), i32 accumulation.
std::string dotSource(const std::string &d, unsigned flit, unsigned mac) {
  std::string f = std::to_string(flit), m = std::to_string(mac);
  return R"tcp(axes![A = 4096];

type Chip = m![1];
type Cluster = m![1 # 2];
type Slice = m![1 # 256];

#[device(chip = 1)]
fn kernel(
    ctx: &mut Context,
    lhs: &HbmTensor<)tcp" + d + R"tcp(, Chip, m![A]>,
    rhs: &HbmTensor<)tcp" + d + R"tcp(, Chip, m![A]>,
) -> HbmTensor<i32, Chip, m![1]> {
    let lhs: DmTensor<)tcp" + d + R"tcp(, Chip, Cluster, Slice, m![A]> = lhs.to_dm(&mut ctx.tdma, 0);
    let rhs: DmTensor<)tcp" + d + R"tcp(, Chip, Cluster, Slice, m![A]> = rhs.to_dm(&mut ctx.tdma, 1 << 13);
    let rhs: TrfTensor<)tcp" + d + R"tcp(, Chip, Cluster, Slice, m![1], m![A]> = ctx
        .sub
        .begin(rhs.view())
        .fetch::<)tcp" + d + R"tcp(, m![1], m![A]>()
        .collect::<m![1, A / )tcp" + f + R"tcp(], m![A % )tcp" + f + R"tcp(]>()
        .to_trf(TrfAddress::Full);
    let result: DmTensor<i32, Chip, Cluster, Slice, m![1 # 8]> = ctx
        .main
        .begin(lhs.view())
        .fetch::<)tcp" + d + R"tcp(, m![1], m![A]>()
        .collect::<m![A / )tcp" + f + R"tcp(], m![A % )tcp" + f + R"tcp(]>()
        .align::<m![A / )tcp" + m + R"tcp(], m![A % )tcp" + m + R"tcp(], _, _>(&rhs)
        .contract::<m![1]>()
        .accumulate::<m![1], m![1 # 8]>(AccumulationKind::Interleaved)
        .commit(1 << 14);
    result.to_hbm(&mut ctx.tdma, 2 << 28)
}
)tcp";
}

// 002 over two chips: Chip = m![A / 2048], each chip's 256 slices hold 8 elements.
const char *kTwoChipSource = R"tcp(axes![A = 4096];
type Chip = m![A / 2048];
type Cluster = m![1 # 2]; // 1 active cluster; hardware has 2 per chip
type Slice = m![A / 8 % 256];
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

TEST(DeviceKernel, SequentialPartialReduction) {
  Kernel k = compileKernel("sequential.tcp", kSequentialSource.c_str());
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
  Kernel k = dt == num::DType::i8 ? compileKernel("dot_i8.tcp", dotSource("i8", 32, 64).c_str())
                                  : compileKernel("dot_i4.tcp", dotSource("i4", 64, 128).c_str());
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

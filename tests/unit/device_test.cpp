// device_test.cpp — the CPU model of TCP: HBM transfers through mappings and the manual's kernels against scalar answer keys.
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

// GEMV whose vector reaches every slice through the Switch Engine (a custom bitmap: every slice snoops slice 0)
// instead of the DMA. Broadcast01 { slice1: 256, slice0: 1, time0: 1 } would deliver 256 time steps, 255 of padding.
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
        .switch::<m![I], m![1]>(SwitchConfig::CustomBroadcast { ring_size: 256 })
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
    for (size_t kk = 0; kk < K; ++kk) bcol[kk] = uint16_t(b.bits[j * K + kk]);  // B is m![J, K] in HBM
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

// Every kernel of the manual corpus and the samples that checks runs on random inputs, or stops with a
// DeviceError naming what the model does not support; the summary goes to the test log.
TEST(DeviceKernel, CorpusRunsOrReportsDeviceErrors) {
  std::vector<std::string> files;
  for (const char *dir : {"tests/conformance/manual", "samples/hello", "samples/tiling"})
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

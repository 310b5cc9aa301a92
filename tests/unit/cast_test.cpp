// cast_test.cpp — the Cast Engine on the CPU model: every precision-lowering pair through a kernel, checked per element (wrap, RNE, FTZ, f8 subnormals, canonical NaN).
#include "DeviceTestUtil.h"

#include <cmath>
#include <random>

using namespace tcp;
using namespace tcp::interp;
using namespace tcp::devtest;

namespace {

// fetch D1 → collect (one 32-byte flit of 8 elements) → cast → commit. i4 packets hold only 4 bytes
// of data, less than the 8 a commit writes per time step, so the i4 kernel transposes 16 casts into
// one packet first (the Transpose Engine takes 16 4-bit rows).
std::string castKernel(num::DType from, num::DType to) {
  std::string D1 = num::dtypeName(from), D2 = num::dtypeName(to), flit = std::to_string(num::elementsPerFlit(to));
  bool i4 = to == num::DType::i4;
  std::string head = "axes![P = 256, B = " + std::string(i4 ? "16" : "4") + ", A = 8];\n#[device(chip = 1)]\n";
  std::string out = i4 ? "m![P, A, B]" : "m![P, B, A]";
  std::string chain = "        .cast::<" + D2 + ", m![A # " + flit + "]>()\n";
  chain += i4 ? "        .transpose::<m![A], m![B # 64]>()\n        .commit::<m![A, B]>(1 << 12);\n"
              : "        .commit::<m![B, A]>(1 << 12);\n";
  return head + "fn kernel(ctx: &mut Context, x: &HbmTensor<" + D1 + ", m![1], m![P, B, A]>) -> HbmTensor<" + D2 +
         ", m![1], " + out + "> {\n"
         "    let x_dm = x.to_dm::<m![1 # 2], m![P], m![B, A]>(&mut ctx.tdma, 0);\n"
         "    let y = ctx.main.begin(x_dm.view())\n"
         "        .fetch::<" + D1 + ", m![B], m![A]>()\n"
         "        .collect::<m![B], m![A]>()\n" + chain +
         "    y.to_hbm(&mut ctx.tdma, 1 << 28)\n"
         "}\n";
}

struct Pinned {
  uint32_t in, out;
};

// Values whose result the rules of Numerics.h fix: integer narrowing keeps the low bits, ties to even,
// bf16/f16 flush to zero, f8 keeps subnormals, canonical NaN, overflow to inf (or to ±448 for f8e4m3).
std::vector<Pinned> pinned(num::DType to) {
  using num::DType;
  auto f = [](float v) { return num::f32Bits(v); };
  switch (to) {
    case DType::i4: return {{200, uint32_t(-8)}, {uint32_t(-199), uint32_t(-7)}, {5, 5}, {uint32_t(-8), uint32_t(-8)}};
    case DType::i8: return {{200, uint32_t(-56)}, {uint32_t(-200), 56}, {uint32_t(-7), uint32_t(-7)}, {0x7FFFFFFF, uint32_t(-1)}};
    case DType::i16: return {{40000, uint32_t(-25536)}, {uint32_t(-40000), 25536}, {1234, 1234}};
    case DType::bf16:
      return {{0x7FA00000, 0x7FC0}, {0x3F808000, 0x3F80}, {0x3F818000, 0x3F82}, {f(1e-40f), 0}, {f(-1e-40f), 0x8000},
              {f(INFINITY), 0x7F80}};
    case DType::f16: return {{f(65520.f), 0x7C00}, {f(65519.f), 0x7BFF}, {f(1e-6f), 0}, {0xFFC00001, 0x7E00}, {f(1.f), 0x3C00}};
    case DType::f8e4m3: return {{f(1000.f), 0x7E}, {f(-INFINITY), 0xFE}, {0x7FC00000, 0x7F}, {f(1.0625f), 0x38}, {f(1e-3f), 0x01}, {f(2e-4f), 0}};
    case DType::f8e5m2: return {{f(61440.f), 0x7C}, {f(61439.f), 0x7B}, {0x7F800001, 0x7E}, {f(-2.f), 0xC0}};
    default: return {};
  }
}

uint32_t expected(num::DType from, num::DType to, uint32_t x) {
  if (from == num::DType::i32) return uint32_t(int32_t(num::wrapInt(int32_t(x), to)));
  return num::f32ToFloat(to, num::f32FromBits(x));
}

struct CastCase {
  num::DType from, to;
};

class CastDevice : public ::testing::TestWithParam<CastCase> {};

TEST_P(CastDevice, EveryElementFollowsRngdNumerics) {
  auto [from, to] = GetParam();
  std::string src = castKernel(from, to);
  Kernel k = compileKernel(std::string("cast_") + num::dtypeName(to) + ".tcp", src.c_str());
  ASSERT_TRUE(k.fn && k.cfg) << src;
  const TensorType &xt = k.fn->params[0].second;
  HostData x;
  x.dtype = from;
  x.mapping = xt.element;
  x.bits.resize(xt.element->size());
  std::mt19937 rng(99);
  for (uint32_t &b : x.bits) b = rng();  // every bit pattern: NaNs, subnormals, huge values, full i32 range
  std::vector<Pinned> pins = pinned(to);
  for (size_t i = 0; i < pins.size(); ++i) x.bits[i * 37] = pins[i].in;
  Device dev(1);
  dev.toHbm(x, xt, 0);
  uint64_t out = timedLaunch(dev, *k.fn, *k.cfg, {0}, num::dtypeName(to));
  HostData y = dev.toHost(*k.fn->result, out, xt.element);  // read back in the input's layout
  ASSERT_EQ(y.bits.size(), x.bits.size());
  uint32_t mask = num::storageBits(to) == 32 ? 0xFFFFFFFFu : (1u << num::storageBits(to)) - 1;
  for (size_t i = 0; i < pins.size(); ++i)
    EXPECT_EQ(y.bits[i * 37] & mask, pins[i].out & mask) << num::dtypeName(to) << " of 0x" << std::hex << pins[i].in;
  for (size_t i = 0; i < x.bits.size(); ++i)
    ASSERT_EQ(y.bits[i] & mask, expected(from, to, x.bits[i]) & mask) << num::dtypeName(to) << " at " << i << " of 0x"
                                                                      << std::hex << x.bits[i];
}

INSTANTIATE_TEST_SUITE_P(PrecisionLowering, CastDevice,
                         ::testing::Values(CastCase{num::DType::i32, num::DType::i4}, CastCase{num::DType::i32, num::DType::i8},
                                           CastCase{num::DType::i32, num::DType::i16},
                                           CastCase{num::DType::f32, num::DType::f8e5m2},
                                           CastCase{num::DType::f32, num::DType::f8e4m3},
                                           CastCase{num::DType::f32, num::DType::f16},
                                           CastCase{num::DType::f32, num::DType::bf16}),
                         [](const ::testing::TestParamInfo<CastCase> &i) {
                           return std::string(num::dtypeName(i.param.from)) + "_to_" + num::dtypeName(i.param.to);
                         });

}  // namespace

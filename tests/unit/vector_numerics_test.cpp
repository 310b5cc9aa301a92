// vector_numerics_test.cpp — the Vector Engine CPU model's numerics (docs/numerics.md): the
// transcendental units' error bound against a long-double reference, and the i32/f32 op rules.
#include "DeviceVectorOps.h"
#include "Numerics.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <string>

namespace {
using tcp::interp::veFunction;
using tcp::interp::veTranscendental;

// Distance in f32 units in the last place between a float and an exact (long double) value.
double ulpError(float got, long double want) {
  float w = float(want);
  if (std::isinf(w) || std::isinf(got)) return got == w ? 0 : 1e9;
  float next = std::nextafter(std::fabs(w), INFINITY);
  long double ulp = (long double)next - std::fabs((long double)w);
  return double(std::fabs((long double)got - want) / ulp);
}

struct Case {
  const char *op;
  long double (*ref)(long double);
  double lo, hi;
};

long double sigmoidL(long double x) { return 1.0L / (1.0L + expl(-x)); }
long double negExpL(long double x) { return expl(-x); }

TEST(VectorNumerics, TranscendentalsWithinOneUlp) {
  const Case cases[] = {
      {"Exp", expl, -80, 80},      {"NegExp", negExpL, -80, 80}, {"Sqrt", sqrtl, 1e-30, 1e30},
      {"Tanh", tanhl, -20, 20},    {"Sigmoid", sigmoidL, -80, 80}, {"Erf", erfl, -6, 6},
      {"Log", logl, 1e-30, 1e30},  {"Sin", sinl, -100, 100},     {"Cos", cosl, -100, 100},
  };
  for (const Case &c : cases) {
    double worst = 0;
    const int n = 100000;
    for (int i = 0; i < n; ++i) {
      double t = (i + 0.5) / n;
      double x = c.lo > 0 ? c.lo * std::pow(c.hi / c.lo, t) : c.lo + (c.hi - c.lo) * t;
      float xf = float(x);
      long double want = c.ref((long double)xf);
      if (std::fabs(want) < 1.2e-38L || std::fabs(want) > 3.4e38L) continue;  // flushed or overflow
      worst = std::max(worst, ulpError(veTranscendental(c.op, xf), want));
    }
    EXPECT_LE(worst, 1.0) << c.op;
  }
}

TEST(VectorNumerics, TranscendentalSpecials) {
  EXPECT_EQ(tcp::num::f32Bits(veTranscendental("Log", -1.0f)), tcp::num::kCanonicalNanF32);
  EXPECT_EQ(veTranscendental("Exp", 200.0f), INFINITY);
  EXPECT_EQ(veTranscendental("Exp", -200.0f), 0.0f);  // the subnormal result flushes
  EXPECT_EQ(veTranscendental("Sqrt", 0.0f), 0.0f);
}

uint32_t run(const std::string &method, const std::string &op, bool f32, uint32_t a, uint32_t b) {
  auto fn = veFunction(method, op, f32);
  EXPECT_TRUE(fn.binary) << method << " " << op;
  uint32_t out = 0;
  if (fn.binary) fn.binary(&a, &b, &out, 1);
  return out;
}
uint32_t i(int32_t v) { return uint32_t(v); }

TEST(VectorNumerics, IntegerRules) {
  EXPECT_EQ(int32_t(run("vector_fxp", "AddFxpSat", false, i(INT32_MAX), i(1))), INT32_MAX);
  EXPECT_EQ(int32_t(run("vector_fxp", "AddFxp", false, i(INT32_MAX), i(1))), INT32_MIN);
  EXPECT_EQ(int32_t(run("vector_fxp", "SubFxpSat", false, i(INT32_MIN), i(1))), INT32_MIN);
  EXPECT_EQ(int32_t(run("vector_fxp", "ArithRightShiftRound", false, i(5), i(1))), 3);
  EXPECT_EQ(int32_t(run("vector_fxp", "ArithRightShiftRound", false, i(-5), i(1))), -2);
  EXPECT_EQ(run("vector_fxp", "LogicRightShift", false, i(-8), i(1)), 0x7FFFFFFCu);
  EXPECT_EQ(int32_t(run("vector_fxp", "LeftShiftSat", false, i(0x40000000), i(2))), INT32_MAX);
  EXPECT_EQ(int32_t(run("vector_logic", "ArithRightShift", false, i(-8), i(1))), -4);
  EXPECT_EQ(int32_t(run("vector_clip", "AbsMin", false, i(-3), i(5))), -3);
  EXPECT_EQ(int32_t(run("vector_clip", "AbsMax", false, i(-3), i(2))), -3);
  EXPECT_EQ(int32_t(run("vector_clip", "AbsMax", false, i(-3), i(3))), 3);  // a tie gives the operand
  EXPECT_EQ(int32_t(run("vector_clip", "AbsMin", false, i(3), i(-3))), -3);
  EXPECT_EQ(int32_t(run("vector_clip", "AddFxpSat", false, i(INT32_MIN), i(-1))), INT32_MIN);
}

TEST(VectorNumerics, FloatRules) {
  auto f = [](float v) { return tcp::num::f32Bits(v); };
  auto g = [](uint32_t b) { return tcp::num::f32FromBits(b); };
  EXPECT_EQ(g(run("vector_clip", "Max", true, f(-0.0f), f(0.0f))), 0.0f);
  EXPECT_TRUE(std::signbit(g(run("vector_clip", "Min", true, f(0.0f), f(-0.0f)))));
  // Min/Max ignore one NaN (the vendor model's f32::max); AbsMax gives the operand on NaN or a tie.
  EXPECT_EQ(g(run("vector_clip", "Max", true, f(NAN), f(1.0f))), 1.0f);
  EXPECT_EQ(g(run("vector_clip", "Min", true, f(2.0f), f(NAN))), 2.0f);
  EXPECT_EQ(run("vector_clip", "Max", true, f(NAN), f(NAN)), tcp::num::kCanonicalNanF32);
  EXPECT_EQ(g(run("vector_clip", "AbsMax", true, f(NAN), f(3.0f))), 3.0f);
  EXPECT_EQ(g(run("vector_clip", "AbsMax", true, f(-3.0f), f(3.0f))), 3.0f);
  EXPECT_EQ(g(run("vector_fp_div", "DivF", true, f(1.0f), f(3.0f))), 1.0f / 3.0f);
  EXPECT_EQ(g(run("vector_logic", "BitXor", true, f(-2.0f), 0x80000000u)), 2.0f);
  // 1e-38 × 0.5 is subnormal: flushed to +0.
  EXPECT_EQ(run("vector_fp_binary", "MulF(FpMulAlu::Mul0)", true, f(1e-38f), f(0.5f)), 0u);
}

}  // namespace

// numerics_test.cpp — RNGD numerics: type table, conversions, FTZ/NaN/saturation rules, reducer tree order, vector == scalar.
#include "NumericKernels.h"
#include "Numerics.h"

#include <gtest/gtest.h>
#include <hwy/targets.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstring>
#include <functional>
#include <iostream>
#include <iterator>
#include <limits>
#include <random>
#include <vector>

using namespace tcp::num;

namespace {

uint32_t bitsOf(float f) { return f32Bits(f); }
bool isSubnormalF32(float f) { return f != 0 && std::fabs(f) < FLT_MIN; }

// Runs `body` once per Highway target compiled in and supported by this CPU, forcing the dispatcher to it.
// The guard restores normal dispatch even when a fatal assertion returns early.
void forEachTarget(const std::function<void(const char *)> &body) {
  struct Restore {
    ~Restore() { hwy::SetSupportedTargetsForTest(0); }
  } restore;
  for (int64_t t : hwy::SupportedAndGeneratedTargets()) {
    hwy::SetSupportedTargetsForTest(t);
    const char *name = hwy::TargetName(t);
    ASSERT_STREQ(kernelTargetName(), name);
    SCOPED_TRACE(name);
    body(name);
  }
}

// ---- random data with the interesting corners (NaN, inf, subnormal, zero, ties, extremes) ----
std::vector<uint16_t> randomBf16(std::mt19937 &rng, size_t n) {
  std::vector<uint16_t> v(n);
  for (auto &x : v) {
    uint32_t r = rng(), sign = (r & 1) << 15, kind = (r >> 1) % 16;
    if (kind == 0) x = uint16_t(r >> 8);                                         // any pattern
    else if (kind == 1) x = uint16_t(sign | ((1 + (r >> 8) % 12) << 7) | ((r >> 20) & 0x7F));  // tiny normals
    else if (kind == 2) x = uint16_t(sign | ((r >> 8) % 4 == 0 ? 0x7F80 : (r >> 8) % 4 == 1 ? 0x7FC1 : (r >> 8) & 0x7F));
    else x = uint16_t(sign | ((120 + (r >> 8) % 16) << 7) | ((r >> 20) & 0x7F));  // cancellation-prone range
  }
  return v;
}
std::vector<float> randomF32(std::mt19937 &rng, size_t n) {
  std::vector<float> v(n);
  for (auto &x : v) {
    uint32_t r = rng(), kind = r % 8, sign = rng() & 0x80000000u;
    uint32_t m = rng() & 0x7FFFFF;
    if (kind == 0) x = f32FromBits(rng());                                // any pattern
    else if (kind == 1) x = f32FromBits(sign | m);                        // subnormal / zero
    else if (kind == 2) x = f32FromBits(sign | ((1 + (r >> 8) % 70) << 23) | m);   // tiny: products underflow
    else if (kind == 3) x = f32FromBits(sign | ((200 + (r >> 8) % 55) << 23) | m);  // huge: overflow
    else x = f32FromBits(sign | ((120 + (r >> 8) % 16) << 23) | m);
  }
  return v;
}
std::vector<int32_t> randomI32(std::mt19937 &rng, size_t n) {
  std::vector<int32_t> v(n);
  for (auto &x : v) {
    uint32_t r = rng();
    switch (r % 4) {
    case 0: x = int32_t(rng()); break;
    case 1: x = INT32_MAX - int32_t(rng() % 4); break;
    case 2: x = INT32_MIN + int32_t(rng() % 4); break;
    default: x = int32_t(rng() % 200001) - 100000; break;  // products near and far from the bounds
    }
  }
  return v;
}
std::vector<int8_t> randomI8(std::mt19937 &rng, size_t n) {
  std::vector<int8_t> v(n);
  for (auto &x : v) x = int8_t(rng());
  return v;
}

template <class T> bool bitsEqual(const std::vector<T> &a, const std::vector<T> &b) {
  return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0);
}

const size_t kSizes[] = {0, 1, 3, 7, 8, 15, 16, 17, 31, 32, 33, 63, 64, 65, 100, 257, 1000, 4099};

}  // namespace

// ============================================================================ type table
TEST(NumericsTypes, NamesSizesAndTables) {
  for (DType t : kAllDTypes) EXPECT_EQ(parseDType(dtypeName(t)), t);
  EXPECT_EQ(parseDType("fp16"), DType::f16);
  EXPECT_FALSE(parseDType("u8").has_value());
  EXPECT_EQ(storageBits(DType::i4), 4u);
  EXPECT_EQ(storageBytes(DType::i4, 3), 2u);
  EXPECT_EQ(storageBytes(DType::i4, 64), 32u);
  EXPECT_EQ(elementsPerFlit(DType::i4), 64u);
  EXPECT_EQ(elementsPerFlit(DType::i8), 32u);
  EXPECT_EQ(elementsPerFlit(DType::bf16), 16u);
  EXPECT_EQ(elementsPerFlit(DType::f32), 8u);
  EXPECT_EQ(valueBits(DType::i5), 5u);
  EXPECT_EQ(valueBits(DType::i9), 9u);
  EXPECT_FALSE(isStorable(DType::i9));
  EXPECT_TRUE(isStorable(DType::f8e4m3));
  EXPECT_EQ(intMin(DType::i5), -16);
  EXPECT_EQ(intMax(DType::i9), 255);
  EXPECT_EQ(reducerTreeDepth(DType::i4), 7u);
  EXPECT_EQ(reducerTreeDepth(DType::i8), 6u);
  EXPECT_EQ(reducerTreeDepth(DType::f8e4m3), 6u);
  EXPECT_EQ(reducerTreeDepth(DType::f8e5m2), 6u);
  EXPECT_EQ(reducerTreeDepth(DType::bf16), 5u);
  EXPECT_FALSE(isReducerInput(DType::f32));
  EXPECT_EQ(reducerOutputType(DType::i8), DType::i32);
  EXPECT_EQ(reducerOutputType(DType::bf16), DType::f32);
  // 64-byte MAC packet = 2^depth lanes.
  for (DType t : {DType::i4, DType::i8, DType::f8e4m3, DType::bf16})
    EXPECT_EQ(storageBytes(t, size_t(1) << reducerTreeDepth(t)), 64u) << dtypeName(t);
  EXPECT_TRUE(fetchCastSupported(DType::i4, DType::i5));
  EXPECT_TRUE(fetchCastSupported(DType::f32, DType::bf16));
  EXPECT_FALSE(fetchCastSupported(DType::i4, DType::i9));
  EXPECT_TRUE(fetchCastSupported(DType::i4, DType::i9, /*rngdS=*/true));
  EXPECT_FALSE(fetchCastSupported(DType::f8e4m3, DType::bf16));
  EXPECT_TRUE(fetchCastSupported(DType::f8e4m3, DType::bf16, true));
  EXPECT_TRUE(castEngineSupported(DType::i32, DType::i4));
  EXPECT_TRUE(castEngineSupported(DType::f32, DType::f8e5m2));
  EXPECT_FALSE(castEngineSupported(DType::f32, DType::i8));
}

TEST(NumericsTypes, I4PackingLowNibbleFirst) {
  uint8_t bytes[2] = {0, 0};
  packI4(bytes, 0, 1);
  packI4(bytes, 1, -2);
  packI4(bytes, 2, 7);
  packI4(bytes, 3, -8);
  EXPECT_EQ(bytes[0], 0xE1);
  EXPECT_EQ(bytes[1], 0x87);
  for (int v = -8; v <= 7; ++v)
    for (size_t idx = 0; idx < 4; ++idx) {
      packI4(bytes, idx, v);
      EXPECT_EQ(unpackI4(bytes, idx), v);
    }
}

// ============================================================================ bf16
TEST(NumericsBf16, ExhaustiveRoundTrip) {
  int nans = 0, subnormals = 0;
  for (uint32_t b = 0; b < 65536; ++b) {
    const float f = bf16ToF32(uint16_t(b));
    const uint32_t e = (b >> 7) & 0xFF, m = b & 0x7F;
    if (e == 0xFF && m != 0) {
      ++nans;
      ASSERT_EQ(bitsOf(f), kCanonicalNanF32) << std::hex << b;
      ASSERT_EQ(f32ToBf16(f), kCanonicalNanBf16);
    } else if (e == 0 && m != 0) {
      ++subnormals;
      ASSERT_EQ(bitsOf(f), (b & 0x8000u) << 16) << std::hex << b;  // signed zero
      ASSERT_EQ(f32ToBf16(f), b & 0x8000u);
    } else {
      ASSERT_EQ(bitsOf(f), b << 16) << std::hex << b;
      ASSERT_EQ(f32ToBf16(f), b) << std::hex << b;
    }
  }
  EXPECT_EQ(nans, 2 * 127);
  EXPECT_EQ(subnormals, 2 * 127);
}

TEST(NumericsBf16, RoundingTiesToEven) {
  EXPECT_EQ(f32ToBf16(f32FromBits(0x3F808000)), 0x3F80);  // tie, even stays
  EXPECT_EQ(f32ToBf16(f32FromBits(0x3F818000)), 0x3F82);  // tie, odd rounds up
  EXPECT_EQ(f32ToBf16(f32FromBits(0x3F808001)), 0x3F81);  // above the tie
  EXPECT_EQ(f32ToBf16(f32FromBits(0x3F807FFF)), 0x3F80);  // below the tie
  EXPECT_EQ(f32ToBf16(f32FromBits(0xBF818000)), 0xBF82);  // negative tie, odd
  EXPECT_EQ(f32ToBf16(f32FromBits(0x3FFF8000)), 0x4000);  // carry into the exponent
  EXPECT_EQ(f32ToBf16(f32FromBits(0x7F7F7FFF)), 0x7F7F);  // largest that stays finite
  EXPECT_EQ(f32ToBf16(f32FromBits(0x7F7F8000)), 0x7F80);  // overflow to +inf
  EXPECT_EQ(f32ToBf16(f32FromBits(0xFF7FFFFF)), 0xFF80);
  EXPECT_EQ(f32ToBf16(-INFINITY), 0xFF80);
  EXPECT_EQ(f32ToBf16(f32FromBits(0x00800000)), 0x0080);  // smallest normal is kept
}

TEST(NumericsBf16, MatchesIndependentNearestEvenOracle) {
  std::mt19937 rng(7);
  for (int i = 0; i < 200000; ++i) {
    uint32_t u = rng();
    float x = f32FromBits(u);
    if (std::isnan(x) || isSubnormalF32(x) || std::isinf(x)) continue;
    // Candidates: truncation and the next bf16 up in magnitude (2^128 stands for "beyond max" -> inf).
    uint32_t t = u >> 16;
    double lo = std::fabs(double(f32FromBits(t << 16)));
    double hi = ((t & 0x7FFF) + 1) == 0x7F80 ? std::ldexp(1.0, 128) : std::fabs(double(f32FromBits((t + 1) << 16)));
    double ax = std::fabs(double(x));
    uint32_t expect = (ax - lo < hi - ax || (ax - lo == hi - ax && (t & 1) == 0)) ? t : t + 1;
    ASSERT_EQ(f32ToBf16(x), expect) << std::hex << u;
  }
}

// ============================================================================ subnormals / NaN
TEST(NumericsRules, SubnormalsFlushToSignedZero) {
  EXPECT_EQ(f32ToBf16(1e-40f), 0x0000);
  EXPECT_EQ(f32ToBf16(-1e-40f), 0x8000);
  EXPECT_EQ(bitsOf(bf16ToF32(0x0001)), 0x00000000u);
  EXPECT_EQ(bitsOf(bf16ToF32(0x8001)), 0x80000000u);
  // Results: 1e-20 * 1e-20 = 1e-40 is subnormal -> signed zero.
  EXPECT_EQ(bitsOf(mulF32(1e-20f, 1e-20f)), 0x00000000u);
  EXPECT_EQ(bitsOf(mulF32(-1e-20f, 1e-20f)), 0x80000000u);
  EXPECT_EQ(bitsOf(subF32(1.5f * FLT_MIN, FLT_MIN)), 0u);  // exact 0.5 * FLT_MIN -> 0
  EXPECT_EQ(bitsOf(subF32(-1.5f * FLT_MIN, -FLT_MIN)), 0x80000000u);
  // A product that IEEE rounds (on the subnormal grid) up to FLT_MIN is normal and kept.
  EXPECT_EQ(mulF32(0x1.fffffep-1f, FLT_MIN), FLT_MIN);
  // Inputs: a subnormal operand reads as zero.
  EXPECT_EQ(addF32(f32FromBits(1), FLT_MIN), FLT_MIN);
  EXPECT_EQ(bitsOf(addF32(f32FromBits(0x80000001u), -0.0f)), 0x80000000u);
  EXPECT_EQ(bitsOf(fmaF32(1e-20f, 1e-20f, 0.0f)), 0u);
  // Narrow floats: f16 min normal 2^-14, f8e4m3 min normal 2^-6.
  EXPECT_EQ(f32ToF16(std::ldexp(1.0f, -15)), 0x0000);
  EXPECT_EQ(f32ToF16(-std::ldexp(1.0f, -15)), 0x8000);
  EXPECT_EQ(f32ToF16(std::ldexp(1.0f, -14)), 0x0400);
  EXPECT_EQ(bitsOf(f16ToF32(0x0001)), 0u);
  EXPECT_EQ(bitsOf(f16ToF32(0x83FF)), 0x80000000u);
  // f8 formats keep subnormals (the vendor's reference model): f8e4m3 steps 2^-9, f8e5m2 2^-16.
  EXPECT_EQ(f32ToF8e4m3(std::ldexp(1.0f, -7)), 0x04);
  EXPECT_EQ(f32ToF8e4m3(std::ldexp(7.5f, -9)), 0x08);   // subnormal-grid tie rounds up to 2^-6
  EXPECT_EQ(f32ToF8e4m3(std::ldexp(7.2f, -9)), 0x07);
  EXPECT_EQ(f32ToF8e5m2(-std::ldexp(1.0f, -15)), 0x82);
  EXPECT_EQ(f8e5m2ToF32(0x03), std::ldexp(3.0f, -16));
  EXPECT_EQ(f8e4m3ToF32(0x87), -std::ldexp(7.0f, -9));
}

TEST(NumericsRules, NaNIsCanonical) {
  const float weird = f32FromBits(0xFFA12345u);  // negative signaling NaN with a payload
  EXPECT_EQ(bitsOf(canonicalizeF32(weird)), kCanonicalNanF32);
  EXPECT_EQ(bitsOf(addF32(INFINITY, -INFINITY)), kCanonicalNanF32);
  EXPECT_EQ(bitsOf(mulF32(0.0f, INFINITY)), kCanonicalNanF32);
  EXPECT_EQ(bitsOf(addF32(weird, 1.0f)), kCanonicalNanF32);
  EXPECT_EQ(bitsOf(mulF32(1.0f, weird)), kCanonicalNanF32);
  EXPECT_EQ(f32ToBf16(weird), kCanonicalNanBf16);
  EXPECT_EQ(f32ToF16(weird), kCanonicalNanF16);
  EXPECT_EQ(f32ToF8e4m3(weird), kCanonicalNanF8E4M3);
  EXPECT_EQ(f32ToF8e5m2(weird), kCanonicalNanF8E5M2);
  for (uint32_t b = 0x7C01; b <= 0x7FFF; ++b) {
    ASSERT_EQ(bitsOf(f16ToF32(uint16_t(b))), kCanonicalNanF32);
    ASSERT_EQ(bitsOf(f16ToF32(uint16_t(b | 0x8000))), kCanonicalNanF32);
  }
  EXPECT_EQ(bitsOf(f8e4m3ToF32(0xFF)), kCanonicalNanF32);
  EXPECT_EQ(bitsOf(f8e5m2ToF32(0xFD)), kCanonicalNanF32);
  for (DType t : {DType::f32, DType::bf16, DType::f16, DType::f8e4m3, DType::f8e5m2})
    EXPECT_EQ(f32ToFloat(t, weird), canonicalNanBits(t)) << dtypeName(t);
  EXPECT_EQ(f32ToI32(weird), 0);
}

// ============================================================================ f16 and f8
#if defined(__FLT16_MAX__)
TEST(NumericsF16, MatchesHostFloat16PlusFlush) {
  // The host's _Float16 conversion is IEEE RNE with subnormals; RNGD = that, then subnormal -> signed zero.
  std::mt19937 rng(11);
  auto oracle = [](float x) -> uint16_t {
    _Float16 h = static_cast<_Float16>(x);
    uint16_t b;
    std::memcpy(&b, &h, 2);
    if ((b & 0x7C00) == 0x7C00 && (b & 0x3FF)) return kCanonicalNanF16;
    if ((b & 0x7C00) == 0) return b & 0x8000;
    return b;
  };
  for (int i = 0; i < 300000; ++i) {
    float x = f32FromBits(rng());
    if (i % 2) x = std::ldexp(float(rng() % 100000) / 1000.0f, int(rng() % 50) - 30);
    if (isSubnormalF32(x)) continue;  // DAZ differs from the host by design
    ASSERT_EQ(f32ToF16(x), oracle(x)) << std::hexfloat << x;
  }
}
#endif

TEST(NumericsF16, ExhaustiveRoundTrip) {
  for (uint32_t b = 0; b < 65536; ++b) {
    const float f = f16ToF32(uint16_t(b));
    const uint32_t e = (b >> 10) & 0x1F, m = b & 0x3FF;
    if (e == 0x1F && m) ASSERT_EQ(f32ToF16(f), kCanonicalNanF16);
    else if (e == 0 && m) ASSERT_EQ(f32ToF16(f), b & 0x8000u);
    else ASSERT_EQ(f32ToF16(f), b) << std::hex << b;
  }
}

TEST(NumericsF8, ExhaustiveRoundTripAndLimits) {
  for (uint32_t b = 0; b < 256; ++b) {
    const uint32_t e4 = (b >> 3) & 0xF, m4 = b & 7;
    const float f4 = f8e4m3ToF32(uint8_t(b));
    // Both f8 formats keep subnormals (the vendor's reference model): every code but NaN round-trips.
    if (e4 == 0xF && m4 == 7) {
      EXPECT_EQ(f32ToF8e4m3(f4), kCanonicalNanF8E4M3);
    } else {
      EXPECT_EQ(f32ToF8e4m3(f4), b) << std::hex << b;
    }
    if (e4 == 0 && m4) {
      EXPECT_EQ(f4, std::ldexp(float(m4), -9) * ((b & 0x80) ? -1.0f : 1.0f));
    }
    const uint32_t e5 = (b >> 2) & 0x1F, m5 = b & 3;
    const float f5 = f8e5m2ToF32(uint8_t(b));
    if (e5 == 0x1F && m5) {
      EXPECT_EQ(f32ToF8e5m2(f5), kCanonicalNanF8E5M2);
    } else {
      EXPECT_EQ(f32ToF8e5m2(f5), b) << std::hex << b;
    }
    if (e5 == 0 && m5) {
      EXPECT_EQ(f5, std::ldexp(float(m5), -16) * ((b & 0x80) ? -1.0f : 1.0f));
    }
    // f8 -> bf16 (RNGD-S fetch cast) is exact.
    if (!std::isnan(f4)) {
      EXPECT_EQ(bf16ToF32(uint16_t(convertFloat(DType::f8e4m3, DType::bf16, b))), f4);
    }
  }
  EXPECT_EQ(f8e4m3ToF32(0x7E), 448.0f);
  EXPECT_EQ(f8e4m3ToF32(0x08), std::ldexp(1.0f, -6));
  EXPECT_EQ(f8e5m2ToF32(0x7B), 57344.0f);
  EXPECT_EQ(f8e5m2ToF32(0x7C), INFINITY);
  // e4m3 has no infinity: overflow and inf saturate to +-448.
  EXPECT_EQ(f32ToF8e4m3(1000.0f), 0x7E);
  EXPECT_EQ(f32ToF8e4m3(464.0f), 0x7E);
  EXPECT_EQ(f32ToF8e4m3(-INFINITY), 0xFE);
  EXPECT_EQ(f32ToF8e4m3(1.0625f), 0x38);   // tie between 1.0 and 1.125 -> even (1.0)
  EXPECT_EQ(f32ToF8e4m3(1.1875f), 0x3A);   // tie between 1.125 and 1.25 -> even (1.25)
  // e5m2 overflows to inf like IEEE.
  EXPECT_EQ(f32ToF8e5m2(61439.0f), 0x7B);
  EXPECT_EQ(f32ToF8e5m2(61440.0f), 0x7C);  // tie with the value past max -> away from zero -> inf
  EXPECT_EQ(f32ToF8e5m2(1.125f), 0x3D);    // ties round away from zero: 1.25
  EXPECT_EQ(f32ToF8e5m2(-1.625f), 0xBF);   // -1.75
  EXPECT_EQ(f32ToF8e4m3(0.003f), 0x02);    // subnormal: 0.003 / 2^-9 = 1.54 -> 2
  EXPECT_EQ(f32ToF8e4m3(std::ldexp(1.0f, -10)), 0x00);  // half of the smallest subnormal: tie -> even (0)
  EXPECT_EQ(f32ToF8e5m2(-1e6f), 0xFC);
}

// ============================================================================ int <-> float, casts
TEST(NumericsConvert, IntFloatAndFixedPoint) {
  EXPECT_EQ(i32ToF32(16777217), 16777216.0f);
  EXPECT_EQ(i32ToF32(16777219), 16777220.0f);
  EXPECT_EQ(f32ToI32(2.5f), 2);
  EXPECT_EQ(f32ToI32(3.5f), 4);
  EXPECT_EQ(f32ToI32(-2.5f), -2);
  EXPECT_EQ(f32ToI32(-0.5f), 0);
  EXPECT_EQ(f32ToI32(1e10f), INT32_MAX);
  EXPECT_EQ(f32ToI32(-1e10f), INT32_MIN);
  EXPECT_EQ(f32ToI32(2147483520.0f), 2147483520);
  EXPECT_EQ(f32ToI32(2147483648.0f), INT32_MAX);
  EXPECT_EQ(f32ToI32(-2147483648.0f), INT32_MIN);
  EXPECT_EQ(fxpToF32(1 << 30, 0), 0.5f);
  EXPECT_EQ(fxpToF32(5, 31), 5.0f);
  EXPECT_EQ(fxpToF32(-3, 29), -0.75f);
  EXPECT_EQ(f32ToFxp(0.5f, 0), 1 << 30);
  EXPECT_EQ(f32ToFxp(1.0f, 0), INT32_MAX);
  EXPECT_EQ(f32ToFxp(-1.0f, 0), INT32_MIN);
  EXPECT_EQ(f32ToFxp(-0.75f, 29), -3);
  // Halves round away from zero and NaN saturates by its sign (the vendor model's float_to_fixedpoint).
  EXPECT_EQ(f32ToFxp(632.5f, 31), 633);
  EXPECT_EQ(f32ToFxp(-632.5f, 31), -633);
  EXPECT_EQ(f32ToFxp(2.5f, 31), 3);
  EXPECT_EQ(f32ToFxp(std::numeric_limits<float>::quiet_NaN(), 31), INT32_MAX);
  EXPECT_EQ(f32ToFxp(-std::numeric_limits<float>::quiet_NaN(), 31), INT32_MIN);
  EXPECT_EQ(castI32To(DType::i8, 300), 44);  // narrowing keeps the low bits
  EXPECT_EQ(castI32To(DType::i8, -300), -44);
  EXPECT_EQ(castI32To(DType::i4, 9), -7);
  EXPECT_EQ(castI32To(DType::i16, -40000), 25536);
  EXPECT_EQ(fetchWidenInt(DType::i9, -128, 127), -255);
  EXPECT_EQ(fetchWidenInt(DType::i5, -8, 7), -15);
  EXPECT_EQ(fetchWidenInt(DType::i32, 7, 10), -3);  // manual's zero-point example
  EXPECT_EQ(wrapInt(128, DType::i8), -128);
  EXPECT_EQ(wrapInt(-17, DType::i5), 15);
}

// ============================================================================ integer ops
template <class T> void checkIntBounds() {
  using L = std::numeric_limits<T>;
  const T mx = L::max(), mn = L::min();
  const unsigned w = sizeof(T) * 8;
  EXPECT_EQ(addSat<T>(mx, 1), mx);
  EXPECT_EQ(addSat<T>(mn, -1), mn);
  EXPECT_EQ(addWrap<T>(mx, 1), mn);
  EXPECT_EQ(subSat<T>(mn, 1), mn);
  EXPECT_EQ(subSat<T>(mx, -1), mx);
  EXPECT_EQ(subSat<T>(0, mn), mx);
  EXPECT_EQ(subWrap<T>(mn, 1), mx);
  EXPECT_EQ(mulSat<T>(mn, -1), mx);
  EXPECT_EQ(mulWrap<T>(mn, -1), mn);
  EXPECT_EQ(mulSat<T>(mx, 2), mx);
  EXPECT_EQ(mulSat<T>(mx, -2), mn);
  EXPECT_EQ(shlSat<T>(1, w - 2), T(1) << (w - 2));
  EXPECT_EQ(shlSat<T>(1, w - 1), mx);
  EXPECT_EQ(shlSat<T>(-1, w - 1), mn);
  EXPECT_EQ(shlSat<T>(-1, w), mn);
  EXPECT_EQ(shlSat<T>(0, 100), 0);
  EXPECT_EQ(shlWrap<T>(1, w - 1), mn);
  EXPECT_EQ(shlWrap<T>(3, w), 0);
  EXPECT_EQ(lshr<T>(-1, 1), mx);
  EXPECT_EQ(lshr<T>(-1, w), 0);
  EXPECT_EQ(ashr<T>(-1, 40), -1);
  EXPECT_EQ(ashr<T>(mn, w - 1), -1);
  EXPECT_EQ(ashrRound<T>(5, 1), 3);
  EXPECT_EQ(ashrRound<T>(-5, 1), -2);
  EXPECT_EQ(ashrRound<T>(-6, 2), -1);
  EXPECT_EQ(ashrRound<T>(7, 2), 2);
  EXPECT_EQ(ashrRound<T>(mx, 1), T((int64_t(mx) + 1) / 2));
  EXPECT_EQ(ashrRound<T>(mn, w), 0);
}
TEST(NumericsInt, SaturationAndWrapBounds) {
  checkIntBounds<int8_t>();
  checkIntBounds<int16_t>();
  checkIntBounds<int32_t>();
}

TEST(NumericsInt, ExhaustiveI8AgainstWideArithmetic) {
  for (int a = -128; a <= 127; ++a)
    for (int b = -128; b <= 127; ++b) {
      auto clamp = [](int v) { return v < -128 ? -128 : v > 127 ? 127 : v; };
      auto wrap = [](int v) { return int(int8_t(uint8_t(v & 0xFF))); };
      const int8_t x = int8_t(a), y = int8_t(b);
      ASSERT_EQ(addSat(x, y), clamp(a + b));
      ASSERT_EQ(addWrap(x, y), wrap(a + b));
      ASSERT_EQ(subSat(x, y), clamp(a - b));
      ASSERT_EQ(subWrap(x, y), wrap(a - b));
      ASSERT_EQ(mulSat(x, y), clamp(a * b));
      ASSERT_EQ(mulWrap(x, y), wrap(a * b));
    }
}

TEST(NumericsInt, FixedPointMultiply) {
  EXPECT_EQ(mulFxp(1 << 30, 1 << 30, 31), 1 << 29);  // 0.5 * 0.5 = 0.25 in Q31
  EXPECT_EQ(mulFxp(INT32_MIN, INT32_MIN, 31), INT32_MAX);
  EXPECT_EQ(mulFxp(INT32_MIN, INT32_MAX, 31), INT32_MIN + 1);
  EXPECT_EQ(mulFxp(3, 1, 1), 2);    // 1.5 rounds half up
  EXPECT_EQ(mulFxp(-3, 1, 1), -1);  // -1.5 rounds half up
  EXPECT_EQ(mulFxp(7, 9, 0), 63);
}

// ============================================================================ reducer tree
namespace {
uint16_t bf(float f) { return f32ToBf16(f); }
}

TEST(NumericsTree, AdjacentPairOrderIsNotSequentialNorHalving) {
  // Lanes 0, 2, 3 = 2^24, 1, 1 (times weight 1). Adjacent pairs: (2,3) = 2, then 2^24 + 2 exactly.
  // Left-to-right: 2^24 + 1 rounds (tie, even) back to 2^24 twice. A halving tree (i + i+16, ...) also
  // meets 2^24 + 1 at lane 0 first. Only the RNGD order gives 16777218.
  std::vector<uint16_t> x(32, 0), w(32, bf(1.0f));
  x[0] = bf(16777216.0f);
  x[2] = bf(1.0f);
  x[3] = bf(1.0f);
  float tree;
  ref::reduceTreeBf16(x.data(), w.data(), 1, 5, &tree);
  EXPECT_EQ(tree, 16777218.0f);
  EXPECT_EQ(ref::sequentialDotBf16(x.data(), w.data(), 32), 16777216.0f);
  EXPECT_NE(tree, ref::sequentialDotBf16(x.data(), w.data(), 32));
  EXPECT_EQ(dotBf16(x.data(), w.data(), 32), 16777218.0f);
  forEachTarget([&](const char *) {
    float v = 0;
    std::vector<uint16_t> xs, ws;  // enough packets to take the vector path on every target
    for (int p = 0; p < 64; ++p) xs.insert(xs.end(), x.begin(), x.end()), ws.insert(ws.end(), w.begin(), w.end());
    std::vector<float> out(64);
    reduceTreeBf16(xs.data(), ws.data(), 64, 5, out.data());
    for (float o : out) ASSERT_EQ(o, 16777218.0f);
    reduceTreeBf16(x.data(), w.data(), 1, 5, &v);
    EXPECT_EQ(v, 16777218.0f);
  });
}

TEST(NumericsTree, PartialDepthSumsAlignedBlocksInLaneOrder) {
  std::vector<uint16_t> x(32), w(32, bf(1.0f));
  for (int j = 0; j < 32; ++j) x[j] = bf(float(j));
  std::vector<float> out(8);
  ref::reduceTreeBf16(x.data(), w.data(), 1, 2, out.data());
  for (int j = 0; j < 8; ++j) EXPECT_EQ(out[j], float(4 * j + 4 * j + 1 + 4 * j + 2 + 4 * j + 3));
  std::vector<int8_t> a(64), b(64, 1);
  for (int j = 0; j < 64; ++j) a[j] = int8_t(j - 32);
  std::vector<int32_t> io(16);
  ref::reduceTreeI8(a.data(), b.data(), 1, 2, io.data());
  for (int j = 0; j < 16; ++j) EXPECT_EQ(io[j], 4 * (4 * j - 32) + 6);
}

TEST(NumericsTree, FlushesSubnormalPartialSums) {
  // 1.5 * FLT_MIN - FLT_MIN = 0.5 * FLT_MIN is subnormal: the tree flushes it to +0.
  std::vector<uint16_t> x(32, 0), w(32, bf(1.0f));
  std::vector<float> r(32, 1.0f);
  x[0] = 0x00C0;  // 1.5 * 2^-126
  x[1] = 0x8080;  // -2^-126
  ref::reduceTreeBf16(x.data(), w.data(), 1, 5, r.data());
  EXPECT_EQ(bitsOf(r[0]), 0u);
  ref::reduceTreeBf16(x.data(), w.data(), 1, 1, r.data());  // depth 1: lane pair (0, 1) is output 0
  EXPECT_EQ(bitsOf(r[0]), 0u);
  // Products that underflow are flushed too: 2^-70 * 2^-70 and -2^-70 * 2^-70.
  x[0] = bf(std::ldexp(1.0f, -70));
  w[0] = x[0];
  x[1] = bf(-std::ldexp(1.0f, -70));
  w[1] = x[0];
  ref::reduceTreeBf16(x.data(), w.data(), 1, 0, r.data());
  EXPECT_EQ(bitsOf(r[0]), 0u);
  EXPECT_EQ(bitsOf(r[1]), 0x80000000u);
  x[0] = 0x7FC1;  // NaN with payload
  ref::reduceTreeBf16(x.data(), w.data(), 1, 5, r.data());
  EXPECT_EQ(bitsOf(r[0]), kCanonicalNanF32);
}

TEST(NumericsTree, DotAccumulatesPacketsInOrder) {
  // Packet sums 2^24, 1, 1: acc = (2^24 + 1) + 1 = 2^24 under RNE; zero-padded tail packet.
  std::vector<uint16_t> x(32 * 2 + 5, 0), w(x.size(), bf(1.0f));
  x[0] = bf(16777216.0f);
  x[32] = bf(1.0f);
  x[64] = bf(1.0f);
  EXPECT_EQ(ref::dotBf16(x.data(), w.data(), x.size()), 16777216.0f);
  EXPECT_EQ(dotBf16(x.data(), w.data(), x.size()), 16777216.0f);
  EXPECT_EQ(bitsOf(ref::dotBf16(x.data(), w.data(), 0)), 0u);
  std::vector<int8_t> a(130, -128), b(130, -128);
  EXPECT_EQ(ref::dotI8(a.data(), b.data(), 130), 130 * 16384);
  EXPECT_EQ(dotI8(a.data(), b.data(), 130), 130 * 16384);
}

// ============================================================================ vector == scalar
TEST(NumericsKernels, DispatchTargetReported) {
  const char *name = kernelTargetName();
  ASSERT_NE(name, nullptr);
  const auto compiled = compiledKernelTargets();
  std::string list;
  for (const auto &c : compiled) list += c + " ";
  std::cout << "[numerics] dispatch target: " << name << "; compiled: " << list << "\n";
  RecordProperty("dispatch_target", name);
  EXPECT_NE(std::find(compiled.begin(), compiled.end(), std::string(name)), compiled.end());
  const auto supported = hwy::SupportedAndGeneratedTargets();
  ASSERT_FALSE(supported.empty());
  EXPECT_STREQ(name, hwy::TargetName(supported.front()));  // the best compiled target the CPU supports
}

TEST(NumericsKernels, Bf16ConversionsAllPatterns) {
  std::vector<uint16_t> all(65536 + 5);
  for (size_t i = 0; i < all.size(); ++i) all[i] = uint16_t(i);
  std::vector<float> ref32(all.size());
  ref::bf16ToF32(all.data(), ref32.data(), all.size());
  std::mt19937 rng(3);
  auto f = randomF32(rng, 100003);
  for (uint32_t b = 0; b < 65536; ++b) f.push_back(f32FromBits((b << 16) | (rng() & 0xFFFF)));
  std::vector<uint16_t> ref16(f.size());
  ref::f32ToBf16(f.data(), ref16.data(), f.size());
  forEachTarget([&](const char *) {
    std::vector<float> v32(all.size());
    bf16ToF32(all.data(), v32.data(), all.size());
    EXPECT_TRUE(bitsEqual(v32, ref32));
    std::vector<uint16_t> v16(f.size());
    f32ToBf16(f.data(), v16.data(), f.size());
    EXPECT_TRUE(bitsEqual(v16, ref16));
  });
}

TEST(NumericsKernels, ReduceTreesMatchScalar) {
  std::mt19937 rng(5);
  for (size_t packets : {size_t(1), size_t(3), size_t(4), size_t(8), size_t(16), size_t(17), size_t(40), size_t(100)}) {
    auto x = randomBf16(rng, packets * 32), w = randomBf16(rng, packets * 32);
    auto a = randomI8(rng, packets * 64), b = randomI8(rng, packets * 64);
    for (unsigned depth = 0; depth <= 6; ++depth) {
      std::vector<float> rf;
      if (depth <= 5) {
        rf.resize(packets * (32 >> depth));
        ref::reduceTreeBf16(x.data(), w.data(), packets, depth, rf.data());
      }
      std::vector<int32_t> ri(packets * (64 >> depth));
      ref::reduceTreeI8(a.data(), b.data(), packets, depth, ri.data());
      forEachTarget([&](const char *) {
        SCOPED_TRACE(testing::Message() << "packets " << packets << " depth " << depth);
        if (depth <= 5) {
          std::vector<float> vf(rf.size());
          reduceTreeBf16(x.data(), w.data(), packets, depth, vf.data());
          EXPECT_TRUE(bitsEqual(vf, rf));
        }
        std::vector<int32_t> vi(ri.size());
        reduceTreeI8(a.data(), b.data(), packets, depth, vi.data());
        EXPECT_TRUE(bitsEqual(vi, ri));
      });
    }
  }
}

TEST(NumericsKernels, DotProductsMatchScalar) {
  std::mt19937 rng(9);
  for (size_t n : kSizes) {
    auto x = randomBf16(rng, n * 40 + 1), w = randomBf16(rng, n * 40 + 1);
    auto a = randomI8(rng, n * 40 + 1), b = randomI8(rng, n * 40 + 1);
    const float rf = ref::dotBf16(x.data(), w.data(), x.size());
    const int32_t ri = ref::dotI8(a.data(), b.data(), a.size());
    forEachTarget([&](const char *) {
      EXPECT_EQ(bitsOf(dotBf16(x.data(), w.data(), x.size())), bitsOf(rf)) << n;
      EXPECT_EQ(dotI8(a.data(), b.data(), a.size()), ri) << n;
    });
  }
}

TEST(NumericsKernels, ElementwiseMatchScalar) {
  using I32Fn = void (*)(const int32_t *, const int32_t *, int32_t *, size_t);
  using F32Fn = void (*)(const float *, const float *, float *, size_t);
  const std::pair<I32Fn, I32Fn> iops[] = {{addWrapI32, ref::addWrapI32}, {addSatI32, ref::addSatI32},
                                          {subWrapI32, ref::subWrapI32}, {subSatI32, ref::subSatI32},
                                          {mulWrapI32, ref::mulWrapI32}, {mulSatI32, ref::mulSatI32}};
  const std::pair<F32Fn, F32Fn> fops[] = {{addF32, ref::addF32}, {subF32, ref::subF32}, {mulF32, ref::mulF32}};
  std::mt19937 rng(13);
  for (size_t n : kSizes) {
    auto a = randomI32(rng, n), b = randomI32(rng, n);
    auto x = randomF32(rng, n), y = randomF32(rng, n);
    forEachTarget([&](const char *) {
      for (size_t k = 0; k < std::size(iops); ++k) {
        std::vector<int32_t> r(n), v(n);
        iops[k].second(a.data(), b.data(), r.data(), n);
        iops[k].first(a.data(), b.data(), v.data(), n);
        EXPECT_TRUE(bitsEqual(v, r)) << "i32 op " << k << " n " << n;
      }
      for (size_t k = 0; k < std::size(fops); ++k) {
        std::vector<float> r(n), v(n);
        fops[k].second(x.data(), y.data(), r.data(), n);
        fops[k].first(x.data(), y.data(), v.data(), n);
        EXPECT_TRUE(bitsEqual(v, r)) << "f32 op " << k << " n " << n;
        for (float f : v) ASSERT_FALSE(isSubnormalF32(f));
      }
    });
  }
}

// The accumulator's paths agree bit for bit: the gathered adds, the register runs (consecutive sources
// per round, the first arrival's bits kept as they are; four runs side by side and the rest one by
// one) and the scalar addF32 in time order.
TEST(NumericsKernels, AccumulatorPathsMatchScalar) {
  std::mt19937 rng(29);
  for (size_t rounds : {1u, 2u, 7u, 32u}) {
    const size_t runs = 6;
    std::vector<float> src = randomF32(rng, rounds * 64 + runs * 8 + kRunLanes);
    src[3] = f32FromBits(0x00000005u);   // a subnormal first arrival: kept as is in one round
    src[64] = f32FromBits(0x7FA00001u);  // a signalling NaN
    std::vector<int32_t> bases(runs * rounds);
    for (size_t k = 0; k < runs; ++k)
      for (size_t r = 0; r < rounds; ++r) bases[k * rounds + r] = int32_t(r * 64 + k * 8 + (r * 5 + k) % 9);
    forEachTarget([&](const char *target) {
      std::vector<float> run(runs * kRunLanes), want(runs * kRunLanes);
      accumulateRunsF32(src.data(), bases.data(), rounds, runs, run.data());
      ref::accumulateRunsF32(src.data(), bases.data(), rounds, runs, want.data());
      for (size_t k = 0; k < runs; ++k) {
        const int32_t *b = bases.data() + k * rounds;
        std::vector<float> gathered(kRunLanes), scalar(kRunLanes);
        for (size_t j = 0; j < kRunLanes; ++j) gathered[j] = scalar[j] = src[size_t(b[0]) + j];
        for (size_t r = 1; r < rounds; ++r) {
          std::vector<int32_t> idx(kRunLanes);
          for (size_t j = 0; j < kRunLanes; ++j) idx[j] = b[r] + int32_t(j);
          addGatherF32(gathered.data(), src.data(), idx.data(), kRunLanes);
          for (size_t j = 0; j < kRunLanes; ++j) scalar[j] = addF32(scalar[j], src[size_t(idx[j])]);
        }
        for (size_t j = 0; j < kRunLanes; ++j) {
          const uint32_t got = f32Bits(run[k * kRunLanes + j]);
          EXPECT_EQ(got, f32Bits(want[k * kRunLanes + j])) << target << " rounds " << rounds << " run " << k << " lane " << j;
          EXPECT_EQ(got, f32Bits(gathered[j])) << target << " rounds " << rounds << " run " << k;
          EXPECT_EQ(got, f32Bits(scalar[j])) << target << " rounds " << rounds << " run " << k;
        }
      }
    });
  }
}

TEST(NumericsKernels, SaturatingKernelsHitBounds) {
  const std::vector<int32_t> a = {INT32_MAX, INT32_MIN, INT32_MAX, INT32_MIN, 65536, -65536, 46341, 7, 0, -1, 5, 6, 7, 8, 9, 10};
  const std::vector<int32_t> b = {1, -1, -1, 1, 65536, 65536, 46341, -7, INT32_MIN, INT32_MIN, 5, 6, 7, 8, 9, 10};
  forEachTarget([&](const char *) {
    std::vector<int32_t> o(a.size());
    addSatI32(a.data(), b.data(), o.data(), a.size());
    EXPECT_EQ(o[0], INT32_MAX);
    EXPECT_EQ(o[1], INT32_MIN);
    EXPECT_EQ(o[2], INT32_MAX - 1);
    subSatI32(a.data(), b.data(), o.data(), a.size());
    EXPECT_EQ(o[2], INT32_MAX);
    EXPECT_EQ(o[3], INT32_MIN);
    EXPECT_EQ(o[8], INT32_MAX);  // 0 - INT32_MIN
    EXPECT_EQ(o[9], INT32_MAX);  // -1 - INT32_MIN = INT32_MAX exactly
    mulSatI32(a.data(), b.data(), o.data(), a.size());
    EXPECT_EQ(o[4], INT32_MAX);
    EXPECT_EQ(o[5], INT32_MIN);
    EXPECT_EQ(o[6], INT32_MAX);  // 46341^2 = 2147488281
    EXPECT_EQ(o[7], -49);
    EXPECT_EQ(o[9], INT32_MAX);  // -1 * INT32_MIN
    mulWrapI32(a.data(), b.data(), o.data(), a.size());
    EXPECT_EQ(o[4], 0);           // 2^32 wraps to 0
    EXPECT_EQ(o[9], INT32_MIN);
  });
}

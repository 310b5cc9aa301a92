// Numerics.cpp — RNGD scalar type table, float format conversions (RNE, FTZ/DAZ, canonical NaN) and int casts.
#include "Numerics.h"

#include <cassert>
#include <cmath>

namespace tcp::num {

// ---------------------------------------------------------------------------- type table
namespace {
struct TypeInfo {
  DType t;
  const char *name;
  bool isFloat;
  bool storable;
  unsigned valueBits;
  unsigned storageBits;
};
constexpr TypeInfo kTypes[] = {
    {DType::i4, "i4", false, true, 4, 4},          {DType::i5, "i5", false, false, 5, 4},
    {DType::i8, "i8", false, true, 8, 8},          {DType::i9, "i9", false, false, 9, 8},
    {DType::i16, "i16", false, true, 16, 16},      {DType::i32, "i32", false, true, 32, 32},
    {DType::f8e4m3, "f8e4m3", true, true, 8, 8},   {DType::f8e5m2, "f8e5m2", true, true, 8, 8},
    {DType::bf16, "bf16", true, true, 16, 16},     {DType::f16, "f16", true, true, 16, 16},
    {DType::f32, "f32", true, true, 32, 32},
};
const TypeInfo &info(DType t) {
  const TypeInfo &i = kTypes[static_cast<size_t>(t)];
  assert(i.t == t && "kTypes out of sync with DType");
  return i;
}
}  // namespace

const char *dtypeName(DType t) { return info(t).name; }

std::optional<DType> parseDType(std::string_view name) {
  if (name == "fp16") return DType::f16;
  for (const TypeInfo &i : kTypes)
    if (name == i.name) return i.t;
  return std::nullopt;
}

bool isFloat(DType t) { return info(t).isFloat; }
bool isStorable(DType t) { return info(t).storable; }
unsigned valueBits(DType t) { return info(t).valueBits; }
unsigned storageBits(DType t) { return info(t).storageBits; }
size_t storageBytes(DType t, size_t count) { return (count * storageBits(t) + 7) / 8; }

int64_t intMin(DType t) {
  assert(isInteger(t));
  return -(int64_t(1) << (valueBits(t) - 1));
}
int64_t intMax(DType t) {
  assert(isInteger(t));
  return (int64_t(1) << (valueBits(t) - 1)) - 1;
}
DType zeroPointBound(DType target) {
  return isInteger(target) && intMax(target) < intMax(DType::i8) ? target : DType::i8;
}
int64_t saturateInt(int64_t v, DType t) { return v < intMin(t) ? intMin(t) : v > intMax(t) ? intMax(t) : v; }
int64_t wrapInt(int64_t v, DType t) {
  unsigned bits = valueBits(t);
  uint64_t m = (uint64_t(1) << bits) - 1, u = uint64_t(v) & m;
  return (u >> (bits - 1)) ? int64_t(u) - (int64_t(1) << bits) : int64_t(u);
}

// ---------------------------------------------------------------------------- reducer and cast tables
bool isReducerInput(DType t) { return reducerTreeDepth(t) != 0; }

unsigned reducerTreeDepth(DType t) {
  switch (t) {
  case DType::i4: case DType::i5: return 7;
  case DType::i8: case DType::i9: case DType::f8e4m3: case DType::f8e5m2: return 6;
  case DType::bf16: return 5;
  default: return 0;
  }
}

DType reducerOutputType(DType t) {
  assert(isReducerInput(t));
  return isFloat(t) ? DType::f32 : DType::i32;
}

bool fetchCastSupported(DType from, DType to, bool rngdS) {
  using D = DType;
  if (from == to) return true;
  switch (from) {
  case D::i4: return to == D::i5 || to == D::i32 || (rngdS && to == D::i9);
  case D::i8: return to == D::i9 || to == D::i32;
  case D::i16: return to == D::i32 || (rngdS && to == D::i9);
  case D::f8e4m3: case D::f8e5m2: return to == D::f32 || (rngdS && to == D::bf16);
  case D::bf16: case D::f16: return to == D::f32;
  case D::f32: return to == D::bf16;
  default: return false;
  }
}

bool castEngineSupported(DType from, DType to) {
  using D = DType;
  if (from == D::i32) return to == D::i4 || to == D::i8 || to == D::i16;
  if (from == D::f32) return to == D::f8e5m2 || to == D::f8e4m3 || to == D::f16 || to == D::bf16;
  return false;
}

void packI4(uint8_t *bytes, size_t index, int value) {
  assert(value >= -8 && value <= 7 && "i4 value out of range");
  unsigned shift = (index & 1) * 4;
  uint8_t &b = bytes[index / 2];
  b = static_cast<uint8_t>((b & ~(0xFu << shift)) | ((unsigned(value) & 0xFu) << shift));
}

// ---------------------------------------------------------------------------- float formats
namespace {
struct FloatFormat {
  unsigned expBits, manBits;
  int bias;
  bool hasInf;          // IEEE-like top exponent (inf + NaNs); otherwise OCP FN (only S.1..1.1..1 is NaN)
  uint32_t canonicalNan;
  uint32_t maxFinite;   // magnitude bits of the largest finite value
  bool subnormals = false;  // kept (gradual underflow) rather than flushed to zero
  bool halfAway = false;    // ties round away from zero instead of to even
  uint32_t infBits() const { return ((1u << expBits) - 1) << manBits; }
  int emin() const { return 1 - bias; }
};
constexpr FloatFormat kBf16{8, 7, 127, true, kCanonicalNanBf16, 0x7F7F};
constexpr FloatFormat kF16{5, 10, 15, true, kCanonicalNanF16, 0x7BFF};
// The f8 formats follow the vendor's reference model (furiosa-opt-std float/f8e4.rs, f8e5.rs): both
// keep subnormals, and f8e5m2 rounds ties away from zero.
constexpr FloatFormat kE5M2{5, 2, 15, true, kCanonicalNanF8E5M2, 0x7B, true, true};
constexpr FloatFormat kE4M3{4, 3, 7, false, kCanonicalNanF8E4M3, 0x7E, true, false};

const FloatFormat &formatOf(DType t) {
  switch (t) {
  case DType::bf16: return kBf16;
  case DType::f16: return kF16;
  case DType::f8e5m2: return kE5M2;
  case DType::f8e4m3: return kE4M3;
  default: assert(false && "not a narrow float type"); return kBf16;
  }
}

// f32 -> narrow format: IEEE RNE into the destination (gradual underflow), then subnormal -> signed zero.
uint32_t encode(const FloatFormat &f, float x) {
  uint32_t u = f32Bits(x), sign = (u >> 31) << (f.expBits + f.manBits), a = u & 0x7FFFFFFFu;
  if (a > 0x7F800000u) return f.canonicalNan;
  if (a == 0x7F800000u) return sign | (f.hasInf ? f.infBits() : f.maxFinite);
  if (a < 0x00800000u) return sign;  // zero or f32 subnormal (DAZ)
  int e = int(a >> 23) - 127;
  uint32_t m = (a & 0x7FFFFFu) | 0x800000u;  // 24-bit significand, value = m * 2^(e - 23)
  unsigned shift = 23 - f.manBits + unsigned(e < f.emin() ? f.emin() - e : 0);
  uint32_t q;
  if (shift >= 32) {
    q = 0;
  } else {
    uint32_t rem = m & ((1u << shift) - 1), half = 1u << (shift - 1);  // shift >= 13 > 0 for all formats
    q = m >> shift;
    if (rem > half || (rem == half && (f.halfAway || (q & 1)))) ++q;
  }
  uint32_t mag;
  if (e < f.emin()) {
    if (q < (1u << f.manBits)) return f.subnormals ? sign | q : sign;  // subnormal result (or FTZ)
    mag = 1u << f.manBits;                                              // rounded up to the smallest normal
  } else {
    // q in [2^man, 2^(man+1)]; a carry out of the significand bumps the exponent field.
    mag = (uint32_t(e + f.bias) << f.manBits) + (q - (1u << f.manBits));
  }
  if (mag > f.maxFinite) mag = f.hasInf ? f.infBits() : f.maxFinite;
  return sign | mag;
}

float decode(const FloatFormat &f, uint32_t bits) {
  unsigned total = f.expBits + f.manBits;
  uint32_t sign = ((bits >> total) & 1u) << 31, e = (bits >> f.manBits) & ((1u << f.expBits) - 1),
           m = bits & ((1u << f.manBits) - 1);
  uint32_t emax = (1u << f.expBits) - 1;
  if (f.hasInf && e == emax) return f32FromBits(m ? kCanonicalNanF32 : (sign | 0x7F800000u));
  if (!f.hasInf && e == emax && m == (1u << f.manBits) - 1) return f32FromBits(kCanonicalNanF32);
  if (e == 0) {  // zero or subnormal: m · 2^(emin − manBits), or DAZ
    if (!f.subnormals || !m) return f32FromBits(sign);
    float v = std::ldexp(float(m), f.emin() - int(f.manBits));  // a normal f32
    return sign ? -v : v;
  }
  uint32_t e32 = uint32_t(int(e) - f.bias + 127);
  return f32FromBits(sign | (e32 << 23) | (m << (23 - f.manBits)));
}
}  // namespace

uint32_t canonicalNanBits(DType t) {
  assert(isFloat(t));
  return t == DType::f32 ? kCanonicalNanF32 : formatOf(t).canonicalNan;
}

float bf16ToF32(uint16_t bits) {
  // bf16 is the top half of f32: widen by shifting, then apply DAZ and NaN canonicalization.
  return canonicalizeF32(f32FromBits(uint32_t(bits) << 16));
}

uint16_t f32ToBf16(float x) {
  uint32_t u = f32Bits(x), a = u & 0x7FFFFFFFu;
  if (a > 0x7F800000u) return kCanonicalNanBf16;
  if (a < 0x00800000u) return uint16_t((u >> 16) & 0x8000u);
  // Same exponent range as f32: RNE on the low 16 bits; a carry may reach the exponent (up to inf).
  return uint16_t((u + 0x7FFFu + ((u >> 16) & 1u)) >> 16);
}

float f16ToF32(uint16_t bits) { return decode(kF16, bits); }
uint16_t f32ToF16(float x) { return uint16_t(encode(kF16, x)); }
float f8e4m3ToF32(uint8_t bits) { return decode(kE4M3, bits); }
uint8_t f32ToF8e4m3(float x) { return uint8_t(encode(kE4M3, x)); }
float f8e5m2ToF32(uint8_t bits) { return decode(kE5M2, bits); }
uint8_t f32ToF8e5m2(float x) { return uint8_t(encode(kE5M2, x)); }

float floatToF32(DType t, uint32_t bits) {
  if (t == DType::f32) return canonicalizeF32(f32FromBits(bits));
  if (t == DType::bf16) return bf16ToF32(uint16_t(bits));
  return decode(formatOf(t), bits);
}

uint32_t f32ToFloat(DType t, float x) {
  if (t == DType::f32) return f32Bits(canonicalizeF32(x));
  if (t == DType::bf16) return f32ToBf16(x);
  return encode(formatOf(t), x);
}

uint32_t convertFloat(DType from, DType to, uint32_t bits) { return f32ToFloat(to, floatToF32(from, bits)); }

// ---------------------------------------------------------------------------- int <-> float
float i32ToF32(int32_t v) { return static_cast<float>(v); }  // IEEE conversion: RNE, never subnormal

namespace {
// Round-to-nearest-even of a finite double to an integer, saturated to i32. The double holds an
// f32 (times a power of two), so it is exact and rint's result does not depend on the FP environment
// as long as the default rounding mode is in force; we avoid rint and round by hand to be independent of it.
int32_t roundSatI32(double d) {
  if (!(d == d)) return 0;
  if (d >= 2147483647.5) return std::numeric_limits<int32_t>::max();
  if (d <= -2147483648.5) return std::numeric_limits<int32_t>::min();
  double fl = std::floor(d), frac = d - fl;  // exact: |d| < 2^31 + 1 has few enough bits
  int64_t r = int64_t(fl);
  if (frac > 0.5 || (frac == 0.5 && (r & 1))) ++r;
  return static_cast<int32_t>(r < INT32_MIN ? INT32_MIN : r > INT32_MAX ? INT32_MAX : r);
}
}  // namespace

int32_t f32ToI32(float x) { return roundSatI32(double(canonicalizeF32(x))); }

float fxpToF32(int32_t v, unsigned intWidth) {
  assert(intWidth <= 31);
  // float(v) is the RNE rounding of v; scaling by 2^-k is exact unless the result is subnormal.
  // Rounding first and then scaling equals one rounding of v*2^-k whenever the result is normal.
  float r = std::ldexp(static_cast<float>(v), -int(31 - intWidth));
  return canonicalizeF32(r);
}

int32_t f32ToFxp(float x, unsigned intWidth) {
  assert(intWidth <= 31);
  // The RNGD reference model (furiosa-visa-std's float_to_fixedpoint): NaN saturates by its sign,
  // and the scaled value rounds half away from zero before it saturates.
  if (std::isnan(x)) return std::signbit(x) ? std::numeric_limits<int32_t>::min() : std::numeric_limits<int32_t>::max();
  double d = std::round(std::ldexp(double(canonicalizeF32(x)), int(31 - intWidth)));  // exact in double
  if (d >= 2147483647.0) return std::numeric_limits<int32_t>::max();
  if (d <= -2147483648.0) return std::numeric_limits<int32_t>::min();
  return int32_t(d);
}

int32_t castI32To(DType to, int32_t v) {
  assert(castEngineSupported(DType::i32, to));
  return int32_t(wrapInt(v, to));  // narrowing keeps the low bits (the vendor model's `as`)
}

int32_t fetchWidenInt(DType to, int32_t v, int32_t zeroPoint) {
  assert(isInteger(to));
  return int32_t(saturateInt(int64_t(v) - zeroPoint, to));
}

float fmaF32(float a, float b, float c) {
  return canonicalizeF32(std::fma(canonicalizeF32(a), canonicalizeF32(b), canonicalizeF32(c)));
}

int32_t mulFxp(int32_t a, int32_t b, unsigned fracBits) {
  assert(fracBits <= 62);
  int64_t p = int64_t(a) * b;  // |p| <= 2^62
  if (fracBits > 0) {
    // round half up: floor((p + 2^(f-1)) / 2^f); p + 2^61 cannot overflow int64 since |p| <= 2^62.
    p = (p + (int64_t(1) << (fracBits - 1))) >> fracBits;
  }
  return satCast<int32_t>(p);
}

}  // namespace tcp::num

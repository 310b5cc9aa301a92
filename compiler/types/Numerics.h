// Numerics.h — RNGD scalar element types, conversions and integer/float arithmetic rules of tcpi's CPU model.
//
// Every function here is deterministic: it depends only on its arguments (no FP environment, no host
// rounding mode, no library transcendental), so tcpi produces the same bits on every host.
//
// ---- Element types (the manual's full list) ------------------------------------------------------
//   i4 i8 i16 i32            storable integers (DM/HBM/DMA Dtype: i4 | i8 | f8e4m3 | f8e5m2 | i16 | fp16 | bf16 | i32 | f32)
//   i5 i9                    pipeline-only integers produced by the Fetch Adapter's cast (i4 -> i5, i8 -> i9,
//                            RNGD-S also i4/i16 -> i9), i.e. a value minus a zero point; never stored in DM.
//   f8e4m3 f8e5m2 bf16 f16 f32  floats. "fp16" is accepted as a spelling of f16.
//   u8 does not exist on RNGD (the manual never names an unsigned type); all integers are two's complement.
//
// ---- Sizes and packing -----------------------------------------------------------------------------
//   storageBits: i4/i5 = 4, i8/i9/f8* = 8, i16/bf16/f16 = 16, i32/f32 = 32. The i5/i9 footprint is their
//   lane width inside a packet (a 64-byte MAC packet holds 128 i4/i5, 64 i8/i9/f8, 32 bf16 lanes).
//   i4 packing: two elements per byte, element 2k in bits 0..3 (low nibble) and element 2k+1 in bits 4..7,
//   each a 4-bit two's complement value. Multi-byte types are little-endian. A 32-byte flit holds 256/bits
//   elements.
//
// ---- Floating-point rules (all float types) --------------------------------------------------------
//   * Rounding: round-to-nearest, ties-to-even (conversions and arithmetic; f8e5m2 below).
//   * No subnormals in f32, bf16 and f16: a subnormal input is read as zero of the same sign (DAZ); a result
//     is first rounded as IEEE-754 would (gradual underflow, destination precision), and if that result is
//     subnormal it is replaced by zero of the same sign (FTZ). Results that round up to the smallest normal
//     are kept. f8e4m3 and f8e5m2 keep their subnormals (the vendor's reference model, furiosa-opt-std
//     float/f8e4.rs and f8e5.rs), and f8e5m2 rounds ties away from zero (`if (man >> 20) & 1 { mant += 1 }`).
//   * Canonical NaN: every NaN produced (by arithmetic or conversion) is the positive quiet NaN
//       f32 0x7FC00000, bf16 0x7FC0, f16 0x7E00, f8e5m2 0x7E, f8e4m3 0x7F.
//   * Overflow: types with infinities (f32, bf16, f16, f8e5m2) overflow to +-inf as IEEE RNE does.
//     f8e4m3 is the OCP "FN" format (no infinities, NaN = S.1111.111, max 448); overflow and +-inf inputs
//     saturate to +-448.  [assumption: the manual does not specify f8e4m3 overflow]
//   * Float arithmetic (add/sub/mul/fma on f32) = flush inputs, IEEE binary32 op, flush result, canonical NaN.
//   * f32 -> integer: round to nearest even, saturate to the destination range, NaN -> 0.
//
// ---- Integer rules -----------------------------------------------------------------------------------
//   *Wrap ops compute modulo 2^bits (two's complement); *Sat ops clamp to [min, max] of the type.
//   Shift counts are unsigned and not masked: a count >= the width shifts every bit out (shl -> 0,
//   lshr -> 0, ashr -> 0 or -1, shlSat -> 0 or the saturated bound).  [assumption]
//   ashrRound adds 2^(s-1) before shifting (round half toward +inf).  [assumption]
//   mulFxp(a, b, f) = round-half-up(a*b / 2^f), saturated to i32.  [assumption: manual only says "fixed-point multiply"]
//   Casts i32 -> i4/i8/i16 (Cast Engine) wrap: they keep the low bits, as the vendor's reference model
//   does (furiosa-opt-std cast.rs, "Narrows wrap (`as`)"); the manual does not say.
//   Fxp <-> fp (vector_fxp_to_fp(int_width)): an i32 holds 1 sign, int_width integer and 31 - int_width
//   fraction bits, so int_width 31 is a plain integer.  [assumption]
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>
#include <string_view>
#include <type_traits>

namespace tcp::num {

enum class DType : uint8_t { i4, i5, i8, i9, i16, i32, f8e4m3, f8e5m2, bf16, f16, f32 };

inline constexpr DType kAllDTypes[] = {DType::i4,     DType::i5,     DType::i8,   DType::i9,
                                       DType::i16,    DType::i32,    DType::f8e4m3, DType::f8e5m2,
                                       DType::bf16,   DType::f16,    DType::f32};

const char *dtypeName(DType t);
std::optional<DType> parseDType(std::string_view name);  // manual spelling; "fp16" = f16

bool isFloat(DType t);
inline bool isInteger(DType t) { return !isFloat(t); }
bool isStorable(DType t);            // false for the pipeline-only i5/i9
unsigned valueBits(DType t);         // significant bits: i5 = 5, i9 = 9, ...
unsigned storageBits(DType t);       // footprint in memory / in a packet lane (see header comment)
size_t storageBytes(DType t, size_t count);  // ceil(count * storageBits / 8)
inline size_t elementsPerFlit(DType t) { return 256 / storageBits(t); }  // 32-byte flit
// "Tensor Memory": a tensor's start address is a multiple of size_of::<D>() (1 for sub-byte types).
inline uint64_t naturalAlignment(DType t) { return std::max<uint64_t>(1, storageBits(t) / 8); }

// Integer range of an integer type (i4: [-8, 7], i5: [-16, 15], ...).
int64_t intMin(DType t);
int64_t intMax(DType t);
int64_t saturateInt(int64_t v, DType t);
int64_t wrapInt(int64_t v, DType t);  // keep the low valueBits, sign-extend
// Fetch Adapter zero points are `zero_point: i8` and fit the fetch's target type ("Fetch Engine" >
// Constraints): the type of the two whose range is narrower.
DType zeroPointBound(DType target);

// ---- Reducer (Contraction Engine) -----------------------------------------------------------------
// Inputs i4/i5, i8/i9, f8*, bf16; tree depth 7 / 6 / 6 / 5 (one 64-byte packet = 2^depth lanes);
// outputs widen to i32 (integers) or f32 (floats). Depth 0 for any other type.
bool isReducerInput(DType t);
unsigned reducerTreeDepth(DType t);
DType reducerOutputType(DType t);

// ---- Cast tables -----------------------------------------------------------------------------------
// Fetch Adapter widening casts (RNGD, plus the RNGD-S extras when rngdS) and Cast Engine lowering casts.
bool fetchCastSupported(DType from, DType to, bool rngdS = false);
bool castEngineSupported(DType from, DType to);

// ---- i4 packing ------------------------------------------------------------------------------------
inline int8_t unpackI4(const uint8_t *bytes, size_t index) {
  unsigned nib = (bytes[index / 2] >> ((index & 1) * 4)) & 0xF;
  return static_cast<int8_t>(nib >= 8 ? int(nib) - 16 : int(nib));
}
void packI4(uint8_t *bytes, size_t index, int value);  // asserts value in [-8, 7]

// ---- Bit views -------------------------------------------------------------------------------------
inline uint32_t f32Bits(float f) { uint32_t u; std::memcpy(&u, &f, 4); return u; }
inline float f32FromBits(uint32_t u) { float f; std::memcpy(&f, &u, 4); return f; }

inline constexpr uint32_t kCanonicalNanF32 = 0x7FC00000u;
inline constexpr uint16_t kCanonicalNanBf16 = 0x7FC0u;
inline constexpr uint16_t kCanonicalNanF16 = 0x7E00u;
inline constexpr uint8_t kCanonicalNanF8E5M2 = 0x7Eu;
inline constexpr uint8_t kCanonicalNanF8E4M3 = 0x7Fu;
uint32_t canonicalNanBits(DType floatType);

// f32 -> f32 under RNGD rules: subnormal -> signed zero, NaN -> canonical NaN, otherwise unchanged.
inline float canonicalizeF32(float x) {
  uint32_t u = f32Bits(x);
  uint32_t a = u & 0x7FFFFFFFu;
  if (a > 0x7F800000u) return f32FromBits(kCanonicalNanF32);
  if (a < 0x00800000u) return f32FromBits(u & 0x80000000u);
  return x;
}

// ---- Float conversions (bit patterns of the narrow types) --------------------------------------------
float bf16ToF32(uint16_t bits);
uint16_t f32ToBf16(float x);
float f16ToF32(uint16_t bits);
uint16_t f32ToF16(float x);
float f8e4m3ToF32(uint8_t bits);
uint8_t f32ToF8e4m3(float x);
float f8e5m2ToF32(uint8_t bits);
uint8_t f32ToF8e5m2(float x);
// Generic forms for any float DType (f32 included); bits are right-aligned.
float floatToF32(DType t, uint32_t bits);
uint32_t f32ToFloat(DType t, float x);
// Any float -> any float through f32 (exact widening, then one RNE rounding), e.g. RNGD-S f8 -> bf16.
uint32_t convertFloat(DType from, DType to, uint32_t bits);

// ---- int <-> float -----------------------------------------------------------------------------------
float i32ToF32(int32_t v);                   // RNE (exact for |v| <= 2^24)
int32_t f32ToI32(float x);                   // RNE, saturating, NaN -> 0
float fxpToF32(int32_t v, unsigned intWidth);    // v * 2^-(31 - intWidth), RNE, FTZ; intWidth <= 31
int32_t f32ToFxp(float x, unsigned intWidth);    // round(x * 2^(31 - intWidth)) half away from 0, saturating, NaN by sign

// ---- Integer casts -----------------------------------------------------------------------------------
// Cast Engine lowering i32 -> i4/i8/i16 (wrapping: the low bits).
int32_t castI32To(DType to, int32_t v);
// Fetch Adapter widening with zero-point subtraction: (v - zeroPoint), saturated to `to`
// (exact for the RNGD table: i4 -> i5, i8 -> i9, * -> i32).
int32_t fetchWidenInt(DType to, int32_t v, int32_t zeroPoint = 0);

// ---- f32 arithmetic (Vector Engine float cluster / reducer adds) ------------------------------------
inline float addF32(float a, float b) { return canonicalizeF32(canonicalizeF32(a) + canonicalizeF32(b)); }
inline float subF32(float a, float b) { return canonicalizeF32(canonicalizeF32(a) - canonicalizeF32(b)); }
inline float mulF32(float a, float b) { return canonicalizeF32(canonicalizeF32(a) * canonicalizeF32(b)); }
float fmaF32(float a, float b, float c);  // a*b + c with one rounding

// ---- Integer arithmetic: wrapping and saturating, T in {int8_t, int16_t, int32_t} --------------------
template <class T> struct IsRngdInt : std::bool_constant<std::is_same_v<T, int8_t> || std::is_same_v<T, int16_t> ||
                                                         std::is_same_v<T, int32_t>> {};

template <class T> constexpr T satCast(int64_t v) {
  static_assert(IsRngdInt<T>::value, "RNGD integer type expected");
  constexpr int64_t lo = std::numeric_limits<T>::min(), hi = std::numeric_limits<T>::max();
  return static_cast<T>(v < lo ? lo : v > hi ? hi : v);
}
template <class T> constexpr T wrapCast(int64_t v) {
  static_assert(IsRngdInt<T>::value, "RNGD integer type expected");
  using U = std::make_unsigned_t<T>;
  return static_cast<T>(static_cast<U>(static_cast<uint64_t>(v)));  // modulo 2^bits (C++20 semantics on GCC/Clang)
}

template <class T> constexpr T addWrap(T a, T b) { return wrapCast<T>(int64_t(a) + b); }
template <class T> constexpr T addSat(T a, T b) { return satCast<T>(int64_t(a) + b); }
template <class T> constexpr T subWrap(T a, T b) { return wrapCast<T>(int64_t(a) - b); }
template <class T> constexpr T subSat(T a, T b) { return satCast<T>(int64_t(a) - b); }
template <class T> constexpr T mulWrap(T a, T b) { return wrapCast<T>(int64_t(a) * b); }  // MulInt
template <class T> constexpr T mulSat(T a, T b) { return satCast<T>(int64_t(a) * b); }

template <class T> constexpr unsigned bitsOf() { return sizeof(T) * 8; }

// Logical left shift (LeftShift).
template <class T> constexpr T shlWrap(T a, unsigned s) {
  if (s >= bitsOf<T>()) return 0;
  return wrapCast<T>(static_cast<int64_t>(static_cast<uint64_t>(static_cast<std::make_unsigned_t<T>>(a)) << s));
}
// Saturating left shift (LeftShiftSat): a * 2^s clamped to the type's range.
template <class T> constexpr T shlSat(T a, unsigned s) {
  if (a == 0) return 0;
  if (s >= bitsOf<T>()) return a < 0 ? std::numeric_limits<T>::min() : std::numeric_limits<T>::max();
  // |a| < 2^(bits-1) <= 2^31 and s < 32, so a * 2^s fits in int64 (as a product: no signed-shift UB).
  return satCast<T>(int64_t(a) * (int64_t(1) << s));
}
// Logical right shift (LogicRightShift): zero-fill.
template <class T> constexpr T lshr(T a, unsigned s) {
  using U = std::make_unsigned_t<T>;
  if (s >= bitsOf<T>()) return 0;
  return static_cast<T>(static_cast<U>(static_cast<U>(a) >> s));
}
// Arithmetic right shift (ArithRightShift): sign-fill, i.e. floor(a / 2^s).
template <class T> constexpr T ashr(T a, unsigned s) {
  if (s >= bitsOf<T>()) return a < 0 ? T(-1) : T(0);
  return static_cast<T>(a >> s);  // arithmetic on GCC/Clang (guaranteed since C++20)
}
// Arithmetic right shift with rounding (ArithRightShiftRound): floor((a + 2^(s-1)) / 2^s).
template <class T> constexpr T ashrRound(T a, unsigned s) {
  if (s == 0) return a;
  if (s > 40) return 0;  // |a| <= 2^31 < 2^(s-1): rounds to 0 (half-up at exactly -2^(s-1) also gives 0)
  int64_t v = int64_t(a) + (int64_t(1) << (s - 1));
  return static_cast<T>(v >> s);  // result is within T's range
}

// Fixed-point multiply (MulFxp) on i32 with `fracBits` fraction bits.
int32_t mulFxp(int32_t a, int32_t b, unsigned fracBits = 31);

}  // namespace tcp::num

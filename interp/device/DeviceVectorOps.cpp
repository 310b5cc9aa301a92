// DeviceVectorOps.cpp — the Vector Engine's ALU ops on lanes: Logic, Fxp, Float, FpDiv, Clip and the reduce ops.
//
// Add, subtract and multiply run on the Highway kernels of NumericKernels.h (bit-identical to their
// scalar references); every other op is a scalar loop over the rules of Numerics.h.
#include "DeviceVectorOps.h"

#include "NumericKernels.h"
#include "Numerics.h"

#include <cmath>
#include <cstring>
#include <vector>

namespace tcp::interp {

namespace {
using num::f32Bits;
using num::f32FromBits;

template <int32_t (*F)(int32_t, int32_t)> void binI(const uint32_t *x, const uint32_t *y, uint32_t *o, size_t n) {
  for (size_t i = 0; i < n; ++i) o[i] = uint32_t(F(int32_t(x[i]), int32_t(y[i])));
}
template <float (*F)(float, float)> void binF(const uint32_t *x, const uint32_t *y, uint32_t *o, size_t n) {
  for (size_t i = 0; i < n; ++i) o[i] = f32Bits(F(f32FromBits(x[i]), f32FromBits(y[i])));
}
// Whole-array kernels (Highway): the lanes reinterpreted as i32 (same object representation) or copied as f32.
template <void (*K)(const int32_t *, const int32_t *, int32_t *, size_t)>
void kernI(const uint32_t *x, const uint32_t *y, uint32_t *o, size_t n) {
  K(reinterpret_cast<const int32_t *>(x), reinterpret_cast<const int32_t *>(y), reinterpret_cast<int32_t *>(o), n);
}
template <void (*K)(const float *, const float *, float *, size_t)>
void kernF(const uint32_t *x, const uint32_t *y, uint32_t *o, size_t n) {
  std::vector<float> a(n), b(n), r(n);
  std::memcpy(a.data(), x, n * 4);
  std::memcpy(b.data(), y, n * 4);
  K(a.data(), b.data(), r.data(), n);
  std::memcpy(o, r.data(), n * 4);
}

int32_t bitAnd(int32_t a, int32_t b) { return a & b; }
int32_t bitOr(int32_t a, int32_t b) { return a | b; }
int32_t bitXor(int32_t a, int32_t b) { return a ^ b; }
// Shift amounts outside 0..31 follow Numerics.h (shlWrap/lshr/ashr: 0, 0, sign).
int32_t shl(int32_t a, int32_t b) { return b < 0 ? 0 : num::shlWrap<int32_t>(a, unsigned(b)); }
int32_t shlSat(int32_t a, int32_t b) { return b < 0 ? a : num::shlSat<int32_t>(a, unsigned(b)); }
int32_t lshr(int32_t a, int32_t b) { return b < 0 ? 0 : num::lshr<int32_t>(a, unsigned(b)); }
int32_t ashr(int32_t a, int32_t b) { return b < 0 ? (a < 0 ? -1 : 0) : num::ashr<int32_t>(a, unsigned(b)); }
int32_t ashrRound(int32_t a, int32_t b) { return b < 0 ? (a < 0 ? -1 : 0) : num::ashrRound<int32_t>(a, unsigned(b)); }
int32_t addWrap(int32_t a, int32_t b) { return num::addWrap<int32_t>(a, b); }
int32_t addSat(int32_t a, int32_t b) { return num::addSat<int32_t>(a, b); }
int32_t mulFxp(int32_t a, int32_t b) { return num::mulFxp(a, b); }
int32_t minI(int32_t a, int32_t b) { return a < b ? a : b; }
int32_t maxI(int32_t a, int32_t b) { return a > b ? a : b; }
// AbsMin / AbsMax: the argument of smaller / larger magnitude, with its sign; on a tie the second (the
// operand), as the vendor's reference model computes `if a.abs() > b.abs() { a } else { b }`.
int64_t mag(int32_t a) { return a < 0 ? -int64_t(a) : int64_t(a); }
int32_t absMinI(int32_t a, int32_t b) { return mag(a) < mag(b) ? a : b; }
int32_t absMaxI(int32_t a, int32_t b) { return mag(a) > mag(b) ? a : b; }

float canon(float x) { return num::canonicalizeF32(x); }
// f32 Min/Max ignore a NaN argument (IEEE minNum/maxNum, the vendor model's f32::min/max); two NaNs give
// the canonical NaN; -0 < +0.
float minF(float a, float b) {
  a = canon(a), b = canon(b);
  if (std::isnan(a)) return b;  // canonical if b is NaN too
  if (std::isnan(b)) return a;
  return (b < a || (b == a && std::signbit(b))) ? b : a;
}
float maxF(float a, float b) {
  a = canon(a), b = canon(b);
  if (std::isnan(a)) return b;
  if (std::isnan(b)) return a;
  return (b > a || (b == a && !std::signbit(b))) ? b : a;
}
// A NaN compares false, so the vendor's formula gives the second argument.
float absMinF(float a, float b) {
  a = canon(a), b = canon(b);
  return std::fabs(a) < std::fabs(b) ? a : b;
}
float absMaxF(float a, float b) {
  a = canon(a), b = canon(b);
  return std::fabs(a) > std::fabs(b) ? a : b;
}
float divF(float a, float b) { return canon(canon(a) / canon(b)); }
float addF(float a, float b) { return num::addF32(a, b); }
float mulF(float a, float b) { return num::mulF32(a, b); }

uint32_t andU(uint32_t a, uint32_t b) { return a & b; }
void bitF(const uint32_t *x, const uint32_t *y, uint32_t *o, size_t n, int which) {
  for (size_t i = 0; i < n; ++i) o[i] = which == 0 ? (x[i] & y[i]) : which == 1 ? (x[i] | y[i]) : (x[i] ^ y[i]);
}
void bitAndF(const uint32_t *x, const uint32_t *y, uint32_t *o, size_t n) { bitF(x, y, o, n, 0); }
void bitOrF(const uint32_t *x, const uint32_t *y, uint32_t *o, size_t n) { bitF(x, y, o, n, 1); }
void bitXorF(const uint32_t *x, const uint32_t *y, uint32_t *o, size_t n) { bitF(x, y, o, n, 2); }

template <int K> void unaryF(const uint32_t *x, uint32_t *o, size_t n) {
  static const char *const names[] = {"Exp", "NegExp", "Sqrt", "Tanh", "Sigmoid", "Erf", "Log", "Sin", "Cos"};
  for (size_t i = 0; i < n; ++i) o[i] = f32Bits(veTranscendental(names[K], f32FromBits(x[i])));
}
void fmaF(const uint32_t *x, const uint32_t *y, const uint32_t *z, uint32_t *o, size_t n) {
  for (size_t i = 0; i < n; ++i) o[i] = f32Bits(num::fmaF32(f32FromBits(x[i]), f32FromBits(y[i]), f32FromBits(z[i])));
}

VeFn bin(void (*f)(const uint32_t *, const uint32_t *, uint32_t *, size_t)) {
  VeFn v;
  v.arity = 2;
  v.binary = f;
  return v;
}
}  // namespace

float veTranscendental(const std::string &op, float xf) {
  double x = double(num::canonicalizeF32(xf)), r;
  if (op == "Exp") r = std::exp(x);
  else if (op == "NegExp") r = std::exp(-x);
  else if (op == "Sqrt") r = std::sqrt(x);
  else if (op == "Tanh") r = std::tanh(x);
  else if (op == "Sigmoid") r = 1.0 / (1.0 + std::exp(-x));
  else if (op == "Erf") r = std::erf(x);
  else if (op == "Log") r = std::log(x);
  else if (op == "Sin") r = std::sin(x);
  else if (op == "Cos") r = std::cos(x);
  else r = std::nan("");
  return num::canonicalizeF32(float(r));
}

VeFn veFunction(const std::string &method, const std::string &op, bool f32) {
  VeFn v;
  if (method.rfind("vector_logic", 0) == 0) {
    if (f32) {
      if (op == "BitAnd") return bin(bitAndF);
      if (op == "BitOr") return bin(bitOrF);
      if (op == "BitXor") return bin(bitXorF);
      return v;
    }
    if (op == "BitAnd") return bin(binI<bitAnd>);
    if (op == "BitOr") return bin(binI<bitOr>);
    if (op == "BitXor") return bin(binI<bitXor>);
    if (op == "LeftShift") return bin(binI<shl>);
    if (op == "LogicRightShift") return bin(binI<lshr>);
    if (op == "ArithRightShift") return bin(binI<ashr>);
    return v;
  }
  if (method.rfind("vector_fxp", 0) == 0) {
    if (op == "AddFxp") return bin(kernI<num::addWrapI32>);
    if (op == "AddFxpSat") return bin(kernI<num::addSatI32>);
    if (op == "SubFxp") return bin(kernI<num::subWrapI32>);
    if (op == "SubFxpSat") return bin(kernI<num::subSatI32>);
    if (op == "MulInt") return bin(kernI<num::mulWrapI32>);
    if (op == "MulFxp") return bin(binI<mulFxp>);
    if (op == "LeftShift") return bin(binI<shl>);
    if (op == "LeftShiftSat") return bin(binI<shlSat>);
    if (op == "LogicRightShift") return bin(binI<lshr>);
    if (op == "ArithRightShift") return bin(binI<ashr>);
    if (op == "ArithRightShiftRound") return bin(binI<ashrRound>);
    return v;
  }
  if (method.rfind("vector_fp_unary", 0) == 0) {
    static void (*const fns[])(const uint32_t *, uint32_t *, size_t) = {unaryF<0>, unaryF<1>, unaryF<2>, unaryF<3>, unaryF<4>,
                                                                        unaryF<5>, unaryF<6>, unaryF<7>, unaryF<8>};
    static const char *const names[] = {"Exp", "NegExp", "Sqrt", "Tanh", "Sigmoid", "Erf", "Log", "Sin", "Cos"};
    for (int k = 0; k < 9; ++k)
      if (op == names[k]) {
        v.arity = 1;
        v.unary = fns[k];
      }
    return v;
  }
  if (method.rfind("vector_fp_binary", 0) == 0 || method.rfind("vector_fp_zip", 0) == 0) {
    if (op == "AddF") return bin(kernF<num::addF32>);
    if (op == "SubF") return bin(kernF<num::subF32>);
    if (op == "MulF(FpMulAlu::Mul0)" || op == "MulF(FpMulAlu::Mul1)") return bin(kernF<num::mulF32>);
    if (op == "DivF") return bin(binF<divF>);
    return v;  // MaskMulF: refused by the checker
  }
  if (method.rfind("vector_fp_ternary", 0) == 0) {
    if (op == "FmaF") {
      v.arity = 3;
      v.ternary = fmaF;
    }
    return v;
  }
  if (method.rfind("vector_fp_div", 0) == 0) return op == "DivF" ? bin(binF<divF>) : v;
  if (method.rfind("vector_clip", 0) == 0) {
    if (f32) {
      if (op == "Min") return bin(binF<minF>);
      if (op == "Max") return bin(binF<maxF>);
      if (op == "AbsMin") return bin(binF<absMinF>);
      if (op == "AbsMax") return bin(binF<absMaxF>);
      if (op == "Add") return bin(kernF<num::addF32>);
      return v;
    }
    if (op == "Min") return bin(binI<minI>);
    if (op == "Max") return bin(binI<maxI>);
    if (op == "AbsMin") return bin(binI<absMinI>);
    if (op == "AbsMax") return bin(binI<absMaxI>);
    if (op == "AddFxp") return bin(kernI<num::addWrapI32>);
    if (op == "AddFxpSat") return bin(kernI<num::addSatI32>);
    return v;
  }
  (void)andU;
  return v;
}

uint32_t veReduce(const std::string &op, bool f32, uint32_t a, uint32_t b) {
  if (f32) {
    float x = f32FromBits(a), y = f32FromBits(b);
    if (op == "Add") return f32Bits(addF(x, y));
    if (op == "Mul") return f32Bits(mulF(x, y));
    if (op == "Max") return f32Bits(maxF(x, y));
    if (op == "Min") return f32Bits(minF(x, y));
    return f32Bits(addF(x, y));
  }
  int32_t x = int32_t(a), y = int32_t(b);
  if (op == "Add") return uint32_t(addWrap(x, y));
  if (op == "AddSat") return uint32_t(addSat(x, y));
  if (op == "Max") return uint32_t(maxI(x, y));
  if (op == "Min") return uint32_t(minI(x, y));
  return uint32_t(addSat(x, y));
}

// "Supported Operations": Add/AddSat 0, Max i32::MIN / -inf, Min i32::MAX / +inf, Mul 1.
uint32_t veReduceIdentity(const std::string &op, bool f32) {
  if (f32) {
    if (op == "Max") return f32Bits(-INFINITY);
    if (op == "Min") return f32Bits(INFINITY);
    if (op == "Mul") return f32Bits(1.0f);
    return 0;
  }
  if (op == "Max") return uint32_t(INT32_MIN);
  if (op == "Min") return uint32_t(INT32_MAX);
  return 0;
}

}  // namespace tcp::interp

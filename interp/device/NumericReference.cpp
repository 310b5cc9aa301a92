// NumericReference.cpp — the scalar references of the Highway kernels (tcp::num::ref): one element at a time with Numerics.h.
#include "NumericKernels.h"
#include "Numerics.h"

#include <cassert>

namespace tcp::num {
namespace ref {

void bf16ToF32(const uint16_t *in, float *out, size_t n) {
  for (size_t i = 0; i < n; ++i) out[i] = num::bf16ToF32(in[i]);
}
void f32ToBf16(const float *in, uint16_t *out, size_t n) {
  for (size_t i = 0; i < n; ++i) out[i] = num::f32ToBf16(in[i]);
}

void reduceTreeBf16(const uint16_t *x, const uint16_t *w, size_t packets, unsigned depth, float *out) {
  assert(depth <= 5);
  const size_t L = kBf16PacketLanes;
  for (size_t p = 0; p < packets; ++p) {
    float lane[kBf16PacketLanes];
    for (size_t j = 0; j < L; ++j) lane[j] = num::mulF32(num::bf16ToF32(x[p * L + j]), num::bf16ToF32(w[p * L + j]));
    size_t count = L;
    for (unsigned k = 0; k < depth; ++k) {
      count /= 2;
      for (size_t j = 0; j < count; ++j) lane[j] = num::addF32(lane[2 * j], lane[2 * j + 1]);
    }
    for (size_t j = 0; j < count; ++j) out[p * count + j] = canonicalizeF32(lane[j]);
  }
}

void reduceTreeI8(const int8_t *x, const int8_t *w, size_t packets, unsigned depth, int32_t *out) {
  assert(depth <= 6);
  const size_t L = kI8PacketLanes;
  for (size_t p = 0; p < packets; ++p) {
    int32_t lane[kI8PacketLanes];
    for (size_t j = 0; j < L; ++j) lane[j] = int32_t(x[p * L + j]) * int32_t(w[p * L + j]);
    size_t count = L;
    for (unsigned k = 0; k < depth; ++k) {
      count /= 2;
      for (size_t j = 0; j < count; ++j) lane[j] = addWrap<int32_t>(lane[2 * j], lane[2 * j + 1]);
    }
    for (size_t j = 0; j < count; ++j) out[p * count + j] = lane[j];
  }
}

#define TCP_NUM_REF_BINARY(name, T, fn)                                  \
  void name(const T *a, const T *b, T *out, size_t n) {                  \
    for (size_t i = 0; i < n; ++i) out[i] = fn(a[i], b[i]);              \
  }
TCP_NUM_REF_BINARY(addWrapI32, int32_t, addWrap<int32_t>)
TCP_NUM_REF_BINARY(addSatI32, int32_t, addSat<int32_t>)
TCP_NUM_REF_BINARY(subWrapI32, int32_t, subWrap<int32_t>)
TCP_NUM_REF_BINARY(subSatI32, int32_t, subSat<int32_t>)
TCP_NUM_REF_BINARY(mulWrapI32, int32_t, mulWrap<int32_t>)
TCP_NUM_REF_BINARY(mulSatI32, int32_t, mulSat<int32_t>)
TCP_NUM_REF_BINARY(addF32, float, num::addF32)
TCP_NUM_REF_BINARY(subF32, float, num::subF32)
TCP_NUM_REF_BINARY(mulF32, float, num::mulF32)
#undef TCP_NUM_REF_BINARY

}  // namespace ref
}  // namespace tcp::num

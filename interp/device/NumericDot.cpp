// NumericDot.cpp — widened dot products: the Reducer tree per packet, then in-order temporal accumulation (kernels and references).
#include "NumericKernels.h"
#include "Numerics.h"

#include <cassert>

namespace tcp::num {

namespace {
template <class T, class Acc, class Tree, class Add>
Acc dotPackets(const T *a, const T *b, size_t n, size_t lanes, Tree tree, Add add) {
  constexpr size_t kChunk = 64;  // packets reduced per tree call
  Acc sums[kChunk];
  Acc acc{};
  bool first = true;
  auto accumulate = [&](const Acc *s, size_t count) {
    for (size_t i = 0; i < count; ++i) {
      acc = first ? s[i] : add(acc, s[i]);
      first = false;
    }
  };
  const size_t full = n / lanes;
  for (size_t p = 0; p < full; p += kChunk) {
    const size_t count = full - p < kChunk ? full - p : kChunk;
    tree(a + p * lanes, b + p * lanes, count, sums);
    accumulate(sums, count);
  }
  if (size_t rest = n % lanes) {  // zero-padded last packet
    T pa[kI8PacketLanes] = {}, pb[kI8PacketLanes] = {};
    assert(lanes <= sizeof(pa) / sizeof(T));
    for (size_t i = 0; i < rest; ++i) pa[i] = a[full * lanes + i], pb[i] = b[full * lanes + i];
    tree(pa, pb, 1, sums);
    accumulate(sums, 1);
  }
  return acc;
}
}  // namespace

float dotBf16(const uint16_t *a, const uint16_t *b, size_t n) {
  return dotPackets<uint16_t, float>(
      a, b, n, kBf16PacketLanes,
      [](const uint16_t *x, const uint16_t *w, size_t c, float *o) { reduceTreeBf16(x, w, c, 5, o); },
      [](float s, float t) { return num::addF32(s, t); });
}
int32_t dotI8(const int8_t *a, const int8_t *b, size_t n) {
  return dotPackets<int8_t, int32_t>(
      a, b, n, kI8PacketLanes,
      [](const int8_t *x, const int8_t *w, size_t c, int32_t *o) { reduceTreeI8(x, w, c, 6, o); },
      [](int32_t s, int32_t t) { return addWrap<int32_t>(s, t); });
}

namespace ref {

float dotBf16(const uint16_t *a, const uint16_t *b, size_t n) {
  return dotPackets<uint16_t, float>(
      a, b, n, kBf16PacketLanes,
      [](const uint16_t *x, const uint16_t *w, size_t c, float *o) { ref::reduceTreeBf16(x, w, c, 5, o); },
      [](float s, float t) { return num::addF32(s, t); });
}
int32_t dotI8(const int8_t *a, const int8_t *b, size_t n) {
  return dotPackets<int8_t, int32_t>(
      a, b, n, kI8PacketLanes,
      [](const int8_t *x, const int8_t *w, size_t c, int32_t *o) { ref::reduceTreeI8(x, w, c, 6, o); },
      [](int32_t s, int32_t t) { return addWrap<int32_t>(s, t); });
}

float sequentialDotBf16(const uint16_t *a, const uint16_t *b, size_t n) {
  float acc = 0.0f;
  for (size_t i = 0; i < n; ++i) acc = num::addF32(acc, num::mulF32(num::bf16ToF32(a[i]), num::bf16ToF32(b[i])));
  return acc;
}

}  // namespace ref
}  // namespace tcp::num

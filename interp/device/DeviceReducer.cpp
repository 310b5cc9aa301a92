// DeviceReducer.cpp — scalar spatial reduction tree of the Contraction Engine for i4/i5/i9/f8 inputs.
#include "DeviceReducer.h"

#include <cassert>
#include <vector>

namespace tcp::interp {

void reduceTreeGeneric(num::DType d, const uint32_t *x, const uint32_t *w, size_t packets, size_t lanes,
                       unsigned depth, uint32_t *out) {
  assert((lanes >> depth) >= 1);
  bool isFloat = num::isFloat(d);
  std::vector<uint32_t> level(lanes);
  for (size_t k = 0; k < packets; ++k) {
    const uint32_t *a = x + k * lanes, *b = w + k * lanes;
    for (size_t j = 0; j < lanes; ++j)
      level[j] = isFloat ? num::f32Bits(num::mulF32(num::floatToF32(d, a[j]), num::floatToF32(d, b[j])))
                         : uint32_t(int32_t(a[j]) * int32_t(b[j]));  // |a|, |b| < 2^9: exact
    size_t n = lanes;
    for (unsigned l = 0; l < depth; ++l, n /= 2)
      for (size_t j = 0; j < n / 2; ++j)
        level[j] = isFloat ? num::f32Bits(num::addF32(num::f32FromBits(level[2 * j]), num::f32FromBits(level[2 * j + 1])))
                           : uint32_t(num::addWrap<int32_t>(int32_t(level[2 * j]), int32_t(level[2 * j + 1])));
    for (size_t j = 0; j < n; ++j) out[k * n + j] = level[j];
  }
}

}  // namespace tcp::interp

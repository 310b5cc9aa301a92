// DeviceReducer.h — the Reducer's spatial tree for any reducer input type (scalar; bf16 and i8 use NumericKernels).
#pragma once

#include "Numerics.h"

#include <cstddef>
#include <cstdint>

namespace tcp::interp {

// `packets` packets of L = 2^D lanes (bits right-aligned, integers sign-extended): lane products widened
// (floats: mulF32 of the exactly widened operands; integers: exact i32), then `depth` levels of adjacent
// pairwise adds (floats: addF32; integers: wrapping i32). out: packets * (L >> depth) f32 bits or i32.
void reduceTreeGeneric(num::DType d, const uint32_t *x, const uint32_t *w, size_t packets, size_t lanes,
                       unsigned depth, uint32_t *out);

}  // namespace tcp::interp

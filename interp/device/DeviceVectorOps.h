// DeviceVectorOps.h — the Vector Engine's ALU ops as array functions over 32-bit lanes (i32 or f32 bits).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace tcp::interp {

struct VeFn {
  unsigned arity = 0;  // 1, 2 or 3
  void (*unary)(const uint32_t *x, uint32_t *out, size_t n) = nullptr;
  void (*binary)(const uint32_t *x, const uint32_t *y, uint32_t *out, size_t n) = nullptr;
  void (*ternary)(const uint32_t *x, const uint32_t *y, const uint32_t *z, uint32_t *out, size_t n) = nullptr;
  bool valid() const { return unary || binary || ternary; }
};

// The op `op` ("AddFxp", "MulF(FpMulAlu::Mul0)", "Sigmoid", "Max", ...) of the method `method`
// ("vector_fxp", "vector_clip_zip", ...) on i32 or f32 lanes; invalid when it has no model.
VeFn veFunction(const std::string &method, const std::string &op, bool f32);

// One f32 transcendental as the Float cluster computes it (docs/numerics.md): the function in double
// precision on the flushed input, rounded once to f32 (RNE), subnormals flushed, NaN canonical.
float veTranscendental(const std::string &op, float x);

// The reduce ops shared by the intra- and inter-slice reductions ("AddSat", "Add", "Max", "Min", "Mul").
uint32_t veReduce(const std::string &op, bool f32, uint32_t a, uint32_t b);
uint32_t veReduceIdentity(const std::string &op, bool f32);

}  // namespace tcp::interp

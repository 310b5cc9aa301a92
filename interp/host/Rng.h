// Rng.h — rand 0.8's SmallRng on 64-bit targets (Xoshiro256++ seeded by SplitMix64) and the host tensor distributions.
#pragma once

#include "Numerics.h"

#include <cstdint>

namespace tcp::interp {

class SmallRng {
 public:
  // rand 0.8 `SmallRng::seed_from_u64`: four SplitMix64 outputs (state += 0x9e3779b97f4a7c15) form
  // the Xoshiro256++ state; an all-zero state is replaced by seed_from_u64(0).
  static SmallRng seedFromU64(uint64_t seed);
  // `from_seed` with the state words s[0..3] (the little-endian 8-byte chunks of the 32-byte seed).
  static SmallRng fromState(uint64_t s0, uint64_t s1, uint64_t s2, uint64_t s3);

  uint64_t nextU64();
  uint32_t nextU32() { return static_cast<uint32_t>(nextU64() >> 32); }  // rand: upper half

  // Integer uniform in [lo, hi] (hi - lo < 2^32): lo + ((next_u64 >> 32) * n) >> 32 with n = hi - lo + 1
  // (a widening multiply without rejection: bias below 2^-21 for n <= 2001).
  int64_t uniformInt(int64_t lo, int64_t hi);
  // Float uniform in [-1, 1): 2 * ((next_u64 >> 40) * 2^-24) - 1, exact in f32.
  float uniformSigned();

 private:
  uint64_t s_[4] = {0, 0, 0, 0};
};

// The value range of `HostTensor::<D, M>::rand` for integer types (docs/host-api.md).
struct RandRange {
  int64_t lo, hi;
};
RandRange randIntRange(num::DType t);
// One random element of type `t` as a right-aligned bit pattern (HostData convention).
uint32_t randElement(SmallRng &rng, num::DType t);

}  // namespace tcp::interp

// Rng.cpp — SmallRng (Xoshiro256++ / SplitMix64) and the per-type element distributions of HostTensor::rand.
#include "Rng.h"

namespace tcp::interp {

namespace {
uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
}  // namespace

SmallRng SmallRng::fromState(uint64_t s0, uint64_t s1, uint64_t s2, uint64_t s3) {
  if ((s0 | s1 | s2 | s3) == 0) return seedFromU64(0);
  SmallRng r;
  r.s_[0] = s0;
  r.s_[1] = s1;
  r.s_[2] = s2;
  r.s_[3] = s3;
  return r;
}

SmallRng SmallRng::seedFromU64(uint64_t state) {
  constexpr uint64_t kPhi = 0x9e3779b97f4a7c15ull;
  uint64_t s[4];
  for (uint64_t &w : s) {
    state += kPhi;
    uint64_t z = state;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    w = z ^ (z >> 31);
  }
  return fromState(s[0], s[1], s[2], s[3]);
}

uint64_t SmallRng::nextU64() {
  uint64_t result = rotl(s_[0] + s_[3], 23) + s_[0];
  uint64_t t = s_[1] << 17;
  s_[2] ^= s_[0];
  s_[3] ^= s_[1];
  s_[1] ^= s_[2];
  s_[0] ^= s_[3];
  s_[2] ^= t;
  s_[3] = rotl(s_[3], 45);
  return result;
}

int64_t SmallRng::uniformInt(int64_t lo, int64_t hi) {
  uint64_t n = static_cast<uint64_t>(hi - lo) + 1;
  uint64_t x = nextU64() >> 32;
  return lo + static_cast<int64_t>((x * n) >> 32);
}

float SmallRng::uniformSigned() {
  uint64_t x = nextU64() >> 40;  // 24 random bits
  return static_cast<float>(x) * (2.0f / 16777216.0f) - 1.0f;
}

RandRange randIntRange(num::DType t) {
  using num::DType;
  switch (t) {
    case DType::i4: return {-8, 7};
    case DType::i5: return {-8, 7};
    case DType::i8: return {-8, 7};
    case DType::i9: return {-8, 7};
    case DType::i16: return {-128, 127};
    default: return {-1000, 1000};  // i32
  }
}

uint32_t randElement(SmallRng &rng, num::DType t) {
  if (num::isFloat(t)) return num::f32ToFloat(t, rng.uniformSigned());
  RandRange r = randIntRange(t);
  return static_cast<uint32_t>(static_cast<int32_t>(rng.uniformInt(r.lo, r.hi)));
}

}  // namespace tcp::interp

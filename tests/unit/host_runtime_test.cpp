// host_runtime_test.cpp — tcpi's host runtime: SmallRng sequences, rand distributions, .npy round trips, the contraction answer key.
#include "HostTensorOps.h"
#include "Npy.h"
#include "Rng.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <iterator>

namespace {

using namespace tcp;
using namespace tcp::interp;

MappingRef axis(const std::string &name, uint64_t size) {
  AxisInfo a;
  a.name = name;
  a.size = size;
  return Mapping::symbol(a);
}

// Xoshiro256++ reference outputs for the state {1, 2, 3, 4} (the reference C implementation's).
TEST(SmallRng, XoshiroReference) {
  SmallRng r = SmallRng::fromState(1, 2, 3, 4);
  const uint64_t expected[] = {41943041ull, 58720359ull, 3588806011781223ull, 3591011842654386ull,
                               9228616714210784205ull, 9973669472204895162ull, 14011001112246962877ull,
                               12406186145184390807ull, 15849039046786891736ull, 10450023813501588000ull};
  for (uint64_t e : expected) EXPECT_EQ(r.nextU64(), e);
}

// rand 0.8 `SmallRng::seed_from_u64(42)` on 64-bit targets (SplitMix64 seeding).
TEST(SmallRng, Seed42FirstOutputs) {
  SmallRng r = SmallRng::seedFromU64(42);
  EXPECT_EQ(r.nextU64(), 15021278609987233951ull);
  EXPECT_EQ(r.nextU64(), 5881210131331364753ull);
  EXPECT_EQ(r.nextU64(), 18149643915985481100ull);
  EXPECT_EQ(r.nextU64(), 12933668939759105464ull);
  SmallRng u = SmallRng::seedFromU64(42);
  EXPECT_EQ(u.nextU32(), static_cast<uint32_t>(15021278609987233951ull >> 32));
}

TEST(SmallRng, I32Distribution) {
  SmallRng r = SmallRng::seedFromU64(42);
  const int32_t expected[] = {629, -363, 968, 402, 587, 176, -750, 210};
  for (int32_t e : expected) EXPECT_EQ(static_cast<int32_t>(randElement(r, num::DType::i32)), e);
}

TEST(SmallRng, RangesPerType) {
  SmallRng r = SmallRng::seedFromU64(7);
  for (int k = 0; k < 20000; ++k) {
    int32_t i8 = static_cast<int32_t>(randElement(r, num::DType::i8));
    EXPECT_GE(i8, -8);
    EXPECT_LE(i8, 7);
    float f = num::bf16ToF32(static_cast<uint16_t>(randElement(r, num::DType::bf16)));
    EXPECT_GE(f, -1.0f);
    EXPECT_LE(f, 1.0f);  // rounding to bf16 may reach 1.0
    float g = r.uniformSigned();
    EXPECT_GE(g, -1.0f);
    EXPECT_LT(g, 1.0f);
  }
}

std::string tempPath(const char *name) { return std::string(::testing::TempDir()) + name; }

TEST(Npy, RoundTripI32) {
  MappingRef m = Mapping::pair(axis("A", 3), axis("B", 4));
  HostData h = zeroHost(num::DType::i32, m);
  for (size_t k = 0; k < h.bits.size(); ++k) h.bits[k] = static_cast<uint32_t>(static_cast<int32_t>(k) - 5);
  std::string path = tempPath("host_rt_i32.npy");
  saveNpy(h, path);
  std::ifstream f(path, std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  ASSERT_GE(bytes.size(), 128u);
  EXPECT_EQ(bytes.substr(0, 8), std::string("\x93NUMPY\x01\x00", 8));
  EXPECT_NE(bytes.find("{'descr': '<i4', 'fortran_order': False, 'shape': (3, 4), }"), std::string::npos);
  EXPECT_EQ(bytes.size(), 128u + 12 * 4);  // header padded to 64 bytes
  HostData back = loadNpy(path, num::DType::i32, m);
  EXPECT_EQ(back.bits, h.bits);
  std::remove(path.c_str());
}

TEST(Npy, Bf16SavedAsF32AndTransposedLoad) {
  MappingRef ab = Mapping::pair(axis("A", 2), axis("B", 3));
  HostData h = zeroHost(num::DType::bf16, ab);
  for (size_t k = 0; k < h.bits.size(); ++k) h.bits[k] = num::f32ToBf16(0.25f * static_cast<float>(k) - 0.5f);
  std::string path = tempPath("host_rt_bf16.npy");
  saveNpy(h, path);
  HostData back = loadNpy(path, num::DType::bf16, ab);
  EXPECT_EQ(back.bits, h.bits);
  // The file's shape follows the mapping's axis order: m![B, A] needs (3, 2).
  EXPECT_THROW(loadNpy(path, num::DType::bf16, Mapping::pair(axis("B", 3), axis("A", 2))), HostError);
  // Integers must hold integral values.
  EXPECT_THROW(loadNpy(path, num::DType::i8, ab), HostError);
  std::remove(path.c_str());
}

TEST(Contraction, GemvByAxisNames) {
  MappingRef ij = Mapping::pair(axis("I", 2), axis("J", 3));
  MappingRef j = axis("J", 3), i = axis("I", 2);
  HostData a = zeroHost(num::DType::i32, ij), x = zeroHost(num::DType::i8, j);
  const int32_t av[] = {1, 2, 3, 4, 5, 6}, xv[] = {1, -1, 2};
  for (int k = 0; k < 6; ++k) a.bits[k] = static_cast<uint32_t>(av[k]);
  for (int k = 0; k < 3; ++k) x.bits[k] = static_cast<uint32_t>(xv[k]);
  HostData y = contraction(a, x, num::DType::i32, i);
  ASSERT_EQ(y.bits.size(), 2u);
  EXPECT_EQ(static_cast<int32_t>(y.bits[0]), 1 - 2 + 6);
  EXPECT_EQ(static_cast<int32_t>(y.bits[1]), 4 - 5 + 12);
  // Every axis absent from the output is summed; a narrow type keeps the low bits (91 in i4: -5).
  HostData all = contraction(a, a, num::DType::i32, Mapping::identity());
  EXPECT_EQ(static_cast<int32_t>(all.bits[0]), 91);
  HostData low = contraction(a, a, num::DType::i4, Mapping::identity());
  EXPECT_EQ(static_cast<int32_t>(low.bits[0]), -5);
}

TEST(Compare, ReportsFirstMismatchByIndex) {
  MappingRef ab = Mapping::pair(axis("A", 2), axis("B", 2)), ba = Mapping::pair(axis("B", 2), axis("A", 2));
  HostData x = zeroHost(num::DType::i32, ab), y = zeroHost(num::DType::i32, ba);
  for (int k = 0; k < 4; ++k) x.bits[k] = static_cast<uint32_t>(k);
  // y holds the same logical tensor in the other layout: y[B][A] = x[A][B].
  for (int a = 0; a < 2; ++a)
    for (int b = 0; b < 2; ++b) y.bits[b * 2 + a] = x.bits[a * 2 + b];
  EXPECT_FALSE(compareExact(x, y));
  y.bits[1] = 9;  // B: 0, A: 1
  auto msg = compareExact(x, y);
  ASSERT_TRUE(msg);
  EXPECT_NE(msg->find("i![A: 1, B: 0]"), std::string::npos) << *msg;
  EXPECT_NE(msg->find("left = 2, right = 9"), std::string::npos) << *msg;
}

}  // namespace

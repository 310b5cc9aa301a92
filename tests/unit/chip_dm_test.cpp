// chip_dm_test.cpp — the slices' DMs laid out densely (ChipDm): the stride is what is reserved, growing keeps every slice's bytes.
#include "DeviceMemory.h"

#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <string>

namespace {

using namespace tcp::interp;

bool thpAlways() {
  std::ifstream f("/sys/kernel/mm/transparent_hugepage/enabled");
  std::string s((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  return s.find("[always]") != std::string::npos;
}

TEST(ChipDm, StrideIsTheReservedBytesRoundedToPages) {
  ChipDm dm;
  EXPECT_EQ(dm.stride(), 0u);
  dm.reserve(1);
  EXPECT_EQ(dm.stride(), 4096u);
  dm.reserve(4096);
  EXPECT_EQ(dm.stride(), 4096u);
  dm.reserve(4097);
  EXPECT_EQ(dm.stride(), 8192u);
  dm.reserve(100);  // never shrinks
  EXPECT_EQ(dm.stride(), 8192u);
  dm.reserve(kDmBytes);
  EXPECT_EQ(dm.stride(), kDmBytes);
  EXPECT_EQ(dm.slice(1) - dm.slice(0), int64_t(kDmBytes));
}

TEST(ChipDm, GrowingKeepsEverySliceBytes) {
  ChipDm dm;
  dm.reserve(4096);
  const size_t slices = SliceMemories::kPerChip;
  for (size_t s = 0; s < slices; s += 37)
    for (uint64_t b = 0; b < 4096; b += 511) dm.slice(s)[b] = uint8_t(s * 7 + b + 1);
  dm.slice(slices - 1)[4095] = 0xA5;
  dm.reserve(3 * 4096 + 5);
  ASSERT_EQ(dm.stride(), 4u * 4096);
  // Only the 15 pages holding bytes were copied (where the kernel backs every write with a huge page,
  // residency says nothing about pages).
  if (!thpAlways()) {
    EXPECT_EQ(residentBytes(dm.region()), 15u * 4096);
  }
  for (size_t s = 0; s < slices; s += 37)
    for (uint64_t b = 0; b < 4096; b += 511) EXPECT_EQ(dm.slice(s)[b], uint8_t(s * 7 + b + 1)) << "slice " << s << " byte " << b;
  EXPECT_EQ(dm.slice(slices - 1)[4095], 0xA5);
  // The grown part reads 0, and a slice never written was not touched by the copy.
  for (uint64_t b = 4096; b < dm.stride(); b += 1024) EXPECT_EQ(dm.slice(0)[b], 0u);
  EXPECT_EQ(dm.slice(1)[0], 0u);
}

TEST(SliceMemories, ChipsReservedLaterGetTheReservedDm) {
  SliceMemories m;
  m.reserveChips(1);
  m.reserveDm(10000);
  m[3].dmData()[9999] = 42;
  m.reserveChips(2);
  EXPECT_EQ(m.dmStride(), 12288u) << "whole pages";
  uint8_t *other = m[SliceMemories::kPerChip + 3].dmData();
  EXPECT_EQ(other[9999], 0u);
  other[9999] = 7;
  EXPECT_EQ(m[3].dmData()[9999], 42u) << "chips do not share DMs";
  m.reserveDm(20000);
  EXPECT_EQ(m[3].dmData()[9999], 42u);
  EXPECT_EQ(m[SliceMemories::kPerChip + 3].dmData()[9999], 7u);
  EXPECT_GT(m.dmResidentBytes(), 0u);
}

}  // namespace

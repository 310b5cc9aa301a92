// dm_alias_test.cpp — broadcast DM ranges held once: which DMA steps make an alias, reads through it, and copying it out before a write.
#include "DeviceImpl.h"

#include <gtest/gtest.h>

using namespace tcp;
using namespace tcp::interp;

namespace {
// Slice `slice` receives n-byte steps from source `src` + 16 k into DM offset `off` + 16 k, k < count.
void steps(std::vector<DmStep> &out, uint32_t slice, uint64_t src, uint64_t off, unsigned count) {
  for (unsigned k = 0; k < count; ++k) out.push_back({slice, src + 16 * k, off + 16 * k});
}
// Slice 5 of a one-chip device holds 1..64 at DM [64, 128); the alias of that range is owned by slice 5
// for each of `readers` (every other slice holds its own bytes).
DmAlias heldBySlice5(DeviceImpl &dev, std::initializer_list<uint32_t> readers) {
  dev.slices.reserveChips(1);
  dev.slices.reserveDm(256);
  for (int i = 0; i < 64; ++i) dev.slices[5].dmData()[64 + i] = uint8_t(i + 1);
  DmAlias a;
  a.lo = 64, a.hi = 128, a.chips = {0};
  a.owner.resize(size_t(interp::kClusters) * interp::kSlicesPerCluster);
  for (uint32_t s = 0; s < a.owner.size(); ++s) a.owner[s] = s;
  for (uint32_t r : readers) a.owner[r] = 5;
  return a;
}
}  // namespace

TEST(DmAlias, SlicesReceivingTheSameStepsShareTheFirst) {
  std::vector<DmStep> s;
  for (uint32_t slice : {3u, 7u, 9u}) steps(s, slice, 1000, 64, 4);  // the same bytes into three slices
  steps(s, 12, 5000, 64, 4);                                          // other bytes, the same range
  std::optional<DmAlias> a = broadcastAlias(s, 16);
  ASSERT_TRUE(a);
  EXPECT_EQ(a->lo, 64u);
  EXPECT_EQ(a->hi, 128u);
  EXPECT_EQ(a->owner[3], 3u);
  EXPECT_EQ(a->owner[7], 3u);
  EXPECT_EQ(a->owner[9], 3u);
  EXPECT_EQ(a->owner[12], 12u);
  EXPECT_EQ(a->owner[0], 0u) << "a slice the DMA does not write holds its own bytes";
  EXPECT_EQ(a->hbmAt[3], 1000u) << "one run of the source: offset 64 comes from byte 1000";
  EXPECT_EQ(a->hbmAt[12], 5000u);
}

TEST(DmAlias, AnOwnerIsReadInPlaceOnlyFromOneRunOfItsSource) {
  std::vector<DmStep> s;
  for (uint32_t slice : {0u, 1u}) s.insert(s.end(), {{slice, 100, 0}, {slice, 116, 16}, {slice, 132, 32}});
  for (uint32_t slice : {2u, 3u}) s.insert(s.end(), {{slice, 116, 0}, {slice, 100, 16}, {slice, 132, 32}});  // swapped
  std::optional<DmAlias> a = broadcastAlias(s, 16);
  ASSERT_TRUE(a);
  EXPECT_EQ(a->owner[1], 0u);
  EXPECT_EQ(a->owner[3], 2u);
  EXPECT_EQ(a->hbmAt[0], 100u);
  EXPECT_EQ(a->hbmAt[2], DmAlias::kInDm) << "the source is not in the DM range's order";
  EXPECT_TRUE(a->inHbm(1));
  EXPECT_FALSE(a->inHbm(3));
}

TEST(DmAlias, StepOrderMattersAndNothingSharedIsNoAlias) {
  std::vector<DmStep> s;
  steps(s, 0, 0, 0, 4);
  steps(s, 1, 0, 0, 4);
  std::swap(s[4], s[5]);  // slice 1 receives the same steps in another order: compared as sequences, not shared
  EXPECT_FALSE(broadcastAlias(s, 16));
  std::vector<DmStep> distinct;
  steps(distinct, 0, 0, 0, 4);
  steps(distinct, 1, 64, 0, 4);
  EXPECT_FALSE(broadcastAlias(distinct, 16));
}

TEST(DmAlias, TheStepsMustCoverOneRangeExactly) {
  std::vector<DmStep> gap;  // offsets 0, 16, 48: byte 32..47 would come from the owner
  for (uint32_t slice : {0u, 1u}) gap.insert(gap.end(), {{slice, 0, 0}, {slice, 16, 16}, {slice, 32, 48}});
  EXPECT_FALSE(broadcastAlias(gap, 16));
  std::vector<DmStep> ranges;  // two groups over different ranges
  steps(ranges, 0, 0, 0, 2);
  steps(ranges, 1, 0, 0, 2);
  steps(ranges, 2, 0, 32, 2);
  EXPECT_FALSE(broadcastAlias(ranges, 16));
  std::vector<DmStep> overlap;  // 24-byte steps 16 apart overlap
  steps(overlap, 0, 0, 0, 2);
  steps(overlap, 1, 0, 0, 2);
  EXPECT_FALSE(broadcastAlias(overlap, 24));
}

TEST(DmAlias, ReadsResolveToTheOwnerUntilAWriteCopiesItOut) {
  DeviceImpl dev(1);
  dev.dmAliases.push_back(heldBySlice5(dev, {6, 200}));
  EXPECT_EQ(dev.dmReadBase(6, 64, 128), dev.slices[5].dmData());
  EXPECT_EQ(dev.dmReadBase(200, 80, 96), dev.slices[5].dmData());
  EXPECT_EQ(dev.dmReadBase(7, 64, 128), dev.slices[7].dmData());
  EXPECT_EQ(dev.dmReadBase(6, 128, 192), dev.slices[6].dmData()) << "outside the range";
  dev.unaliasDm(80, 96, true);  // a read inside the range keeps it
  EXPECT_EQ(dev.dmAliases.size(), 1u);
  EXPECT_EQ(dev.slices[6].dmData()[64], 0) << "a reader's own DM is not written while aliased";
  dev.unaliasDm(120, 136);  // a write into part of it copies the whole range out
  EXPECT_TRUE(dev.dmAliases.empty());
  for (int i = 0; i < 64; ++i) {
    EXPECT_EQ(dev.slices[6].dmData()[64 + i], uint8_t(i + 1));
    EXPECT_EQ(dev.slices[200].dmData()[64 + i], uint8_t(i + 1));
  }
  EXPECT_EQ(dev.slices[7].dmData()[64], 0) << "a slice that held its own bytes is left alone";
  EXPECT_EQ(dev.dmReadBase(6, 64, 128), dev.slices[6].dmData());
}

TEST(DmAlias, ReadsInPlaceFromHbmUntilTheHbmOrTheRangeIsWritten) {
  DeviceImpl dev(1);
  dev.slices.reserveChips(1);
  dev.slices.reserveDm(256);
  std::vector<uint8_t> bytes(64);
  for (int i = 0; i < 64; ++i) bytes[size_t(i)] = uint8_t(i + 1);
  dev.hbm[0].write(4096, bytes.data(), 64);
  auto alias = [&] {
    DmAlias a;
    a.lo = 64, a.hi = 128, a.chips = {0};
    a.owner.resize(size_t(interp::kClusters) * interp::kSlicesPerCluster);
    a.hbmAt.assign(a.owner.size(), DmAlias::kInDm);
    for (uint32_t s = 0; s < a.owner.size(); ++s) a.owner[s] = s;
    a.owner[6] = 5;
    a.hbmAt[5] = 4096;
    return a;
  };
  dev.dmAliases.push_back(alias());
  const uint8_t *in = dev.hbm[0].span(4096, 64);
  ASSERT_NE(in, nullptr);
  EXPECT_EQ(dev.dmReadBase(6, 64, 128) + 64, in) << "DM byte 64 of slice 6 is HBM byte 4096";
  EXPECT_EQ(dev.dmReadBase(5, 80, 96) + 80, in + 16) << "the owner reads in place too";
  EXPECT_EQ(dev.dmReadBase(7, 64, 128), dev.slices[7].dmData());
  dev.unaliasHbm(0, 0, 4096);  // bytes before the run: nothing to do
  EXPECT_EQ(dev.dmAliases[0].hbmAt[5], 4096u);
  dev.unaliasHbm(0, std::vector<uint64_t>{1, 7});  // HBM pages past the run's (page 0)
  dev.unaliasHbm(1, std::vector<uint64_t>{0});     // the run's page, on a chip the alias is not on
  EXPECT_EQ(dev.dmAliases[0].hbmAt[5], 4096u);
  dev.unaliasHbm(0, 4100, 4101);  // one byte of the run: the owner takes its bytes into DM
  EXPECT_EQ(dev.dmAliases[0].hbmAt[5], DmAlias::kInDm);
  EXPECT_EQ(dev.dmReadBase(6, 64, 128), dev.slices[5].dmData());
  EXPECT_EQ(dev.slices[5].dmData()[64], 1);
  EXPECT_EQ(dev.slices[5].dmData()[127], 64);
  EXPECT_EQ(dev.slices[6].dmData()[64], 0) << "the reader still reads the owner's";
  dev.dmAliases[0].hbmAt[5] = 4096;  // read in place again; then a DMA writes the run's page
  dev.unaliasHbm(0, std::vector<uint64_t>{0, 3});
  EXPECT_EQ(dev.dmAliases[0].hbmAt[5], DmAlias::kInDm);
  // A write into the range copies the bytes out into every slice that reads them, the owner included.
  dev.slices[5].dmData()[64] = 0;
  dev.dmAliases.clear();
  dev.dmAliases.push_back(alias());
  dev.unaliasDm(64, 65);
  EXPECT_TRUE(dev.dmAliases.empty());
  for (size_t s : {5u, 6u}) {
    EXPECT_EQ(dev.slices[s].dmData()[64], 1);
    EXPECT_EQ(dev.slices[s].dmData()[127], 64);
  }
}

TEST(DmAlias, WholeWritesAreTheSlicesWhoseStepsCoverTheRangeOnce) {
  std::vector<DmStep> s;
  steps(s, 0, 0, 64, 4);                                     // [64, 128) whole
  steps(s, 1, 0, 64, 3);                                     // a step short
  s.insert(s.end(), {{2, 0, 112}, {2, 0, 64}, {2, 0, 96}, {2, 0, 80}});  // whole, in another order
  s.insert(s.end(), {{3, 0, 64}, {3, 0, 64}, {3, 0, 80}, {3, 0, 96}});   // one offset twice, 112 missing
  std::vector<uint8_t> whole = wholeWrites(s, 16, 64, 128);
  EXPECT_EQ(whole[0], 1);
  EXPECT_EQ(whole[1], 0);
  EXPECT_EQ(whole[2], 1);
  EXPECT_EQ(whole[3], 0);
  EXPECT_EQ(whole[4], 0) << "no steps";
}

TEST(DmAlias, AWriteOfTheWholeRangeCopiesNothingIntoTheSlicesItRewrites) {
  DeviceImpl dev(1);
  const DmAlias a = heldBySlice5(dev, {6, 7});
  std::vector<uint8_t> rewritten(a.owner.size(), 0);
  rewritten[6] = 1;  // slice 6 is about to be written whole; 7 is not
  const std::vector<unsigned> chips = {0}, otherChips = {1};
  dev.dmAliases.push_back(a);
  dev.unaliasDm(64, 128, false, &rewritten, &otherChips);  // marks for another chip: copies everywhere
  EXPECT_EQ(dev.slices[6].dmData()[64], 1);
  dev.slices[6].dmData()[64] = 0;
  dev.dmAliases.push_back(a);
  dev.unaliasDm(80, 96, false, &rewritten, &chips);  // a write of part of the range: the rest must survive
  EXPECT_EQ(dev.slices[6].dmData()[64], 1);
  dev.slices[6].dmData()[64] = dev.slices[7].dmData()[64] = 0;
  dev.dmAliases.push_back(a);
  dev.unaliasDm(0, 192, false, &rewritten, &chips);  // the whole range, rewritten in slice 6
  EXPECT_TRUE(dev.dmAliases.empty());
  EXPECT_EQ(dev.slices[6].dmData()[64], 0) << "rewritten whole: not copied";
  EXPECT_EQ(dev.slices[7].dmData()[64], 1) << "not rewritten: copied";
}

TEST(TrfAlias, ReadsResolveToTheOwnerAndAWriteCopiesOutWhatItDoesNotRewrite) {
  DeviceImpl dev(1);
  dev.slices.reserveChips(1);
  for (size_t row = 0; row < 2; ++row)
    for (int i = 0; i < 32; ++i) dev.slices[1].trfData()[row * kTrfRowBytes + 64 + i] = uint8_t(100 + row + i);
  TrfAlias a;
  a.region = {64, 96, 2};
  a.owner.resize(dev.slices.size());
  for (uint32_t s = 0; s < a.owner.size(); ++s) a.owner[s] = s;
  a.owner[2] = a.owner[3] = 1;
  dev.trfAliases.push_back(a);
  EXPECT_EQ(dev.trfReadSlice(3, TrfSpan{64, 96, 2}), 1u);
  EXPECT_EQ(dev.trfReadSlice(3, TrfSpan{72, 80, 1}), 1u);
  EXPECT_EQ(dev.trfReadSlice(3, TrfSpan{0, 64, 8}), 3u) << "another region";
  EXPECT_EQ(dev.trfReadSlice(4, TrfSpan{64, 96, 2}), 4u);
  // A chain about to rewrite the whole region on slice 2 (not 3): only slice 3 gets the owner's bytes.
  std::vector<uint8_t> rewritten(dev.slices.size(), 0);
  rewritten[2] = 1;
  dev.unaliasTrf(TrfSpan{0, 128, 4}, false, &rewritten);
  EXPECT_TRUE(dev.trfAliases.empty());
  for (size_t row = 0; row < 2; ++row)
    for (int i = 0; i < 32; ++i) {
      EXPECT_EQ(dev.slices[3].trfData()[row * kTrfRowBytes + 64 + i], uint8_t(100 + row + i));
      EXPECT_EQ(dev.slices[2].trfData()[row * kTrfRowBytes + 64 + i], 0) << "rewritten whole by the chain";
    }
  EXPECT_EQ(dev.trfReadSlice(3, TrfSpan{64, 96, 2}), 3u);
}

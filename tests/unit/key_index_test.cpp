// key_index_test.cpp — KeyIndex (dense, packed bit runs, open addressing) finds the first position of every key and nothing else; positions() takes its shortcuts only where they give the same.
#include "DeviceIndex.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <random>
#include <vector>

namespace {

using tcp::interp::KeyIndex;

// The first position of every key, by brute force; every key, a neighbour of each and keys no table holds.
void expectLikeMap(const std::vector<int64_t> &keys) {
  KeyIndex index(keys);
  std::map<int64_t, int64_t> first;
  for (size_t i = 0; i < keys.size(); ++i)
    if (keys[i] >= 0) first.emplace(keys[i], int64_t(i));
  auto want = [&](int64_t k) {
    auto it = first.find(k);
    return k < 0 || it == first.end() ? int64_t(-1) : it->second;
  };
  for (int64_t k : keys)
    for (int64_t probe : {k, k + 1, k - 1, k + (int64_t(1) << 40), k ^ (int64_t(1) << 35)}) EXPECT_EQ(index.find(probe), want(probe)) << probe;
  for (int64_t probe : {int64_t(-1), int64_t(0), int64_t(1) << 62}) EXPECT_EQ(index.find(probe), want(probe));
}

TEST(KeyIndex, DenseKeys) { expectLikeMap({3, 1, 4, 1, 5, -1, 9, 2, 6}); }

// Keys of `I % 128`, `J / 8 % 4`, `K` in a space of three 1024-wide axes: far apart (a volume of
// 2^27), yet their bits form three runs, so the index is dense over those bits packed together.
TEST(KeyIndex, PackedBitRuns) {
  std::vector<int64_t> keys;
  for (int64_t i = 0; i < 128; ++i)
    for (int64_t j = 0; j < 4; ++j)
      for (int64_t k = 0; k < 64; ++k) keys.push_back((i << 20) + (j * 8 << 10) + k * 16);
  keys[5] = -1;
  keys.push_back(keys[17]);  // a repeated key: its first position wins
  expectLikeMap(keys);
}

// Keys whose bits fill too many positions to pack fall back to open addressing.
TEST(KeyIndex, SparseKeys) {
  std::mt19937_64 rng(7);
  std::vector<int64_t> keys;
  for (int i = 0; i < 2000; ++i) keys.push_back(int64_t(rng() >> 4));
  keys.push_back(keys[100]);
  keys.push_back(-1);
  expectLikeMap(keys);
}

// positions(): keys that are their own positions, and wanted == keys, need no index; the answers are
// findAll's (for wanted == keys: a position holding the key, the first where the keys are distinct).
TEST(KeyIndex, PositionsTakeTheShortcutsOnlyWhereTheyGiveTheSame) {
  const std::vector<int64_t> own = {0, 1, 2, 3, 4, 5};
  const std::vector<int64_t> wanted = {5, -1, 0, 6, 3, 1 << 20};
  EXPECT_EQ(KeyIndex::positions(own, wanted), KeyIndex(own).findAll(wanted));
  EXPECT_EQ(KeyIndex::positions(own, wanted), (std::vector<int64_t>{5, -1, 0, -1, 3, -1}));
  const std::vector<int64_t> shuffled = {7, 3, -1, 9, 1};
  EXPECT_EQ(KeyIndex::positions(shuffled, shuffled), KeyIndex(shuffled).findAll(shuffled));
  const std::vector<int64_t> other = {9, 9, 2, 7, -1};
  EXPECT_EQ(KeyIndex::positions(shuffled, other), KeyIndex(shuffled).findAll(other));
  EXPECT_EQ(KeyIndex::positions(shuffled, other), (std::vector<int64_t>{3, 3, -1, 0, -1}));
  const std::vector<int64_t> repeated = {4, 4, 2};  // wanted == keys: each position takes itself
  EXPECT_EQ(KeyIndex::positions(repeated, repeated), (std::vector<int64_t>{0, 1, 2}));
}

}  // namespace

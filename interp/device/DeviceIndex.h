// DeviceIndex.h — tensor indices as integer keys: axis spaces, per-mapping key tables and key → position lookups.
#pragma once

#include "Mapping.h"

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace tcp::interp {

// A set of axes with mixed-radix strides: an index projected onto the space becomes one integer key
// (coordinates of axes outside the space are dropped: that is how broadcasting is expressed).
// Keys are additive: key(a ∪ b) == key(a) + key(b) for the disjoint parts of one index.
class AxisSpace {
 public:
  // The axes every mapping refers to, first occurrence first (the last axis gets stride 1).
  static AxisSpace of(const std::vector<MappingRef> &mappings);
  int64_t key(const Index &index) const;
  int64_t strideOf(const std::string &axis) const;  // 0 for an axis outside the space
  uint64_t volume() const { return volume_; }
  // The key of the union of two partial indices (coordinates summed per axis), or -1 when a summed
  // coordinate leaves its axis: such a union is not an element of the tensor ("Mapping Expressions":
  // `(B + # 31) / 16` at 6 and `% 16` at 1 give B = 97, outside B = 97 positions, not the next row).
  int64_t add(int64_t a, int64_t b) const;
  // Bit i set when some key of the table has a nonzero coordinate on axis i (all bits past 64 axes).
  uint64_t axesUsed(const std::vector<int64_t> &keys) const;
  // add() checking only the axes of the bit set `axes` (those both keys can hold).
  int64_t addOn(int64_t a, int64_t b, uint64_t axes) const;
  // (stride, size) of the axes of the bit set `axes` that have a size (the digits addOn checks).
  std::vector<std::pair<uint64_t, uint64_t>> digitsOf(uint64_t axes) const;

 private:
  std::vector<std::pair<std::string, uint64_t>> axes_;  // name, stride
  std::vector<uint64_t> sizes_;                         // axis sizes, parallel to axes_
  uint64_t volume_ = 1;
};

// The key of every position of `m` in `space`; -1 where the position holds no element (padding).
// Large tables (this and combineKeys) are computed on the device pool's threads.
std::vector<int64_t> keyTable(const MappingRef &m, const AxisSpace &space);

// The keys of the stream (time major, packet minor): combineKeys of the two tables, or, when either
// holds a padded axis (`B' = # 2 + B + # 4` split as `B' / 32`, `B' % 32`), the keys of the pair
// itself (a padded axis' left pad applies once to the whole index, so partial keys do not add up).
std::vector<int64_t> streamKeys(const MappingRef &time, const MappingRef &packet, const AxisSpace &space);

// Sums of two key tables as a flattened outer product (a major): -1 if either is -1.
std::vector<int64_t> combineKeys(const std::vector<int64_t> &a, const std::vector<int64_t> &b);
// The same with space.add: -1 also where a summed coordinate leaves its axis. Use this one whenever
// the two mappings can share an axis (a split `B / 16`, `B % 16` of a padded or sliced B).
std::vector<int64_t> combineKeys(const std::vector<int64_t> &a, const std::vector<int64_t> &b, const AxisSpace &space);

// Finds the first position holding a key. Dense (a vector over the keys) when that is small; else,
// when the bits the keys use form a few runs (the digits of axes whose strides are powers of two:
// `I % 128` among 1024-wide axes), dense over those bits packed together; else open addressing.
class KeyIndex {
 public:
  explicit KeyIndex(const std::vector<int64_t> &keys);
  int64_t find(int64_t key) const {  // -1 when no position holds the key (or key is -1)
    if (key < 0) return -1;
    if (dense_) return uint64_t(key) < table_.size() ? table_[size_t(key)] : -1;
    if (packed_) return (uint64_t(key) & ~used_) ? -1 : table_[size_t(pack(uint64_t(key)))];
    return findSparse(key);
  }
  // find() of every key (on the device pool's threads when there are many).
  std::vector<int64_t> findAll(const std::vector<int64_t> &keys) const;
  // The position of each wanted key among `keys` (-1: none), as KeyIndex(keys).findAll(wanted) gives,
  // with no index built where none is needed: keys that are their own positions (position i holds key
  // i: a DM tensor's axes in order, unpadded), or wanted == keys (each takes itself: positions holding
  // one key hold one element, so the value is the one the first position holding it would give).
  static std::vector<int64_t> positions(const std::vector<int64_t> &keys, const std::vector<int64_t> &wanted);

 private:
  bool dense_ = false, packed_ = false;
  std::vector<int32_t> table_;
  // Packed: the key bits in used_, run by run (shift, mask, shift of the run in the packed index).
  struct Run {
    unsigned from, to;
    uint64_t mask;
  };
  static constexpr size_t kMaxRuns = 8;
  Run runs_[kMaxRuns] = {};
  size_t nRuns_ = 0;
  uint64_t used_ = 0;
  uint64_t pack(uint64_t key) const {
    uint64_t c = 0;
    for (size_t r = 0; r < nRuns_; ++r) c |= ((key >> runs_[r].from) & runs_[r].mask) << runs_[r].to;
    return c;
  }
  int64_t findSparse(int64_t key) const;
  std::vector<std::pair<int64_t, int64_t>> slots_;  // sparse keys: open addressing, (key, position); key -1: empty
  uint64_t mask_ = 0;
  unsigned shift_ = 60;  // 64 - log2(slots)
  uint64_t slot(int64_t key) const;
};

}  // namespace tcp::interp

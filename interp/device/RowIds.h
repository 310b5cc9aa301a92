// RowIds.h — ids of distinct fixed-width rows in order of first appearance (the contraction's packet and tile dedup), without a string per row.
#pragma once

#include <cstdint>
#include <cstring>
#include <functional>
#include <string_view>
#include <utility>
#include <vector>

namespace tcp::interp {

// Rows of `width` values of T (trivially copyable); equal bytes are equal rows. Open addressing over
// the hashes of the rows' bytes, at most half full.
template <class T>
class RowIds {
 public:
  explicit RowIds(size_t width) : width_(width), slots_(16, 0) {}

  // The id of the row at `row` (width values) and whether it is new (ids count up from 0).
  std::pair<uint32_t, bool> insert(const T *row) {
    if (2 * (count_ + 1) > slots_.size()) grow();
    const size_t mask = slots_.size() - 1;
    for (size_t h = hash(row) & mask;; h = (h + 1) & mask) {
      if (slots_[h] == 0) {
        rows_.insert(rows_.end(), row, row + width_);
        slots_[h] = uint32_t(++count_);
        return {uint32_t(count_ - 1), true};
      }
      const T *seen = rows_.data() + size_t(slots_[h] - 1) * width_;
      if (std::memcmp(seen, row, width_ * sizeof(T)) == 0) return {slots_[h] - 1, false};
    }
  }
  size_t size() const { return count_; }
  const std::vector<T> &rows() const { return rows_; }  // size() × width, by id

 private:
  size_t hash(const T *row) const {
    return std::hash<std::string_view>()(std::string_view(reinterpret_cast<const char *>(row), width_ * sizeof(T)));
  }
  void grow() {
    std::vector<uint32_t> old(slots_.size() * 2, 0);
    std::swap(old, slots_);
    const size_t mask = slots_.size() - 1;
    for (uint32_t id : old)
      if (id != 0) {
        size_t h = hash(rows_.data() + size_t(id - 1) * width_) & mask;
        while (slots_[h] != 0) h = (h + 1) & mask;
        slots_[h] = id;
      }
  }
  size_t width_, count_ = 0;
  std::vector<T> rows_;
  std::vector<uint32_t> slots_;  // id + 1; 0: empty
};

}  // namespace tcp::interp

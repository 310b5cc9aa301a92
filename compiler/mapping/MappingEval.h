// MappingEval.h — a mapping compiled to integer arithmetic: buffer positions to per-axis coordinates (axis ids, strides) without Index objects.
#pragma once

#include "Mapping.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace tcp {

// For the hot loops that map every position of a tensor (key tables, dense views, coverage, the
// answer key). Axes are interned once: coordinate k belongs to axes()[k] (the mapping's axes, first
// occurrence first, then the base axes of skewed and padded ones), and a position's digits (mixed
// radix over the factorization's terms) add base + d * stride to their axis' coordinate; then the
// bound checks and skew/pad resolution of Mapping::map (a skewed or padded axis ends at 0, its base
// axis holds the coordinate). Mappings that do not reduce to such terms — linear combinations,
// opaque parts — have no MappingEval; their callers use Mapping::map.
class MappingEval {
 public:
  static std::optional<MappingEval> of(const MappingRef &m);

  const std::vector<AxisInfo> &axes() const { return axes_; }
  uint64_t size() const { return size_; }
  // The coordinates of position i (one per axis, 0 when absent); false where map(i) is nullopt.
  bool coords(uint64_t i, int64_t *out) const;
  // Σ_k coordinate_k * weight[k] for every position, -1 where the position holds no element.
  std::vector<int64_t> linear(const std::vector<int64_t> &weight) const;
  // The same for positions [begin, end) only, into out[0, end - begin) (for tensors too large to key at once).
  void linearRange(const std::vector<int64_t> &weight, uint64_t begin, uint64_t end, int64_t *out) const;
  // The distinct indices as a product of per-axis coordinate sets: without skewed axes an axis'
  // coordinate depends only on the digits of its own terms and every check of coords() is per term
  // or per axis, so the elements are every combination of the axes' coordinates (a padded axis B'
  // ends at 0, its base B holding B''s coordinates less the left pad). A set is sorted disjoint
  // runs [lo, hi) (`B / 64, B % 64` is one run). nullopt for skewed axes, a padded axis whose base
  // the mapping also names, or when an axis' terms make more than `budget` runs.
  using Runs = std::vector<std::pair<int64_t, int64_t>>;
  // One more term of an axis: every coordinate of `set` plus shift + d * stride (d < digits), kept
  // below `end` (coordinates only grow), as sorted disjoint runs. False (set untouched) when it would
  // take more than `budget` runs before merging.
  static bool addTerm(Runs &set, uint64_t shift, uint64_t digits, uint64_t stride, int64_t end, uint64_t budget);
  struct Product {
    bool empty = false;       // no position holds an element
    std::vector<Runs> coords;  // per axes()[k]
  };
  std::optional<Product> product(uint64_t budget) const;
  // The weights of linear() for strides given by axis name (axes without a stride weigh 0).
  template <class StrideOf>
  std::vector<int64_t> weights(StrideOf strideOf) const {
    std::vector<int64_t> w(axes_.size());
    for (size_t k = 0; k < axes_.size(); ++k) w[k] = strideOf(axes_[k].name);
    return w;
  }

 private:
  struct Term {
    uint64_t count, limit, base, axisStride;
    int axis;  // -1: padding (only digit 0 is an element)
  };
  struct Finish {
    enum Kind { Skew, Pad } kind;
    int axis, base, by;  // slots: the skewed/padded axis, its base axis, the skew's other axis
  };
  uint64_t size_ = 0;
  bool none_ = false;
  std::vector<Term> terms_;  // minor first
  std::vector<AxisInfo> axes_;
  size_t raw_ = 0;  // axes_[0, raw_): the factorization's axes; then base axes added for finish_
  std::vector<Finish> finish_;
};

}  // namespace tcp

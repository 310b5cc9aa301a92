// Mapping.h — the mapping algebra of m![...]: construction with size checks, size, map(), printing.
#pragma once

#include <llvm/ADT/SmallVector.h>
#include <llvm/ADT/StringMap.h>

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

namespace tcp {

// One declared axis: `A = 8`, a skewed axis `B' = B - A` (size of B, coordinate B - A mod |B|), or
// a padded (derived) axis `B' = # 2 + B + # 4` (size 2 + |B| + 4; coordinate b' is B = b' - 2 when
// 0 <= b' - 2 < |B|, padding otherwise).
struct AxisInfo {
  AxisInfo() = default;
  AxisInfo(std::string n, uint64_t s, std::string base = "", std::string by = "")
      : name(std::move(n)), size(s), skewBase(std::move(base)), skewBy(std::move(by)) {}

  std::string name;
  uint64_t size = 0;
  std::string skewBase;  // "B" for B' = B - A
  std::string skewBy;    // "A"
  std::string padBase;   // "B" for B' = # 2 + B + # 4
  uint64_t padLeft = 0, padRight = 0, padBaseSize = 0;  // 2, 4, |B|

  // The declared axis whose coordinates this one's indices carry (B for B', else the axis itself)
  // and its size.
  const std::string &baseName() const { return !skewBase.empty() ? skewBase : !padBase.empty() ? padBase : name; }
  uint64_t baseSize() const { return padBase.empty() ? size : padBaseSize; }
};

// The axes known to a program, in declaration order (the order indices print in).
class AxisTable {
 public:
  // Returns false if the name is already declared.
  bool add(AxisInfo info);
  const AxisInfo *find(std::string_view name) const;
  // Declaration position of an axis; axes unknown to the table sort last, by name.
  size_t order(std::string_view name) const;
  const std::vector<AxisInfo> &all() const { return axes_; }

 private:
  std::vector<AxisInfo> axes_;
  llvm::StringMap<size_t> byName_;  // name → position in axes_ (lookups stay O(1) with 100,000 axes)
};

// A tensor index: axis → coordinate, zero coordinates omitted (i![A: 0] == i![]).
class Index {
 public:
  void add(const std::string &axis, int64_t value);  // sums into the axis' coordinate
  void set(const std::string &axis, int64_t value);  // replaces the coordinate (0 erases it)
  void add(const Index &o);                          // sums every coordinate of o
  int64_t get(std::string_view axis) const;          // 0 when absent
  // Inline storage for a few axes: building an index in the hot loops (map, mapAll) allocates nothing.
  using Entries = llvm::SmallVector<std::pair<std::string, int64_t>, 4>;
  const Entries &entries() const { return entries_; }
  void sortBy(const AxisTable &axes);
  std::string str() const;  // "i![A: 1, B: 7]", "i![]"
  bool operator==(const Index &o) const;  // order-insensitive
  bool operator!=(const Index &o) const { return !(*this == o); }
  // The entries sorted by axis name: equal exactly for equal indices, whatever their order.
  using Key = std::vector<std::pair<std::string, int64_t>>;
  Key key() const;

 private:
  Entries entries_;  // no zero values
};

class Mapping;
using MappingRef = std::shared_ptr<const Mapping>;

// An immutable mapping expression tree. Semantics are exactly the manual's "Mapping Expressions":
// map(i) walks the tree (Pair: major = i / minor.size, minor = i % minor.size; Stride: e.map(i * n);
// Modulo/Pad: e.map(i); Resize: i < n ? e.map(i) : None; ...). A result whose coordinate lies
// outside its axis is None (it is not an element of the tensor).
class Mapping {
 public:
  enum Kind { Symbol, Identity, Pair, Pad, Resize, Stride, Modulo, Offset, Dummy, Concat, LinComb };

  // Checked constructors. On an invalid size they return nullptr and set *err to a lowercase
  // message that names the operand and both sizes, e.g.
  //   "stride 3 does not divide the size 8 of `A`".
  static MappingRef symbol(const AxisTable &axes, std::string_view name, std::string *err);
  static MappingRef symbol(const AxisInfo &info);  // a known declaration (normal form rebuilding)
  static MappingRef identity();
  static MappingRef pair(MappingRef major, MappingRef minor);                      // right-assoc
  // As above, reporting a size overflow ("size of `m![A, B, C]` overflows 64 bits"); the two
  // argument form returns nullptr on overflow without a message.
  static MappingRef pair(MappingRef major, MappingRef minor, std::string *err);
  static MappingRef pad(MappingRef e, uint64_t n, std::string *err);               // n >= size(e)
  static MappingRef resize(MappingRef e, uint64_t n, std::string *err);            // n <= size(e)
  static MappingRef stride(MappingRef e, uint64_t n, std::string *err);            // n | size(e)
  static MappingRef modulo(MappingRef e, uint64_t n, std::string *err);            // n | size(e)
  static MappingRef offset(MappingRef e, uint64_t n, std::string *err);            // n <= size(e)
  static MappingRef dummy(uint64_t n, bool zero);                                  // n# / nz / # n
  static MappingRef concat(std::vector<MappingRef> parts, std::string *err);       // e1 + e2 + ...
  static MappingRef lincomb(std::vector<std::pair<MappingRef, uint64_t>> terms, std::string *err);

  Kind kind() const { return kind_; }
  uint64_t size() const { return size_; }
  const std::string &axis() const { return axis_; }   // Symbol
  const AxisInfo &axisInfo() const { return info_; }  // Symbol
  uint64_t amount() const { return amount_; }         // Pad/Resize/Stride/Modulo/Offset/Dummy
  bool zero() const { return zero_; }                 // Dummy
  const std::vector<MappingRef> &children() const { return children_; }
  const std::vector<uint64_t> &strides() const { return strides_; }  // LinComb

  // The tensor index stored at buffer position i, or nullopt (padding, out of range).
  // For a linear combination $(e1:n1, ..., ed:nd), position i holds ∪_k ek.map(s_k) for every
  // decomposition i = Σ s_k·n_k (s_k < |ek|); the indices are summed, not scaled by n_k, as in the
  // manual's sliding example (4 → {N: 4}, {N: 2, F: 1}, {F: 2}). Decompositions are enumerated with
  // the first term's share largest first (then the second's, ...): map returns the first valid
  // index in that order, mapAll all of them (deduplicated).
  std::optional<Index> map(uint64_t i) const;
  std::vector<Index> mapAll(uint64_t i) const;

  // The partial index before the final step: coordinates summed per axis, but not yet checked
  // against the axis sizes nor skew-resolved (B' → B). For a linear combination, the first
  // decomposition. nullopt = padding/out of range. Used to embed a subtree (normal form, factors).
  std::optional<Index> mapPartial(uint64_t i) const;
  // Every axis a Symbol of this tree refers to (deduplicated, first occurrence first).
  const std::vector<AxisInfo> &axes() const;
  bool multiValued() const { return multi_; }  // contains a LinComb

  // m![...] notation, e.g. "m![A / 8 # 256]".
  std::string str() const;
  std::string body() const;  // without "m![" "]"

 private:
  friend struct MappingAccess;
  Kind kind_ = Identity;
  uint64_t size_ = 1;
  std::string axis_;
  uint64_t amount_ = 0;
  bool zero_ = false;
  std::vector<MappingRef> children_;
  std::vector<uint64_t> strides_;
  AxisInfo info_;  // Symbol: a copy of the axis declaration (size, skew) so mappings outlive tables
  std::shared_ptr<const std::vector<AxisInfo>> axes_;  // every Symbol's axis in the tree
  bool multi_ = false;                                 // a LinComb below: map() may be ambiguous
};

// The final step of map(): rejects coordinates outside [0, size) of their axis and resolves skewed
// axes (B' = B - A: B = (B' + A) mod |B| replaces B') and padded axes (B' = # l + B + # r: B = B' - l
// when in [0, |B|), else the position is padding: nullopt). `axes` must cover every axis in `raw`.
std::optional<Index> finishIndex(Index raw, const std::vector<AxisInfo> &axes);

// The active positions of a mapping: the size of the child of a top-level padding, e.g.
// `m![1 # 256]` -> 1, `m![A / 8 # 256]` -> 256 for A = 2048; the size otherwise (1 for none).
uint64_t activeSize(const MappingRef &m);

// The inverse of a mapping on its elements: the first position holding each index it produces.
class IndexPositions {
 public:
  explicit IndexPositions(const Mapping &m);
  // As above; a mapping with integer digits (MappingEval) is keyed by integers, not Index::Key.
  explicit IndexPositions(const MappingRef &m);
  std::optional<uint64_t> find(const Index &index) const;
  // The positions that hold an element.
  uint64_t held() const { return held_; }
  // Integer lookup for hot loops: per axis of `names`, (bound, weight) so that an index with
  // coordinates v (0 <= v < bound, 0 for an axis it lacks) is found by findKey(Σ v * weight); a
  // coordinate past its bound is never held. nullopt when positions are keyed by Index::Key.
  std::optional<std::vector<std::pair<uint64_t, uint64_t>>> keyWeights(const std::vector<std::string> &names) const;
  std::optional<uint64_t> findKey(uint64_t key) const;
  // False when positions are computed (row-major pairs of whole axes) rather than tabulated.
  static bool needsTable(const Mapping &m);

 private:
  void tabulate(const Mapping &m);
  bool tabulateNumeric(const MappingRef &m);
  // A pair of distinct whole axes (`m![A, B, C]`) is row-major: positions are computed, no table.
  std::vector<std::pair<std::string, uint64_t>> rowMajor_;  // axis, size; major first
  bool dense_ = false;
  std::map<Index::Key, uint64_t> positions_;
  // Integer keys: Σ coordinate * scale over keyAxes_ (axis, size, scale); positions by key in a
  // direct table (-1: none) when the key range is small, else sorted (key, first position) pairs.
  bool numeric_ = false;
  std::vector<std::tuple<std::string, uint64_t, uint64_t>> keyAxes_;
  std::vector<int32_t> direct_;
  std::vector<std::pair<uint64_t, uint64_t>> sorted_;
  uint64_t held_ = 0;
};

}  // namespace tcp

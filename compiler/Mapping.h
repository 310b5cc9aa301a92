// Mapping.h — the mapping algebra of m![...]: construction with size checks, size, map(), printing.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace tcp {

// One declared axis: `A = 8`, or a skewed axis `B' = B - A` (size of B, coordinate B - A mod |B|).
struct AxisInfo {
  std::string name;
  uint64_t size = 0;
  std::string skewBase;  // "B" for B' = B - A
  std::string skewBy;    // "A"
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
};

// A tensor index: axis → coordinate, zero coordinates omitted (i![A: 0] == i![]).
class Index {
 public:
  void add(const std::string &axis, int64_t value);  // sums into the axis' coordinate
  int64_t get(std::string_view axis) const;          // 0 when absent
  const std::vector<std::pair<std::string, int64_t>> &entries() const { return entries_; }
  void sortBy(const AxisTable &axes);
  std::string str() const;  // "i![A: 1, B: 7]", "i![]"
  bool operator==(const Index &o) const;
  bool operator!=(const Index &o) const { return !(*this == o); }

 private:
  std::vector<std::pair<std::string, int64_t>> entries_;  // no zero values
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
  static MappingRef identity();
  static MappingRef pair(MappingRef major, MappingRef minor);                      // right-assoc
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
  // For a linear combination, several indices may share a position: map returns the first in
  // enumeration order; mapAll returns all of them.
  std::optional<Index> map(uint64_t i) const;
  std::vector<Index> mapAll(uint64_t i) const;

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
};

}  // namespace tcp

// MappingFactor.h — mappings factorized into per-axis terms with buffer strides, and stream terms
// located in a buffer's factorization (the basis of sequencer configurations).
#pragma once

#include "Mapping.h"

#include <optional>
#include <string>
#include <vector>

namespace tcp {

// One factor of a mapping, major → minor. A buffer position splits into one digit per term (mixed
// radix); the term's digit d ∈ [0, count) contributes
//   Axis     base + d * axisStride to `axis` (d >= limit: not an element)
//   Padding  nothing; only d = 0 is an element (`1 # n`)
//   Opaque   sub->mapPartial(d), a part that does not decompose (`[A, B] / 3`, `# 2 + B`, `$(..)`)
// bufStride is the number of buffer positions one digit step moves: the volume of every term minor
// to this one. Terms of one axis are disjoint ranges of its coordinate: `B / 64` (axisStride 64,
// count 8) and `B % 64` (axisStride 1, count 64).
struct FactorTerm {
  enum Kind { Axis, Padding, Opaque };
  Kind kind = Axis;
  AxisInfo axis;             // Axis
  uint64_t axisStride = 1;   // Axis
  uint64_t count = 1;        // the loop size of a sequencer entry
  uint64_t limit = 1;        // digits >= limit are not elements (== count when nothing is cut)
  uint64_t base = 0;         // Axis: constant coordinate (carried by the first term of its axis)
  uint64_t bufStride = 1;
  MappingRef sub;            // Opaque

  // Digits that can hold elements: below limit and before the coordinate leaves the axis.
  uint64_t valid() const;
  std::string str() const;  // canonical spelling of the term alone: "B / 32 % 2", "D # 64", "1 # 2"
};

struct Factorization {
  uint64_t size = 1;
  bool none = false;  // no position holds an element: no terms
  std::vector<FactorTerm> terms;
  std::vector<AxisInfo> axes;  // for the final bound check / skew resolution
  std::optional<Index> map(uint64_t i) const;  // == the mapping's map(i) (first index of a LinComb)
};

// Factorizes the normal form of m: adjacent contiguous terms of one axis are merged (`C / 2, C % 2`
// is one term `C`), size-1 factors dropped except axes that only carry a constant (`A @ 3 = 1`).
Factorization factorization(const MappingRef &m);
std::vector<FactorTerm> factorize(const MappingRef &m);

// How one term (of Time or Packet) is laid out inside a buffer's factorization. A term whose
// coordinate range crosses several buffer terms of its axis splits into several pieces, e.g. `A`
// over a buffer `m![A / 4, B, A % 4]` gives pieces (4 : stride of A / 4), (4 : stride of A % 4).
struct Piece {
  uint64_t count = 1;
  uint64_t bufStride = 0;  // buffer positions per digit of this piece (0 = broadcast)
  size_t bufTerm = 0;      // index of the buffer term holding it (unused for broadcasts)
};
struct Placement {
  enum Status {
    Located,       // pieces (major → minor), whose counts multiply to the term's count
    Broadcast,     // the axis is absent from the buffer (or the term is padding): one piece, stride 0
    Insufficient,  // the term needs coordinates the buffer does not hold ("insufficient input")
    Incompatible,  // the buffer's terms of the axis cut the term's range elsewhere ("incompatible shapes")
    Unsupported,   // an opaque term or a buffer term that does not decompose
  };
  Status status = Located;
  std::vector<Piece> pieces;
  std::string message;  // for the failures: names the axis and the terms involved
};
Placement locate(const FactorTerm &term, const std::vector<FactorTerm> &buf);

// Compares a term t with one buffer term u of the same axis, in units of coordinate strides: t's
// needed range [t.axisStride, t.axisStride * t.valid()) against u's [u.axisStride, u.axisStride *
// u.count). inner: t's digits below u, common: t's digits inside u (stepping `step` digits of u),
// outer: what remains above u. aligned: the boundaries fall on digit boundaries of both terms.
struct AxisOverlap {
  bool disjoint = true;
  bool aligned = false;
  uint64_t inner = 1, common = 1, outer = 1;
  uint64_t step = 1;  // digits of u per digit of the common part
};
AxisOverlap overlap(const FactorTerm &t, const FactorTerm &u);

// Two terms of one axis in `terms` that hold the same digit of it (`A / 8 % 64` and `A / 256` both
// hold bit 8 of A): "`A / 8 % 64` and `A / 256` both hold digits of axis `A`"; nullopt when none do.
// A sequencer loop steps a digit by one stride, so such a mapping cannot be sequenced.
std::optional<std::string> sharedDigit(const std::vector<FactorTerm> &terms);

// The buffer offset of a constant coordinate of `axis` (a stream-side base such as `A @ 3`),
// relative to the buffer's own base of that axis; nullopt if the buffer cannot address it.
std::optional<uint64_t> bufferOffset(const std::string &axis, uint64_t coordinate, const std::vector<FactorTerm> &buf);

}  // namespace tcp

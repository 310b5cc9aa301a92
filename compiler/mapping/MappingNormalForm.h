// MappingNormalForm.h — the canonical normal form of mappings, normalize() and equivalent().
#pragma once

#include "Mapping.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace tcp {

// One dimension of a normal form. A buffer position is split into one digit per dimension (mixed
// radix, major first); digit d ∈ [0, count) of a dimension means:
//   Term     adds d * stride to the coordinate of `axis`; d >= limit is not an element (resize,
//            padding). limit < count only when the bound is not already implied by the axis size.
//   Padding  an axis-less dimension such as `1 # 4`: only d = 0 is an element (limit is 1).
//   Opaque   `sub` (a canonical tree of size count) that does not decompose into terms, e.g.
//            `[A, B] / 3` with |B| = 2, a concatenation `# 2 + B`, or a linear combination.
struct NfDim {
  enum Kind { Term, Padding, Opaque };
  Kind kind = Term;
  AxisInfo axis;  // Term
  uint64_t stride = 1;
  uint64_t count = 1;
  uint64_t limit = 1;
  MappingRef sub;  // Opaque

  bool operator==(const NfDim &o) const;
  bool operator!=(const NfDim &o) const { return !(*this == o); }
};

// A mapping as a list of dimensions (major → minor) plus constant per-axis coordinates. Canonical:
// no size-1 dimensions, adjacent contiguous terms of one axis merged (`B / 64, B % 64` → `B`),
// limits only where they cut something, a padding dimension merged into the term after it
// (`1 # 2, A` → `A # 2|A|`), and a mapping without any element collapsed to a dummy.
struct NormalForm {
  uint64_t size = 1;
  bool none = false;  // no position holds an element (a dummy, `A = 0`, ...): dims are empty
  bool zero = false;  // none because of zero-filled dummies (`nz`), kept for printing only
  std::vector<NfDim> dims;
  std::vector<std::pair<AxisInfo, uint64_t>> bases;  // constant coordinate per axis (by name, non-zero)
  std::vector<AxisInfo> skews;  // skewed axes the mapping names (they resolve even at coordinate 0)
  std::vector<AxisInfo> axes;   // every axis the mapping names (the final bound check)

  // No opaque dimension and no skewed axis: then two normal forms are equal iff the mappings are
  // equivalent (the property tests check this claim exhaustively on random mappings).
  bool pure() const;
  uint64_t base(std::string_view axis) const;
  std::optional<Index> map(uint64_t i) const;  // evaluates the dims directly; == the mapping's map
  bool operator==(const NormalForm &o) const;  // same canonical structure (ignores `zero`)
  std::string dump() const;                    // debugging: "[A/1*8, pad 2, ...] + {A: 1}"
};

NormalForm normalForm(const MappingRef &m);
// The canonical tree of a normal form, e.g. `m![B]` for `m![B / 64, B % 64]`.
MappingRef toMapping(const NormalForm &nf);
// An equivalent canonical tree: its str() is the canonical spelling. Idempotent.
MappingRef normalize(const MappingRef &m);

// Equivalence: same size and same map(i) for every i. Decided symbolically when both normal forms
// are pure; otherwise equal normal forms prove it, and failing that the positions are compared
// exhaustively when size <= exhaustiveLimit, else the answer is Unknown.
enum class Equivalence { Equivalent, NotEquivalent, Unknown };
Equivalence decideEquivalence(const MappingRef &a, const MappingRef &b, uint64_t exhaustiveLimit = uint64_t(1) << 20);
// decideEquivalence(...) == Equivalent (Unknown counts as not equivalent).
bool equivalent(const MappingRef &a, const MappingRef &b);

}  // namespace tcp

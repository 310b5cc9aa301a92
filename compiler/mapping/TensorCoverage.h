// TensorCoverage.h — which coordinates of each axis a list of mappings holds, and whether an op
// preserves the mathematical tensor ("Tensor Functions": every op is a function on the tensor).
#pragma once

#include "Mapping.h"

#include <llvm/ADT/BitVector.h>

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace tcp {

// Per axis, the set of coordinates the combined mapping `m![{d0}, {d1}, ...]` holds.
struct Coverage {
  bool known = true;  // false when an opaque part was too large to enumerate
  std::map<std::string, llvm::BitVector> axes;  // axis → held coordinates (size = axis size)
  uint64_t count(const std::string &axis) const;
};

// Exact: a mapping that does not factor is enumerated position by position, each group of dims
// that shares no axis with the others on its own (their sizes add instead of multiplying).
Coverage coverageOf(const std::vector<MappingRef> &dims);

// Checks that `dst` holds every coordinate of every axis `src` holds (axes only in `dst` are
// broadcasts). Returns a lowercase problem naming the axis, or nullopt when the tensor is kept.
// `ignore` lists axes removed on purpose (reduced by a contraction).
std::optional<std::string> tensorPreserved(const std::vector<MappingRef> &src, const std::vector<MappingRef> &dst,
                                           const std::vector<std::string> &ignore = {});

// The size of the combined mapping, saturating at UINT64_MAX.
uint64_t combinedSize(const std::vector<MappingRef> &dims);

// `m![{a}, {b}, ...]` (identity for an empty list); nullptr if a size overflows.
MappingRef pairAll(const std::vector<MappingRef> &dims);

}  // namespace tcp

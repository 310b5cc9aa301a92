// HostPlacement.h — whether every element of a host layout has a place in an HBM tensor (to_hbm, to_host, launch re-placement).
#pragma once

#include "Mapping.h"

#include <optional>
#include <vector>

namespace tcp {

// The result of comparing the elements of a host mapping with the elements of an HBM tensor laid
// out as (chip, element), as the CPU model does (tensor indices compared per base axis; an axis a
// mapping does not name has coordinate 0).
struct HostPlacement {
  bool decided = false;         // false: the tensors are too large to compare here (tcpi compares them when it runs)
  std::optional<Index> missing; // the first host element the HBM tensor does not hold
};

// Compares when chip, element and host together have at most `limit` positions.
HostPlacement placeHost(const MappingRef &host, const MappingRef &chip, const MappingRef &element,
                    uint64_t limit = uint64_t(1) << 21);

// The names of the axes a mapping's elements are indexed by (skewed and padded axes by their base).
std::vector<std::string> baseAxisNames(const MappingRef &m);

}  // namespace tcp

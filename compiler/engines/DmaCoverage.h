// DmaCoverage.h — does a DMA stream visit every element of its source tensor ("a single logical tensor move").
#pragma once

#include "Mapping.h"

#include <cstdint>

namespace tcp {

struct StreamCoverage {
  uint64_t held = 0;     // distinct elements of the source
  uint64_t missing = 0;  // of those, the ones the stream never visits
};

// Compares the distinct indices `stream` produces with those of `source`: per axis when both are
// products of per-axis coordinate sets (MappingEval::product: |held| = Π|H_a|, visited ones Π|H_a ∩ V_a|),
// else both enumerated in full.
StreamCoverage streamCoverage(const MappingRef &stream, const MappingRef &source);
// The same by enumerating every position of both (the reference of the per-axis count).
StreamCoverage streamCoverageEnumerated(const MappingRef &stream, const MappingRef &source);

}  // namespace tcp

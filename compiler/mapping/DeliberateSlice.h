// DeliberateSlice.h — what a mapping holds before its deliberate slices (`e = n`), for the preservation rule.
#pragma once

#include "Mapping.h"

namespace tcp {

// Whether the mapping slices on purpose: it contains a resize `e = n` that drops coordinates of `e`.
bool hasDeliberateSlice(const MappingRef &m);

// The mapping with every resize `e = n` replaced by `e` (a padding that no longer fits grows to the
// operand's size): the coordinates the mapping would hold without its deliberate slices. The manual
// slices on purpose with a resize on the result of a fetch ("Slicing Axes": `A % 4 = 3`) or of a
// commit ("Truncating": `W = 4`); the preservation rule checks the source against this mapping, so
// coordinates dropped by a resize are allowed and any other loss is still reported. nullptr when the
// rebuilt mapping is not valid (e.g. a stride that no longer divides).
MappingRef withoutDeliberateSlices(const MappingRef &m);

// withoutDeliberateSlices, or m itself when the rebuilt mapping is not valid.
inline MappingRef unsliced(const MappingRef &m) {
  MappingRef u = withoutDeliberateSlices(m);
  return u ? u : m;
}

}  // namespace tcp

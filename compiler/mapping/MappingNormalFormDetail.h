// MappingNormalFormDetail.h — internals shared by the normal-form sources (not a public API).
#pragma once

#include "MappingNormalForm.h"

namespace tcp::nf {

inline uint64_t ceilDiv(uint64_t a, uint64_t b) { return a / b + (a % b != 0); }

// Adds a constant coordinate to an axis (the bases list stays sorted by name, without zeros).
void addBase(NormalForm &nf, const AxisInfo &axis, uint64_t value);
// Adds every coordinate of a partial index (coordinates are never negative here).
void addBases(NormalForm &nf, const Index &partial, const std::vector<AxisInfo> &axes);
// Restores the canonical invariants after an operation (see NormalForm).
void canonicalize(NormalForm &nf);
// Marks the normal form as having no element, keeping its size.
void makeNone(NormalForm &nf, bool zero = false);
// A normal form made of one opaque dimension `sub` (canonicalized: a size-1 sub becomes bases).
NormalForm leaf(const MappingRef &sub);

// The operations of the algebra on normal forms; the preconditions of the Mapping constructors
// hold (n divides / bounds the size).
NormalForm strideNF(NormalForm nf, uint64_t n);
NormalForm resizeNF(NormalForm nf, uint64_t n);  // also modulo: `E % n` == `E = n` when n | |E|
NormalForm padNF(NormalForm nf, uint64_t n);
NormalForm offsetNF(NormalForm nf, uint64_t n);
NormalForm pairNF(NormalForm major, const NormalForm &minor);
NormalForm concatNF(const std::vector<MappingRef> &parts);
NormalForm lincombNF(const Mapping &m);
// The tree built from the normal form of `m` (no top-level fields such as axes/skews).
NormalForm build(const Mapping &m);

// Axes that toMapping spells as constant dimensions before the others (`A @ 3 = 1`, `B' = 1`):
// axes with a base but no term, and skewed axes that nothing else names. Sorted by name.
std::vector<std::pair<AxisInfo, uint64_t>> constantAxes(const NormalForm &nf);
// The canonical tree of one term dimension whose axis carries `base`.
MappingRef termTree(const NfDim &d, uint64_t base);

}  // namespace tcp::nf

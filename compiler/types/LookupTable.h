// LookupTable.h — the `LookupTable<In, Out>` type of "Table Indexing": its spelling, index types and entry count.
#pragma once

#include "Ast.h"
#include "Numerics.h"

#include <optional>
#include <string>

namespace tcp {

// A lookup table of the Fetch Adapter ("Table Indexing"): every fetched `In` value indexes the
// table and the entry, an `Out` value, replaces it. tcp's definition of the table's size: one entry
// per value of `In` (its bit patterns), so 16 entries for i4 and 256 for i8 / f8e4m3 / f8e5m2;
// entry k belongs to the input whose bit pattern is k (i8: entries 0..127 are 0..127, 128..255 are
// -128..-1). Index types are the storage types of at most 8 bits; the manual names no capacity.
struct LookupTableType {
  num::DType in = num::DType::i8;
  num::DType out = num::DType::i8;
  std::string str() const;  // "LookupTable<i8, bf16>"
};

// Whether `d` may index a table (i4, i8, f8e4m3, f8e5m2).
bool tableIndexType(num::DType d);
// The number of entries of a table indexed by `in`: 2^storageBits(in).
uint64_t tableEntries(num::DType in);
// The index of a lane value (bits right-aligned, integers sign-extended) of type `in`.
inline uint32_t tableIndex(num::DType in, uint32_t bits) { return bits & uint32_t(tableEntries(in) - 1); }

// The table type an AST type denotes (`LookupTable<In, Out>`, `&LookupTable<...>`); nullopt when it
// does not name `LookupTable`. A malformed one sets *error (and returns nullopt).
std::optional<LookupTableType> lookupTableTypeOf(const ast::Type &t, std::string *error);
// The same for the generic arguments of a path segment (`LookupTable::<i8, i8>`); nullopt with
// *error empty when the segment has no generic arguments.
std::optional<LookupTableType> lookupTableTypeOfGenerics(const ast::PathSegment &seg, std::string *error);

}  // namespace tcp

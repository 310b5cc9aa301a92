// LowerFetchAdapter.h — the Fetch Adapter's configuration of a fetch: interleaving, masking, table, zero points.
#pragma once

#include "Diagnostics.h"
#include "Lowering.h"

namespace tcp {

// Fills the adapter's stages of the fetch `e`: the interleaving of `begin_interleaved` (the
// alternation axis becomes an entry that steps from lhs to rhs), the masking registers, table
// indexing and the zero points. `begin` is the chain's begin (nullptr in a stage function).
void lowerFetchAdapter(FetchConfig &e, const TypedOp &fetch, const TypedOp *begin, const TypedFunction &f,
                       Diagnostics &diags);

}  // namespace tcp

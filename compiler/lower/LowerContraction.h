// LowerContraction.h — configurations of the Contraction Engine: TRF loads, the Aligner (Stream Adapter, TRF Sequencer) and the Reducer.
#pragma once

#include "Lowering.h"

namespace tcp {

// The SRAM-to-TRF load of a `to_trf` op: region, rows, the element type (reg_types) and elements per Row.
TrfLoadConfig lowerTrfLoad(const TypedOp &toTrf);
// The aligner of an `align` op: stream adapter (collect_flits, shift, rows, tiling axes) and the TRF
// sequencer (entries in bytes, reg_read_size) in the manual's terms.
AlignerConfig lowerAligner(const TypedOp &align);
// The reducer of a `contract` op and its `accumulate` (nullptr when the chain has none).
ReducerConfig lowerReducer(const TypedOp &contract, const TypedOp *accumulate);

}  // namespace tcp

// LowerContraction.h — configurations of the Contraction Engine: Aligner (Stream Adapter, TRF Sequencer) and Reducer.
#pragma once

#include "Lowering.h"

namespace tcp {

// The SRAM-to-TRF load of a `to_trf` op: region, rows, bytes and the TRF layout (reg_types, bank rows).
EngineConfig lowerTrfLoad(const TypedOp &toTrf);
// The aligner of an `align` op: stream adapter (collect_flits, rows, tiling axes) and the TRF
// sequencer (entries in bytes, reg_read_size, packet broadcast) in the manual's terms.
EngineConfig lowerAligner(const TypedOp &align);
// The reducer of a `contract` op and its `accumulate` (nullptr when the chain has none).
EngineConfig lowerReducer(const TypedOp &contract, const TypedOp *accumulate);

}  // namespace tcp

// CycleTrace.h — the schedule as Chrome trace-event JSON (--emit=trace), for Perfetto and chrome://tracing.
#pragma once

#include "CycleModel.h"
#include "Scheduler.h"

#include <llvm/Support/raw_ostream.h>

#include <string>

namespace tcp {

// Writes {"traceEvents": [...], "otherData": {...}}: one process per
// kernel or stage function (launched one after another, so each starts where the previous one's
// makespan ends), in it one track per context (main, sub, DMA), one per DMA Engine and one per
// engine of a Tensor Unit operation on each context; complete events ("X") named by op and source
// line with the bytes moved and the engines' cycles as arguments; counters ("C") of the per-slice
// DM/TRF/VRF footprint at each operation. One cycle is one microsecond of the trace's clock (`ts`,
// `dur`); `source` names the file in the metadata.
void printTrace(const ProgramCost &p, const ProgramSchedule &s, const std::string &source, llvm::raw_ostream &os);

}  // namespace tcp

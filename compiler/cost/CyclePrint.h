// CyclePrint.h — prints the cycle estimates of a program as a table or as JSON.
#pragma once

#include "CycleModel.h"
#include "Scheduler.h"

#include <llvm/Support/raw_ostream.h>

namespace tcp {

// The per-operation table (kernel, op, line, context, start, end, cycles, engines), the total, the
// bytes per tier and the peak footprints; `json` selects the --format=json form.
void printCycles(const ProgramCost &p, const ProgramSchedule &s, llvm::raw_ostream &os, bool json);

}  // namespace tcp

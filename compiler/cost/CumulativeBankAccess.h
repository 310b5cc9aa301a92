// CumulativeBankAccess.h — the cumulative bank-access rule of "Bank Starvation": main + sub + DMA runs to one DM bank stay below 64.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace tcp {

struct FunctionCost;
struct FunctionSchedule;
struct ProgramCost;
struct ProgramSchedule;
class Diagnostics;

// A main-context and a sub-context Tensor Unit op that run at the same time as a DMA op and whose
// longest same-bank runs hit the same DM bank with main + sub + 1 (the DMA's request) >= 64
// ("Cumulative Bank Access Constraint": "the TOTAL across all concurrent main/sub/DMA commands to
// the SAME bank must be less than 64").
struct CumulativeBankConflict {
  size_t main = 0, sub = 0, dma = 0;  // op indices in the function
  uint64_t mainRun = 0, subRun = 0;
  unsigned bank = 0;
  uint64_t total() const { return mainRun + subRun + 1; }
};
std::vector<CumulativeBankConflict> cumulativeBankConflicts(const FunctionCost &f, const FunctionSchedule &s);

// A warning at the main-context op of every conflict, naming both ops, their runs and the bank.
void reportCumulativeBankAccess(const ProgramCost &costs, const ProgramSchedule &schedule, Diagnostics &diags);

}  // namespace tcp

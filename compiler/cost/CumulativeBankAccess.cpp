// CumulativeBankAccess.cpp — finds main/sub Tensor Unit ops that, beside a DMA, together run 64+ accesses into one DM bank.
#include "CumulativeBankAccess.h"

#include "BankStarvation.h"
#include "CycleModel.h"
#include "Diagnostics.h"
#include "Scheduler.h"

#include <algorithm>
#include <string>

namespace tcp {

std::vector<CumulativeBankConflict> cumulativeBankConflicts(const FunctionCost &f, const FunctionSchedule &s) {
  std::vector<CumulativeBankConflict> out;
  size_t n = std::min(f.ops.size(), s.ops.size());
  for (size_t i = 0; i < n; ++i) {
    const OpCost &m = f.ops[i];
    if (m.resource != Resource::Main || m.sameBankRun == 0) continue;
    for (size_t j = 0; j < n; ++j) {
      const OpCost &u = f.ops[j];
      if (u.resource != Resource::Sub || u.sameBankRun == 0 || u.sameBankRunBank != m.sameBankRunBank) continue;
      if (m.sameBankRun + u.sameBankRun + 1 < kBankStarvationLimit) continue;
      // The three commands are concurrent: their intervals share a cycle.
      uint64_t lo = std::max(s.ops[i].start, s.ops[j].start), hi = std::min(s.ops[i].end, s.ops[j].end);
      if (lo >= hi) continue;
      for (size_t k = 0; k < n; ++k) {
        if (f.ops[k].resource != Resource::Dma) continue;
        if (std::max(lo, s.ops[k].start) >= std::min(hi, s.ops[k].end)) continue;
        out.push_back({i, j, k, m.sameBankRun, u.sameBankRun, m.sameBankRunBank});
        break;
      }
    }
  }
  return out;
}

void reportCumulativeBankAccess(const ProgramCost &costs, const ProgramSchedule &schedule, Diagnostics &diags) {
  for (size_t f = 0; f < costs.functions.size() && f < schedule.functions.size(); ++f) {
    const FunctionCost &fc = costs.functions[f];
    for (const CumulativeBankConflict &c : cumulativeBankConflicts(fc, schedule.functions[f])) {
      const OpCost &m = fc.ops[c.main], &u = fc.ops[c.sub], &d = fc.ops[c.dma];
      diags.warning(m.range, "the main-context " + m.name + " (line " + std::to_string(m.line) + ", " +
                                 m.sameBankRunEngine + " " + std::to_string(c.mainRun) + " accesses in a row) and the "
                                 "sub-context " + u.name + " (line " + std::to_string(u.line) + ", " +
                                 u.sameBankRunEngine + " " + std::to_string(c.subRun) + " in a row) both hit DM bank " +
                                 std::to_string(c.bank) + " while the " + d.name + " (line " + std::to_string(d.line) +
                                 ") runs: " + std::to_string(c.mainRun) + " + " + std::to_string(c.subRun) +
                                 " + 1 = " + std::to_string(c.total()) + " consecutive accesses, not below 64; the DMA "
                                 "can starve (\"Cumulative Bank Access Constraint\": the total across all concurrent "
                                 "main/sub/DMA commands to the same bank must be less than 64)");
    }
  }
}

}  // namespace tcp

// Scheduler.cpp — resource occupancy and RAW/WAR/WAW hazards over address ranges (manual "Scheduling").
#include "Scheduler.h"

#include "BankStarvation.h"

#include <algorithm>

namespace tcp {

namespace {
bool anyOverlap(const std::vector<MemRange> &a, const std::vector<MemRange> &b) {
  for (const MemRange &x : a)
    for (const MemRange &y : b)
      if (overlaps(x, y)) return true;
  return false;
}

FunctionSchedule scheduleOnce(const FunctionCost &f, bool starvation) {
  FunctionSchedule s;
  uint64_t free[3] = {0, 0, 0};  // per Resource: when its previous op ends
  uint64_t issued = 0;           // in-order issue: no op starts before an earlier op
  for (size_t i = 0; i < f.ops.size(); ++i) {
    const OpCost &op = f.ops[i];
    ScheduledOp so;
    uint64_t start = std::max(issued, free[static_cast<int>(op.resource)]);
    so.blocksDma = starvation && op.resource != Resource::Dma && op.sameBankRun >= kBankStarvationLimit;
    if (so.blocksDma) start = std::max(start, free[static_cast<int>(Resource::Dma)]);
    for (size_t j = 0; j < i; ++j) {
      const OpCost &e = f.ops[j];
      bool raw = anyOverlap(op.reads, e.writes);   // read what an earlier op writes
      bool war = anyOverlap(op.writes, e.reads);   // overwrite what an earlier op still reads
      bool waw = anyOverlap(op.writes, e.writes);  // writes to the same place stay in order
      if (raw || war || waw) {
        so.waitsFor.push_back(j);
        start = std::max(start, s.ops[j].end);
      }
    }
    so.start = start;
    issued = start;
    so.end = start + op.cycles;
    free[static_cast<int>(op.resource)] = so.end;
    if (so.blocksDma) free[static_cast<int>(Resource::Dma)] = std::max(free[static_cast<int>(Resource::Dma)], so.end);
    s.makespan = std::max(s.makespan, so.end);
    s.ops.push_back(std::move(so));
  }
  return s;
}
}  // namespace

FunctionSchedule schedule(const FunctionCost &f) {
  FunctionSchedule s = scheduleOnce(f, true);
  // Which starving ops would have overlapped a DMA op without the rule.
  FunctionSchedule free = scheduleOnce(f, false);
  for (size_t i = 0; i < f.ops.size(); ++i) {
    if (!s.ops[i].blocksDma) continue;
    for (size_t j = 0; j < f.ops.size(); ++j)
      if (f.ops[j].resource == Resource::Dma && free.ops[j].start < free.ops[i].end && free.ops[i].start < free.ops[j].end)
        s.ops[i].starvesDma = true;
  }
  return s;
}

ProgramSchedule schedule(const ProgramCost &p) {
  ProgramSchedule ps;
  for (const FunctionCost &f : p.functions) {
    ps.functions.push_back(schedule(f));
    ps.total += ps.functions.back().makespan;
  }
  return ps;
}

}  // namespace tcp

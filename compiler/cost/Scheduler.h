// Scheduler.h — places costed operations on the main, sub and DMA resources in program order.
#pragma once

#include "CycleModel.h"

#include <vector>

namespace tcp {

struct ScheduledOp {
  uint64_t start = 0, end = 0;
  // "Bank Starvation": a Tensor Unit op with 64+ consecutive same-bank accesses occupies the DMA too;
  // `starvesDma` when, without that, it would have run beside a DMA op.
  bool blocksDma = false, starvesDma = false;
  std::vector<size_t> waitsFor;  // earlier ops it has a RAW/WAR/WAW hazard with
};

struct FunctionSchedule {
  std::vector<ScheduledOp> ops;  // parallel to FunctionCost::ops
  uint64_t makespan = 0;
};

// "Scheduling": ops start in program order, each when its resource is free and after every earlier
// op it has a memory hazard with has ended, and never before an earlier op started (in-order issue).
// A Tensor Unit op whose sameBankRun reaches kBankStarvationLimit also occupies the DMA resource
// ("the compiler schedules them as if they occupy DMA").
FunctionSchedule schedule(const FunctionCost &f);

struct ProgramSchedule {
  std::vector<FunctionSchedule> functions;  // parallel to ProgramCost::functions
  uint64_t total = 0;                       // sum of the functions' makespans (launched one by one)
};
ProgramSchedule schedule(const ProgramCost &p);

}  // namespace tcp

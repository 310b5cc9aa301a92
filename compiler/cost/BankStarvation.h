// BankStarvation.h — the 64-consecutive-same-bank rule of "Memory Performance" > Bank Starvation for fetch/commit sequencers.
#pragma once

#include "Lowering.h"

#include <cstdint>
#include <string>

namespace tcp {

constexpr uint64_t kBankStarvationLimit = 64;  // "(256 / 128) x 64 x 32 < 4096": fewer than 64 in a row

// The longest run of consecutive accesses that all touch one DM bank (bits 3-6 of the slice
// address: 16 banks of 8 bytes) while a sequencer walks `c` from `address` (bytes), each packet read
// or written in accesses of `accessBytes`. Walks at most `maxAccesses` accesses.
struct BankRun {
  uint64_t length = 0;
  unsigned bank = 0;
};
BankRun longestSameBankRun(const SeqConfig &c, uint64_t address, unsigned elemBits, uint64_t accessBytes,
                           uint64_t maxAccesses = uint64_t(1) << 18);

// The longest run among a Tensor Unit operation's fetch and commit sequencers; `engine` names it.
BankRun operationBankRun(const TuConfig &tu, std::string *engine);

struct ProgramCost;
struct ProgramSchedule;
class Diagnostics;
// A warning at every op the scheduler had to keep apart from a DMA op (ScheduledOp::starvesDma):
// "Fetch and Commit Engines must not access the same bank for more than 64 consecutive operations
// while DMA is active". Also reports the cumulative main + sub rule (CumulativeBankAccess.h).
void reportBankStarvation(const ProgramCost &costs, const ProgramSchedule &schedule, Diagnostics &diags);

}  // namespace tcp

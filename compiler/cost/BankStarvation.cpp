// BankStarvation.cpp — walks fetch/commit sequencer addresses and measures consecutive accesses to one DM bank.
#include "BankStarvation.h"

#include "CumulativeBankAccess.h"
#include "CycleModel.h"
#include "Diagnostics.h"
#include "Scheduler.h"

#include <algorithm>

namespace tcp {

BankRun longestSameBankRun(const SeqConfig &c, uint64_t address, unsigned elemBits, uint64_t accessBytes,
                           uint64_t maxAccesses) {
  BankRun best;
  if (c.entries.empty() || accessBytes == 0) return best;
  uint64_t run[16] = {};
  uint64_t packetBytes = std::max<uint64_t>(c.packetSize * elemBits / 8, 1);
  uint64_t chunk = std::max<uint64_t>(c.packetSize, 1);
  const SeqEntry &in = c.entries.back();
  uint64_t innerSteps = std::max<uint64_t>(in.size / chunk, 1);
  size_t outer = c.entries.size() - 1;
  std::vector<uint64_t> idx(outer, 0);
  uint64_t accesses = 0;
  auto access = [&](uint64_t a, uint64_t bytes) {
    bool touched[16] = {};
    for (uint64_t w = a / 8; w <= (a + bytes - 1) / 8; ++w) touched[w % 16] = true;
    for (unsigned b = 0; b < 16; ++b) {
      run[b] = touched[b] ? run[b] + 1 : 0;
      if (run[b] > best.length) best = {run[b], b};
    }
    ++accesses;
  };
  while (accesses < maxAccesses) {
    int64_t off = c.baseOffset;
    for (size_t k = 0; k < outer; ++k) off += int64_t(idx[k]) * c.entries[k].stride;
    for (uint64_t j = 0; j < innerSteps && accesses < maxAccesses; ++j) {
      int64_t e = off + int64_t(j * chunk) * in.stride;
      uint64_t a = uint64_t(std::max<int64_t>(int64_t(address) + e * int64_t(elemBits) / 8, 0));
      for (uint64_t k = 0; k < packetBytes; k += accessBytes) access(a + k, std::min(accessBytes, packetBytes - k));
    }
    size_t k = outer;
    while (k > 0 && ++idx[k - 1] == c.entries[k - 1].size) idx[--k] = 0;
    if (k == 0) break;
  }
  return best;
}

BankRun operationBankRun(const TuConfig &tu, std::string *engine) {
  BankRun best;
  auto consider = [&](const SeqConfig &seq, uint64_t address, num::DType dtype, uint64_t access, const char *name) {
    BankRun r = longestSameBankRun(seq, address, num::storageBits(dtype), access);
    if (r.length > best.length) {
      best = r;
      if (engine) *engine = name;
    }
  };
  for (const EngineConfig &e : tu.engines) {
    if (const auto *f = std::get_if<FetchConfig>(&e)) consider(f->sequencer, f->dmAddress.value_or(0), f->inType, f->fetchSize, "fetch");
    if (const auto *c = std::get_if<CommitConfig>(&e)) consider(c->sequencer, c->dmAddress, c->dtype, c->commitSize, "commit");
  }
  return best;
}

void reportBankStarvation(const ProgramCost &costs, const ProgramSchedule &schedule, Diagnostics &diags) {
  reportCumulativeBankAccess(costs, schedule, diags);  // main + sub + DMA runs to one bank
  for (size_t f = 0; f < costs.functions.size() && f < schedule.functions.size(); ++f)
    for (size_t i = 0; i < costs.functions[f].ops.size(); ++i) {
      const OpCost &op = costs.functions[f].ops[i];
      if (!schedule.functions[f].ops[i].starvesDma) continue;
      diags.warning(op.range, "the " + op.sameBankRunEngine + " sequencer accesses DM bank " +
                                  std::to_string(op.sameBankRunBank) + " " + std::to_string(op.sameBankRun) +
                                  " times in a row, and a DMA could run beside it: the DMA's requests to that bank "
                                  "would starve (\"Bank Starvation\": fewer than 64 consecutive same-bank accesses "
                                  "while DMA is active); it is scheduled as if it occupied the DMA");
    }
}

}  // namespace tcp

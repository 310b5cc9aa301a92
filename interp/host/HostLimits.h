// HostLimits.h — tcpi's budgets for host code: evaluation steps and host memory (--max-steps, --max-memory).
#pragma once

#include <cstdint>
#include <string>

namespace tcp::interp {

// Process-wide: tcpi sets them from its command line; every evaluation and allocation checks them.
struct HostLimits {
  uint64_t maxSteps;   // expressions evaluated by one run (a file's main or test, one REPL input)
  uint64_t maxMemory;  // bytes the process may hold (resident) after a host allocation
  static HostLimits &get();
};

constexpr uint64_t kDefaultMaxSteps = 200'000'000;
// Half the machine's physical memory, at most 16 GiB.
uint64_t defaultMaxMemory();
// Bytes the process holds now (resident set), 0 if unknown.
uint64_t residentBytes();
// Throws HostError when allocating `bytes` for `what` would take the process beyond maxMemory.
void chargeMemory(uint64_t bytes, const std::string &what);
// "1.5 GiB", "512 MiB": a byte count for messages.
std::string byteText(uint64_t bytes);
// Parses a --max-memory value: bytes with an optional K, M, G or T suffix (powers of 1024).
bool parseByteCount(const std::string &text, uint64_t &bytes);

}  // namespace tcp::interp

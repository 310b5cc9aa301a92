// FuzzHostLimits.h — the step and memory budgets the host-code fuzz targets give every input.
#pragma once

#include "HostLimits.h"

#include <cstdint>

namespace tcp::fuzz {

// --max-steps 20000, and --max-memory 64 MiB above what the fuzzing process holds when the input
// starts: the process's resident set (ASan's quarantine and shadow, libFuzzer's corpus) soon
// exceeds any fixed limit, and every host allocation would then be refused.
inline void setHostLimits() {
  constexpr uint64_t kSteps = 20000, kHeadroom = uint64_t(64) << 20;
  tcp::interp::HostLimits::get() = {kSteps, tcp::interp::residentBytes() + kHeadroom};
}

}  // namespace tcp::fuzz

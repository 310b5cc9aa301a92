// PhaseTimer.cpp — the process-wide phase totals behind PhaseTimer.
#include "PhaseTimer.h"

#include <atomic>
#include <cstdint>
#include <ctime>

namespace tcp::interp {

namespace {
std::atomic<int64_t> totals[size_t(Phase::Count)], cpuTotals[size_t(Phase::Count)];

int64_t processCpuNs() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return int64_t(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}
}  // namespace

PhaseTimer::PhaseTimer(Phase phase) : phase_(phase), start_(std::chrono::steady_clock::now()), cpuStart_(processCpuNs()) {}

PhaseTimer::~PhaseTimer() {
  auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - start_).count();
  totals[size_t(phase_)].fetch_add(int64_t(ns), std::memory_order_relaxed);
  cpuTotals[size_t(phase_)].fetch_add(processCpuNs() - cpuStart_, std::memory_order_relaxed);
}

double phaseSeconds(Phase phase) { return double(totals[size_t(phase)].load(std::memory_order_relaxed)) * 1e-9; }
double phaseCpuSeconds(Phase phase) { return double(cpuTotals[size_t(phase)].load(std::memory_order_relaxed)) * 1e-9; }

namespace {
std::atomic<uint64_t> peakDevice{0}, peakShared{0};
void raise(std::atomic<uint64_t> &peak, uint64_t bytes) {
  uint64_t seen = peak.load();
  while (bytes > seen && !peak.compare_exchange_weak(seen, bytes)) {
  }
}
}  // namespace

void noteDeviceBytes(uint64_t resident, uint64_t shared) {
  raise(peakDevice, resident);
  raise(peakShared, shared);
}
uint64_t peakDeviceBytes() { return peakDevice.load(); }
uint64_t peakSharedDeviceBytes() { return peakShared.load(); }

const char *phaseName(Phase phase) {
  switch (phase) {
    case Phase::Launch: return "launch";
    case Phase::ToHbm: return "to_hbm";
    case Phase::ToHost: return "to_host";
    case Phase::AnswerKey: return "contraction";
    case Phase::KernelDma: return "dma";
    case Phase::KernelChains: return "chains";
    case Phase::Count: break;
  }
  return "?";
}

}  // namespace tcp::interp

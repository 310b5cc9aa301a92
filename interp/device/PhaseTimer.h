// PhaseTimer.h — process-wide wall-clock totals of tcpi's phases (kernel launch, PCIe DMA, answer key) for `tcpi --time`.
#pragma once

#include <chrono>
#include <cstdint>

namespace tcp::interp {

// KernelDma and KernelChains are parts of Launch: its DMAs (plans and replay) and its engine chains.
enum class Phase { Launch, ToHbm, ToHost, AnswerKey, KernelDma, KernelChains, Count };

// Adds the wall time of its scope to `phase`'s total (thread-safe; nested scopes of one phase add twice).
class PhaseTimer {
 public:
  explicit PhaseTimer(Phase phase);
  ~PhaseTimer();
  PhaseTimer(const PhaseTimer &) = delete;
  PhaseTimer &operator=(const PhaseTimer &) = delete;

 private:
  Phase phase_;
  std::chrono::steady_clock::time_point start_;
  int64_t cpuStart_;  // process CPU time (every thread), ns
};

double phaseSeconds(Phase phase);     // wall time so far
double phaseCpuSeconds(Phase phase);  // CPU time of the whole process (all threads) inside the phase so far
const char *phaseName(Phase phase);

// The most memory the device's HBM and SRAMs held (resident bytes) at the end of any launch so far,
// and the most the slices read besides from broadcasts held once (DmAlias, TrfAlias: the bytes a
// device that copied every broadcast would also hold).
void noteDeviceBytes(uint64_t resident, uint64_t shared);
uint64_t peakDeviceBytes();
uint64_t peakSharedDeviceBytes();

}  // namespace tcp::interp

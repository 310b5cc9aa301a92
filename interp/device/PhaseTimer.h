// PhaseTimer.h — process-wide wall-clock totals of tcpi's phases (kernel launch, PCIe DMA, answer key) for `tcpi --time`.
#pragma once

#include <chrono>

namespace tcp::interp {

enum class Phase { Launch, ToHbm, ToHost, AnswerKey, Count };

// Adds the wall time of its scope to `phase`'s total (thread-safe; nested scopes of one phase add twice).
class PhaseTimer {
 public:
  explicit PhaseTimer(Phase phase) : phase_(phase), start_(std::chrono::steady_clock::now()) {}
  ~PhaseTimer();
  PhaseTimer(const PhaseTimer &) = delete;
  PhaseTimer &operator=(const PhaseTimer &) = delete;

 private:
  Phase phase_;
  std::chrono::steady_clock::time_point start_;
};

double phaseSeconds(Phase phase);  // total so far
const char *phaseName(Phase phase);

}  // namespace tcp::interp

// Where a step's time goes (World::setStepTimings, StepTimings): the step laps a clock at each stage boundary and
// adds the lap to that stage's bucket. Off by default; when off, a lap is one predictable branch.
#pragma once

#include <chrono>

#include "pbd/settings.h"

namespace pbd {

class StepClock {
 public:
  using Clock = std::chrono::steady_clock;

  bool enabled = false;  ///< Set by World::setStepTimings.

  /// Zeroes `timings` and starts the first lap (no-op when disabled).
  void start(StepTimings& timings) {
    if (!enabled) return;
    timings = StepTimings{};
    started_ = last_ = Clock::now();
  }
  /// Adds the time since the last lap (ms) to `bucket` and starts the next lap.
  void lap(double& bucket) {
    if (!enabled) return;
    const Clock::time_point now = Clock::now();
    bucket += std::chrono::duration<double, std::milli>(now - last_).count();
    last_ = now;
  }
  /// Sets timings.totalMs to the time from start() to the last lap, so that the stages add up to it exactly (a
  /// clock read of its own would add the time since that lap, several µs with a coarse clock such as wasm's).
  void finish(StepTimings& timings) {
    if (!enabled) return;
    timings.totalMs = std::chrono::duration<double, std::milli>(last_ - started_).count();
  }

 private:
  Clock::time_point started_, last_;
};

}  // namespace pbd

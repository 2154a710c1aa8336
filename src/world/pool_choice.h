// Whether a step runs on the caller's task system or on the calling thread alone (World::setPoolUse,
// PoolUse::Measured). Both give the same bits (task_system.h), so the choice is only one of time: a step with little
// work per barrier (a 10³ tet cube, a cloth numbered at random, whose schedule is a phase per colour) runs slower on
// two threads than on one, and which one wins depends on the scene and the machine, not on a count the world could
// compare. So the world measures: after a change of scene it runs steps alternately on both, takes the faster by the
// median of each, and measures again every kProbeEvery steps, as the scene may have changed its pace (a cloth that
// fell into a self-colliding heap).
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>

namespace pbd {

class PoolChoice {
 public:
  static constexpr int kSamples = 3;         // steps measured on each side
  static constexpr int kWarmUp = 1;          // steps after a change not measured (a settle, first-touch of memory)
  static constexpr int kProbeEvery = 600;    // steps between two measurements (10 s of 60 Hz steps)

  /// Whether the next step should run on the pool.
  bool usePool() const {
    if (step_ < kWarmUp) return true;
    const int k = step_ - kWarmUp;
    if (k < 2 * kSamples) return k % 2 == 0;  // pool, one thread, pool, ...: a drift in the machine's pace hits both
    return pool_;
  }

  /// After a step run as usePool() said: its wall time, ms. `scene` identifies what was stepped (counts of particles
  /// and constraints, the settings): a different one starts a new measurement.
  void record(double ms, uint64_t scene) {
    if (scene != scene_) {
      scene_ = scene, step_ = 0;
      return;
    }
    const int k = step_ - kWarmUp;
    if (k >= 0 && k < 2 * kSamples) (k % 2 == 0 ? poolMs_ : serialMs_)[size_t(k / 2)] = ms;
    if (k + 1 == 2 * kSamples) pool_ = !(median(serialMs_) < median(poolMs_));
    if (++step_ >= kWarmUp + 2 * kSamples + kProbeEvery) step_ = kWarmUp;  // measure again
  }

  /// Forgets what was measured: the next steps measure again.
  void reset() { step_ = 0; }

 private:
  static double median(std::array<double, kSamples> v) {
    std::sort(v.begin(), v.end());
    return v[kSamples / 2];
  }

  int step_ = 0;
  bool pool_ = true;
  uint64_t scene_ = 0;
  std::array<double, kSamples> poolMs_{}, serialMs_{};
};

}  // namespace pbd

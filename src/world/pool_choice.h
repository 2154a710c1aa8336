// Whether a step runs on the caller's task system or on the calling thread alone (World::setPoolUse,
// PoolUse::Measured). Both give the same bits (task_system.h), so the choice is only one of time: a step with little
// work per barrier (a 10³ tet cube, a cloth numbered at random, whose schedule is a phase per colour) runs slower on
// two threads than on one, and which one wins depends on the scene and the machine, not on a count the world could
// compare. So the world measures: after a change of scene it runs steps alternately on both, takes the faster by the
// median of each, and measures again, as the scene may have changed its pace (a cloth that fell into a self-colliding
// heap) or the first measurement may have met a busy moment of the machine (another program's threads, a GC), which
// would otherwise hold a wrong choice for a whole period: first kFirstProbeAfter steps later, then twice as long each
// time the choice holds, up to every kProbeEvery steps.
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
  static constexpr int kProbeEvery = 600;    // most steps between two measurements (10 s of 60 Hz steps)
  static constexpr int kFirstProbeAfter = 60;  // steps between the first two measurements after a change (1 s)

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
      scene_ = scene;
      reset();
      return;
    }
    const int k = step_ - kWarmUp;
    if (k >= 0 && k < 2 * kSamples) (k % 2 == 0 ? poolMs_ : serialMs_)[size_t(k / 2)] = ms;
    if (k + 1 == 2 * kSamples) {
      const bool pool = !(median(serialMs_) < median(poolMs_));
      probeAfter_ = measured_ && pool == pool_ ? std::min(2 * probeAfter_, kProbeEvery) : kFirstProbeAfter;
      pool_ = pool, measured_ = true;
    }
    if (++step_ >= kWarmUp + 2 * kSamples + probeAfter_) step_ = kWarmUp;  // measure again
  }

  /// Forgets what was measured: the next steps measure again.
  void reset() { step_ = 0, measured_ = false, probeAfter_ = kFirstProbeAfter; }

  /// Steps between the last measurement and the next.
  int probeAfter() const { return probeAfter_; }

 private:
  static double median(std::array<double, kSamples> v) {
    std::sort(v.begin(), v.end());
    return v[kSamples / 2];
  }

  int step_ = 0;
  bool pool_ = true;
  bool measured_ = false;               // pool_ comes from a measurement of this scene
  int probeAfter_ = kFirstProbeAfter;
  uint64_t scene_ = 0;
  std::array<double, kSamples> poolMs_{}, serialMs_{};
};

}  // namespace pbd

// The task system every world of the module shares, over a pthread pool the JS loader sized at load time.
#pragma once

#include <algorithm>
#include <memory>

#include "pbd/task_system.h"
#include "wasm_values.h"

namespace pbd::js {

// --- Threads ----------------------------------------------------------------------------------------------------

/// The task system every world uses. Its address is stable; the pool behind it can be resized between steps.
class ModuleTasks final : public TaskSystem {
 public:
  unsigned concurrency() const override { return pool_ ? pool_->concurrency() : 1; }
  void parallelFor(size_t count, size_t minRange, RangeFn fn) override {
    if (pool_) pool_->parallelFor(count, minRange, fn);
    else if (count) fn(0, count);
  }
  void parallelPhases(size_t phaseCount, const size_t* sizes, const size_t* minRanges, PhaseRangeFn fn) override {
    if (pool_) pool_->parallelPhases(phaseCount, sizes, minRanges, fn);
    else TaskSystem::parallelPhases(phaseCount, sizes, minRanges, fn);
  }
  /// `available` = pthread workers the loader pre-spawned; asking for more would block on a worker that never comes.
  unsigned configure(unsigned requested, unsigned available) {
#if PBD_WASM_THREADS
    const unsigned threads = std::max(1u, std::min(requested, available + 1));
    if (threads != concurrency()) {
      pool_.reset();
      if (threads > 1) pool_ = std::make_unique<ThreadPool>(threads - 1);
    }
#else
    (void)requested;
    (void)available;
#endif
    return concurrency();
  }

 private:
  std::unique_ptr<ThreadPool> pool_;
};

inline ModuleTasks& moduleTasks() {
  static ModuleTasks tasks;
  return tasks;
}

inline unsigned configureThreads(double requested, double available) {
  return guarded("configureThreads", [&] {
    return moduleTasks().configure(toIndex("configureThreads", "threads", requested),
                                   toIndex("configureThreads", "available", available));
  });
}

inline unsigned threadCount() { return moduleTasks().concurrency(); }
inline bool isThreadedBuild() {
#if PBD_WASM_THREADS
  return true;
#else
  return false;
#endif
}


}  // namespace pbd::js

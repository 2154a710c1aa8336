// The library never owns how it runs in parallel: the caller hands a World a TaskSystem.
// SerialTaskSystem runs everything on the calling thread; ThreadPool is a persistent std::thread pool
// (pthreads under Emscripten). Both give bit-identical results: work is only split across independent items.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace pbd {

/// A non-owning reference to a callable `void(size_t begin, size_t end)`. No allocation, unlike std::function,
/// so it may be built inside step().
class RangeFn {
 public:
  template <class F>
  RangeFn(F& f) : object_(&f), call_([](void* o, size_t b, size_t e) { (*static_cast<F*>(o))(b, e); }) {}
  void operator()(size_t begin, size_t end) const { call_(object_, begin, end); }

 private:
  void* object_;
  void (*call_)(void*, size_t, size_t);
};

/// A non-owning reference to a callable `void(size_t phase, size_t begin, size_t end)`.
class PhaseRangeFn {
 public:
  template <class F>
  PhaseRangeFn(F& f)
      : object_(&f), call_([](void* o, size_t p, size_t b, size_t e) { (*static_cast<F*>(o))(p, b, e); }) {}
  void operator()(size_t phase, size_t begin, size_t end) const { call_(object_, phase, begin, end); }

 private:
  void* object_;
  void (*call_)(void*, size_t, size_t, size_t);
};

/// Runs `fn` over [0, count) split into ranges. Implementations must call fn on disjoint ranges covering [0, count)
/// and return only when all calls have returned.
class TaskSystem {
 public:
  static constexpr size_t kMaxPhases = 64;
  static constexpr size_t kOneRange = ~size_t(0);  ///< As a minRange: the whole phase is one range (serial work).

  virtual ~TaskSystem() = default;
  /// Number of threads that execute ranges, the calling thread included (>= 1).
  virtual unsigned concurrency() const = 0;
  /// Ranges are at least `minRange` items long (except the last), so small loops stay on one thread.
  virtual void parallelFor(size_t count, size_t minRange, RangeFn fn) = 0;
  /// Runs phases 0 .. phaseCount-1 (at most kMaxPhases) in order: phase k covers [0, phaseSizes[k]) in ranges of at
  /// least minRanges[k]; every range of a phase has returned before any range of the next phase starts. A pool
  /// does this with one wake-up and a barrier between phases (one phase per graph colour, say).
  virtual void parallelPhases(size_t phaseCount, const size_t* phaseSizes, const size_t* minRanges, PhaseRangeFn fn) {
    for (size_t k = 0; k < phaseCount; ++k) {
      auto range = [&](size_t b, size_t e) { fn(k, b, e); };
      parallelFor(phaseSizes[k], minRanges[k], range);
    }
  }
};

/// Runs every range on the calling thread. The default of a World.
class SerialTaskSystem final : public TaskSystem {
 public:
  unsigned concurrency() const override { return 1; }
  void parallelFor(size_t count, size_t, RangeFn fn) override {
    if (count) fn(0, count);
  }
};

/// A persistent pool: `workerCount` threads are started once; between jobs they poll briefly, then sleep. The
/// calling thread works too. Never a thread per step. Safe to call from several threads (jobs are serialized).
class ThreadPool final : public TaskSystem {
 public:
  /// Starts `workerCount` threads (0 is allowed: then it behaves like SerialTaskSystem).
  explicit ThreadPool(unsigned workerCount);
  ~ThreadPool() override;
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  unsigned concurrency() const override { return static_cast<unsigned>(workers_.size()) + 1; }
  void parallelFor(size_t count, size_t minRange, RangeFn fn) override;
  void parallelPhases(size_t phaseCount, const size_t* phaseSizes, const size_t* minRanges, PhaseRangeFn fn) override;

 private:
  struct Job;
  void workerLoop(size_t self);                    // self: the worker's thread number, 1 .. workerCount
  static void runJob(Job& job, size_t self);      // self: 0 for the calling thread

  std::vector<std::thread> workers_;
  std::mutex submitMutex_;  // one job at a time
  std::mutex mutex_;        // guards generation_, sleepers_ and stopping_; the sleeping sides of the handshakes
  std::condition_variable wake_;  // workers sleep here
  std::condition_variable done_;  // the caller sleeps here
  std::atomic<Job*> job_{nullptr};                     // the job running now; workers join it without the lock
  unsigned long generation_ = 0;                       // jobs published so far
  std::atomic<unsigned long> publishedGeneration_{0};  // generation_, readable without the lock (polling)
  std::atomic<unsigned> busy_{0};                      // workers inside the current job, or checking for it
  std::atomic<bool> stoppingFlag_{false};
  std::atomic<bool> callerSleeping_{false};            // the caller waits on done_ for busy_ to reach 0
  unsigned sleepers_ = 0;
  bool stopping_ = false;
};

}  // namespace pbd

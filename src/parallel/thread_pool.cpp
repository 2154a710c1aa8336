#include <algorithm>
#include <atomic>
#include <chrono>
#include <stdexcept>

#include "pbd/task_system.h"

namespace pbd {

namespace {
/// How long an idle thread polls for the next job before it sleeps. A step hands out jobs back to back, and
/// waking a sleeping thread costs more than most of those jobs.
constexpr std::chrono::microseconds kSpinTime{200};

template <class Ready>
bool spinUntil(Ready ready) {
  const auto until = std::chrono::steady_clock::now() + kSpinTime;
  for (int k = 0;; ++k) {
    if (ready()) return true;
    if ((k & 63) == 63 && std::chrono::steady_clock::now() > until) return false;
  }
}
}  // namespace

/// One job: phases of ranges. `next` hands out ranges, `done` counts finished items; a phase is over when done
/// reaches its size, which is the barrier every thread waits at before taking ranges of the next phase.
struct ThreadPool::Job {
  PhaseRangeFn fn;
  size_t phaseCount;
  size_t size[kMaxPhases];
  size_t rangeSize[kMaxPhases];
  std::atomic<size_t> next[kMaxPhases];
  std::atomic<size_t> done[kMaxPhases];
};

ThreadPool::ThreadPool(unsigned workerCount) {
  workers_.reserve(workerCount);
  for (unsigned i = 0; i < workerCount; ++i) workers_.emplace_back([this] { workerLoop(); });
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
    stoppingFlag_.store(true, std::memory_order_release);
  }
  wake_.notify_all();
  for (std::thread& t : workers_) t.join();
}

void ThreadPool::runJob(Job& job) {
  for (size_t ph = 0; ph < job.phaseCount; ++ph) {
    const size_t size = job.size[ph], rangeSize = job.rangeSize[ph];
    for (;;) {
      const size_t begin = job.next[ph].fetch_add(rangeSize, std::memory_order_relaxed);
      if (begin >= size) break;
      const size_t end = std::min(size, begin + std::min(rangeSize, size - begin));
      job.fn(ph, begin, end);
      job.done[ph].fetch_add(end - begin, std::memory_order_acq_rel);
    }
    // Barrier: the ranges of this phase that other threads took must finish before the next phase reads their
    // results. They are short (one colour's share), so poll, yielding now and then.
    for (int k = 0; job.done[ph].load(std::memory_order_acquire) < size; ++k) {
      if ((k & 1023) == 1023) std::this_thread::yield();
    }
  }
}

void ThreadPool::workerLoop() {
  unsigned long seen = 0;
  for (;;) {
    spinUntil([&] {
      return publishedGeneration_.load(std::memory_order_acquire) != seen ||
             stoppingFlag_.load(std::memory_order_relaxed);
    });
    Job* job;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      if (generation_ == seen && !stopping_) {
        ++sleepers_;
        wake_.wait(lock, [&] { return stopping_ || generation_ != seen; });
        --sleepers_;
      }
      if (stopping_) return;
      seen = generation_;
      job = job_;
      if (!job) continue;  // woke after the job had already finished
      busy_.fetch_add(1, std::memory_order_relaxed);
    }
    runJob(*job);
    bool callerSleeps;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      busy_.fetch_sub(1, std::memory_order_release);
      callerSleeps = callerSleeping_;
    }
    if (callerSleeps) done_.notify_one();
  }
}

void ThreadPool::parallelFor(size_t count, size_t minRange, RangeFn fn) {
  auto phase = [&](size_t, size_t b, size_t e) { fn(b, e); };
  parallelPhases(1, &count, &minRange, phase);
}

void ThreadPool::parallelPhases(size_t phaseCount, const size_t* phaseSizes, const size_t* minRanges,
                                PhaseRangeFn fn) {
  if (phaseCount > kMaxPhases) throw std::invalid_argument("parallelPhases: more than kMaxPhases phases");
  const size_t threads = concurrency();
  // Nothing to share out: run on this thread without waking anyone.
  bool anyParallel = false;
  for (size_t ph = 0; ph < phaseCount; ++ph) anyParallel |= phaseSizes[ph] > std::max<size_t>(minRanges[ph], 1);
  if (threads == 1 || !anyParallel) {
    for (size_t ph = 0; ph < phaseCount; ++ph) {
      if (phaseSizes[ph]) fn(ph, 0, phaseSizes[ph]);
    }
    return;
  }
  std::lock_guard<std::mutex> submit(submitMutex_);
  Job job{fn, phaseCount, {}, {}, {}, {}};
  for (size_t ph = 0; ph < phaseCount; ++ph) {
    const size_t minRange = std::max<size_t>(minRanges[ph], 1);
    job.size[ph] = phaseSizes[ph];
    // A few ranges per thread balance uneven work without much contention on `next`.
    job.rangeSize[ph] = std::max(minRange, (phaseSizes[ph] + threads * 4 - 1) / (threads * 4));
    job.next[ph].store(0, std::memory_order_relaxed);
    job.done[ph].store(0, std::memory_order_relaxed);
  }
  bool wakeSleepers;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    job_ = &job;
    ++generation_;
    publishedGeneration_.store(generation_, std::memory_order_release);
    wakeSleepers = sleepers_ > 0;
  }
  if (wakeSleepers) wake_.notify_all();
  runJob(job);
  // Wait until every worker that took the job has left it, then clear job_ under the lock so that no late worker
  // can pick up this (stack) job after we return.
  spinUntil([&] { return busy_.load(std::memory_order_acquire) == 0; });
  std::unique_lock<std::mutex> lock(mutex_);
  if (busy_.load(std::memory_order_acquire) != 0) {
    callerSleeping_ = true;
    done_.wait(lock, [&] { return busy_.load(std::memory_order_acquire) == 0; });
    callerSleeping_ = false;
  }
  job_ = nullptr;
}

}  // namespace pbd

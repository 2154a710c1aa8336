#include <algorithm>
#include <atomic>
#include <chrono>

#include "pbd/task_system.h"

namespace pbd {

namespace {
/// How long an idle thread polls for the next job before it sleeps. A step hands out jobs back to back (one per
/// colour per iteration), and waking a sleeping thread costs more than most of those jobs.
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

struct ThreadPool::Job {
  RangeFn fn;
  size_t count;
  size_t rangeSize;
  std::atomic<size_t> nextBegin{0};
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

void ThreadPool::runRanges(Job& job) {
  for (;;) {
    size_t begin = job.nextBegin.fetch_add(job.rangeSize, std::memory_order_relaxed);
    if (begin >= job.count) return;
    job.fn(begin, std::min(begin + job.rangeSize, job.count));
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
    runRanges(*job);
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
  if (count == 0) return;
  const size_t threads = concurrency();
  minRange = std::max<size_t>(minRange, 1);
  if (threads == 1 || count <= minRange) {
    fn(0, count);
    return;
  }
  // A few ranges per thread balance uneven work without much contention on nextBegin.
  const size_t rangeSize = std::max(minRange, (count + threads * 4 - 1) / (threads * 4));
  std::lock_guard<std::mutex> submit(submitMutex_);
  Job job{fn, count, rangeSize};
  bool wakeSleepers;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    job_ = &job;
    ++generation_;
    publishedGeneration_.store(generation_, std::memory_order_release);
    wakeSleepers = sleepers_ > 0;
  }
  if (wakeSleepers) wake_.notify_all();
  runRanges(job);
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

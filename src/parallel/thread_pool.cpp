#include <algorithm>
#include <atomic>

#include "pbd/task_system.h"

namespace pbd {

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
    Job* job;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      wake_.wait(lock, [&] { return stopping_ || generation_ != seen; });
      if (stopping_) return;
      seen = generation_;
      job = job_;
      if (!job) continue;  // woke after the job had already finished
      ++busyWorkers_;
    }
    runRanges(*job);
    {
      std::lock_guard<std::mutex> lock(mutex_);
      --busyWorkers_;
    }
    done_.notify_one();
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
  {
    std::lock_guard<std::mutex> lock(mutex_);
    job_ = &job;
    ++generation_;
  }
  wake_.notify_all();
  runRanges(job);
  // Workers that woke late find no range left; wait until every worker that took the job has left it,
  // and clear job_ so that none picks the dead job up after we return.
  std::unique_lock<std::mutex> lock(mutex_);
  done_.wait(lock, [&] { return busyWorkers_ == 0; });
  job_ = nullptr;
}

}  // namespace pbd

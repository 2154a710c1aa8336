#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
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

/// One job: phases of ranges. Phase ph is cut into `chunks` ranges of `rangeSize` items; each thread runs its home
/// chunks first (thread t of T: chunks [C t / T, C (t + 1) / T)), then takes the chunks still unclaimed, from the
/// last down. Home chunks keep a thread on the same items phase after phase (the particles it padded are the ones its
/// blocks project and then copy back), so their cache lines stay in its core; taking others' chunks keeps a late or
/// preempted thread from holding up the job. `claimed` has a bit per chunk; `done` counts finished items, and a phase
/// is over when it reaches the phase's size, which is the barrier every thread waits at before the next phase.
struct ThreadPool::Job {
  static constexpr size_t kMaxChunks = 64;  ///< One bit each in `claimed`.
  PhaseRangeFn fn;
  size_t phaseCount;
  size_t threads;
  size_t size[kMaxPhases];
  size_t rangeSize[kMaxPhases];
  size_t chunks[kMaxPhases];
  std::atomic<uint64_t> claimed[kMaxPhases];
  std::atomic<size_t> done[kMaxPhases];
  unsigned long generation;  ///< The pool's generation_ when this job was published.
};

ThreadPool::ThreadPool(unsigned workerCount) {
  workers_.reserve(workerCount);
  for (unsigned i = 0; i < workerCount; ++i) workers_.emplace_back([this, i] { workerLoop(i + 1); });
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

void ThreadPool::runJob(Job& job, size_t self) {
  for (size_t ph = 0; ph < job.phaseCount; ++ph) {
    const size_t size = job.size[ph], rangeSize = job.rangeSize[ph], chunks = job.chunks[ph];
    const size_t homeBegin = chunks * self / job.threads, homeEnd = chunks * (self + 1) / job.threads;
    auto tryRun = [&](size_t c) {
      const uint64_t bit = uint64_t(1) << c;
      if (job.claimed[ph].load(std::memory_order_relaxed) & bit) return;  // taken: skip the read-modify-write
      if (job.claimed[ph].fetch_or(bit, std::memory_order_relaxed) & bit) return;
      const size_t begin = c * rangeSize, end = begin + std::min(rangeSize, size - begin);
      job.fn(ph, begin, end);
      job.done[ph].fetch_add(end - begin, std::memory_order_acq_rel);
    };
    for (size_t c = homeBegin; c < homeEnd; ++c) tryRun(c);
    for (size_t c = chunks; c-- > 0;) {
      if (c < homeBegin || c >= homeEnd) tryRun(c);
    }
    // Barrier: the ranges of this phase that other threads took must finish before the next phase reads their
    // results. They are short (one colour's share), so poll, and yield only once a wait outlasts kSpinTime: the
    // thread waited for has then lost its core. A yield is a system call, which a hypervisor may trap
    // (docs/performance.md, "Tuned constants").
    while (!spinUntil([&] { return job.done[ph].load(std::memory_order_acquire) >= size; })) std::this_thread::yield();
  }
}

void ThreadPool::workerLoop(size_t self) {
  unsigned long seen = 0;  // the generation of the last job this thread ran or found gone
  for (;;) {
    unsigned long published = 0;
    const bool polled = spinUntil([&] {
      published = publishedGeneration_.load(std::memory_order_acquire);
      return published != seen || stoppingFlag_.load(std::memory_order_relaxed);
    });
    if (!polled) {
      std::unique_lock<std::mutex> lock(mutex_);
      ++sleepers_;
      wake_.wait(lock, [&] { return stopping_ || generation_ != seen; });
      --sleepers_;
      published = generation_;
    }
    if (stoppingFlag_.load(std::memory_order_acquire)) return;
    // Joining takes no lock: a worker that met the caller's lock here slept in the kernel (a futex), and the job it
    // came for was long over when it woke (docs/performance.md, "Tuned constants"). Announce
    // first, then look: with both sides sequentially consistent, either this load sees the caller's job_ = nullptr
    // or the caller's wait sees busy_ > 0, so no worker enters a job whose caller has returned.
    busy_.fetch_add(1, std::memory_order_seq_cst);
    Job* job = job_.load(std::memory_order_seq_cst);
    if (job) {
      seen = job->generation;  // maybe newer than `published`: that job's caller cannot leave before we do
      runJob(*job, self);
    } else {
      seen = published;  // its caller finished it alone
    }
    if (busy_.fetch_sub(1, std::memory_order_seq_cst) == 1 && callerSleeping_.load(std::memory_order_seq_cst)) {
      { std::lock_guard<std::mutex> lock(mutex_); }  // the caller is inside wait() now, or has not checked yet
      done_.notify_one();
    }
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
  Job job{fn, phaseCount, threads, {}, {}, {}, {}, {}, 0};
  for (size_t ph = 0; ph < phaseCount; ++ph) {
    const size_t minRange = std::max<size_t>(minRanges[ph], 1);
    job.size[ph] = phaseSizes[ph];
    // A few ranges per thread balance uneven work without much contention on `claimed`.
    const size_t target = std::min(Job::kMaxChunks, threads * 4);
    job.rangeSize[ph] = std::max(minRange, (phaseSizes[ph] + target - 1) / target);
    job.chunks[ph] = phaseSizes[ph] == 0 ? 0 : 1 + (phaseSizes[ph] - 1) / job.rangeSize[ph];  // kOneRange: no overflow
    job.claimed[ph].store(0, std::memory_order_relaxed);
    job.done[ph].store(0, std::memory_order_relaxed);
  }
  bool wakeSleepers;
  {
    std::lock_guard<std::mutex> lock(mutex_);  // against a worker about to sleep: it checks generation_ under it
    job.generation = ++generation_;
    job_.store(&job, std::memory_order_seq_cst);
    publishedGeneration_.store(generation_, std::memory_order_release);
    wakeSleepers = sleepers_ > 0;
  }
  if (wakeSleepers) wake_.notify_all();
  runJob(job, 0);
  // No worker may enter this (stack) job after we return: withdraw it, then wait for those inside to leave.
  job_.store(nullptr, std::memory_order_seq_cst);
  if (!spinUntil([&] { return busy_.load(std::memory_order_seq_cst) == 0; })) {
    std::unique_lock<std::mutex> lock(mutex_);
    callerSleeping_.store(true, std::memory_order_seq_cst);
    done_.wait(lock, [&] { return busy_.load(std::memory_order_seq_cst) == 0; });
    callerSleeping_.store(false, std::memory_order_relaxed);
  }
}

}  // namespace pbd

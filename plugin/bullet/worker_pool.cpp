#include "worker_pool.h"

#include <algorithm>

#ifdef __linux__
#include <sched.h>
#endif

namespace carom::detail {

int threadCount(int configured) {
  if (configured > 0) return configured;
#ifdef __linux__
  // The CPUs the calling thread may run on (taskset, a cgroup's cpuset), as nproc and OpenMP count
  // them: helpers beyond those share its CPUs and cost a context switch per hand-over (a process
  // pinned to one CPU stepped lcp mode's bin 5–10 % slower with a helper than without).
  cpu_set_t allowed;
  if (sched_getaffinity(0, sizeof(allowed), &allowed) == 0) return std::max(1, CPU_COUNT(&allowed));
#endif
  return std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
}

WorkerPool::WorkerPool(int threads) {
  for (int t = 1; t < threads; ++t)
    helpers_.emplace_back([this, t] { serve(t - 1); });
}

WorkerPool::~WorkerPool() {
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  for (std::thread& helper : helpers_)
    helper.join();
}

void WorkerPool::takeJobs() {
  for (std::size_t i = next_++; i < count_; i = next_++)
    (*job_)(i);
}

void WorkerPool::serve(int index) {
  unsigned long served = 0;
  std::unique_lock<std::mutex> lock(mutex_);
  for (;;) {
    wake_.wait(lock, [&] { return stopping_ || round_ != served; });
    if (stopping_) return;
    served = round_;
    if (index >= called_) continue;  // not needed this round
    lock.unlock();
    takeJobs();
    lock.lock();
    if (--working_ == 0) done_.notify_one();
  }
}

void WorkerPool::run(std::size_t count, const std::function<void(std::size_t)>& job) {
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    job_ = &job;
    count_ = count;
    next_ = 0;
    // A helper per job beyond the caller's first, at most: run waits for every helper it calls.
    called_ = static_cast<int>(std::min(helpers_.size(), count > 0 ? count - 1 : 0));
    working_ = called_;
    ++round_;
  }
  if (called_ > 0) wake_.notify_all();
  takeJobs();
  std::unique_lock<std::mutex> lock(mutex_);
  done_.wait(lock, [&] { return working_ == 0; });
  job_ = nullptr;
}

WorkerPool* poolFor(std::unique_ptr<WorkerPool>& pool, int threads) {
  if (threads < 2) {
    pool.reset();
    return nullptr;
  }
  if (!pool || pool->threads() != threads) pool = std::make_unique<WorkerPool>(threads);
  return pool.get();
}

}  // namespace carom::detail

// Threads kept from step to step that run a round's independent jobs beside the calling thread:
// lcp mode's impact groups (impact_solver_impacts.cpp). A thread started per round costs about as
// much as the round's work where the rounds are many and small (a pouring bin), and its
// thread-local buffers (Lemke's B⁻¹) would be made afresh with it.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace carom::detail {

// The thread count solver.threads asks for: `configured` itself, or where it is 0 the CPUs the
// calling thread may run on (Linux; elsewhere the machine's hardware threads).
int threadCount(int configured);

class WorkerPool {
 public:
  // `threads` − 1 helpers (the caller of run is the other thread); `threads` ≥ 1.
  explicit WorkerPool(int threads);
  ~WorkerPool();  // stops the helpers and joins them
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  int threads() const { return static_cast<int>(helpers_.size()) + 1; }
  // Calls job(i) once for each i in [0, count), on the calling thread and up to count − 1 helpers,
  // in no particular order, and returns when every call has. `job` must not throw.
  void run(std::size_t count, const std::function<void(std::size_t)>& job);

 private:
  void serve(int index);  // the loop of helper `index` (0 …)
  void takeJobs();        // calls job_ for the indices left, from any thread
  std::mutex mutex_;
  std::condition_variable wake_, done_;
  const std::function<void(std::size_t)>* job_ = nullptr;
  std::size_t count_ = 0;
  std::atomic<std::size_t> next_{0};
  unsigned long round_ = 0;  // run's calls so far: a helper takes each round once
  int called_ = 0;           // helpers 0 … called_ − 1 take part in the current round
  int working_ = 0;          // of those, the ones still in it
  bool stopping_ = false;
  std::vector<std::thread> helpers_;
};

// `pool`, made or remade for `threads` threads; null where one thread is asked for.
WorkerPool* poolFor(std::unique_ptr<WorkerPool>& pool, int threads);

}  // namespace carom::detail

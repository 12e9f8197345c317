// Every toss of a set simulated with one model and compared with its measurement, spread over
// threads. Each toss is its own world, and each result goes to its toss's slot, so the results are
// the same for any number of threads.
#pragma once

#include <vector>

#include "cube_model.h"
#include "metrics.h"
#include "toss.h"

namespace carom::validation {

// Metrics of each toss, in the order of `tosses`; `threads` ≥ 1 (0: the hardware's count).
std::vector<TossMetrics> evaluate(const std::vector<const Toss*>& tosses, const CubeModel& model,
                                  int threads);

// Runs job(i) for i in [0, count) on `threads` threads (0: the hardware's count); the jobs must be
// independent. The first exception thrown by a job is rethrown after all threads have stopped.
template <class Job>
void parallelFor(int count, int threads, Job job);

}  // namespace carom::validation

#include "evaluate_impl.h"

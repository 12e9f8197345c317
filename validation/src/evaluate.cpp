#include "evaluate.h"

namespace carom::validation {

std::vector<TossMetrics> evaluate(const std::vector<const Toss*>& tosses, const CubeModel& model,
                                  int threads) {
  std::vector<TossMetrics> metrics(tosses.size());
  parallelFor(static_cast<int>(tosses.size()), threads,
              [&](int i) { metrics[i] = compare(*tosses[i], simulate(*tosses[i], model)); });
  return metrics;
}

}  // namespace carom::validation

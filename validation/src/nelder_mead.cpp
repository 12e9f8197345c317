#include "nelder_mead.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

namespace carom::validation {
namespace {

using Point = std::vector<double>;

// Lagarias et al. (1998) §2: reflection, expansion, contraction and shrink coefficients.
constexpr double kReflect = 1.0, kExpand = 2.0, kContract = 0.5, kShrink = 0.5;

Point affine(const Point& a, const Point& b, double t) {  // a + t (b − a)
  Point out(a.size());
  for (std::size_t i = 0; i < a.size(); ++i)
    out[i] = a[i] + t * (b[i] - a[i]);
  return out;
}

}  // namespace

NelderMeadResult nelderMead(const std::function<double(const std::vector<double>&)>& f,
                            std::vector<double> start, const std::vector<double>& lower,
                            const std::vector<double>& upper, const NelderMeadOptions& options,
                            const NelderMeadProgress& progress) {
  const std::size_t n = start.size();
  if (lower.size() != n || upper.size() != n)
    throw std::invalid_argument("nelderMead: start and bounds differ in size");
  for (std::size_t i = 0; i < n; ++i) {
    if (!(lower[i] <= upper[i])) throw std::invalid_argument("nelderMead: lower > upper");
  }
  // Searched in box coordinates u ∈ [0, 1]ⁿ so that one step size suits every parameter.
  std::vector<std::size_t> free;
  for (std::size_t i = 0; i < n; ++i) {
    if (upper[i] > lower[i]) free.push_back(i);
  }
  auto toX = [&](const Point& u) {
    Point x = start;
    for (std::size_t j = 0; j < free.size(); ++j) {
      const std::size_t i = free[j];
      x[i] = lower[i] + std::clamp(u[j], 0.0, 1.0) * (upper[i] - lower[i]);
    }
    return x;
  };
  auto clampU = [](Point u) {
    for (double& v : u)
      v = std::clamp(v, 0.0, 1.0);
    return u;
  };
  for (std::size_t i = 0; i < n; ++i)
    start[i] = std::clamp(start[i], lower[i], upper[i]);

  NelderMeadResult best{start, INFINITY, 0};
  auto evaluate = [&](const Point& u) {
    const Point x = toX(u);
    double value = f(x);
    if (std::isnan(value)) value = INFINITY;  // a failed evaluation is the worst possible point
    ++best.evaluations;
    if (value < best.f) best.f = value, best.x = x;
    if (progress) progress(best.evaluations, x, value, best.f);
    return value;
  };
  const std::size_t m = free.size();
  Point u0(m);
  for (std::size_t j = 0; j < m; ++j)
    u0[j] = (start[free[j]] - lower[free[j]]) / (upper[free[j]] - lower[free[j]]);
  std::vector<Point> simplex{u0};
  for (std::size_t j = 0; j < m; ++j) {
    Point u = u0;
    u[j] += u[j] + options.initialStep <= 1.0 ? options.initialStep : -options.initialStep;
    simplex.push_back(clampU(u));
  }
  std::vector<double> values;
  for (const Point& u : simplex) {
    if (best.evaluations >= options.maxEvaluations) break;
    values.push_back(evaluate(u));
  }
  if (values.size() < simplex.size() || m == 0) return best;

  std::vector<std::size_t> order(simplex.size());
  while (best.evaluations < options.maxEvaluations) {
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return values[a] < values[b]; });
    const std::size_t lo = order.front(), hi = order.back(), next = order[order.size() - 2];
    double spread = 0;
    for (const Point& u : simplex) {
      for (std::size_t j = 0; j < m; ++j)
        spread = std::max(spread, std::abs(u[j] - simplex[lo][j]));
    }
    if (values[hi] - values[lo] < options.fTolerance && spread < options.xTolerance) break;
    Point centroid(m, 0.0);
    for (std::size_t v : order) {
      if (v == hi) continue;
      for (std::size_t j = 0; j < m; ++j)
        centroid[j] += simplex[v][j] / m;
    }
    const Point reflected = clampU(affine(centroid, simplex[hi], -kReflect));
    const double fr = evaluate(reflected);
    if (fr < values[lo]) {
      if (best.evaluations >= options.maxEvaluations) break;
      const Point expanded = clampU(affine(centroid, simplex[hi], -kExpand));
      const double fe = evaluate(expanded);
      if (fe < fr)
        simplex[hi] = expanded, values[hi] = fe;
      else
        simplex[hi] = reflected, values[hi] = fr;
      continue;
    }
    if (fr < values[next]) {
      simplex[hi] = reflected, values[hi] = fr;
      continue;
    }
    if (best.evaluations >= options.maxEvaluations) break;
    // Outside contraction towards the reflected point, or inside towards the worst one.
    const bool outside = fr < values[hi];
    const Point contracted = clampU(affine(centroid, outside ? reflected : simplex[hi], kContract));
    const double fc = evaluate(contracted);
    if (fc < (outside ? fr : values[hi])) {
      simplex[hi] = contracted, values[hi] = fc;
      continue;
    }
    for (std::size_t v : order) {  // shrink towards the best vertex
      if (v == lo) continue;
      if (best.evaluations >= options.maxEvaluations) break;
      simplex[v] = affine(simplex[lo], simplex[v], kShrink);
      values[v] = evaluate(simplex[v]);
    }
  }
  return best;
}

}  // namespace carom::validation

#include "checks.h"

#include <cmath>
#include <string>

#include "all_finite.h"
#include "carom/error.h"

namespace carom::core::lcp {
namespace {

std::string shape(const Eigen::MatrixXd& m) {
  return std::to_string(m.rows()) + "×" + std::to_string(m.cols());
}

}  // namespace

void checkProblem(const Eigen::MatrixXd& M, const Eigen::VectorXd& q, bool readMatrix) {
  if (M.rows() != M.cols()) throw Error("LCP matrix M must be square, got " + shape(M));
  if (q.size() != M.rows()) {
    throw Error("LCP vector q has size " + std::to_string(q.size()) + " but M is " + shape(M));
  }
  if (readMatrix && !core::allFinite(M)) throw Error("LCP matrix M has a non-finite entry");
  if (!core::allFinite(q)) throw Error("LCP vector q has a non-finite entry");
}

void checkBounds(const Eigen::VectorXd& lo, const Eigen::VectorXd& hi, Eigen::Index n,
                 bool requireFiniteLo) {
  if (lo.size() != n) {
    throw Error("LCP lower bound lo has size " + std::to_string(lo.size()) + ", expected " +
                std::to_string(n));
  }
  if (hi.size() != n) {
    throw Error("LCP upper bound hi has size " + std::to_string(hi.size()) + ", expected " +
                std::to_string(n));
  }
  for (Eigen::Index i = 0; i < n; ++i) {
    const std::string at = "[" + std::to_string(i) + "]";
    if (std::isnan(lo(i)) || lo(i) == INFINITY)
      throw Error("LCP lower bound lo" + at + " is NaN or +∞");
    if (std::isnan(hi(i)) || hi(i) == -INFINITY)
      throw Error("LCP upper bound hi" + at + " is NaN or −∞");
    if (requireFiniteLo && !std::isfinite(lo(i))) {
      throw Error("LCP lower bound lo" + at + " must be finite for the Lemke box reduction");
    }
    if (lo(i) > hi(i)) throw Error("LCP bounds have lo" + at + " > hi" + at);
  }
}

void checkTolerance(double tolerance, const char* name) {
  if (!std::isfinite(tolerance) || tolerance <= 0.0) {
    throw Error(std::string("LCP option ") + name + " must be finite and positive");
  }
}

}  // namespace carom::core::lcp

#include "carom/core/lcp/lemke.h"

#include <algorithm>
#include <array>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "carom/error.h"
#include "checks.h"
#include "evaluate.h"
#include "principal_pivot.h"

namespace carom::core::lcp {
namespace {

// Two ratios closer than this (relative to the larger, floored at 1) count as a tie in the
// lexicographic test. Dimensionless; 1e-12 sits above the round-off of a few hundred pivots.
constexpr double kTieTolerance = 1e-12;

// The etas' storage (at most n², Tableau) and a folded B⁻¹'s are kept per thread from solve to
// solve up to this many entries each (2 MB: n² for the LCPs of an impact of 32 contacts, up to 352
// unknowns), so that the sequence of LCPs of a simultaneous impact does not fault fresh pages in
// for each; beyond it, they are given back after the solve.
constexpr Eigen::Index kKeptEntries = Eigen::Index{1} << 18;

// Covering-vector streams kept per thread (randomCoveringVector), the least recently asked
// replaced: more than the seeds of one simultaneous impact's steps and attempts (about ten in the
// bin).
constexpr std::size_t kKeptCoveringSeeds = 32;
// The shortest stream kept: the LCPs of an impact of up to 8 contacts (11 unknowns each), so that a
// seed asked again for a larger impact is not drawn again.
constexpr Eigen::Index kShortestCoveringStream = 88;

// Principal pivots the polish of a failed answer may take (principal_pivot.h): a basis that is off
// at all is off by a few indices (docs/measurements.md), and each pivot factorises the support's
// block afresh (11 ms at the step LCPs' largest, 352 unknowns), so a polish stays under 0.2 s.
constexpr int kPolishPivots = 16;

// The solve's vectors, kept per thread from solve to solve: a Halm–Posa impact solves a few small
// LCPs, and a dozen allocations each would cost a tenth of their pivots. One Tableau at a time per
// thread (solveLemke does not nest).
struct Scratch {
  std::vector<Eigen::Index> basis, etaRows, candidates;
  std::vector<double> etaColumns, etaInverses, ratios;
  Eigen::VectorXd values, keyColumn, column, product, ones;
  StandardBounds bounds;
  Eigen::MatrixXd base;
};
Scratch& scratch() {
  thread_local Scratch kept;
  return kept;
}

// The variables of the augmented system  I w − M z − d z0 = q, numbered w_0..w_{n−1},
// z_0..z_{n−1}, z0 (the artificial variable).
class Variables {
 public:
  explicit Variables(Eigen::Index n) : n_(n) {}
  Eigen::Index artificial() const { return 2 * n_; }
  bool isW(Eigen::Index v) const { return v < n_; }
  bool isZ(Eigen::Index v) const { return v >= n_ && v < 2 * n_; }
  // w_i and z_i are complements; the complement of the leaving variable enters next.
  Eigen::Index complement(Eigen::Index v) const { return isW(v) ? v + n_ : v - n_; }
  std::string name(Eigen::Index v) const {
    if (v == artificial()) return "z0";
    return (isW(v) ? "w" : "z") + std::to_string(isW(v) ? v : v - n_);
  }

 private:
  Eigen::Index n_;
};

// The revised-simplex state: the basic variable of each row, B⁻¹ as a product of the pivots'
// elementary matrices, and the basic values B⁻¹q. B⁻¹'s rows are also the lexicographic
// tie-breakers (Cottle, Pang & Stone, ch. 4: a lexicographically positive basis stays so under the
// lexicographic ratio rule, so no basis repeats and Lemke cannot cycle).
//
// Pivot k on row r with entering column c = B_k⁻¹a (c_r ≠ 0) makes B_{k+1}⁻¹ = E_k B_k⁻¹, E_k the
// identity but for column r: −c_i/c_r off row r, 1/c_r on it (the product form of the inverse,
// Dantzig & Orchard-Hays 1954). A pivot keeps c, r and 1/c_r only; B⁻¹x is the etas applied to x in
// turn, each skipped where x_r is zero. A pivot's work is then the one product for its entering
// column, where updating an explicit B⁻¹ costs that product and as much again. A tie of the ratio
// test takes B⁻¹'s column of each key it reads the same way. After n pivots the etas are folded
// into an explicit B⁻¹ (`base_`), which the etas after them then multiply: a solve that runs long
// (Murty's LCPs take 2ⁿ pivots) costs n² a pivot, as an explicit B⁻¹ does, and 2n² memory at
// most (that B⁻¹ and n etas), where the etas alone would grow with the pivots taken.
class Tableau {
 public:
  Tableau(const Eigen::MatrixXd& M, const Eigen::VectorXd& q, const Eigen::VectorXd& d)
      : M_(M),
        q_(q),
        d_(d),
        vars_(q.size()),
        basis_(scratch().basis),
        values_(scratch().values),
        etaRows_(scratch().etaRows),
        etaColumns_(scratch().etaColumns),
        etaInverses_(scratch().etaInverses),
        base_(scratch().base),
        product_(scratch().product),
        ratios_(scratch().ratios),
        keyColumn_(scratch().keyColumn) {
    basis_.resize(static_cast<std::size_t>(q.size()));
    values_ = q;
    etaRows_.clear();
    etaInverses_.clear();
    for (Eigen::Index i = 0; i < size(); ++i)
      basis_[i] = i;  // start from w = q
  }
  ~Tableau() {
    if (etaColumns_.capacity() > static_cast<std::size_t>(kKeptEntries))
      std::vector<double>().swap(etaColumns_);
    if (base_.size() > kKeptEntries) base_.resize(0, 0);
  }
  Tableau(const Tableau&) = delete;
  Tableau& operator=(const Tableau&) = delete;

  Eigen::Index size() const { return q_.size(); }
  const Variables& variables() const { return vars_; }
  Eigen::Index basic(Eigen::Index row) const { return basis_[row]; }

  // The column of variable v in the augmented system, in the current basis: B⁻¹ a_v, written to
  // `column` (kept from pivot to pivot: a pivot allocates nothing).
  void column(Eigen::Index v, Eigen::VectorXd& column) const {
    if (vars_.isW(v)) {
      column.setZero(size());
      column(v) = 1.0;
    } else if (vars_.isZ(v)) {
      column = -M_.col(v - size());
    } else {
      column = -d_;
    }
    applyInverse(column);
  }

  // Gauss–Jordan pivot: `entering` replaces the basic variable of `row`; returns that variable.
  Eigen::Index pivot(Eigen::Index row, Eigen::Index entering, const Eigen::VectorXd& column) {
    const Eigen::Index n = size();
    const std::size_t k = etaRows_.size();
    etaRows_.push_back(row);
    const double inverse = 1.0 / column(row);
    etaInverses_.push_back(inverse);
    if (etaColumns_.size() < (k + 1) * static_cast<std::size_t>(n))
      etaColumns_.resize((k + 1) * static_cast<std::size_t>(n));
    std::copy(column.data(), column.data() + n, etaColumns_.data() + k * n);
    if (etaRows_.size() == static_cast<std::size_t>(n)) fold();
    eliminate(values_.data(), row, column.data(), inverse);
    const Eigen::Index leaving = basis_[row];
    basis_[row] = entering;
    return leaving;
  }

  // Lexicographic minimum over the `count` rows at `rows` of [values_i, B⁻¹_i·] / divisor_i: the
  // primary key is the ratio test, B⁻¹'s columns break its ties in order. A row whose basic
  // variable is z0 wins any tie of the primary key: z0 leaving means a solution, so ending there is
  // always right. The rows are narrowed in place to the ties left.
  Eigen::Index lexicographicMinimum(Eigen::Index* rows, std::size_t count,
                                    const Eigen::VectorXd& divisor) const {
    for (Eigen::Index key = -1; key < size() && count > 1; ++key) {
      if (key >= 0) {  // B⁻¹'s column `key`, for its entries in the rows tied
        keyColumn_.setZero(size());
        keyColumn_(key) = 1.0;
        applyInverse(keyColumn_);
      }
      if (ratios_.size() < count) ratios_.resize(count);  // each row's ratio, divided once
      double least = std::numeric_limits<double>::infinity();
      for (std::size_t k = 0; k < count; ++k) {
        const Eigen::Index i = rows[k];
        ratios_[k] = (key < 0 ? values_(i) : keyColumn_(i)) / divisor(i);
        least = std::min(least, ratios_[k]);
      }
      const double slack = kTieTolerance * std::max(1.0, std::abs(least));
      std::size_t tied = 0;
      for (std::size_t k = 0; k < count; ++k) {  // without a branch, as the candidates
        rows[tied] = rows[k];
        tied += static_cast<std::size_t>(ratios_[k] <= least + slack);
      }
      count = tied;
      if (key < 0) {
        for (std::size_t k = 0; k < count; ++k) {
          if (basis_[rows[k]] == vars_.artificial()) return rows[k];
        }
      }
    }
    return rows[0];
  }

  // The basic solution's z as the pivots left it, written to z.
  void basicZ(Eigen::VectorXd& z) const { zOf(values_, z); }

  // The basic solution's z, with one step of iterative refinement (x += B⁻¹(q − B x)) to undo
  // most of the round-off that the product form accumulates, written to z.
  void solutionZ(Eigen::VectorXd& z) const {
    // B x summed over the basis's columns (e_i, −M's or −d); B itself is never formed: its n²
    // entries are a megabyte per solve for an impact of a few hundred unknowns.
    Eigen::VectorXd& residual = keyColumn_;  // q − B x, in the tie-breaker's scratch
    residual = q_;
    for (Eigen::Index i = 0; i < size(); ++i) {
      const Eigen::Index v = basis_[i];
      if (vars_.isW(v)) {
        residual(v) -= values_(i);
      } else if (vars_.isZ(v)) {
        residual += M_.col(v - size()) * values_(i);
      } else {
        residual += d_ * values_(i);
      }
    }
    applyInverse(residual);
    residual += values_;
    zOf(residual, z);
  }

 private:
  // z of the basic values `basic`: each basic z_i's, the others zero. Basic values are
  // non-negative by the ratio test; round-off below zero is clipped here so that the residual
  // check judges exactly what the caller receives.
  void zOf(const Eigen::VectorXd& basic, Eigen::VectorXd& z) const {
    z.setZero(size());
    for (Eigen::Index i = 0; i < size(); ++i) {
      if (vars_.isZ(basis_[i])) z(basis_[i] - size()) = std::max(0.0, basic(i));
    }
  }

  // x ← E x for the pivot on `row` with entering column c and `inverse` = 1/c_row: x_row / c_row,
  // less that times c_i in every other row. Each eta's x_row waits on the etas before it, and a
  // division there was the longest wait of B⁻¹x; the pivot's reciprocal is taken once, at the
  // pivot.
  void eliminate(double* x, Eigen::Index row, const double* c, double inverse) const {
    const double scaled = x[row] * inverse;
    if (scaled == 0.0) return;
    for (Eigen::Index i = 0; i < size(); ++i)
      x[i] -= c[i] * scaled;
    x[row] = scaled;
  }

  // x ← B⁻¹x: the pivots' etas in the order taken.
  void applyInverse(Eigen::VectorXd& x) const {
    const Eigen::Index n = size();
    if (folded_) multiplyByBase(x);
    for (std::size_t k = 0; k < etaRows_.size(); ++k)
      eliminate(x.data(), etaRows_[k], etaColumns_.data() + k * n, etaInverses_[k]);
  }

  // x ← base_ x, the B⁻¹ the etas were folded into.
  void multiplyByBase(Eigen::VectorXd& x) const {
    product_.noalias() = base_ * x;
    x.swap(product_);
  }

  // base_ ← the etas times base_ (I before the first fold), and no etas left.
  void fold() {
    const Eigen::Index n = size();
    if (!folded_) base_.setIdentity(n, n);
    folded_ = true;
    for (Eigen::Index j = 0; j < n; ++j) {
      for (std::size_t k = 0; k < etaRows_.size(); ++k)
        eliminate(base_.col(j).data(), etaRows_[k], etaColumns_.data() + k * n, etaInverses_[k]);
    }
    etaRows_.clear();
    etaInverses_.clear();
  }

  const Eigen::MatrixXd& M_;
  const Eigen::VectorXd& q_;
  const Eigen::VectorXd& d_;
  Variables vars_;
  std::vector<Eigen::Index>& basis_;
  Eigen::VectorXd& values_;  // B⁻¹ q: the basic variables' values
  // The etas: each pivot's row, its entering column (n entries each, in order), and the
  // reciprocal of the column's entry in its row.
  std::vector<Eigen::Index>& etaRows_;
  std::vector<double>& etaColumns_;
  std::vector<double>& etaInverses_;
  // B⁻¹ before the etas, once they have been folded (fold); and a product's scratch.
  bool folded_ = false;
  Eigen::MatrixXd& base_;
  Eigen::VectorXd& product_;
  // Scratch: the ratio test's ratios, and B⁻¹'s column of a tie-breaking key.
  std::vector<double>& ratios_;
  Eigen::VectorXd& keyColumn_;
};

// The covering vector the options ask for: theirs, checked, or 1 (kept per thread).
const Eigen::VectorXd& coveringVectorFor(const LemkeOptions& options, Eigen::Index n) {
  if (options.coveringVector.size() == 0) {
    Eigen::VectorXd& ones = scratch().ones;
    if (ones.size() != n) ones.setOnes(n);
    return ones;
  }
  const Eigen::VectorXd& d = options.coveringVector;
  if (d.size() != n) {
    throw Error("Lemke covering vector has size " + std::to_string(d.size()) + ", expected " +
                std::to_string(n));
  }
  if (!d.allFinite() || !(d.array() > 0.0).all()) {
    throw Error("Lemke covering vector must be finite with every entry > 0");
  }
  return d;
}

// The first n entries of the covering-vector stream of `seed`. mt19937_64 is specified bit for bit
// by the standard; std::uniform_real_distribution is not, so the 53-bit mapping to [0, 1) is
// written out.
Eigen::VectorXd coveringStream(Eigen::Index n, std::uint64_t seed) {
  std::mt19937_64 engine(seed);
  Eigen::VectorXd d(n);
  for (Eigen::Index i = 0; i < n; ++i) {
    const double unit = static_cast<double>(engine() >> 11) * 0x1.0p-53;
    d(i) = 0.01 + 0.99 * unit;
  }
  return d;
}

}  // namespace

void solveLemke(const Eigen::MatrixXd& M, const Eigen::VectorXd& q, const LemkeOptions& options,
                LcpResult& result) {
  checkProblem(M, q, !options.matrixChecked);
  checkTolerance(options.pivotTolerance, "pivotTolerance");
  checkTolerance(options.residualTolerance, "residualTolerance");
  const Eigen::Index n = q.size();
  const Eigen::VectorXd& d = coveringVectorFor(options, n);
  const int maxPivots = options.maxPivots >= 0 ? options.maxPivots : static_cast<int>(50 * n + 100);
  StandardBounds& bounds = scratch().bounds;
  bounds.grow(n);
  // result.z judged: its status, w, residual and pivots.
  const auto judge = [&](int pivots) {
    judgeAnswer(M, q, bounds.lower(n), bounds.upper(n), options.residualTolerance, pivots, result);
  };
  const auto unsolved = [&](LcpStatus status, const std::string& message) {
    result.status = status;
    result.message = message;
  };

  // Lemke's last basis is a solution's in exact arithmetic. Where floating point leaves it off by a
  // few indices and its answer outside the bound, principal pivots from the answer's support
  // (principal_pivot.h) put it right; an answer they cannot fix is reported as it was, with why.
  const auto polishFailed = [&]() {
    if (result.solved()) return;
    const PrincipalPivotResult polish =
        principalPivot(M, q, result.z, kPolishPivots, result.residualBound);
    LcpResult better = evaluateAnswer(M, q, bounds.lower(n), bounds.upper(n), polish.z,
                                      options.residualTolerance, result.steps + polish.steps);
    if (better.solved()) {
      result = std::move(better);
      return;
    }
    result.message += "; principal pivots from its support did not fix it (" +
                      (polish.settled ? better.message : polish.message) + ")";
  };

  if ((q.array() >= 0.0).all()) {  // z = 0 solves
    result.z.setZero(n);
    judge(0);
    return;
  }

  Tableau tableau(M, q, d);
  const Variables& vars = tableau.variables();
  // The rows the entering variable can block, per pivot; all of them at the first. Grown, never
  // shrunk: a resize per pivot filled the rows it added with zeros, a fiftieth of Lemke's time.
  std::vector<Eigen::Index>& candidates = scratch().candidates;
  if (candidates.size() < static_cast<std::size_t>(n))
    candidates.resize(static_cast<std::size_t>(n));
  for (Eigen::Index i = 0; i < n; ++i)
    candidates[i] = i;

  // First pivot: z0 enters at the level that makes w = q + d z0 ≥ 0; the blocking row is the
  // lexicographic minimum of [q_i, e_i] / d_i (the most negative q_i/d_i, ties broken by B⁻¹ = I):
  // z0's column is −d.
  Eigen::Index entering = vars.artificial();
  Eigen::VectorXd& column = scratch().column;
  tableau.column(entering, column);
  Eigen::Index row =
      tableau.lexicographicMinimum(candidates.data(), static_cast<std::size_t>(n), d);
  for (int pivots = 1;; ++pivots) {
    const Eigen::Index leaving = tableau.pivot(row, entering, column);
    if (leaving == vars.artificial()) {
      // The answer as the pivots left it where it passes, refined where its round-off does not.
      tableau.basicZ(result.z);
      judge(pivots);
      if (!result.solved()) {
        tableau.solutionZ(result.z);
        judge(pivots);
      }
      polishFailed();
      return;
    }
    if (pivots >= maxPivots) {
      tableau.solutionZ(result.z);
      judge(pivots);
      unsolved(LcpStatus::kPivotLimit,
               "Lemke: pivot limit of " + std::to_string(maxPivots) + " reached");
      return;
    }
    entering = vars.complement(leaving);
    tableau.column(entering, column);
    // A row may leave where its entry is positive and above the pivot tolerance (NaN: none may).
    const double floor = std::max(options.pivotTolerance * column.lpNorm<Eigen::Infinity>(), 0.0);
    // Without a branch per row: which rows pass is data, and mispredicted it cost more than the
    // test.
    std::size_t count = 0;
    for (Eigen::Index i = 0; i < n; ++i) {
      candidates[count] = i;
      count += static_cast<std::size_t>(column(i) > floor);
    }
    if (count == 0) {
      tableau.solutionZ(result.z);
      judge(pivots);
      unsolved(LcpStatus::kRayTermination,
               "Lemke: secondary ray after " + std::to_string(pivots) + " pivots (" +
                   vars.name(entering) +
                   " can increase without bound): no solution found; the LCP is "
                   "infeasible if M is copositive-plus");
      return;
    }
    row = tableau.lexicographicMinimum(candidates.data(), count, column);
  }
}

LcpResult solveLemke(const Eigen::MatrixXd& M, const Eigen::VectorXd& q,
                     const LemkeOptions& options) {
  LcpResult result;
  solveLemke(M, q, options, result);
  return result;
}

Eigen::VectorXd randomCoveringVector(Eigen::Index n, std::uint64_t seed) {
  // The first n entries of the seed's stream, kept per thread for the last seeds asked (a longer
  // stream's head is a shorter one): Halm–Posa's step LCPs ask a few seeds (one per step index and
  // attempt) hundreds of times a step, and seeding mt19937_64 and its first twist of 312 words cost
  // more than the vector (3 % of lcp mode's 300-body bin).
  struct Kept {
    std::uint64_t seed = 0;
    std::uint64_t asked = 0;  // when last asked; 0: empty
    Eigen::VectorXd entries;
  };
  thread_local std::array<Kept, kKeptCoveringSeeds> kept;
  thread_local std::uint64_t asks = 0;
  ++asks;
  Kept* slot = &kept.front();  // this seed's, else the least recently asked
  for (Kept& candidate : kept) {
    if (candidate.asked > 0 && candidate.seed == seed) {
      slot = &candidate;
      break;
    }
    if (candidate.asked < slot->asked) slot = &candidate;
  }
  if (slot->asked == 0 || slot->seed != seed || slot->entries.size() < n) {
    slot->seed = seed;
    slot->entries = coveringStream(std::max(n, kShortestCoveringStream), seed);
  }
  slot->asked = asks;
  return slot->entries.head(n);
}

}  // namespace carom::core::lcp

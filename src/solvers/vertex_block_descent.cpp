#include "solvers/vertex_block_descent.h"

#include <Eigen/Core>
#include <algorithm>
#include <cmath>
#include <limits>

#include "constraints/energy_spring.h"

namespace pbd {
namespace {

/// Vertices per range when a colour is solved in parallel; fixed, so the split never depends on the threads.
constexpr size_t kVerticesPerTask = 256;
constexpr size_t kSpringsPerTask = 2048;
/// stiffness_ of a hard constraint, which uses its penalty instead.
constexpr double kHard = -1;

Eigen::Vector3d load(const Real* p, uint32_t i) {
  return {double(p[3 * i]), double(p[3 * i + 1]), double(p[3 * i + 2])};
}

/// Solves H s = g for a symmetric positive definite 3×3 H by Cholesky (H = L Lᵀ). H is SPD here (m/h² I plus PSD
/// blocks), so the guard only catches a non-finite or non-positive pivot, which then moves nothing.
bool solveSpd3(const Eigen::Matrix3d& H, const Eigen::Vector3d& g, Eigen::Vector3d& s) {
  const double d0 = H(0, 0);
  if (!(d0 > 0)) return false;
  const double l00 = std::sqrt(d0), l10 = H(1, 0) / l00, l20 = H(2, 0) / l00;
  const double d1 = H(1, 1) - l10 * l10;
  if (!(d1 > 0)) return false;
  const double l11 = std::sqrt(d1), l21 = (H(2, 1) - l20 * l10) / l11;
  const double d2 = H(2, 2) - l20 * l20 - l21 * l21;
  if (!(d2 > 0)) return false;
  const double l22 = std::sqrt(d2);
  const double y0 = g[0] / l00, y1 = (g[1] - l10 * y0) / l11, y2 = (g[2] - l20 * y0 - l21 * y1) / l22;
  s[2] = y2 / l22;
  s[1] = (y1 - l21 * s[2]) / l11;
  s[0] = (y0 - l10 * s[1] - l20 * s[2]) / l00;
  return std::isfinite(s[0] + s[1] + s[2]);
}

bool isHard(const DistanceConstraint& s, bool xpbd) { return xpbd ? !(s.compliance > 0) : s.stiffness >= 1; }

}  // namespace

void VertexBlockDescent::build(const DistanceConstraint* springs, size_t count, size_t particleCount) {
  neighbourBegin_.assign(particleCount + 1, 0);
  for (size_t s = 0; s < count; ++s) ++neighbourBegin_[springs[s].i + 1], ++neighbourBegin_[springs[s].j + 1];
  for (size_t i = 0; i < particleCount; ++i) neighbourBegin_[i + 1] += neighbourBegin_[i];
  neighbours_.resize(neighbourBegin_[particleCount]);
  std::vector<uint32_t> next(neighbourBegin_.begin(), neighbourBegin_.end() - 1);
  for (uint32_t s = 0; s < count; ++s) {
    neighbours_[next[springs[s].i]++] = {s, springs[s].j};
    neighbours_[next[springs[s].j]++] = {s, springs[s].i};
  }
  // Greedy colouring in index order: the lowest colour no coloured neighbour has. `seen[c] == i + 1` marks colour c
  // as taken for vertex i, so the marks need no clearing.
  constexpr uint32_t kNone = std::numeric_limits<uint32_t>::max();
  std::vector<uint32_t> colour(particleCount, kNone), seen;
  uint32_t colours = 0;
  for (uint32_t i = 0; i < particleCount; ++i) {
    if (neighbourBegin_[i] == neighbourBegin_[i + 1]) continue;
    for (uint32_t k = neighbourBegin_[i]; k < neighbourBegin_[i + 1]; ++k) {
      const uint32_t c = colour[neighbours_[k].other];
      if (c != kNone) seen[c] = i + 1;
    }
    uint32_t c = 0;
    while (c < colours && seen[c] == i + 1) ++c;
    if (c == colours) ++colours, seen.push_back(0);
    colour[i] = c;
  }
  colourBegin_.assign(colours + 1, 0);
  for (uint32_t i = 0; i < particleCount; ++i)
    if (colour[i] != kNone) ++colourBegin_[colour[i] + 1];
  for (uint32_t c = 0; c < colours; ++c) colourBegin_[c + 1] += colourBegin_[c];
  order_.resize(colourBegin_[colours]);
  std::vector<uint32_t> at(colourBegin_.begin(), colourBegin_.end() - (colours > 0 ? 1 : 0));
  for (uint32_t i = 0; i < particleCount; ++i)
    if (colour[i] != kNone) order_[at[colour[i]]++] = i;
  if (penalty_.size() != count) penalty_.assign(count, 0);
  stiffness_.resize(count), inertia_.resize(count);
  phaseSizes_.resize(colours + 1), phaseMinRanges_.resize(colours + 1);
  dirty = false;
}

void VertexBlockDescent::resetPenalties() { std::fill(penalty_.begin(), penalty_.end(), 0.0); }

void VertexBlockDescent::beginSubstep(const DistanceConstraint* springs, const Real* w, bool xpbd, double invH2) {
  for (size_t s = 0; s < stiffness_.size(); ++s) {
    const DistanceConstraint& c = springs[s];
    const double wi = w[c.i], wj = w[c.j];
    // m̄: the mean mass of the free particles (a spring between two pins does nothing; give it any scale).
    const double mass = wi > 0 && wj > 0 ? 0.5 * (1 / wi + 1 / wj) : wi > 0 ? 1 / wi : wj > 0 ? 1 / wj : 1;
    const double inertia = mass * invH2, cap = kVbdMaxStiffnessRatio * inertia;
    inertia_[s] = inertia;
    if (isHard(c, xpbd)) {
      stiffness_[s] = kHard;
      const double kept = std::isfinite(penalty_[s]) ? penalty_[s] * kVbdWarmStartDecay : 0;
      penalty_[s] = std::clamp(kept, kVbdStartPenaltyRatio * inertia, cap);
    } else if (xpbd) {
      stiffness_[s] = std::min(1 / double(c.compliance), cap);
    } else {
      const double k = c.stiffness > 0 ? double(c.stiffness) : 0;
      stiffness_[s] = std::min(k / (1 - k), kVbdMaxStiffnessRatio) * inertia;
    }
  }
}

void VertexBlockDescent::solveVertex(uint32_t i, Real* p, const Real* inertial, const Real* w,
                                     const DistanceConstraint* springs, double invH2) const {
  if (!(w[i] > 0)) return;  // pinned
  const double inertia = invH2 / double(w[i]);
  const Eigen::Vector3d x = load(p, i);
  Eigen::Vector3d gradient = inertia * (x - load(inertial, i));
  Eigen::Matrix3d hessian = inertia * Eigen::Matrix3d::Identity();
  for (uint32_t k = neighbourBegin_[i]; k < neighbourBegin_[i + 1]; ++k) {
    const uint32_t s = neighbours_[k].spring;
    const DistanceConstraint& c = springs[s];
    const double stiffness = stiffness_[s] == kHard ? penalty_[s] : stiffness_[s];
    addSpringVertexBlock(x, load(p, neighbours_[k].other), c.minLength, c.maxLength, stiffness, 0, gradient, hessian);
  }
  Eigen::Vector3d step;
  if (!solveSpd3(hessian, gradient, step)) return;
  for (int a = 0; a < 3; ++a) p[3 * i + a] = Real(x[a] - step[a]);
}

void VertexBlockDescent::growPenalty(uint32_t s, const Real* p, const DistanceConstraint* springs) {
  if (stiffness_[s] != kHard) return;
  const DistanceConstraint& c = springs[s];
  const double violation = springConstraint(load(p, c.i), load(p, c.j), c.minLength, c.maxLength);
  const double length = std::max(double(c.maxLength), 1e-6);
  penalty_[s] = std::min(penalty_[s] + kVbdPenaltyGrowth * inertia_[s] * std::abs(violation) / length,
                         kVbdMaxStiffnessRatio * inertia_[s]);
}

void VertexBlockDescent::iterate(Real* p, const Real* inertial, const Real* w, const DistanceConstraint* springs,
                                 double invH2, TaskSystem& tasks) {
  const size_t colours = colourCount(), penaltyPhase = colours;
  for (size_t c = 0; c < colours; ++c) {
    phaseSizes_[c] = colourBegin_[c + 1] - colourBegin_[c];
    phaseMinRanges_[c] = kVerticesPerTask;
  }
  phaseSizes_[penaltyPhase] = stiffness_.size();
  phaseMinRanges_[penaltyPhase] = kSpringsPerTask;
  auto body = [&](size_t phase, size_t b, size_t e) {
    if (phase == penaltyPhase) {
      for (size_t s = b; s < e; ++s) growPenalty(uint32_t(s), p, springs);
    } else {
      for (size_t k = colourBegin_[phase] + b; k < colourBegin_[phase] + e; ++k)
        solveVertex(order_[k], p, inertial, w, springs, invH2);
    }
  };
  // At most kMaxPhases a call; more colours (rare: a dense tet mesh) run as several calls, in the same order.
  for (size_t first = 0; first <= colours; first += TaskSystem::kMaxPhases) {
    const size_t n = std::min(TaskSystem::kMaxPhases, colours + 1 - first);
    auto shifted = [&](size_t phase, size_t b, size_t e) { body(first + phase, b, e); };
    tasks.parallelPhases(n, phaseSizes_.data() + first, phaseMinRanges_.data() + first, shifted);
  }
}

}  // namespace pbd

// The direct solve of one rod's constraints (rod_direct_solve.h): assemble the banded system in double, factor it by
// banded Cholesky, substitute, apply.
#include "solvers/rod_direct_solve.h"

#include <algorithm>
#include <cmath>

namespace pbd {
namespace {

constexpr int kBand = 8;  // half bandwidth in scalars: 3 × 3 blocks at most two block rows apart
constexpr int kRow = kBand + 1;
constexpr double kMaxTurn = 0.5;  // rad: the largest turn of a frame in one solve (see solveRodDirect)

using Mat3d = Eigen::Matrix3d;
using Vec3d = Eigen::Vector3d;

/// Adds block (r, c), c ≤ r, of the symmetric matrix to its lower band.
void addBlock(double* band, uint32_t r, uint32_t c, const Mat3d& m) {
  for (int a = 0; a < 3; ++a) {
    for (int b = 0; b < 3; ++b) {
      const int64_t i = 3 * int64_t(r) + a, j = 3 * int64_t(c) + b;
      if (j <= i) band[size_t(i * kRow + (j - i + kBand))] += m(a, b);
    }
  }
}

/// In place: the band's lower Cholesky factor L, each diagonal entry stored as 1 / L(i, i) (a multiply where the
/// substitutions would divide), then Δλ = A⁻¹ rhs in rhs. A pivot that is not positive belongs to a row no free
/// particle or frame takes part in (a rigid constraint between pins): it gets 1, and its Δλ moves nothing.
void choleskySolve(double* const a, double* const rhs, int64_t n) {
  auto row = [a](int64_t i) { return a + i * kRow + kBand - i; };  // row(i)[j] = L(i, j), j in [i − kBand, i]
  for (int64_t i = 0; i < n; ++i) {
    double* const li = row(i);
    const int64_t first = std::max<int64_t>(0, i - kBand);
    for (int64_t j = first; j <= i; ++j) {
      const double* const lj = row(j);
      // Two sums, even and odd k: the inner loop is a chain of dependent subtractions, and two halve its latency.
      double s = li[j], t = 0;
      int64_t k = first;
      for (; k + 1 < j; k += 2) s -= li[k] * lj[k], t += li[k + 1] * lj[k + 1];
      if (k < j) s -= li[k] * lj[k];
      s -= t;
      if (j < i) {
        li[j] = s * lj[j];
      } else {
        li[i] = s > 0 && std::isfinite(s) ? 1 / std::sqrt(s) : 1;
      }
    }
  }
  for (int64_t i = 0; i < n; ++i) {
    const double* const li = row(i);
    double s = rhs[i];
    for (int64_t k = std::max<int64_t>(0, i - kBand); k < i; ++k) s -= li[k] * rhs[k];
    rhs[i] = s * li[i];
  }
  for (int64_t i = n - 1; i >= 0; --i) {
    double s = rhs[i];
    for (int64_t k = i + 1; k <= std::min(n - 1, i + kBand); ++k) s -= row(k)[i] * rhs[k];
    rhs[i] = s * row(i)[i];
  }
}

}  // namespace

void RodSolveScratch::reserve(uint32_t segments) {
  if (band.size() < 6 * size_t(segments) * kRow) band.resize(6 * size_t(segments) * kRow), rhs.resize(6 * size_t(segments));
  if (jacobian.size() < 3 * size_t(segments)) jacobian.resize(3 * size_t(segments)), turn.resize(segments);
}

void solveRodDirect(const RodView& rod, Real invH2, RodSolveScratch& scratch) {
  const uint32_t n = rod.segmentCount;
  const int64_t rows = 3 * (2 * int64_t(n) - 1);
  // The rod's own part of the scratch (6 rows, 3 Jacobians and a turn per segment): rods may be solved in parallel.
  double* const band = scratch.band.data() + 6 * size_t(rod.firstSegment) * kRow;
  double* const rhs = scratch.rhs.data() + 6 * size_t(rod.firstSegment);
  Mat3d* const jac = scratch.jacobian.data() + 3 * size_t(rod.firstSegment);  // per segment k: [3k] = Rᵀ,
  Vec3d* const turns = scratch.turn.data() + rod.firstSegment;               // [3k + 1] = ∂γ/∂θ; joint k: [3k + 2] = B
  std::fill(band, band + rows * kRow, 0.0);
  auto inverseInertia = [&](uint32_t k) { return double(rod.segments[k].inverseInertia); };
  for (uint32_t k = 0; k < n; ++k) {
    const RodSegment& s = rod.segments[k];
    const StretchShear c = stretchShear(rod.p[s.p0], rod.p[s.p1], rod.q[k], s.restLength);
    const double l = s.restLength;
    const Mat3d& rt = c.frameTranspose;
    jac[3 * k] = rt, jac[3 * k + 1] = c.turn;
    const Vec3d& gamma = c.gamma;
    const Vec3d alpha = s.compliance.cast<double>() * double(invH2);
    for (int a = 0; a < 3; ++a) rhs[6 * k + a] = -gamma[a] - alpha[a] * double(rod.stretchLambda[k][a]);
    const Mat3d diagonal = (double(rod.w[s.p0]) + double(rod.w[s.p1])) / (l * l) * Mat3d::Identity() +
                           inverseInertia(k) * jac[3 * k + 1] * jac[3 * k + 1].transpose() +
                           Mat3d(alpha.asDiagonal());
    addBlock(band, 2 * k, 2 * k, diagonal);
    if (k > 0) {  // shares p0 with the last segment's p1
      const RodSegment& before = rod.segments[k - 1];
      addBlock(band, 2 * k, 2 * k - 2,
               -double(rod.w[s.p0]) / (l * double(before.restLength)) * rt * jac[3 * k - 3].transpose());
    }
  }
  for (uint32_t k = 0; k + 1 < n; ++k) {
    const RodJoint& j = rod.joints[k];
    const BendTwist bt = bendTwist(rod.q[k], rod.q[k + 1], j.restDarboux);
    const Mat3d& b = bt.b;
    jac[3 * k + 2] = b;
    const Vec3d alpha = j.compliance.cast<double>() * double(invH2);
    for (int a = 0; a < 3; ++a) rhs[6 * k + 3 + a] = -bt.c[a] - alpha[a] * double(rod.bendLambda[k][a]);
    addBlock(band, 2 * k + 1, 2 * k + 1,
             (inverseInertia(k) + inverseInertia(k + 1)) * b * b.transpose() + Mat3d(alpha.asDiagonal()));
    addBlock(band, 2 * k + 1, 2 * k, -inverseInertia(k) * b * jac[3 * k + 1].transpose());
    addBlock(band, 2 * k + 2, 2 * k + 1, inverseInertia(k + 1) * jac[3 * k + 4] * b.transpose());
    if (k > 0) addBlock(band, 2 * k + 1, 2 * k - 1, -inverseInertia(k) * b * jac[3 * k - 1].transpose());
  }
  choleskySolve(band, rhs, rows);

  // The frames' turns, then the whole step scaled so that none turns by more than kMaxTurn: a trust region. The step is
  // linear in the turns, so a rigid attachment tearing at a thin rod (light frames, a strain far from linear) could ask
  // a frame for a turn of radians, which the linearization gets wrong, and the next step would undo with interest.
  auto dLambda = [&](uint32_t block) { return Vec3d(rhs + 3 * size_t(block)); };
  double largest = 0;
  for (uint32_t k = 0; k < n; ++k) {
    Vec3d& turn = turns[k];
    turn = jac[3 * k + 1].transpose() * dLambda(2 * k);
    if (k + 1 < n) turn -= jac[3 * k + 2].transpose() * dLambda(2 * k + 1);
    if (k > 0) turn += jac[3 * k - 1].transpose() * dLambda(2 * k - 1);
    turn *= inverseInertia(k);
    largest = std::max(largest, turn.norm());
  }
  const double scale = largest > kMaxTurn ? kMaxTurn / largest : 1;
  for (uint32_t k = 0; k < n; ++k) {
    const RodSegment& s = rod.segments[k];
    const Vec3d stretch = scale * dLambda(2 * k);
    rod.stretchLambda[k] += stretch.cast<Real>();
    const Vec3d push = jac[3 * k].transpose() * stretch / double(s.restLength);
    rod.p[s.p0] -= (double(rod.w[s.p0]) * push).cast<Real>();
    rod.p[s.p1] += (double(rod.w[s.p1]) * push).cast<Real>();
    if (k + 1 < n) rod.bendLambda[k] += (scale * dLambda(2 * k + 1)).cast<Real>();
    rod.q[k] = turnedFrame(rod.q[k], scale * turns[k]);
  }
}

}  // namespace pbd

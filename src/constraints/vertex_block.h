// The sums a Vertex Block Descent step gathers at one vertex: the gradient g (3) and the symmetric 3×3 Hessian H
// (its 6 distinct entries), kept as plain doubles so that the gather stays in registers.
#pragma once

#include <Eigen/Core>
#include <cmath>

namespace pbd {

struct VertexBlock {
  double g[3] = {0, 0, 0};
  double h[6] = {0, 0, 0, 0, 0, 0};  ///< H00, H01, H02, H11, H12, H22

  /// g += grad, H += hess (hess symmetric: its upper triangle is read).
  void add(const Eigen::Vector3d& grad, const Eigen::Matrix3d& hess) {
    for (int a = 0; a < 3; ++a) g[a] += grad[a];
    h[0] += hess(0, 0), h[1] += hess(0, 1), h[2] += hess(0, 2), h[3] += hess(1, 1), h[4] += hess(1, 2),
        h[5] += hess(2, 2);
  }
  Eigen::Vector3d gradient() const { return {g[0], g[1], g[2]}; }
  Eigen::Matrix3d hessian() const {
    Eigen::Matrix3d m;
    m << h[0], h[1], h[2], h[1], h[3], h[4], h[2], h[4], h[5];
    return m;
  }
};

/// Solves H s = g for a symmetric positive definite H by Cholesky (H = L Lᵀ). False, and s untouched, on a
/// non-positive or non-finite pivot or result.
inline bool solveVertexBlock(const VertexBlock& b, double s[3]) {
  const double d0 = b.h[0];
  if (!(d0 > 0)) return false;
  const double l00 = std::sqrt(d0), l10 = b.h[1] / l00, l20 = b.h[2] / l00;
  const double d1 = b.h[3] - l10 * l10;
  if (!(d1 > 0)) return false;
  const double l11 = std::sqrt(d1), l21 = (b.h[4] - l20 * l10) / l11;
  const double d2 = b.h[5] - l20 * l20 - l21 * l21;
  if (!(d2 > 0)) return false;
  const double l22 = std::sqrt(d2);
  const double y0 = b.g[0] / l00, y1 = (b.g[1] - l10 * y0) / l11, y2 = (b.g[2] - l20 * y0 - l21 * y1) / l22;
  const double s2 = y2 / l22, s1 = (y1 - l21 * s2) / l11, s0 = (y0 - l10 * s1 - l20 * s2) / l00;
  if (!std::isfinite(s0 + s1 + s2)) return false;
  s[0] = s0, s[1] = s1, s[2] = s2;
  return true;
}

}  // namespace pbd

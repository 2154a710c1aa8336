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

/// Solves H s = g for a symmetric positive definite H by its adjugate, s = adj(H) g / det H: one division and no
/// square root, where a Cholesky factorization chains three of each (the vertex steps' latency). H is checked
/// positive definite by its leading minors (Sylvester: H00, H00 H11 - H01², det H all > 0). False, and s untouched, on
/// a matrix that is not, or a non-finite result.
inline bool solveVertexBlock(const VertexBlock& b, double s[3]) {
  const double a = b.h[0], h01 = b.h[1], h02 = b.h[2], d = b.h[3], h12 = b.h[4], f = b.h[5];
  const double c00 = d * f - h12 * h12, c01 = h02 * h12 - h01 * f, c02 = h01 * h12 - h02 * d;
  const double c11 = a * f - h02 * h02, c12 = h01 * h02 - a * h12, c22 = a * d - h01 * h01;
  const double det = a * c00 + h01 * c01 + h02 * c02;
  if (!(a > 0 && c22 > 0 && det > 0)) return false;
  const double inv = 1 / det;
  const double s0 = (c00 * b.g[0] + c01 * b.g[1] + c02 * b.g[2]) * inv;
  const double s1 = (c01 * b.g[0] + c11 * b.g[1] + c12 * b.g[2]) * inv;
  const double s2 = (c02 * b.g[0] + c12 * b.g[1] + c22 * b.g[2]) * inv;
  if (!std::isfinite(s0 + s1 + s2)) return false;
  s[0] = s0, s[1] = s1, s[2] = s2;
  return true;
}

}  // namespace pbd

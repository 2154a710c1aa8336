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
/// positive definite by its leading minors (Sylvester: H00, H00 H11 - H01², det H all > 0), and s finite (s - s is 0
/// only for a finite s). Lane by lane for T = double or Double2 (math/wide_double.h), the same IEEE operations in
/// the same order, so every lane type gives a block the same bits. h: H00 H01 H02 H11 H12 H22; returns where it
/// solved (elsewhere s holds garbage).
template <class T>
[[gnu::always_inline]] inline auto solveVertexBlockLanes(const T (&h)[6], const T (&g)[3], T (&s)[3]) {
  const T a = h[0], h01 = h[1], h02 = h[2], d = h[3], h12 = h[4], f = h[5];
  const T c00 = d * f - h12 * h12, c01 = h02 * h12 - h01 * f, c02 = h01 * h12 - h02 * d;
  const T c11 = a * f - h02 * h02, c12 = h01 * h02 - a * h12, c22 = a * d - h01 * h01;
  const T det = a * c00 + h01 * c01 + h02 * c02;
  const T zero = T(0), inv = T(1) / det;
  s[0] = (c00 * g[0] + c01 * g[1] + c02 * g[2]) * inv;
  s[1] = (c01 * g[0] + c11 * g[1] + c12 * g[2]) * inv;
  s[2] = (c02 * g[0] + c12 * g[1] + c22 * g[2]) * inv;
  const T sum = s[0] + s[1] + s[2];
  return (a > zero) & (c22 > zero) & (det > zero) & (sum - sum == zero);
}

/// A vertex step's inertia term added to its elements' sums g (3) and h (6): g += m/h² (x - y), H += m/h² I, with
/// inertia = m/h², x the vertex and y its inertial target; lane by lane as solveVertexBlockLanes.
template <class T>
[[gnu::always_inline]] inline void addVertexInertia(T inertia, const T* x, const T* y, T* g, T* h) {
  for (int a = 0; a < 3; ++a) g[a] = g[a] + inertia * (x[a] - y[a]);
  h[0] = h[0] + inertia, h[3] = h[3] + inertia, h[5] = h[5] + inertia;
}

/// solveVertexBlockLanes for one block: false, and s untouched, where it does not solve.
inline bool solveVertexBlock(const VertexBlock& b, double s[3]) {
  double step[3];
  if (!solveVertexBlockLanes(b.h, b.g, step)) return false;
  s[0] = step[0], s[1] = step[1], s[2] = step[2];
  return true;
}

}  // namespace pbd

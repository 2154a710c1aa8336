// Sums of products in one fixed order, for the double-precision energy kernels of Vertex Block Descent. The core
// promises the same bits natively, in wasm and on Arm (docs/determinism.md); Eigen vectorizes double reductions and
// products with SSE natively but not in wasm, which changes their summation order. So every sum of products the
// kernels need is written out here; element-wise Eigen operations, cross and outer products are single IEEE
// operations per entry and need no such care.
#pragma once

#include <Eigen/Core>

namespace pbd {

/// a·b summed as (a0 b0 + a1 b1) + a2 b2 in every build. |d| is sqrt(orderedDot(d, d)).
inline double orderedDot(const Eigen::Vector3d& a, const Eigen::Vector3d& b) {
  return (a[0] * b[0] + a[1] * b[1]) + a[2] * b[2];
}

/// M v, each entry an orderedDot.
inline Eigen::Vector3d orderedProduct(const Eigen::Matrix3d& M, const Eigen::Vector3d& v) {
  Eigen::Vector3d r;
  for (int i = 0; i < 3; ++i) r[i] = (M(i, 0) * v[0] + M(i, 1) * v[1]) + M(i, 2) * v[2];
  return r;
}

/// A B, each entry an orderedDot.
inline Eigen::Matrix3d orderedMatrixProduct(const Eigen::Matrix3d& A, const Eigen::Matrix3d& B) {
  Eigen::Matrix3d r;
  for (int j = 0; j < 3; ++j) r.col(j) = orderedProduct(A, Eigen::Vector3d(B.col(j)));
  return r;
}

/// det M = m0 · (m1 × m2) over the columns.
inline double orderedDeterminant(const Eigen::Matrix3d& M) {
  return orderedDot(M.col(0), Eigen::Vector3d(M.col(1).cross(M.col(2))));
}

}  // namespace pbd

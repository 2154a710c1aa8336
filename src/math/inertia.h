// Inertia tensors of particle sets and their inverse on the range, shared by the rigid-motion damping
// (rigid_damping.cpp) and the angular momentum guard of internal constraints (internal_momentum.cpp).
//   I = Σ m_i (|r_i|² 1 − r_i r_iᵀ),   r_i = x_i − x_cm   (kg m²)
// I is singular for particles on a line (a rope): I⁺ inverts it on its range only, so a body on a line gets no
// rotation about the line itself.
#pragma once

#include <Eigen/Core>
#include <Eigen/Eigenvalues>
#include <algorithm>

namespace pbd {

/// m (|r|² 1 − r rᵀ): one particle's share of an inertia tensor about the point r is measured from.
inline Eigen::Matrix3d particleInertia(double m, const Eigen::Vector3d& r) {
  return m * (r.squaredNorm() * Eigen::Matrix3d::Identity() - r * r.transpose());
}

/// I⁺: the inverse of the symmetric positive semi-definite I on the span of its eigenvectors whose eigenvalues exceed
/// 1e-9 of the largest; zero on the rest. Eigen's iterative 3x3 solver uses no transcendental functions, so native and
/// wasm builds compute the same bits.
inline Eigen::Matrix3d inverseOnRange(const Eigen::Matrix3d& I) {
  Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d> eig(I);
  const Eigen::Vector3d ev = eig.eigenvalues();
  const double cutoff = 1e-9 * std::max(ev.maxCoeff(), 1e-300);
  Eigen::Vector3d inverse;
  for (int a = 0; a < 3; ++a) inverse[a] = ev[a] > cutoff ? 1.0 / ev[a] : 0.0;
  return eig.eigenvectors() * inverse.asDiagonal() * eig.eigenvectors().transpose();
}

}  // namespace pbd

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

/// Σ m (|r|² 1 − r rᵀ) over particles, r measured from the point the tensor is about, summed entry by entry in
/// doubles (its six distinct entries; each term formed as the matrix expression forms it, so the same bits): summed
/// as an Eigen matrix, the sum went through memory at every particle.
struct InertiaSum {
  double xx = 0, yy = 0, zz = 0, xy = 0, xz = 0, yz = 0;

  void add(double m, const Eigen::Vector3d& r) {
    const double r2 = r.squaredNorm();
    xx += m * (r2 - r.x() * r.x()), yy += m * (r2 - r.y() * r.y()), zz += m * (r2 - r.z() * r.z());
    xy += m * (0.0 - r.x() * r.y()), xz += m * (0.0 - r.x() * r.z()), yz += m * (0.0 - r.y() * r.z());
  }
  Eigen::Matrix3d matrix() const {
    Eigen::Matrix3d I;
    I << xx, xy, xz, xy, yy, yz, xz, yz, zz;
    return I;
  }
};

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

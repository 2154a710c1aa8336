#include "world/rigid_damping.h"

#include <Eigen/Eigenvalues>

namespace pbd {

void dampNonRigidMotion(const Real* x, Real* v, const Real* inverseMass, uint32_t begin, uint32_t end, Real k) {
  using Vec3d = Eigen::Vector3d;
  // Sums in double: a body has up to millions of particles and the rigid part must cancel exactly enough.
  double mass = 0;
  Vec3d xcm = Vec3d::Zero(), vcm = Vec3d::Zero();
  for (uint32_t i = begin; i < end; ++i) {
    if (inverseMass[i] == 0) continue;
    const double m = 1.0 / inverseMass[i];
    mass += m;
    xcm += m * Vec3d(x[3 * i], x[3 * i + 1], x[3 * i + 2]);
    vcm += m * Vec3d(v[3 * i], v[3 * i + 1], v[3 * i + 2]);
  }
  if (mass == 0) return;
  xcm /= mass;
  vcm /= mass;
  Vec3d L = Vec3d::Zero();
  Eigen::Matrix3d I = Eigen::Matrix3d::Zero();
  for (uint32_t i = begin; i < end; ++i) {
    if (inverseMass[i] == 0) continue;
    const double m = 1.0 / inverseMass[i];
    const Vec3d r = Vec3d(x[3 * i], x[3 * i + 1], x[3 * i + 2]) - xcm;
    L += m * r.cross(Vec3d(v[3 * i], v[3 * i + 1], v[3 * i + 2]));
    // r̃ r̃ᵀ = |r|² 1 - r rᵀ
    I += m * (r.squaredNorm() * Eigen::Matrix3d::Identity() - r * r.transpose());
  }
  // I is singular for a body on a line (a rope): invert only on its range, so ω has no component along the line.
  Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d> eig(I);
  const Vec3d ev = eig.eigenvalues();
  const double cutoff = 1e-9 * std::max(ev.maxCoeff(), 1e-300);
  Vec3d invEv;
  for (int a = 0; a < 3; ++a) invEv[a] = ev[a] > cutoff ? 1.0 / ev[a] : 0.0;
  const Vec3d omega = eig.eigenvectors() * invEv.asDiagonal() * eig.eigenvectors().transpose() * L;
  for (uint32_t i = begin; i < end; ++i) {
    if (inverseMass[i] == 0) continue;
    const Vec3d r = Vec3d(x[3 * i], x[3 * i + 1], x[3 * i + 2]) - xcm;
    const Vec3d rigid = vcm + omega.cross(r);
    for (int a = 0; a < 3; ++a) v[3 * i + a] += Real(k * (rigid[a] - v[3 * i + a]));
  }
}

}  // namespace pbd

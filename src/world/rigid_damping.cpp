#include "world/rigid_damping.h"

#include "math/inertia.h"

namespace pbd {

void dampNonRigidMotion(const Real* x, Real* v, const Real* inverseMass, const uint8_t* held, uint32_t begin,
                        uint32_t end, Real k) {
  auto leftOut = [&](uint32_t i) { return inverseMass[i] == 0 || (held && held[i]); };
  using Vec3d = Eigen::Vector3d;
  // Sums in double: a body has up to millions of particles and the rigid part must cancel exactly enough.
  double mass = 0;
  Vec3d xcm = Vec3d::Zero(), vcm = Vec3d::Zero();
  for (uint32_t i = begin; i < end; ++i) {
    if (leftOut(i)) continue;
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
    if (leftOut(i)) continue;
    const double m = 1.0 / inverseMass[i];
    const Vec3d r = Vec3d(x[3 * i], x[3 * i + 1], x[3 * i + 2]) - xcm;
    L += m * r.cross(Vec3d(v[3 * i], v[3 * i + 1], v[3 * i + 2]));
    I += particleInertia(m, r);
  }
  // I is singular for a body on a line (a rope): ω gets no component along the line.
  const Vec3d omega = inverseOnRange(I) * L;
  for (uint32_t i = begin; i < end; ++i) {
    if (leftOut(i)) continue;
    const Vec3d r = Vec3d(x[3 * i], x[3 * i + 1], x[3 * i + 2]) - xcm;
    const Vec3d rigid = vcm + omega.cross(r);
    for (int a = 0; a < 3; ++a) v[3 * i + a] += Real(k * (rigid[a] - v[3 * i + a]));
  }
}

}  // namespace pbd

#include "world/rigid_damping.h"

#include "math/inertia.h"

namespace pbd {

void dampNonRigidMotion(const Real* x, Real* v, const Real* inverseMass, const uint8_t* held, uint32_t begin,
                        uint32_t end, Real k) {
  using Vec3d = Eigen::Vector3d;
  auto leftOut = [&](uint32_t i) { return inverseMass[i] == 0 || (held && held[i]); };
  // One pass of sums about the origin, in double and written out in a fixed order (the same bits natively and in
  // wasm): a body has up to millions of particles and the rigid part must cancel exactly enough. About the centre
  // c (M = Σ m): L = Σ m x × v − M c × v_cm and Σ m r rᵀ = Σ m x xᵀ − M c cᵀ; the cancellation costs |c|² / size²
  // of double's 1e-16, nothing for any scene in reach of float positions.
  double mass = 0, xx = 0, yy = 0, zz = 0, xy = 0, xz = 0, yz = 0;
  Vec3d mx = Vec3d::Zero(), mv = Vec3d::Zero(), mxv = Vec3d::Zero();
  for (uint32_t i = begin; i < end; ++i) {
    if (leftOut(i)) continue;
    const double m = 1.0 / inverseMass[i];
    const double px = x[3 * i], py = x[3 * i + 1], pz = x[3 * i + 2];
    const double vx = v[3 * i], vy = v[3 * i + 1], vz = v[3 * i + 2];
    mass += m;
    mx[0] += m * px, mx[1] += m * py, mx[2] += m * pz;
    mv[0] += m * vx, mv[1] += m * vy, mv[2] += m * vz;
    mxv[0] += m * (py * vz - pz * vy), mxv[1] += m * (pz * vx - px * vz), mxv[2] += m * (px * vy - py * vx);
    xx += m * px * px, yy += m * py * py, zz += m * pz * pz;
    xy += m * px * py, xz += m * px * pz, yz += m * py * pz;
  }
  if (mass == 0) return;
  const Vec3d c = mx / mass, vcm = mv / mass;
  const Vec3d L = mxv - mass * c.cross(vcm);
  // Σ m r rᵀ about c, then I = tr(·) 1 − (·).
  const double cxx = xx - mass * c[0] * c[0], cyy = yy - mass * c[1] * c[1], czz = zz - mass * c[2] * c[2];
  const double cxy = xy - mass * c[0] * c[1], cxz = xz - mass * c[0] * c[2], cyz = yz - mass * c[1] * c[2];
  Eigen::Matrix3d I;
  I << cyy + czz, -cxy, -cxz, -cxy, cxx + czz, -cyz, -cxz, -cyz, cxx + cyy;
  // I is singular for a body on a line (a rope): ω gets no component along the line.
  const Eigen::Matrix3d inverse = inverseOnRange(I);
  Vec3d omega;
  for (int a = 0; a < 3; ++a) omega[a] = (inverse(a, 0) * L[0] + inverse(a, 1) * L[1]) + inverse(a, 2) * L[2];
  // The rigid velocity field v_cm + ω × (x − c) in float: the sums needed double, a velocity does not.
  const Real cx = Real(c[0]), cy = Real(c[1]), cz = Real(c[2]);
  const Real wx = Real(omega[0]), wy = Real(omega[1]), wz = Real(omega[2]);
  const Real ux = Real(vcm[0]), uy = Real(vcm[1]), uz = Real(vcm[2]);
  for (uint32_t i = begin; i < end; ++i) {
    if (leftOut(i)) continue;
    const Real rx = x[3 * i] - cx, ry = x[3 * i + 1] - cy, rz = x[3 * i + 2] - cz;
    Real* vi = v + 3 * i;
    vi[0] += k * ((ux + (wy * rz - wz * ry)) - vi[0]);
    vi[1] += k * ((uy + (wz * rx - wx * rz)) - vi[1]);
    vi[2] += k * ((uz + (wx * ry - wy * rx)) - vi[2]);
  }
}

}  // namespace pbd

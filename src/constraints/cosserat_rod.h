// Cosserat rod constraints (Kugelstadt and Schömer 2016, "Position and Orientation Based Cosserat Rods"): a rod is a
// chain of particles with one orientation q per segment, whose third director d3 = q e3 q̄ is the direction the segment
// should point along; d1, d2 (q e1 q̄, q e2 q̄) carry its twist.
//
// Stretch–shear, per segment (p0, p1, q), rest length l, eq. 31–37:
//   Γ = (p1 − p0) / l − d3(q)                     3 components, dimensionless
//   ∇p0 Γ = −I / l,  ∇p1 Γ = I / l,  Δq = −2 w_q [Δλ, 0] q ē3   (ē3 = (0; 0, 0, −1), q normalized afterwards)
//   Σ w |∇Γ|² = (w0 + w1) / l² + 4 w_q            the same for every component
// Bend–twist, per pair of neighbouring segments (q0, q1), eq. 38–43:
//   Ω = Im(q̄0 q1)                                the discrete Darboux vector, in q0's frame (sin(θ/2) about the
//                                                  relative rotation's axis: ≈ κ l / 2 for a curvature κ over l)
//   C = Ω − s Ω0,  s = ±1 whichever is nearer      (q1 and −q1 are one rotation)
//   Δq0 = −w_q0 q1 [Δλ, 0],  Δq1 = w_q1 q0 [Δλ, 0],  Σ w |∇C|² = w_q0 + w_q1
// Both take the XPBD (or PBD) step of constraints/multiplier.h component by component, in the segment's own frame,
// where the material's compliance is diagonal: with an energy ½ l Γᵀ diag(k_s, k_s, k_e) Γ (shear and stretch
// stiffnesses k_s = κ G A, k_e = E A, N), stretch–shear's compliance is 1 / (l k); with ½ l κᵀ diag(E I1, E I2, G J) κ
// and Ω ≈ κ l / 2, bend–twist's is l / (4 B) per component (B in N m²).
#pragma once

#include <algorithm>
#include <cmath>

#include <Eigen/Geometry>

#include "constraints/multiplier.h"
#include "pbd/real.h"

namespace pbd {

using Quat = Eigen::Quaternion<Real, Eigen::DontAlign>;  // as pbd/colliders.h has it

/// d3 = q e3 q̄, the segment's third director (unit when q is).
inline Vec3 thirdDirector(const Quat& q) {
  return Vec3(2 * (q.x() * q.z() + q.w() * q.y()), 2 * (q.y() * q.z() - q.w() * q.x()),
              q.w() * q.w() - q.x() * q.x() - q.y() * q.y() + q.z() * q.z());
}

/// Ω = Im(q̄0 q1), the discrete Darboux vector of two neighbouring segments' frames, in q0's frame.
inline Vec3 darbouxVector(const Quat& q0, const Quat& q1) { return (q0.conjugate() * q1).vec(); }

/// Projects one segment's stretch–shear constraint in place (see the top of the file). alphaTilde: α / h² per
/// component of the segment's frame (d1, d2: shear; d3: stretch); lambda: the multipliers in that frame, accumulated.
/// A segment whose particles and frame are all fixed (w0 = w1 = w_q = 0) is left alone.
inline void projectStretchShear(Vec3& p0, Vec3& p1, Quat& q, Real w0, Real w1, Real wq, Real restLength, bool xpbd,
                                Real kPrime, const Vec3& alphaTilde, Vec3& lambda) {
  const Real invL = 1 / restLength;
  const Real weight = (w0 + w1) * invL * invL + 4 * wq;
  if (!(weight > 0)) return;
  const Eigen::Matrix<Real, 3, 3> frame = q.toRotationMatrix();  // columns d1, d2, d3
  const Vec3 gamma = frame.transpose() * (Vec3((p1 - p0) * invL) - frame.col(2));
  Vec3 step;
  for (int a = 0; a < 3; ++a) {
    step[a] = multiplierStep(gamma[a], weight, xpbd, kPrime, alphaTilde[a], lambda[a]);
    lambda[a] += step[a];
  }
  const Vec3 dLambda = frame * step;  // in the world frame
  p0 -= (w0 * invL) * dLambda;
  p1 += (w1 * invL) * dLambda;
  if (wq == 0) return;
  const Quat qE3Bar(q.z(), -q.y(), q.x(), -q.w());  // q ē3, without a full product
  const Quat turn = Quat(0, dLambda.x(), dLambda.y(), dLambda.z()) * qE3Bar;
  q.coeffs() -= (2 * wq) * turn.coeffs();
  q.normalize();
}

/// Projects the bend–twist constraint between two neighbouring segments' frames in place (see the top of the file).
/// restDarboux: Ω0, the pair's Darboux vector at rest; alphaTilde, lambda: per component of q0's frame.
inline void projectBendTwist(Quat& q0, Quat& q1, Real wq0, Real wq1, const Vec3& restDarboux, bool xpbd, Real kPrime,
                             const Vec3& alphaTilde, Vec3& lambda) {
  const Real weight = wq0 + wq1;
  if (!(weight > 0)) return;
  const Quat omega = q0.conjugate() * q1;
  const Vec3 minus = omega.vec() - restDarboux, plus = omega.vec() + restDarboux;
  // q1 → −q1 flips the scalar part too: the nearer of ±(w0, Ω0) by the whole quaternion, w0 = √(1 − |Ω0|²) ≥ 0.
  const Real restW = std::sqrt(std::max(Real(0), 1 - restDarboux.squaredNorm()));
  const Real wMinus = omega.w() - restW, wPlus = omega.w() + restW;
  const bool flipped = plus.squaredNorm() + wPlus * wPlus < minus.squaredNorm() + wMinus * wMinus;
  const Vec3 C = flipped ? plus : minus;
  Vec3 step;
  for (int a = 0; a < 3; ++a) {
    step[a] = multiplierStep(C[a], weight, xpbd, kPrime, alphaTilde[a], lambda[a]);
    lambda[a] += step[a];
  }
  const Quat s(0, step.x(), step.y(), step.z());
  const Quat turn0 = q1 * s, turn1 = q0 * s;  // both from the frames as they were
  if (wq0 != 0) q0.coeffs() -= wq0 * turn0.coeffs(), q0.normalize();
  if (wq1 != 0) q1.coeffs() += wq1 * turn1.coeffs(), q1.normalize();
}

}  // namespace pbd

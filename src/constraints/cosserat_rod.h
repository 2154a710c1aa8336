// Cosserat rod constraints (Kugelstadt and Schömer 2016, "Position and Orientation Based Cosserat Rods"): a rod is a
// chain of particles with one orientation q per segment, whose third director d3 = q e3 q̄ is the direction the segment
// should point along; d1, d2 (q e1 q̄, q e2 q̄) carry its twist. Each constraint is given with its Jacobian with respect
// to the particles and to turns δθ of the frames (world frame, q ← (1 + ½ [δθ, 0]) q), in the frame where the
// material's compliance is diagonal, for the rod's direct solve (solvers/rod_direct_solve.h; Deul et al. 2018).
//
// Stretch–shear, per segment (p0, p1, q) of rest length l, in the segment's frame (R = [d1 d2 d3]):
//   γ = Rᵀ u − e3,  u = (p1 − p0) / l                 3 components, dimensionless
//   ∂γ/∂p0 = −Rᵀ / l,  ∂γ/∂p1 = Rᵀ / l,  ∂γ/∂θ = Rᵀ [u]×     (δ(Rᵀ) u = −Rᵀ [δθ]× u)
// Bend–twist, per pair of neighbouring segments (q0, q1), in q0's frame:
//   (w, Ω) = q̄0 q1, or −q̄0 q1 whichever is nearer to (w0, Ω0) (q1 and −q1 are one rotation; w0 = √(1 − |Ω0|²))
//   C = Ω − Ω0                                       Ω: the discrete Darboux vector, sin(θ/2) about the relative
//                                                    rotation's axis (≈ κ ℓ / 2 for a curvature κ over ℓ)
//   ∂C/∂θ1 = B = ½ (w 1 − [Ω]×) R0ᵀ,  ∂C/∂θ0 = −B    (q̄0 (0, δθ) q1 = (0, R0ᵀ δθ) (w, Ω))
// XPBD compliances: with an energy ½ l γᵀ diag(k_s, k_s, k_e) γ (shear and stretch stiffnesses k_s = G A, k_e = E A,
// N), stretch–shear's is 1 / (l k) per component; with ½ ℓ κᵀ diag(E I, E I, G J) κ and Ω ≈ κ ℓ / 2, bend–twist's is
// ℓ / (4 B) per component (B in N m², ℓ the distance between the segments' centres).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>

#include <Eigen/Dense>
#include <Eigen/Geometry>

#include "math/cross_matrix.h"
#include "pbd/real.h"

namespace pbd {

using Quat = Eigen::Quaternion<Real, Eigen::DontAlign>;  // as pbd/colliders.h has it

/// One segment of a rod: the stretch–shear constraint between its particles and its frame.
struct RodSegment {
  uint32_t p0 = 0, p1 = 0;  ///< Its particles, p1 = p0 + 1.
  Real restLength = 0;      ///< m, > 0.
  Real inverseInertia = 0;  ///< 1/(kg m²): 1/I of the frame about its axis (I = m r² / 2); 0 = clamped.
  Vec3 compliance{0, 0, 0};  ///< α per component of its frame (d1, d2: shear, d3: stretch), 1 / (l k), 1/(N m).
};

/// The bend–twist constraint between segments `segment` and `segment + 1` of one rod.
struct RodJoint {
  uint32_t segment = 0;
  Vec3 restDarboux{0, 0, 0};  ///< Ω0 = Im(q̄0 q1) at rest.
  Vec3 compliance{0, 0, 0};   ///< α per component of the first frame, ℓ / (4 B), 1/(N m); ℓ = the mean length.
};

/// d3 = q e3 q̄, the segment's third director (unit when q is).
inline Vec3 thirdDirector(const Quat& q) {
  return Vec3(2 * (q.x() * q.z() + q.w() * q.y()), 2 * (q.y() * q.z() - q.w() * q.x()),
              q.w() * q.w() - q.x() * q.x() - q.y() * q.y() + q.z() * q.z());
}

/// Ω = Im(q̄0 q1), the discrete Darboux vector of two neighbouring segments' frames, in q0's frame.
inline Vec3 darbouxVector(const Quat& q0, const Quat& q1) { return (q0.conjugate() * q1).vec(); }

/// The rotation vector (axis times angle, rad, the shorter way round) of a unit quaternion, in double: log(q).
inline Eigen::Vector3d rotationVector(const Quat& q) {
  Eigen::Quaterniond d = q.cast<double>();
  if (d.w() < 0) d.coeffs() = -d.coeffs();
  const double s = d.vec().norm();
  return s > 0 ? Eigen::Vector3d((2 * std::atan2(s, d.w()) / s) * d.vec()) : Eigen::Vector3d(2 * d.vec());
}

/// A frame turned by the rotation vector `turn` (world frame, rad): exp(turn) q, normalized.
inline Quat turnedFrame(const Quat& q, const Eigen::Vector3d& turn) {
  const double angle = turn.norm();
  if (!(angle > 0)) return q;
  return Quat((Eigen::AngleAxisd(angle, turn / angle) * q.cast<double>()).cast<Real>()).normalized();
}

/// One segment's stretch–shear constraint and its Jacobian (see the top of the file), in double.
struct StretchShear {
  Eigen::Vector3d gamma;           ///< γ.
  Eigen::Matrix3d frameTranspose;  ///< Rᵀ: ∂γ/∂p1 = Rᵀ / l = −∂γ/∂p0.
  Eigen::Matrix3d turn;            ///< ∂γ/∂θ = Rᵀ [u]×.
};
inline StretchShear stretchShear(const Vec3& p0, const Vec3& p1, const Quat& q, Real restLength) {
  const Eigen::Matrix3d rt = q.cast<double>().toRotationMatrix().transpose();
  const Eigen::Vector3d u = (p1 - p0).cast<double>() / double(restLength);
  return {rt * u - Eigen::Vector3d::UnitZ(), rt, rt * crossMatrix(u)};
}

/// The bend–twist constraint between neighbouring frames q0, q1 and its Jacobian (see the top of the file), in double.
struct BendTwist {
  Eigen::Vector3d c;  ///< C = Ω − Ω0.
  Eigen::Matrix3d b;  ///< ∂C/∂θ1 = B = −∂C/∂θ0.
};
inline BendTwist bendTwist(const Quat& q0, const Quat& q1, const Vec3& restDarboux) {
  Eigen::Quaterniond omega = q0.cast<double>().conjugate() * q1.cast<double>();
  const Eigen::Vector3d rest = restDarboux.cast<double>();
  const double restW = std::sqrt(std::max(0.0, 1 - rest.squaredNorm()));
  const double minus = (omega.vec() - rest).squaredNorm() + (omega.w() - restW) * (omega.w() - restW);
  const double plus = (omega.vec() + rest).squaredNorm() + (omega.w() + restW) * (omega.w() + restW);
  if (plus < minus) omega.coeffs() = -omega.coeffs();
  const Eigen::Matrix3d r0t = q0.cast<double>().toRotationMatrix().transpose();
  return {omega.vec() - rest, 0.5 * (omega.w() * Eigen::Matrix3d::Identity() - crossMatrix(omega.vec())) * r0t};
}

}  // namespace pbd

// Dihedral bending between two triangles (p0, p2, p3) and (p1, p3, p2) sharing the edge p2-p3
// (Müller et al. 2006, appendix A; gradients of the angle itself as in Bridson et al. 2003 and Bender's library).
//
//   e = p3 - p2,  n1 = (p2 - p0) × (p3 - p0),  n2 = (p3 - p1) × (p2 - p1)   (unnormalized normals)
//   φ = atan2((n̂2 × n̂1)·ê, n̂1·n̂2)   the signed angle between the normals, in (-π, π] (sign matching ∇φ below)
//   C = wrap(φ - φ0) into (-π, π]
//   ∇p0 φ = |e| n1/|n1|²,  ∇p1 φ = |e| n2/|n2|²
//   ∇p2 φ = ((p0 - p3)·ê) n1/|n1|² + ((p1 - p3)·ê) n2/|n2|²
//   ∇p3 φ = ((p2 - p0)·ê) n1/|n1|² + ((p2 - p1)·ê) n2/|n2|²
// These gradients stay bounded at φ = 0 and φ = π (no 1/sin φ from differentiating acos); atan2 keeps φ exact there.
// A degenerate (zero-area) triangle or a zero-length edge has no defined angle: no correction.
//
// Trust region. The step Δp_i = Δλ w_i ∇_i φ moves the wing vertices along straight lines where the angle wants an arc
// about the edge, so a step that turns a wing by Δφ lengthens it by √(1 + Δφ²): 3 rad nearly triples it. Where the
// edges are held weakly (Jacobi's averaged distances, a grab) the longer wings give smaller gradients and larger
// steps, and a crumpled balloon went from 3 m/s to 15,000 m/s in one frame. So Δλ is scaled down where the linear
// prediction of the angle change, |Δλ| Σ w_i |∇_i φ|², exceeds kMaxDihedralStep (wings lengthen by at most 12%); the
// next projections take the rest. Only large steps are touched, so the fixed point C + α̃λ = 0 is the same.
#pragma once

#include <cmath>
#include <cstdint>

#include "constraints/multiplier.h"
#include "math/atan2.h"
#include "pbd/real.h"

namespace pbd {

struct DihedralConstraint {
  uint32_t p0, p1;   ///< The wing vertices (one per triangle).
  uint32_t p2, p3;   ///< The shared edge.
  Real restAngle;    ///< φ0, radians, signed.
  Real compliance;   ///< XPBD α, 1/(N m) (per radian²).
  Real stiffness;    ///< PBD k in [0,1].
  Real kPrime;       ///< Corrected PBD stiffness.
};

/// The signed dihedral angle and its gradients; false when degenerate.
/// atan2 does not change when both its arguments are scaled by the same positive factor, here |n1| |n2| |e|, so the
/// angle needs no normalized vector: φ = atan2((n2 × n1)·e, |e| n1·n2). Reciprocals are taken once (3 divisions,
/// where normalizing took 15), and the angle comes from math/atan2.h, which gives the same bits natively and in wasm.
inline bool evalDihedral(const Vec3& p0, const Vec3& p1, const Vec3& p2, const Vec3& p3, Real& phi, Vec3 grad[4]) {
  const Vec3 e = p3 - p2;
  const Real elen = e.norm();
  if (!(elen > Real(1e-9))) return false;
  const Vec3 n1 = (p2 - p0).cross(p3 - p0), n2 = (p3 - p1).cross(p2 - p1);
  const Real n1sq = n1.squaredNorm(), n2sq = n2.squaredNorm();
  if (!(n1sq > Real(1e-18)) || !(n2sq > Real(1e-18))) return false;
  phi = deterministicAtan2(n2.cross(n1).dot(e), elen * n1.dot(n2));
  const Real invElen = 1 / elen;
  const Vec3 g1 = n1 * (1 / n1sq), g2 = n2 * (1 / n2sq);  // n/|n|²
  grad[0] = elen * g1;
  grad[1] = elen * g2;
  grad[2] = ((p0 - p3).dot(e) * invElen) * g1 + ((p1 - p3).dot(e) * invElen) * g2;
  grad[3] = ((p2 - p0).dot(e) * invElen) * g1 + ((p2 - p1).dot(e) * invElen) * g2;
  return true;
}

/// Wraps an angle difference into (-π, π], so a rest angle near π never sees a 2π jump.
inline Real wrapAngle(Real a) {
  const Real pi = Real(M_PI);
  while (a > pi) a -= 2 * pi;
  while (a <= -pi) a += 2 * pi;
  return a;
}

/// rad: the largest angle change one projection makes (see the trust region above).
inline constexpr Real kMaxDihedralStep = Real(0.5);

/// Projects one dihedral constraint in place; returns Δλ.
inline Real projectDihedral(Vec3* p[4], const Real w[4], Real restAngle, bool xpbd, Real kPrime, Real alphaTilde,
                            Real lambda) {
  Real phi;
  Vec3 grad[4];
  if (!evalDihedral(*p[0], *p[1], *p[2], *p[3], phi, grad)) return 0;
  Real weighted = 0;
  for (int k = 0; k < 4; ++k) weighted += w[k] * grad[k].squaredNorm();
  if (!(weighted > Real(1e-18))) return 0;
  const Real C = wrapAngle(phi - restAngle);
  Real dLambda = multiplierStep(C, weighted, xpbd, kPrime, alphaTilde, lambda);
  const Real predictedTurn = std::fabs(dLambda) * weighted;
  if (predictedTurn > kMaxDihedralStep) dLambda *= kMaxDihedralStep / predictedTurn;
  for (int k = 0; k < 4; ++k) *p[k] += (dLambda * w[k]) * grad[k];
  return dLambda;
}

}  // namespace pbd

// Dihedral bending between two triangles (p0, p2, p3) and (p1, p3, p2) sharing the edge p2-p3
// (Müller et al. 2006, appendix A; gradients of the angle itself as in Bridson et al. 2003 and Bender's library).
//
//   e = p3 - p2,  n1 = (p2 - p0) × (p3 - p0),  n2 = (p3 - p1) × (p2 - p1)   (unnormalized normals)
//   φ = atan2((n̂2 × n̂1)·ê, n̂1·n̂2)   the signed angle between the normals, in [-π, π] (sign matching ∇φ below)
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
#include "constraints/padded_vertices.h"
#include "math/atan2.h"
#include "math/lane_point.h"
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

/// The signed dihedral angle φ and its gradients per lane; returns where they are defined (elsewhere both are
/// finite but meaningless). atan2 does not change when both its arguments are scaled by the same positive factor,
/// here |n1| |n2| |e|, so the angle needs no normalized vector: φ = atan2((n2 × n1)·e, |e| n1·n2), with the
/// library's own atan2 (the same bits natively and in wasm), and three divisions in all.
template <class T>
auto evalDihedralLanes(const LanePoint<T> p[4], T& phi, LanePoint<T> grad[4]) {
  using std::sqrt;
  const T one = lanes<T>(1);
  const LanePoint<T> e = p[3] - p[2];
  const T elen = sqrt(dot(e, e));
  const LanePoint<T> n1 = cross(p[2] - p[0], p[3] - p[0]), n2 = cross(p[3] - p[1], p[2] - p[1]);
  const T n1sq = dot(n1, n1), n2sq = dot(n2, n2);
  const T tiny = lanes<T>(1e-18f);
  const auto edgeValid = elen > lanes<T>(1e-9f), wing1Valid = n1sq > tiny, wing2Valid = n2sq > tiny;
  const auto valid = edgeValid & wing1Valid & wing2Valid;
  phi = atan2Lanes(dot(cross(n2, n1), e), elen * dot(n1, n2));
  // The divisors of the undefined lanes are replaced by 1.
  const T invElen = one / select(valid, elen, one);
  const LanePoint<T> g1 = n1 * (one / select(valid, n1sq, one)), g2 = n2 * (one / select(valid, n2sq, one));
  grad[0] = g1 * elen;
  grad[1] = g2 * elen;
  grad[2] = g1 * (dot(p[0] - p[3], e) * invElen) + g2 * (dot(p[1] - p[3], e) * invElen);
  grad[3] = g1 * (dot(p[2] - p[0], e) * invElen) + g2 * (dot(p[2] - p[1], e) * invElen);
  return valid;
}

/// The signed dihedral angle and its gradients; false when degenerate.
inline bool evalDihedral(const Vec3& p0, const Vec3& p1, const Vec3& p2, const Vec3& p3, Real& phi, Vec3 grad[4]) {
  const LanePoint<Real> p[4] = {{p0.x(), p0.y(), p0.z()}, {p1.x(), p1.y(), p1.z()}, {p2.x(), p2.y(), p2.z()},
                                {p3.x(), p3.y(), p3.z()}};
  LanePoint<Real> g[4];
  if (!evalDihedralLanes(p, phi, g)) return false;
  for (int k = 0; k < 4; ++k) grad[k] = Vec3(g[k].x, g[k].y, g[k].z);
  return true;
}

/// Wraps an angle difference into (-π, π], so a rest angle near π never sees a 2π jump. One turn either way is
/// enough: φ and the rest angle both lie in [-π, π].
template <class T>
T wrapAngleLanes(T a) {
  const T pi = lanes<T>(Real(M_PI)), twoPi = lanes<T>(Real(2 * M_PI));
  a = select(a > pi, a - twoPi, a);
  return select(a <= -pi, a + twoPi, a);
}

inline Real wrapAngle(Real a) { return wrapAngleLanes(a); }

/// rad: the largest angle change one projection makes (see the trust region above).
inline constexpr Real kMaxDihedralStep = Real(0.5);

/// The inputs and outputs of one projection, per lane.
template <class T>
struct DihedralLanes {
  LanePoint<T> p[4];  ///< In: positions of p0..p3; out: corrected.
  T w[4];             ///< Inverse masses.
  T restAngle;        ///< φ0, rad.
  T kPrime;           ///< PBD corrected stiffness.
  T alphaTilde;       ///< XPBD α / h².
  T lambda;           ///< XPBD multiplier so far this substep.
};

/// Projects every lane; returns Δλ per lane (0 where degenerate or at rest). Degenerate lanes add 0 to their
/// positions.
template <class T>
T projectDihedralLanes(DihedralLanes<T>& l, bool xpbd) {
  const T zero = lanes<T>(0), one = lanes<T>(1);
  T phi;
  LanePoint<T> grad[4];
  const auto valid = evalDihedralLanes(l.p, phi, grad);
  T weighted = zero;
  for (int k = 0; k < 4; ++k) weighted = weighted + l.w[k] * dot(grad[k], grad[k]);
  const auto active = valid & (weighted > lanes<T>(1e-18f));
  const T C = wrapAngleLanes(phi - l.restAngle);
  const T numerator = xpbd ? (-C - l.alphaTilde * l.lambda) : -(l.kPrime * C);
  const T denominator = xpbd ? (weighted + l.alphaTilde) : weighted;
  T dLambda = selectOrZero(active, numerator / denominator);  // an inactive lane's quotient masked to +0
  const T predictedTurn = absLanes(dLambda) * weighted;
  const T maxStep = lanes<T>(kMaxDihedralStep);
  dLambda = select(predictedTurn > maxStep, dLambda * (maxStep / select(predictedTurn > maxStep, predictedTurn, one)),
                   dLambda);
  for (int k = 0; k < 4; ++k) l.p[k] = l.p[k] + grad[k] * (dLambda * l.w[k]);
  return dLambda;
}

/// Projects one dihedral constraint in place; returns Δλ.
inline Real projectDihedral(Vec3* p[4], const Real w[4], Real restAngle, bool xpbd, Real kPrime, Real alphaTilde,
                            Real lambda) {
  DihedralLanes<Real> l;
  for (int k = 0; k < 4; ++k) l.p[k] = {p[k]->x(), p[k]->y(), p[k]->z()}, l.w[k] = w[k];
  l.restAngle = restAngle, l.kPrime = kPrime, l.alphaTilde = alphaTilde, l.lambda = lambda;
  const Real dLambda = projectDihedralLanes(l, xpbd);
  for (int k = 0; k < 4; ++k) *p[k] = Vec3(l.p[k].x, l.p[k].y, l.p[k].z);
  return dLambda;
}

/// Projects one dihedral on padded positions (xyzw: x, y, z and the inverse mass per particle); adds Δλ to `lambda`.
inline void projectDihedralPadded(const DihedralConstraint& d, Real* xyzw, bool xpbd, Real invH2, Real& lambda) {
  Vec3* ps[4];
  Real ws[4];
  paddedVertices(xyzw, {d.p0, d.p1, d.p2, d.p3}, ps, ws);
  lambda += projectDihedral(ps, ws, d.restAngle, xpbd, d.kPrime, d.compliance * invH2, lambda);
}

/// Projects dihedrals cs[order[n]] for n in [begin, end), which must share no particle (one colour), four at a time
/// (a short last batch repeats its last element in the empty lanes: batchOfFour).
/// Bit-identical to projectDihedral on each in turn. `xyzw` holds the padded positions (padRange), `lambda` the
/// multipliers by dihedral.
void projectDihedralsBatched(const DihedralConstraint* cs, const uint32_t* order, size_t begin, size_t end,
                             Real* lambda, Real* xyzw, bool xpbd, Real invH2);

}  // namespace pbd

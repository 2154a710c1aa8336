// Continuous self-contact of a cloth with itself (Bridson et al. 2002; Müller's PBD cloth self-collision): a point
// against a triangle, or an edge against an edge, kept `thickness` apart along a fixed unit normal n.
//
// Both are one linear constraint over four particles with weights c_i that sum to zero:
//   point–triangle (p; a, b, c at barycentrics β):  c = (1, -β_a, -β_b, -β_c),   C = n·(p - Σ β_k x_k) - thickness
//   edge–edge (p0 p1 at u; q0 q1 at v):             c = (1-u, u, -(1-v), -v),    C = n·(p_u - q_v) - thickness
//   C(x) = n·Σ c_i x_i - thickness >= 0,   ∇_{x_i} C = c_i n
//   Δx_i = -w_i c_i n C / Σ_j w_j c_j²   when C < 0 (rigid, unilateral)
// n is taken at the start of the substep, pointing from the triangle (or the second edge) towards the side the point
// (first edge) started on, so that a pair that crossed within the substep is pushed back to where it came from rather
// than onwards. Because Σ c_i = 0, Σ_i m_i Δx_i = -n C Σ_i c_i / Σ_j w_j c_j² = 0: linear momentum is conserved.
#pragma once

#include <cstdint>

#include "pbd/real.h"

namespace pbd {

/// One self-contact of the current substep.
struct SelfContact {
  uint32_t particle[4];  ///< World particle indices: the point and the triangle's corners, or the two edges' ends.
  Real weight[4];        ///< c_i (see above), summing to 0.
  Vec3 normal;           ///< Unit n, fixed for the substep (world frame).
  Real thickness;        ///< m, > 0: the separation the constraint keeps.
};

/// C = n·Σ c_i x_i - thickness; negative = closer than the thickness (or on the wrong side).
inline Real selfContactValue(const Vec3* const x[4], const Real c[4], const Vec3& n, Real thickness) {
  Vec3 s = Vec3::Zero();
  for (int i = 0; i < 4; ++i) s += c[i] * *x[i];
  return n.dot(s) - thickness;
}

/// Projects the constraint if violated; returns the Lagrange step -C / Σ w_j c_j² (0 when satisfied or all pinned).
inline Real projectSelfContact(Vec3* const x[4], const Real w[4], const Real c[4], const Vec3& n, Real thickness) {
  const Real C = selfContactValue(x, c, n, thickness);
  if (!(C < 0)) return 0;
  Real denominator = 0;
  for (int i = 0; i < 4; ++i) denominator += w[i] * c[i] * c[i];
  if (!(denominator > 0)) return 0;
  const Real lambda = -C / denominator;
  for (int i = 0; i < 4; ++i) *x[i] += (lambda * w[i] * c[i]) * n;
  return lambda;
}

}  // namespace pbd

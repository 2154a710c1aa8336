// Tetrahedral volume constraint (Müller et al. 2006, section 3.3 / appendix; Bender's solve_VolumeConstraint).
//
//   V = 1/6 (p1 - p0) · ((p2 - p0) × (p3 - p0)),   C = V - V0   (bilateral)
//   unilateral variant: C = min(V - V0, 0), the volume may only grow back, never be pushed below V0
//   ∇p1 V = 1/6 (p2 - p0) × (p3 - p0),  ∇p2 V = 1/6 (p3 - p0) × (p1 - p0),  ∇p3 V = 1/6 (p1 - p0) × (p2 - p0)
//   ∇p0 V = -(∇p1 V + ∇p2 V + ∇p3 V)
// The gradients sum to zero and are rotation-invariant, so the correction carries no linear or angular momentum.
#pragma once

#include <cstdint>

#include "constraints/multiplier.h"
#include "pbd/real.h"

namespace pbd {

struct TetVolumeConstraint {
  uint32_t p[4];     ///< Vertices; positive volume at rest.
  Real restVolume;   ///< V0, m³ (> 0).
  Real compliance;   ///< XPBD α in m⁶/J (the energy is ½ C² / α); 0 = incompressible.
  Real stiffness;    ///< PBD k in [0,1].
  Real kPrime;       ///< Corrected PBD stiffness.
  bool unilateral;   ///< true: only resists compression (the volume may grow).
};

inline Real tetVolume(const Vec3& p0, const Vec3& p1, const Vec3& p2, const Vec3& p3) {
  return (p1 - p0).dot((p2 - p0).cross(p3 - p0)) / Real(6);
}

inline void tetVolumeGradients(const Vec3& p0, const Vec3& p1, const Vec3& p2, const Vec3& p3, Vec3 grad[4]) {
  grad[1] = (p2 - p0).cross(p3 - p0) / Real(6);
  grad[2] = (p3 - p0).cross(p1 - p0) / Real(6);
  grad[3] = (p1 - p0).cross(p2 - p0) / Real(6);
  grad[0] = -(grad[1] + grad[2] + grad[3]);
}

/// Projects one volume constraint in place; returns Δλ.
inline Real projectTetVolume(Vec3* p[4], const Real w[4], Real restVolume, bool unilateral, bool xpbd, Real kPrime,
                             Real alphaTilde, Real lambda) {
  Real C = tetVolume(*p[0], *p[1], *p[2], *p[3]) - restVolume;
  if (unilateral && C > 0) C = 0;
  if (C == 0) return 0;
  Vec3 grad[4];
  tetVolumeGradients(*p[0], *p[1], *p[2], *p[3], grad);
  Real weighted = 0;
  for (int k = 0; k < 4; ++k) weighted += w[k] * grad[k].squaredNorm();
  if (!(weighted > Real(1e-24))) return 0;
  const Real dLambda = multiplierStep(C, weighted, xpbd, kPrime, alphaTilde, lambda);
  for (int k = 0; k < 4; ++k) *p[k] += (dLambda * w[k]) * grad[k];
  return dLambda;
}

}  // namespace pbd

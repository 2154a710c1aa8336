// Tet volume energy, its gradient and Hessian block per vertex, for Vertex Block Descent (Chen, Macklin et al. 2024):
// the energy whose XPBD form is tet_volume.h's constraint (Müller et al. 2006; α = 1/k).
//
//   V = 1/6 (p1 - p0) · ((p2 - p0) × (p3 - p0))   (signed, tetVolume's convention: > 0 for a tet built right way up)
//   C = V - V0,  or min(V - V0, 0) for the unilateral variant (only compression resisted)
//   E = ½ k C²
//   ∇p1 V = 1/6 (p2 - p0) × (p3 - p0),  ∇p2 V = 1/6 (p3 - p0) × (p1 - p0),  ∇p3 V = 1/6 (p1 - p0) × (p2 - p0)
//   ∇p0 V = -(∇p1 V + ∇p2 V + ∇p3 V)
//   ∂E/∂p_v = k C ∇_v V
//   ∂²E/∂p_v² = k ∇_v V ∇_v Vᵀ + k C ∂²V/∂p_v² = k ∇_v V ∇_v Vᵀ
// V is linear in each vertex on its own (a determinant, one vertex per column once p0 is subtracted; p0 by symmetry),
// so ∂²V/∂p_v² = 0 and the block is exact, rank one and PSD: no projection is needed, and projectToPsd is accepted
// only for the same interface as the other energies. The unilateral energy has no curvature where V > V0 (C = 0);
// at V = V0 exactly it takes the compressed side's k ∇V ∇Vᵀ, so a resting tet still stiffens its vertices' solve.
// In double, sums of products in a fixed order (energy_neo_hookean.h says why).
#pragma once

#include <Eigen/Core>

#include "constraints/energy_neo_hookean.h"  // orderedDot
#include "pbd/real.h"

namespace pbd {

/// V and ∇_v V in double for the tet p[0..3] (Vec3 or Eigen::Vector3d); v in 0..3. Only the gradients V and ∇_v V
/// need are formed (each costs three divisions by 6, most of the cost): g1 always, the other two for v = 0.
template <class Vector>
double tetVolumeAndGradientDouble(const Vector* p, int v, Eigen::Vector3d& gradient) {
  const Eigen::Vector3d e1 = (p[1] - p[0]).template cast<double>(), e2 = (p[2] - p[0]).template cast<double>(),
                        e3 = (p[3] - p[0]).template cast<double>();
  const Eigen::Vector3d g1 = e2.cross(e3) / 6;
  switch (v) {
    case 1: gradient = g1; break;
    case 2: gradient = e3.cross(e1) / 6; break;
    case 3: gradient = e1.cross(e2) / 6; break;
    default: gradient = -(g1 + e3.cross(e1) / 6 + e1.cross(e2) / 6); break;
  }
  return orderedDot(e1, g1);
}

/// E = ½ k C² in J (see the top of this file). restVolume V0 in m³, stiffness k = 1/α in J/m⁶ (>= 0).
template <class Vector>
double tetVolumeEnergy(const Vector* p, double restVolume, double stiffness, bool unilateral) {
  Eigen::Vector3d unused;
  double C = tetVolumeAndGradientDouble(p, 1, unused) - restVolume;
  if (unilateral && C > 0) C = 0;
  return 0.5 * stiffness * C * C;
}

/// gradient = ∂E/∂p_v (N) and hessian = ∂²E/∂p_v² (N/m, exact and PSD) for v in 0..3 (same other arguments as
/// tetVolumeEnergy). projectToPsd changes nothing (the block is PSD as it is). The force on the vertex is -gradient.
template <class Vector>
void tetVolumeVertexDerivatives(const Vector* p, double restVolume, double stiffness, bool unilateral, int v,
                                bool /*projectToPsd*/, Eigen::Vector3d& gradient, Eigen::Matrix3d& hessian) {
  Eigen::Vector3d g;
  const double C = tetVolumeAndGradientDouble(p, v, g) - restVolume;
  if (unilateral && C > 0) {
    gradient.setZero();
    hessian.setZero();
    return;
  }
  gradient = stiffness * C * g;
  hessian = stiffness * (g * g.transpose());
}

}  // namespace pbd

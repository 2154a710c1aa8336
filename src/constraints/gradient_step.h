// Pieces shared by the kernels whose constraints act on several vertices through a deformation gradient
// (neo_hookean.h, triangle_strain.h) or on a whole set of vertices (shape_matching.h, surface_volume.h).
//
//   F = [x1 - x0, ..., xN - x0] Dm⁻¹                 (Dm = the same edge matrix at rest, N = 3 for a tet, 2 for a triangle)
//   ∇x_k C = column k-1 of (∂C/∂F) Dm⁻ᵀ  (k = 1..N),   ∇x0 C = -Σ_k ∇x_k C
//   ∂ det F / ∂F = cof F = [f1 × f2, f2 × f0, f0 × f1]   (f_j the columns of F; defined for every F, inverted or not)
//   Δλ from constraints/multiplier.h,   Δx_k = Δλ w_k ∇x_k C
// A C that depends on the vertices only through F does not change under a translation, so its gradients sum to zero
// (no linear momentum); if C is also rotation-invariant, Σ x_k × ∇x_k C = 0 (no angular momentum).
#pragma once

#include <cmath>
#include <limits>

#include "constraints/multiplier.h"
#include "pbd/real.h"

namespace pbd {

/// A 2x2 matrix (a triangle's rest edge matrix and its inverse).
using Mat2 = Eigen::Matrix<Real, 2, 2, Eigen::DontAlign>;
/// A 3x2 matrix (a triangle's deformation gradient: two 3D edge vectors over a 2D rest frame).
using Mat32 = Eigen::Matrix<Real, 3, 2, Eigen::DontAlign>;

/// True when a constraint is switched off: PBD stiffness k' = 0, or XPBD compliance α̃ = +∞ (infinitely soft).
/// (+∞ is not left to multiplierStep: α̃ λ would be ∞ · 0 = NaN.)
inline bool constraintDisabled(bool xpbd, Real kPrime, Real alphaTilde) {
  return xpbd ? !(alphaTilde < std::numeric_limits<Real>::infinity()) : !(kPrime > 0);
}

/// Σ_k w_k |∇_k C|² over n vertices.
inline Real weightedGradientSq(const Real* w, const Vec3* grad, int n) {
  Real s = 0;
  for (int k = 0; k < n; ++k) s += w[k] * grad[k].squaredNorm();
  return s;
}

/// One PBD/XPBD step of a constraint with value C and gradients grad[0..n) on the vertices *p[k]: moves them by
/// Δλ w_k ∇_k C and returns Δλ. Does nothing (returns 0) when C = 0, when the constraint is disabled, or when
/// Σ w |∇C|² <= minWeighted (degenerate gradient, or every vertex pinned).
inline Real projectAlongGradients(Vec3* const* p, const Real* w, const Vec3* grad, int n, Real C, Real minWeighted,
                                  bool xpbd, Real kPrime, Real alphaTilde, Real lambda) {
  if (C == 0 || constraintDisabled(xpbd, kPrime, alphaTilde)) return 0;
  const Real weighted = weightedGradientSq(w, grad, n);
  if (!(weighted > minWeighted)) return 0;
  const Real dLambda = multiplierStep(C, weighted, xpbd, kPrime, alphaTilde, lambda);
  for (int k = 0; k < n; ++k) *p[k] += (dLambda * w[k]) * grad[k];
  return dLambda;
}

/// ∂ det F / ∂F = cof F, column j = f_{j+1} × f_{j+2}. Templated on the matrix type so tests can run it in double.
template <class M>
M determinantGradient(const M& F) {
  M cof;
  cof.col(0) = F.col(1).cross(F.col(2));
  cof.col(1) = F.col(2).cross(F.col(0));
  cof.col(2) = F.col(0).cross(F.col(1));
  return cof;
}

/// F = [x1 - x0, ..., xN - x0] Dm⁻¹ for the N + 1 vertices x[0..N].
template <int N>
Eigen::Matrix<Real, 3, N, Eigen::DontAlign> deformationGradient(const Vec3* const* x,
                                                                const Eigen::Matrix<Real, N, N, Eigen::DontAlign>& DmInv) {
  Eigen::Matrix<Real, 3, N, Eigen::DontAlign> Ds;
  for (int k = 0; k < N; ++k) Ds.col(k) = *x[k + 1] - *x[0];
  return Ds * DmInv;
}

/// Per-vertex gradients grad[0..N] from ∂C/∂F (see the top of this file).
template <int N>
void vertexGradients(const Eigen::Matrix<Real, 3, N, Eigen::DontAlign>& dCdF,
                     const Eigen::Matrix<Real, N, N, Eigen::DontAlign>& DmInv, Vec3* grad) {
  const Eigen::Matrix<Real, 3, N, Eigen::DontAlign> G = dCdF * DmInv.transpose();
  grad[0] = Vec3::Zero();
  for (int k = 0; k < N; ++k) {
    grad[k + 1] = G.col(k);
    grad[0] -= grad[k + 1];
  }
}

/// Σ_k w_k |∇_k C|² for ∂C/∂F = the identity (3xN): the weight of a unit-size gradient at rest.
template <int N>
Real identityGradientWeight(const Real* w, const Eigen::Matrix<Real, N, N, Eigen::DontAlign>& DmInv) {
  Vec3 grad[N + 1];
  vertexGradients<N>(Eigen::Matrix<Real, 3, N, Eigen::DontAlign>::Identity(), DmInv, grad);
  return weightedGradientSq(w, grad, N + 1);
}

/// Below this Σ w |∇C|² a gradient counts as degenerate: 1e-8 of identityGradientWeight. Scale-free: the same for a
/// millimetre element and a metre one.
template <int N>
Real degenerateGradientWeight(const Real* w, const Eigen::Matrix<Real, N, N, Eigen::DontAlign>& DmInv) {
  return Real(1e-8) * identityGradientWeight<N>(w, DmInv);
}

}  // namespace pbd

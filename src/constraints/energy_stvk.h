// St. Venant-Kirchhoff tet energy, its gradient and Hessian block per vertex, for Vertex Block Descent (Chen, Macklin
// et al. 2024; the energy as in Sifakis and Barbič 2012, "FEM Simulation of 3D Deformable Solids", SIGGRAPH course).
//
//   F = Ds Dm⁻¹ (as energy_neo_hookean.h),  E = ½ (FᵀF - I),  Ψ = V0 (μ E:E + λ/2 tr(E)²)   (zero on rotations)
//   S = 2μ E + λ tr(E) I   (second Piola-Kirchhoff stress),   P = ∂Ψ/∂F = V0 F S
// μ and λ are the plain Lamé parameters (lameFromYoungPoisson): StVK is linear elasticity at small strain as it is,
// with no shift like Neo-Hookean's λ'. With a_v = ∇_X N_v (tetShapeGradient), moving x_v by u changes F by u a_vᵀ:
//   ∂Ψ/∂x_v = P a_v = V0 F S a_v        (column v-1 of P Dm⁻ᵀ; minus their sum for v = 0)
//   ∂²Ψ/∂x_v² [i][j] = Σ_{b,d} a_v[b] a_v[d] ∂²Ψ/∂F_ib∂F_jd, in closed form from the second-order terms of E:
//     E(F + u aᵀ) = E + sym(w aᵀ) + ½ |u|² a aᵀ,  w = Fᵀu
//     uᵀ H u = V0 (|u|² aᵀSa + μ (|a|² |w|² + (a·w)²) + λ (a·w)²)
//   ∂²Ψ/∂x_v² = V0 ((a_vᵀ S a_v) I + μ |a_v|² F Fᵀ + (μ + λ) (F a_v)(F a_v)ᵀ)
// The last two terms are PSD; the first, the stress (geometric) stiffness, is negative along every direction when
// the tet is compressed along a_v (aᵀSa < 0), and the block is then indefinite or negative definite. VBD's step must
// see a PSD block, so projectToPsd clamps the negative eigenvalues to zero (projectSymmetricToPsd: Jacobi rotations,
// skipped when the block is positive definite). Gaia, the VBD reference code, keeps its blocks as they are and skips
// the vertex when |det H| is tiny, which lets an indefinite block step uphill; clamping keeps the positive curvature
// of the other directions. In double, sums of products in a fixed order (energy_neo_hookean.h says why).
#pragma once

#include <Eigen/Core>

#include "constraints/energy_neo_hookean.h"  // the tet pieces, ordered sums, projectSymmetricToPsd
#include "pbd/real.h"

namespace pbd {

/// Ψ in J for the tet x[0..3] (Vec3 or Eigen::Vector3d) with Dm⁻¹ restInverse (neoHookeanRestShape builds it),
/// restVolume V0 > 0 and Lamé μ, λ in Pa.
template <class Vector, class Matrix>
double stvkEnergy(const Vector* x, const Matrix& restInverse, double restVolume, double mu, double lambda) {
  const Eigen::Matrix3d F = tetDeformationGradientDouble(x, restInverse);
  const Eigen::Matrix3d E = 0.5 * (orderedMatrixProduct(F.transpose(), F) - Eigen::Matrix3d::Identity());
  const double trace = (E(0, 0) + E(1, 1)) + E(2, 2);
  return restVolume * (mu * orderedSquaredNorm(E) + 0.5 * lambda * trace * trace);
}

/// gradient = ∂Ψ/∂x_v (N) and hessian = ∂²Ψ/∂x_v² (N/m) for the local vertex v in 0..3 (same other arguments as
/// stvkEnergy). projectToPsd: clamp the negative eigenvalues to zero (see the top of this file); false gives the
/// exact block. The force on the vertex is -gradient.
template <class Vector, class Matrix>
void stvkVertexDerivatives(const Vector* x, const Matrix& restInverse, double restVolume, double mu, double lambda,
                           int v, bool projectToPsd, Eigen::Vector3d& gradient, Eigen::Matrix3d& hessian) {
  const Eigen::Matrix3d F = tetDeformationGradientDouble(x, restInverse);
  const Eigen::Vector3d a = tetShapeGradient(restInverse, v);
  const Eigen::Matrix3d E = 0.5 * (orderedMatrixProduct(F.transpose(), F) - Eigen::Matrix3d::Identity());
  const double trace = (E(0, 0) + E(1, 1)) + E(2, 2);
  const Eigen::Matrix3d S = 2 * mu * E + (lambda * trace) * Eigen::Matrix3d::Identity();
  const Eigen::Vector3d Sa = orderedProduct(S, a), Fa = orderedProduct(F, a);
  gradient = restVolume * orderedProduct(F, Sa);
  hessian = restVolume * (orderedDot(a, Sa) * Eigen::Matrix3d::Identity() +
                          (mu * orderedDot(a, a)) * orderedMatrixProduct(F, F.transpose()) +
                          (mu + lambda) * (Fa * Fa.transpose()));
  if (projectToPsd) projectSymmetricToPsd(hessian);
}

}  // namespace pbd

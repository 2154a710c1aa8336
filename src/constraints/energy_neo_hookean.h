// Stable Neo-Hookean tet energy, its gradient and Hessian block per vertex, for Vertex Block Descent (Chen, Macklin
// et al. 2024, "Vertex Block Descent", SIGGRAPH 2024): each vertex step solves (m/h² I + Σ_e H_e,v) Δx = f with, from
// every element e around the vertex, its ∂E/∂x_v and its 3x3 diagonal block ∂²E/∂x_v². Also the pieces the other
// energy_*.h share: F in double, the shape gradients, ordered sums and products, the PSD projection.
//
// The energy is the one neo_hookean.h's XPBD pair stores (Macklin and Müller 2021; Smith, de Goes and Kim 2018
// without its log term), minus its value at rest so that Ψ(R) = 0 for every rotation R:
//   F = Ds Dm⁻¹,  Ds = [x1 - x0, x2 - x0, x3 - x0],  J = det F,  γ = 1 + μ/λ',  λ' = λ + μ (neoHookeanMaterial)
//   Ψ = V0 (μ/2 (tr(FᵀF) - 3) + λ'/2 ((J - γ)² - (1 - γ)²))
//   P = ∂Ψ/∂F = V0 (μ F + λ' (J - γ) cof F)          zero at F = I: μ I + λ' (1 - γ) I = μ I - μ I
// F is linear in the positions: F = Σ_v x_v a_vᵀ with a_v = ∇_X N_v, the rest gradient of v's shape function, i.e.
// a_v = row v-1 of Dm⁻¹ for v = 1..3 and a_0 = -(a_1 + a_2 + a_3). Moving x_v by u changes F by u a_vᵀ, so
//   ∂Ψ/∂x_v = P a_v                     (column v-1 of P Dm⁻ᵀ; minus their sum for v = 0)
//   ∂²Ψ/∂x_v² [i][j] = Σ_{b,d} a_v[b] a_v[d] ∂²Ψ/∂F_ib∂F_jd   (the 9x9 ∂²Ψ/∂F² contracted twice with a_v)
// Here the contraction has a closed form. tr(FᵀF) gives μ |a_v|² I. J(F + u aᵀ) = J + uᵀ cof(F) a exactly (the
// determinant is linear in a rank-one update), so ∂J/∂x_v = g = cof(F) a_v and ∂²J/∂x_v² = 0: the term
// λ' (J - γ) ∂²J/∂F² of the 9x9 Hessian, its only indefinite one, drops out of every diagonal block. Hence
//   ∂²Ψ/∂x_v² = V0 (μ |a_v|² I + λ' g gᵀ),   g = cof(F) a_v
// positive semi-definite for μ, λ' >= 0, inverted tets included, so the projected block is the raw one;
// projectSymmetricToPsd still runs when asked (it returns at once on a positive definite block), for the same interface
// as the other energies. Gaia, the VBD reference code, uses its blocks as they come and skips a vertex whose
// |det H| is tiny; we prefer blocks PSD by construction, so that every vertex step descends.
//
// Precision and determinism. Everything is in double: the tests check against finite differences in double, and
// J - γ cancels in float for stiff materials. The core promises the same bits natively, in wasm and on Arm
// (docs/determinism.md), and Eigen vectorizes double reductions and products with SSE natively but not in wasm, which
// changes their summation order. So every sum of products here is written out in a fixed order (math/ordered_sums.h,
// and orderedSquaredNorm); element-wise Eigen operations, cross products and outer products are single IEEE
// operations per entry and stay. No libm function but sqrt (correctly rounded) is called.
#pragma once

#include <cmath>

#include <Eigen/Core>

#include "constraints/neo_hookean.h"  // orderedSquaredNorm
#include "math/ordered_sums.h"
#include "pbd/real.h"

namespace pbd {

/// F = Ds Dm⁻¹ in double for the tet x[0..3] (Vec3 or Eigen::Vector3d) and Dm⁻¹ (Mat3 or Eigen::Matrix3d).
template <class Vector, class Matrix>
Eigen::Matrix3d tetDeformationGradientDouble(const Vector* x, const Matrix& restInverse) {
  Eigen::Matrix3d Ds;
  for (int k = 0; k < 3; ++k) Ds.col(k) = x[k + 1].template cast<double>() - x[0].template cast<double>();
  return orderedMatrixProduct(Ds, restInverse.template cast<double>());
}

/// a_v = ∇_X N_v (see the top of this file): row v-1 of Dm⁻¹ for v = 1..3, minus the sum of the rows for v = 0.
template <class Matrix>
Eigen::Vector3d tetShapeGradient(const Matrix& restInverse, int v) {
  const Eigen::Matrix3d B = restInverse.template cast<double>();
  if (v > 0) return B.row(v - 1).transpose();
  return -((B.row(0) + B.row(1)) + B.row(2)).transpose();
}

/// Replaces the symmetric 3x3 block H by its nearest positive semi-definite matrix (Frobenius norm): eigenvalues below
/// zero set to zero, eigenvectors kept. A positive definite block (Sylvester: the three leading minors > 0, the common
/// case) is returned untouched. Otherwise cyclic Jacobi rotations diagonalize it (Golub and Van Loan, §8.5): sqrt and
/// IEEE arithmetic only, so the same bits in every build (Eigen's computeDirect calls atan2, cos and sin, which glibc
/// and musl round differently), and accurate to ~1e-15 |H| (computeDirect loses up to 1e-8 where two eigenvalues
/// nearly coincide). A 3x3 block converges quadratically, in 3 to 5 sweeps.
inline void projectSymmetricToPsd(Eigen::Matrix3d& H) {
  const double minor2 = H(0, 0) * H(1, 1) - H(0, 1) * H(1, 0);
  if (H(0, 0) > 0 && minor2 > 0 && orderedDeterminant(H) > 0) return;
  double a[3][3], V[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) a[i][j] = 0.5 * (H(i, j) + H(j, i));
  const double scale = (a[0][0] * a[0][0] + a[1][1] * a[1][1]) + a[2][2] * a[2][2] +
                       2 * ((a[0][1] * a[0][1] + a[0][2] * a[0][2]) + a[1][2] * a[1][2]);
  constexpr int kPairs[3][2] = {{0, 1}, {0, 2}, {1, 2}};
  for (int sweep = 0; sweep < 16; ++sweep) {
    const double off = (a[0][1] * a[0][1] + a[0][2] * a[0][2]) + a[1][2] * a[1][2];
    if (!(off > 1e-34 * scale)) break;  // off-diagonal below 1e-17 |H|; also stops on NaN
    for (const auto& pair : kPairs) {
      const int p = pair[0], q = pair[1];
      if (a[p][q] == 0) continue;
      // The rotation that zeroes a_pq: t = tan of its angle, the smaller root of t² + 2θt - 1 = 0.
      const double theta = (a[q][q] - a[p][p]) / (2 * a[p][q]);
      const double absTheta = std::abs(theta);
      double t = absTheta > 1e150 ? 0.5 / absTheta : 1 / (absTheta + std::sqrt(absTheta * absTheta + 1));
      if (theta < 0) t = -t;
      const double c = 1 / std::sqrt(t * t + 1), s = t * c;
      for (int k = 0; k < 3; ++k) {  // A J
        const double akp = a[k][p], akq = a[k][q];
        a[k][p] = c * akp - s * akq, a[k][q] = s * akp + c * akq;
      }
      for (int k = 0; k < 3; ++k) {  // Jᵀ (A J)
        const double apk = a[p][k], aqk = a[q][k];
        a[p][k] = c * apk - s * aqk, a[q][k] = s * apk + c * aqk;
      }
      a[p][q] = a[q][p] = 0;
      for (int k = 0; k < 3; ++k) {  // V J: the columns of V are the eigenvectors
        const double vkp = V[k][p], vkq = V[k][q];
        V[k][p] = c * vkp - s * vkq, V[k][q] = s * vkp + c * vkq;
      }
    }
  }
  Eigen::Matrix3d projected = Eigen::Matrix3d::Zero();
  for (int k = 0; k < 3; ++k) {
    if (!(a[k][k] > 0)) continue;
    const Eigen::Vector3d v(V[0][k], V[1][k], V[2][k]);
    projected += a[k][k] * (v * v.transpose());
  }
  H = 0.5 * (projected + projected.transpose());
}

/// γ = 1 + μ/λ' (1 when λ' = 0, as neoHookeanMaterial).
inline double neoHookeanEnergyGamma(double mu, double lambdaShifted) {
  return lambdaShifted > 0 ? 1 + mu / lambdaShifted : 1;
}

/// Ψ in J: zero at rest and for any rotation. x[0..3] the positions, restInverse Dm⁻¹ as NeoHookeanTet stores it (the
/// vertex order that built it), restVolume V0 > 0, mu μ and lambdaShifted λ' = λ + μ in Pa (>= 0, finite). From a
/// NeoHookeanTet: μ = 1/(α_D V0), λ' = 1/(α_H V0), and γ as computed here is its `gamma`.
template <class Vector, class Matrix>
double neoHookeanEnergy(const Vector* x, const Matrix& restInverse, double restVolume, double mu,
                        double lambdaShifted) {
  const Eigen::Matrix3d F = tetDeformationGradientDouble(x, restInverse);
  const double gamma = neoHookeanEnergyGamma(mu, lambdaShifted);
  const double J = orderedDeterminant(F);
  return restVolume * (0.5 * mu * (orderedSquaredNorm(F) - 3) +
                       0.5 * lambdaShifted * ((J - gamma) * (J - gamma) - (1 - gamma) * (1 - gamma)));
}

/// ∂Ψ/∂F = V0 (μ F + λ' (J - γ) cof F), in J (same arguments as neoHookeanEnergy).
template <class Vector, class Matrix>
Eigen::Matrix3d neoHookeanEnergyStress(const Vector* x, const Matrix& restInverse, double restVolume, double mu,
                                       double lambdaShifted) {
  const Eigen::Matrix3d F = tetDeformationGradientDouble(x, restInverse);
  const Eigen::Matrix3d cof = determinantGradient(F);
  const double gamma = neoHookeanEnergyGamma(mu, lambdaShifted);
  return restVolume * (mu * F + lambdaShifted * (orderedDot(F.col(0), cof.col(0)) - gamma) * cof);
}

/// gradient = ∂Ψ/∂x_v (N) and hessian = ∂²Ψ/∂x_v² (N/m) for the local vertex v in 0..3 (same other arguments as
/// neoHookeanEnergy). projectToPsd: clamp negative eigenvalues (a no-op for μ, λ' >= 0, where the block is already
/// PSD; see the top of this file). The force on the vertex is -gradient.
template <class Vector, class Matrix>
void neoHookeanVertexDerivatives(const Vector* x, const Matrix& restInverse, double restVolume, double mu,
                                 double lambdaShifted, int v, bool projectToPsd, Eigen::Vector3d& gradient,
                                 Eigen::Matrix3d& hessian) {
  const Eigen::Matrix3d F = tetDeformationGradientDouble(x, restInverse);
  const Eigen::Vector3d a = tetShapeGradient(restInverse, v);
  const Eigen::Matrix3d cof = determinantGradient(F);  // cof F = ∂J/∂F
  const double gamma = neoHookeanEnergyGamma(mu, lambdaShifted);
  const double J = orderedDot(F.col(0), cof.col(0));
  const Eigen::Vector3d g = orderedProduct(cof, a);  // ∂J/∂x_v
  gradient = restVolume * (mu * orderedProduct(F, a) + (lambdaShifted * (J - gamma)) * g);
  hessian = restVolume * ((mu * orderedDot(a, a)) * Eigen::Matrix3d::Identity() + lambdaShifted * (g * g.transpose()));
  if (projectToPsd) projectSymmetricToPsd(hessian);
}

}  // namespace pbd

// Stable Neo-Hookean tetrahedra as two constraints (Macklin and Müller 2021, "A Constraint-based Formulation of
// Stable Neo-Hookean Materials", MIG 2021; the energy is Smith, de Goes and Kim 2018, "Stable Neo-Hookean Flesh
// Simulation", without its log term).
//
//   F = Ds Dm⁻¹,  Ds = [x1 - x0, x2 - x0, x3 - x0],  Dm the same at rest,  V0 = |det Dm| / 6
//   deviatoric   C_D = sqrt(tr(FᵀF)),   α_D = 1 / (μ V0),    ∂C_D/∂F = F / C_D
//   hydrostatic  C_H = det F - γ,       α_H = 1 / (λ' V0),   ∂C_H/∂F = cof F,   γ = 1 + μ / λ'
//   vertex gradients: columns of (∂C/∂F) Dm⁻ᵀ for x1..x3, minus their sum for x0 (constraints/gradient_step.h)
// The energy ½ C_D²/α_D + ½ C_H²/α_H = V0 (μ/2 tr(FᵀF) + λ'/2 (det F - γ)²) is Ψ_SNH up to a constant.
//
// Which deviatoric form. The alternative C_D = sqrt(tr(FᵀF)) - sqrt(3) is zero at rest, but expanding at F = I + H,
// sqrt(tr(FᵀF)) - sqrt(3) = tr(H)/sqrt(3) + O(H²), so ½ μ C_D² = μ/6 tr(H)² + O(H³): a pure shear (tr H = 0) costs
// no energy to second order, a material without shear modulus. The same holds for any two constraints that vanish at
// rest with a smooth gradient: their quadratic energy has rank 2, while linear elasticity needs rank 6. So in XPBD
// the kernel keeps C_D = sqrt(tr(FᵀF)) (sqrt(3) at rest, never 0) with the hydrostatic offset γ: the two forces
// cancel at rest, ∂Ψ/∂F = μ F + λ'(det F - γ) cof F = μ I - μ I = 0. A pre-stressed pair, which decides how to solve:
//  * projectNeoHookean solves both in one 2x2 XPBD system, Δx = M⁻¹(∇C_D Δλ_D + ∇C_H Δλ_H). At rest the gradients
//    are parallel (∂C_D/∂F = I/sqrt(3), ∂C_H/∂F = I) and the solution is Δλ_H = -Δλ_D/sqrt(3): the correction at
//    rest is exactly zero, the form whose rest correction is zero.
//  * projectNeoHookeanSequential projects C_D, then C_H (the paper's order). Alone, each is not at rest at F = I: the
//    first projection pulls a resting tet in by a step that grows with the stiffness. The iteration then does not
//    come back to rest but settles short of it, with a volume loss of about Σ w |∇C_D|² / α̃_D (measured: 0.8% at
//    α̃_D = 117 Σ w |∇C_D|², 9% at 12x, a third at 4x; at 1x it collapses the tet to a point). Kept for comparison.
//  * Both linearize (XPBD drops the geometric stiffness C ∇²C, which the large pre-stress λ makes important), and
//    both need α̃_D >= ~1.5 Σ_k w_k |∇_k C_D|² at rest (neoHookeanDeviatoricWeight) to converge: the substep must be
//    short next to the time a shear wave takes to cross the tet. Stiffer than that, the 2x2 solve oscillates; its
//    step is then capped at |ΔF| <= 0.25 per projection, which keeps the tet from collapsing to a point (a state it
//    could not leave) but not from settling in a wrong shape. The cap never acts near convergence.
//  * λ must start every substep at 0. Starting it at the rest multipliers (-sqrt(3)/α̃_D, (γ - 1)/α̃_H) without also
//    moving the positions by M⁻¹ Σ ∇C λ_rest leaves out the pre-stress forces, which are what resists a small shear
//    (to first order a shear changes neither C): measured on the unit tet at E = 1e6 Pa, a 5% shear then stays over
//    2000 substeps instead of relaxing in ~100. Moving the positions as well is an explicit force step, unstable
//    where the plain solve is.
//  * PBD has no compliance that could balance the pair, so in PBD mode (stiffness k, k') the kernel uses the pair that
//    vanishes at rest: C_D = sqrt(tr(FᵀF)) - sqrt(3) and C_H = det F - 1, projected one after the other. Both are zero
//    exactly on rotations (tr(FᵀF) = Σσ² >= 3 (Πσ)^(2/3) = 3 when det F = 1, with equality only for σ = 1), so PBD
//    restores the rest shape. The volume comes back within a few iterations, the shear slowly: the two zero sets touch
//    tangentially at the rotations (measured: |FᵀF - I| from 1 to 0.06 in 1600 iterations).
//
// Lamé parameters. Expanding Ψ_SNH at F = I + ε (ε symmetric, small):
//   Ψ - Ψ(I) = μ ε:ε + ½ (λ' - μ) (tr ε)² + O(ε³)
// so reproducing linear elasticity with Lamé μ and λ needs λ' = λ + μ (Smith et al. 2018 reparametrize their energy
// for the same reason, with other factors because of its log term). neoHookeanMaterial() applies this shift; with
// λ' = λ a material given as E, ν = 0.3 would respond with 0.90 E and ν = 0.17 at small strain.
//
// Inversion. det F - γ keeps pushing the volume up when det F <= 0: cof F is not zero unless the tet has collapsed to
// a line or a point, so an inverted or flattened tet is driven back. Degenerate gradients (Σ w |∇C|² below 1e-8 of
// its value at rest) and F = 0 (no direction for C_D) give no correction instead of a NaN.
// Both constraints depend on the vertices only through F and are rotation-invariant: no linear or angular momentum.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>

#include "constraints/gradient_step.h"
#include "math/lane_point.h"
#include "math/wide_float.h"
#include "pbd/real.h"

namespace pbd {

/// A tetrahedron of stable Neo-Hookean material.
struct NeoHookeanTet {
  uint32_t p[4];                ///< Vertices; the order that built restInverse (either orientation).
  Mat3 restInverse;             ///< Dm⁻¹, 1/m, Dm = [X1 - X0, X2 - X0, X3 - X0] at rest (neoHookeanRestShape).
  Real restVolume;              ///< V0, m³ (> 0).
  Real gamma;                   ///< γ = 1 + μ/λ', dimensionless, >= 1; 1 = incompressible.
  Real deviatoricCompliance;    ///< XPBD α_D = 1/(μ V0), 1/J; +∞ = no shear resistance (μ = 0).
  Real hydrostaticCompliance;   ///< XPBD α_H = 1/(λ' V0), 1/J; 0 = incompressible (ν = 0.5).
  Real deviatoricStiffness;     ///< PBD k for C_D, in [0,1].
  Real hydrostaticStiffness;    ///< PBD k for C_H, in [0,1].
  Real deviatoricKPrime;        ///< Corrected PBD stiffness of C_D.
  Real hydrostaticKPrime;       ///< Corrected PBD stiffness of C_H.
};

/// Lamé's first and second parameters, Pa.
struct LameParameters {
  Real mu;      ///< Shear modulus μ, Pa (>= 0).
  Real lambda;  ///< λ, Pa; +∞ for ν = 0.5 (incompressible).
};

/// μ = E / (2(1 + ν)),  λ = E ν / ((1 + ν)(1 - 2ν)). E in Pa (>= 0), ν in (-1, 0.5]; ν = 0.5 gives λ = +∞.
inline LameParameters lameFromYoungPoisson(Real E, Real nu) {
  const Real denominator = (1 + nu) * (1 - 2 * nu);
  const Real lambda = denominator > 0 ? E * nu / denominator : std::numeric_limits<Real>::infinity();
  return {E / (2 * (1 + nu)), lambda};
}

/// The per-tet constants of the XPBD constraints.
struct NeoHookeanMaterial {
  Real gamma;                  ///< γ = 1 + μ/λ'.
  Real deviatoricCompliance;   ///< α_D = 1/(μ V0), 1/J.
  Real hydrostaticCompliance;  ///< α_H = 1/(λ' V0), 1/J.
};

/// γ and the compliances for Lamé parameters (shifted to λ' = λ + μ, see the top of this file) and a rest volume.
inline NeoHookeanMaterial neoHookeanMaterial(LameParameters lame, Real restVolume) {
  const Real inf = std::numeric_limits<Real>::infinity();
  const Real lambdaShifted = lame.lambda + lame.mu;
  const Real alphaD = lame.mu > 0 ? 1 / (lame.mu * restVolume) : inf;
  const Real alphaH = lambdaShifted > 0 ? 1 / (lambdaShifted * restVolume) : inf;
  const Real gamma = lambdaShifted > 0 ? 1 + lame.mu / lambdaShifted : 1;
  return {gamma, alphaD, alphaH};
}

/// Dm⁻¹ and V0 of the rest tet X[0..3]. Returns false, writing nothing, when it is degenerate (flat or collapsed:
/// |det Dm| <= 1e-6 |X1 - X0| |X2 - X0| |X3 - X0|); the caller must reject such a tet.
inline bool neoHookeanRestShape(const Vec3 X[4], Mat3& restInverse, Real& restVolume) {
  Mat3 Dm;
  for (int k = 0; k < 3; ++k) Dm.col(k) = X[k + 1] - X[0];
  const Real det = Dm.determinant();
  const Real scale = Dm.col(0).norm() * Dm.col(1).norm() * Dm.col(2).norm();
  if (!(std::abs(det) > Real(1e-6) * scale)) return false;
  restInverse = Dm.inverse();
  restVolume = std::abs(det) / Real(6);
  return true;
}

/// Σ m_ij² over a 3×3 matrix, column by column, left to right. Not Eigen's squaredNorm: natively Eigen sums 9 floats
/// in SSE partial sums, on wasm (no SIMD backend) in another order, and the rounding then differs between the builds.
template <class M>
typename M::Scalar orderedSquaredNorm(const M& m) {
  typename M::Scalar sum = 0;
  for (int c = 0; c < 3; ++c)
    for (int r = 0; r < 3; ++r) sum += m(r, c) * m(r, c);
  return sum;
}

/// sqrt(tr(FᵀF)), the deviatoric value before its offset. Templated so that tests can evaluate it in double.
template <class M>
typename M::Scalar neoHookeanDeviatoricValue(const M& F) {
  using std::sqrt;
  return sqrt(orderedSquaredNorm(F));
}

/// det F - γ, the hydrostatic value.
template <class M>
typename M::Scalar neoHookeanHydrostaticValue(const M& F, typename M::Scalar gamma) {
  return F.col(0).dot(F.col(1).cross(F.col(2))) - gamma;
}

/// C_D = sqrt(tr(FᵀF)) - offset and its vertex gradients. False when F = 0 (all vertices coincide: no direction).
inline bool neoHookeanDeviatoric(const Mat3& F, const Mat3& restInverse, Real offset, Real& C, Vec3 grad[4]) {
  const Real r = neoHookeanDeviatoricValue(F);
  if (!(r > Real(1e-6))) return false;
  C = r - offset;
  vertexGradients<3>(F / r, restInverse, grad);
  return true;
}

/// C_H = det F - γ and its vertex gradients (defined for every F).
inline void neoHookeanHydrostatic(const Mat3& F, const Mat3& restInverse, Real gamma, Real& C, Vec3 grad[4]) {
  C = neoHookeanHydrostaticValue(F, gamma);
  vertexGradients<3>(determinantGradient(F), restInverse, grad);
}

/// The offsets of the two constraints in each method (see the top of this file): XPBD (0, γ), PBD (sqrt(3), 1).
inline Real neoHookeanDeviatoricOffset(bool xpbd) { return xpbd ? 0 : std::sqrt(Real(3)); }
inline Real neoHookeanGamma(bool xpbd, Real gamma) { return xpbd ? gamma : 1; }

/// Σ_k w_k |∇_k C_D|² at rest, the scale α̃_D must not fall far below (see the top of this file): with ∂C_D/∂F =
/// I/sqrt(3) there, it is a third of the same sum for ∂C/∂F = I.
inline Real neoHookeanDeviatoricWeight(const Real w[4], const Mat3& restInverse) {
  return identityGradientWeight<3>(w, restInverse) / Real(3);
}

/// Projects C_D, then C_H on the positions C_D left (the paper's order; see the top of this file for why
/// projectNeoHookean is preferred). Index 0 of kPrime, alphaTilde (= α / h²) and lambda is the deviatoric
/// constraint, 1 the hydrostatic one; lambda[k] += Δλ_k.
inline void projectNeoHookeanSequential(Vec3* p[4], const Real w[4], const Mat3& restInverse, Real gamma, bool xpbd,
                                        const Real kPrime[2], const Real alphaTilde[2], Real lambda[2]) {
  const Real minWeighted = degenerateGradientWeight<3>(w, restInverse);
  Real C;
  Vec3 grad[4];
  if (neoHookeanDeviatoric(deformationGradient<3>(p, restInverse), restInverse, neoHookeanDeviatoricOffset(xpbd), C,
                           grad))
    lambda[0] += projectAlongGradients(p, w, grad, 4, C, minWeighted, xpbd, kPrime[0], alphaTilde[0], lambda[0]);
  neoHookeanHydrostatic(deformationGradient<3>(p, restInverse), restInverse, neoHookeanGamma(xpbd, gamma), C, grad);
  lambda[1] += projectAlongGradients(p, w, grad, 4, C, minWeighted, xpbd, kPrime[1], alphaTilde[1], lambda[1]);
}

/// The cap on one coupled projection's change of F (Frobenius norm); see the top of this file.
constexpr Real kNeoHookeanMaxStep = 0.25f;

/// The inputs and outputs of one coupled XPBD projection per lane (T = float for one tet, Float4 for four of one
/// colour). Index 0 of alphaTilde and lambda is the deviatoric constraint, 1 the hydrostatic one.
template <class T>
struct NeoHookeanLanes {
  LanePoint<T> x[4];      ///< In: vertex positions, m; out: corrected.
  T w[4];                 ///< Inverse masses, 1/kg.
  T restInverse[3][3];    ///< Dm⁻¹ by row and column, 1/m.
  T gamma;                ///< γ.
  T alphaTilde[2];        ///< α̃ = α / h² of each constraint, 1/(J s²).
  T lambda[2];            ///< XPBD multipliers so far this substep; out: + Δλ where projected.
};

/// Both XPBD constraints of every lane's tet solved together (see projectNeoHookean), the same IEEE operations in a
/// fixed order for both lane types, so a tet gets the same bits whichever path projects it, natively and in wasm.
/// Returns the lanes it projected; the others (a disabled constraint, F = 0, a degenerate gradient, a singular
/// system) are left as they were, for projectNeoHookeanSequential. Always inlined, as projectTetVolumeLanes.
template <class T>
[[gnu::always_inline]] inline auto projectNeoHookeanLanes(NeoHookeanLanes<T>& l) {
  using P = LanePoint<T>;
  const T (&M)[3][3] = l.restInverse;
  const T zero = lanes<T>(0), inf = lanes<T>(std::numeric_limits<Real>::infinity());
  // Vertex gradients from ∂C/∂F's columns q: ∇x_{k+1} = Σ_j q_j M[k][j] (column k of (∂C/∂F) Dm⁻ᵀ), ∇x_0 = -Σ.
  auto gradients = [&](const P (&q)[3], P (&g)[4]) {
    for (int k = 0; k < 3; ++k) g[k + 1] = (q[0] * M[k][0] + q[1] * M[k][1]) + q[2] * M[k][2];
    g[0] = ((-g[1]) - g[2]) - g[3];
  };
  auto weighted = [&](const P (&g)[4]) {  // Σ_k w_k |g_k|²
    return ((l.w[0] * dot(g[0], g[0]) + l.w[1] * dot(g[1], g[1])) + l.w[2] * dot(g[2], g[2])) +
           l.w[3] * dot(g[3], g[3]);
  };
  auto frobenius = [](const P (&f)[3]) {
    using std::sqrt;
    return sqrt((dot(f[0], f[0]) + dot(f[1], f[1])) + dot(f[2], f[2]));
  };
  const P identity[3] = {{lanes<T>(1), zero, zero}, {zero, lanes<T>(1), zero}, {zero, zero, lanes<T>(1)}};
  P unit[4];
  gradients(identity, unit);
  const T minWeighted = lanes<T>(1e-8f) * weighted(unit);  // degenerateGradientWeight
  const P ds[3] = {l.x[1] - l.x[0], l.x[2] - l.x[0], l.x[3] - l.x[0]};
  P f[3];  // F = Ds Dm⁻¹, by column
  for (int j = 0; j < 3; ++j) f[j] = (ds[0] * M[0][j] + ds[1] * M[1][j]) + ds[2] * M[2][j];
  const T r = frobenius(f), CD = r;
  const P qD[3] = {f[0] / r, f[1] / r, f[2] / r};
  const P cof[3] = {cross(f[1], f[2]), cross(f[2], f[0]), cross(f[0], f[1])};
  const T CH = dot(f[0], cof[0]) - l.gamma;
  P gD[4], gH[4];
  gradients(qD, gD);
  gradients(cof, gH);
  const T a = weighted(gD), c = weighted(gH);
  T b = zero, perpendicular = zero;
  for (int k = 0; k < 4; ++k) b = b + l.w[k] * dot(gD[k], gH[k]);
  const T along = b / a;
  for (int k = 0; k < 4; ++k) {
    const P e = gH[k] - gD[k] * along;
    perpendicular = perpendicular + l.w[k] * dot(e, e);
  }
  const T aD = l.alphaTilde[0], aH = l.alphaTilde[1];
  const T det = ((a * perpendicular + aD * c) + aH * a) + aD * aH;
  const T minR = lanes<T>(1e-6f), minDet = lanes<T>(1e-12f);  // locals: a call in the & chain warns in clang
  const auto done =
      (aD < inf) & (aH < inf) & (minR < r) & (minWeighted < a) & (minWeighted < c) & (minDet * a * c < det);
  const T r0 = -CD - aD * l.lambda[0], r1 = -CH - aH * l.lambda[1];
  const T dD = ((c + aH) * r0 - b * r1) / det, dH = ((a + aD) * r1 - b * r0) / det;
  P dx[4];
  for (int k = 0; k < 4; ++k) dx[k] = (gD[k] * dD + gH[k] * dH) * l.w[k];
  const P dds[3] = {dx[1] - dx[0], dx[2] - dx[0], dx[3] - dx[0]};
  P df[3];
  for (int j = 0; j < 3; ++j) df[j] = (dds[0] * M[0][j] + dds[1] * M[1][j]) + dds[2] * M[2][j];
  const T dF = frobenius(df), cap = lanes<T>(kNeoHookeanMaxStep);
  const T t = select(cap < dF, cap / dF, lanes<T>(1));
  for (int k = 0; k < 4; ++k) {
    const P moved = l.x[k] + dx[k] * t;
    l.x[k] = {select(done, moved.x, l.x[k].x), select(done, moved.y, l.x[k].y), select(done, moved.z, l.x[k].z)};
  }
  l.lambda[0] = select(done, l.lambda[0] + t * dD, l.lambda[0]);
  l.lambda[1] = select(done, l.lambda[1] + t * dH, l.lambda[1]);
  return done;
}

/// Projects one tet with both XPBD constraints solved together (same arguments as projectNeoHookeanSequential):
///   [a + α̃_D   b      ] [Δλ_D]   [-C_D - α̃_D λ_D]      a = Σ w |∇C_D|²,  c = Σ w |∇C_H|²,  b = Σ w ∇C_D·∇C_H
///   [b         c + α̃_H] [Δλ_H] = [-C_H - α̃_H λ_H],     Δx_k = w_k (Δλ_D ∇_k C_D + Δλ_H ∇_k C_H)
/// The determinant is formed as (ac - b²) + α̃_D c + α̃_H a + α̃_D α̃_H with ac - b² = a Σ w |∇C_H - (b/a) ∇C_D|²
/// >= 0, which avoids the cancellation of ac - b² at rest, where the gradients are parallel. When the step would
/// change F by more than kNeoHookeanMaxStep, Δx and both Δλ are scaled down together. PBD mode, a disabled or
/// degenerate constraint, and a singular system (α̃_D = α̃_H = 0 at rest) go to projectNeoHookeanSequential. The
/// arithmetic is projectNeoHookeanLanes', one lane.
inline void projectNeoHookean(Vec3* p[4], const Real w[4], const Mat3& restInverse, Real gamma, bool xpbd,
                              const Real kPrime[2], const Real alphaTilde[2], Real lambda[2]) {
  if (xpbd) {
    NeoHookeanLanes<Real> l;
    for (int k = 0; k < 4; ++k) l.x[k] = {p[k]->x(), p[k]->y(), p[k]->z()}, l.w[k] = w[k];
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < 3; ++c) l.restInverse[r][c] = restInverse(r, c);
    l.gamma = gamma;
    l.alphaTilde[0] = alphaTilde[0], l.alphaTilde[1] = alphaTilde[1];
    l.lambda[0] = lambda[0], l.lambda[1] = lambda[1];
    if (projectNeoHookeanLanes(l)) {
      for (int k = 0; k < 4; ++k) *p[k] = Vec3(l.x[k].x, l.x[k].y, l.x[k].z);
      lambda[0] = l.lambda[0], lambda[1] = l.lambda[1];
      return;
    }
  }
  projectNeoHookeanSequential(p, w, restInverse, gamma, xpbd, kPrime, alphaTilde, lambda);
}

/// Four Neo-Hookean tets of one colour at a time (order[begin, end), which share no particle; a short last batch
/// repeats its last tet: batchOfFour) on padded positions (xyzw, each particle at placeOf[i], or at i without
/// placeOf), `lambda` two multipliers per tet. The lanes projectNeoHookeanLanes cannot take, and PBD mode, go one at
/// a time through projectNeoHookeanSequential: the same bits as projectNeoHookean on each in turn.
void projectNeoHookeansBatched(const NeoHookeanTet* tets, const uint32_t* order, size_t begin, size_t end,
                               Real* lambda, Real* xyzw, bool xpbd, Real invH2, const uint32_t* placeOf);

/// projectNeoHookean of tet `t` (number k) on padded positions, each particle at placeOf[i] (or i without placeOf).
void projectNeoHookeanPadded(const NeoHookeanTet& t, uint32_t k, Real* lambda, Real* xyzw, bool xpbd, Real invH2,
                             const uint32_t* placeOf);

}  // namespace pbd

// Cloth triangle stretch and shear with strain-based dynamics (Müller, Chentanez, Kim and Macklin 2014, "Strain Based
// Dynamics", SCA 2014), an alternative to edge springs in which stretch and shear have separate strengths.
//
// Rest frame (restTriangleFrame): for the rest vertices X0, X1, X2
//   n̂ = (X1 - X0) × (X2 - X0) / |...|,   ex = the warp direction (default X1 - X0) projected into the plane, normalized,
//   ey = n̂ × ex,   u_k = ((X_k - X0)·ex, (X_k - X0)·ey),   Dm = [u1, u2] (2x2, det Dm = 2 × rest area > 0)
// Constraints, with F = [x1 - x0, x2 - x0] Dm⁻¹ (3x2; its columns f0, f1 are where the rest ex and ey went), S = FᵀF:
//   C_xx = sqrt(S00) - 1 = |f0| - 1                    ∂C/∂F = [f̂0, 0]                               (stretch along ex)
//   C_yy = sqrt(S11) - 1 = |f1| - 1                    ∂C/∂F = [0, f̂1]                               (stretch along ey)
//   C_xy = S01 / (sqrt(S00) sqrt(S11)) = f̂0·f̂1        ∂C/∂F = [(f̂1 - C_xy f̂0)/|f0|, (f̂0 - C_xy f̂1)/|f1|]  (shear)
//   vertex gradients: columns of (∂C/∂F) Dm⁻ᵀ for x1, x2, minus their sum for x0 (constraints/gradient_step.h)
// The stretches are the paper's S_ii - 1 in length form: C_xx is the engineering strain along ex, and the same
// compliance means the same stiffness at any stretch. C_xy is the paper's normalized shear, the cosine of the angle
// between the deformed axes (0 at rest, > 0 when they close up, < 0 when they open), so stretching does not change
// it. The three are projected one after the other, each with its own λ; stretch (C_xx, C_yy) and shear (C_xy) each
// have their own compliance or stiffness, and a shear stiffness 0 (or compliance +∞) leaves the shear free.
// Compliance: the energy is ½ C²/α per constraint, α in 1/J; a stretch modulus Y in N/m gives α = 1/(Y × rest area).
// Each C depends only on FᵀF, which rotations and translations leave alone: no linear or angular momentum. An axis
// collapsed to zero length (|f0| or |f1| <= 1e-6) has no direction: its constraints give no correction.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>

#include "constraints/gradient_step.h"
#include "math/lane_point.h"
#include "math/wide_float.h"
#include "pbd/real.h"

namespace pbd {

struct TriangleStrainConstraint {
  uint32_t p[3];           ///< Vertices x0, x1, x2, in the order that built restInverse.
  Mat2 restInverse;        ///< Dm⁻¹, 1/m (restTriangleFrame).
  Real restArea;           ///< m² (> 0).
  Real stretchCompliance;  ///< XPBD α of C_xx and C_yy, 1/J; 0 = inextensible; +∞ = free.
  Real shearCompliance;    ///< XPBD α of C_xy, 1/J; 0 = no shear; +∞ = free.
  Real stretchStiffness;   ///< PBD k of C_xx and C_yy, in [0,1]; 0 = free.
  Real shearStiffness;     ///< PBD k of C_xy, in [0,1]; 0 = free.
  Real stretchKPrime;      ///< Corrected PBD stiffness of the stretches.
  Real shearKPrime;        ///< Corrected PBD stiffness of the shear.
};

/// A triangle's compliance from a per-unit-area one (1 / modulus, m/N): α = compliance / A, so that the energy
/// ½ C² / α = ½ C² A / compliance is the strain energy density times the area and a finer mesh of the same sheet is
/// as stiff. Used by the builders and World::setConstraintStrength alike.
inline Real triangleCompliance(Real perUnitArea, Real restArea) { return perUnitArea / restArea; }

/// Which of the three constraints; also the index of its λ.
enum class TriangleStrain { StretchX = 0, StretchY = 1, Shear = 2 };

/// Builds Dm⁻¹ for the rest triangle X[0..2] (frame at the top of this file) and its area. `warp` orients ex (for
/// anisotropic cloth); zero = along X1 - X0. Returns false when the triangle is degenerate (|(X1-X0) × (X2-X0)| <=
/// 1e-6 |X1-X0| |X2-X0|) or the warp is along the normal; the caller must reject it. `area` is set in every case.
inline bool restTriangleFrame(const Vec3 X[3], Mat2& restInverse, Real& area, const Vec3& warp = Vec3::Zero()) {
  const Vec3 e1 = X[1] - X[0], e2 = X[2] - X[0];
  const Vec3 n = e1.cross(e2);
  const Real nLength = n.norm();
  area = nLength / 2;
  if (!(nLength > Real(1e-6) * e1.norm() * e2.norm())) return false;
  const Vec3 nHat = n / nLength;
  Vec3 ex = warp.squaredNorm() > 0 ? Vec3(warp - warp.dot(nHat) * nHat) : e1;
  const Real exLength = ex.norm();
  if (!(exLength > Real(1e-6) * (warp.squaredNorm() > 0 ? warp.norm() : e1.norm()))) return false;
  ex /= exLength;
  const Vec3 ey = nHat.cross(ex);
  Mat2 Dm;
  Dm << e1.dot(ex), e2.dot(ex), e1.dot(ey), e2.dot(ey);
  restInverse = Dm.inverse();
  return true;
}

/// One constraint's value C and vertex gradients g per lane at the positions x (Dm⁻¹ = M by row and column), written
/// out per component in a fixed order: F = [x1 - x0, x2 - x0] Dm⁻¹, then ∇x_{v+1} = q0 M[v][0] + q1 M[v][1] and
/// ∇x_0 = -∇x_1 - ∇x_2 from ∂C/∂F's columns q0, q1 (the terms of a zero column left out). Returns where both axes
/// are longer than 1e-6 (elsewhere C and g are meaningless).
template <class T>
[[gnu::always_inline]] inline auto triangleStrainLanes(const LanePoint<T> (&x)[3], const T (&M)[2][2],
                                                       TriangleStrain which, T& C, LanePoint<T> (&g)[3]) {
  using P = LanePoint<T>;
  using std::sqrt;
  const T one = lanes<T>(1), tiny = lanes<T>(1e-6f);
  const P ds0 = x[1] - x[0], ds1 = x[2] - x[0];
  const P f0 = ds0 * M[0][0] + ds1 * M[1][0], f1 = ds0 * M[0][1] + ds1 * M[1][1];
  const T l0 = sqrt(dot(f0, f0)), l1 = sqrt(dot(f1, f1));
  const T i0 = one / l0, i1 = one / l1;
  if (which == TriangleStrain::StretchX) {  // ∂C/∂F = [f̂0, 0]
    C = l0 - one;
    const P u0 = f0 * i0;
    for (int v = 0; v < 2; ++v) g[v + 1] = u0 * M[v][0];
  } else if (which == TriangleStrain::StretchY) {  // ∂C/∂F = [0, f̂1]
    C = l1 - one;
    const P u1 = f1 * i1;
    for (int v = 0; v < 2; ++v) g[v + 1] = u1 * M[v][1];
  } else {  // ∂C/∂F = [(f̂1 - C f̂0)/|f0|, (f̂0 - C f̂1)/|f1|]
    const P u0 = f0 * i0, u1 = f1 * i1;
    C = dot(u0, u1);
    const P q0 = (u1 - u0 * C) * i0, q1 = (u0 - u1 * C) * i1;
    for (int v = 0; v < 2; ++v) g[v + 1] = q0 * M[v][0] + q1 * M[v][1];
  }
  g[0] = (-g[1]) - g[2];
  return (tiny < l0) & (tiny < l1);
}

/// triangleStrainLanes for one triangle at the positions *x[0..2]: false when an axis has collapsed (no direction).
inline bool triangleStrain(const Vec3* const* x, const Mat2& restInverse, TriangleStrain which, Real& C, Vec3 grad[3]) {
  const LanePoint<Real> p[3] = {{x[0]->x(), x[0]->y(), x[0]->z()}, {x[1]->x(), x[1]->y(), x[1]->z()},
                                {x[2]->x(), x[2]->y(), x[2]->z()}};
  const Real M[2][2] = {{restInverse(0, 0), restInverse(0, 1)}, {restInverse(1, 0), restInverse(1, 1)}};
  LanePoint<Real> g[3];
  const bool defined = triangleStrainLanes(p, M, which, C, g);
  for (int v = 0; v < 3; ++v) grad[v] = Vec3(g[v].x, g[v].y, g[v].z);
  return defined;
}

/// The inputs and outputs of one triangle's three projections per lane (T = float for one triangle, Float4 for four
/// of one colour). Index 0 of kPrime and alphaTilde is the stretch, 1 the shear; lambda is indexed by TriangleStrain.
template <class T>
struct TriangleStrainLanes {
  LanePoint<T> x[3];     ///< In: vertex positions, m; out: corrected.
  T w[3];                ///< Inverse masses, 1/kg.
  T restInverse[2][2];   ///< Dm⁻¹ by row and column, 1/m.
  T kPrime[2];           ///< PBD corrected stiffnesses.
  T alphaTilde[2];       ///< XPBD α / h², 1/(J s²).
  T lambda[3];           ///< XPBD multipliers so far this substep; out: + Δλ.
};

/// Projects C_xx, C_yy, then C_xy of every lane (each on the positions the previous one left), with triangleStrain's
/// values and gradients written out per component in a fixed order and no branch on a lane: a triangle gets the same
/// bits whichever path projects it, natively and in wasm. A constraint with a collapsed axis, C = 0, a disabled
/// strength or a degenerate gradient (Σ w |∇C|² <= degenerateGradientWeight) leaves its lane as it was.
template <class T>
[[gnu::always_inline]] inline void projectTriangleStrainLanes(TriangleStrainLanes<T>& l, bool xpbd) {
  using P = LanePoint<T>;
  const T (&M)[2][2] = l.restInverse;
  const T zero = lanes<T>(0);
  auto weighted = [&](const P (&g)[3]) {  // Σ_k w_k |g_k|²
    return (l.w[0] * dot(g[0], g[0]) + l.w[1] * dot(g[1], g[1])) + l.w[2] * dot(g[2], g[2]);
  };
  P unit[3] = {{zero, zero, zero}, {M[0][0], M[0][1], zero}, {M[1][0], M[1][1], zero}};  // for ∂C/∂F = I
  unit[0] = (-unit[1]) - unit[2];
  const T minWeighted = lanes<T>(1e-8f) * weighted(unit);  // degenerateGradientWeight
  for (int k = 0; k < 3; ++k) {
    const int group = k == int(TriangleStrain::Shear) ? 1 : 0;
    T C;
    P g[3];
    const auto defined = triangleStrainLanes(l.x, M, TriangleStrain(k), C, g);
    const T sum = weighted(g), aTilde = l.alphaTilde[group], kPrime = l.kPrime[group];
    const auto enabled = xpbd ? aTilde < lanes<T>(std::numeric_limits<Real>::infinity()) : zero < kPrime;
    const auto moves = defined & (C != zero) & enabled & (minWeighted < sum);
    const T dLambda = xpbd ? (-C - aTilde * l.lambda[k]) / (sum + aTilde) : -kPrime * C / sum;  // multiplierStep
    for (int v = 0; v < 3; ++v) {
      const P moved = l.x[v] + g[v] * (dLambda * l.w[v]);
      l.x[v] = {select(moves, moved.x, l.x[v].x), select(moves, moved.y, l.x[v].y), select(moves, moved.z, l.x[v].z)};
    }
    l.lambda[k] = select(moves, l.lambda[k] + dLambda, l.lambda[k]);
  }
}

/// Projects C_xx, C_yy, then C_xy (each on the positions the previous one left): projectTriangleStrainLanes, one
/// lane. kPrime and alphaTilde (= α / h²) are {stretch, shear}; lambda is indexed by TriangleStrain and lambda[k] +=
/// Δλ_k.
inline void projectTriangleStrain(Vec3* p[3], const Real w[3], const Mat2& restInverse, bool xpbd,
                                  const Real kPrime[2], const Real alphaTilde[2], Real lambda[3]) {
  TriangleStrainLanes<Real> l;
  for (int k = 0; k < 3; ++k) l.x[k] = {p[k]->x(), p[k]->y(), p[k]->z()}, l.w[k] = w[k], l.lambda[k] = lambda[k];
  for (int r = 0; r < 2; ++r)
    for (int c = 0; c < 2; ++c) l.restInverse[r][c] = restInverse(r, c);
  for (int g = 0; g < 2; ++g) l.kPrime[g] = kPrime[g], l.alphaTilde[g] = alphaTilde[g];
  projectTriangleStrainLanes(l, xpbd);
  for (int k = 0; k < 3; ++k) *p[k] = Vec3(l.x[k].x, l.x[k].y, l.x[k].z), lambda[k] = l.lambda[k];
}

/// Four strain triangles of one colour at a time (order[begin, end), which share no particle; a short last batch
/// repeats its last triangle: batchOfFour) on padded positions (xyzw), `lambda` three multipliers per triangle: the
/// same bits as projectTriangleStrain on each in turn.
void projectTriangleStrainsBatched(const TriangleStrainConstraint* cs, const uint32_t* order, size_t begin,
                                   size_t end, Real* lambda, Real* xyzw, bool xpbd, Real invH2);

/// projectTriangleStrain of triangle `c` (number k) on padded positions.
void projectTriangleStrainPadded(const TriangleStrainConstraint& c, uint32_t k, Real* lambda, Real* xyzw, bool xpbd,
                                 Real invH2);

}  // namespace pbd

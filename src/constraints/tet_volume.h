// Tetrahedral volume constraint (Müller et al. 2006, section 3.3 / appendix; Bender's solve_VolumeConstraint).
//
//   V = 1/6 (p1 - p0) · ((p2 - p0) × (p3 - p0)),   C = V - V0   (bilateral)
//   unilateral variant: C = min(V - V0, 0), the volume may only grow back, never be pushed below V0
//   ∇p1 V = 1/6 (p2 - p0) × (p3 - p0),  ∇p2 V = 1/6 (p3 - p0) × (p1 - p0),  ∇p3 V = 1/6 (p1 - p0) × (p2 - p0)
//   ∇p0 V = -(∇p1 V + ∇p2 V + ∇p3 V)
// The gradients sum to zero and are rotation-invariant, so the correction carries no linear or angular momentum.
#pragma once

#include <cstdint>
#include <limits>
#include <vector>

#include "constraints/multiplier.h"
#include "constraints/padded_vertices.h"
#include "math/wide_float.h"
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

/// The inputs and outputs of one projection per lane (T = float for one tet, Float4 for four of one colour).
template <class T>
struct TetVolumeLanes {
  T x[4], y[4], z[4];  ///< In: vertex positions; out: corrected.
  T w[4];              ///< Inverse masses.
  T restVolume;        ///< V0, m³.
  T maxC;              ///< C is clamped to at most this: 0 = unilateral (only compression is resisted), +inf = not.
  T kPrime;            ///< PBD corrected stiffness.
  T alphaTilde;        ///< XPBD α / h².
  T lambda;            ///< XPBD multiplier so far this substep.
};

/// Projects every lane; returns Δλ per lane (0 where satisfied or degenerate). The same IEEE operations in the same
/// order for both lane types and no branches, so a tet gets the same bits whichever path projects it. The gradients
/// are those of tetVolumeGradients, written out per component. Always inlined: called, the lanes went through memory
/// (a tet cube 16³'s serial step 7 % slower natively).
template <class T, bool kClamped = true>
[[gnu::always_inline]] inline T projectTetVolumeLanes(TetVolumeLanes<T>& l, bool xpbd) {
  const T zero = lanes<T>(0), sixth = lanes<T>(Real(1) / 6);
  const T e1x = l.x[1] - l.x[0], e1y = l.y[1] - l.y[0], e1z = l.z[1] - l.z[0];
  const T e2x = l.x[2] - l.x[0], e2y = l.y[2] - l.y[0], e2z = l.z[2] - l.z[0];
  const T e3x = l.x[3] - l.x[0], e3y = l.y[3] - l.y[0], e3z = l.z[3] - l.z[0];
  // g1 = (e2 × e3)/6, g2 = (e3 × e1)/6, g3 = (e1 × e2)/6, g0 = -(g1 + g2 + g3); V = e1 · (e2 × e3) / 6.
  const T c1x = e2y * e3z - e2z * e3y, c1y = e2z * e3x - e2x * e3z, c1z = e2x * e3y - e2y * e3x;
  const T volume = ((e1x * c1x + e1y * c1y) + e1z * c1z) * sixth;
  T gx[4], gy[4], gz[4];
  gx[1] = c1x * sixth, gy[1] = c1y * sixth, gz[1] = c1z * sixth;
  gx[2] = (e3y * e1z - e3z * e1y) * sixth, gy[2] = (e3z * e1x - e3x * e1z) * sixth, gz[2] = (e3x * e1y - e3y * e1x) * sixth;
  gx[3] = (e1y * e2z - e1z * e2y) * sixth, gy[3] = (e1z * e2x - e1x * e2z) * sixth, gz[3] = (e1x * e2y - e1y * e2x) * sixth;
  gx[0] = -((gx[1] + gx[2]) + gx[3]), gy[0] = -((gy[1] + gy[2]) + gy[3]), gz[0] = -((gz[1] + gz[2]) + gz[3]);
  const T rawC = volume - l.restVolume;
  T C = rawC;
  if constexpr (kClamped) C = select(rawC > l.maxC, l.maxC, rawC);
  T weighted = zero;
  for (int k = 0; k < 4; ++k) weighted = weighted + l.w[k] * ((gx[k] * gx[k] + gy[k] * gy[k]) + gz[k] * gz[k]);
  const auto active = (C != zero) & (weighted > lanes<T>(Real(1e-24)));
  const T numerator = xpbd ? (-C - l.alphaTilde * l.lambda) : -(l.kPrime * C);
  const T denominator = xpbd ? (weighted + l.alphaTilde) : weighted;
  const T dLambda = selectOrZero(active, numerator / denominator);  // an inactive lane's quotient masked to +0
  for (int k = 0; k < 4; ++k) {
    const T s = dLambda * l.w[k];
    l.x[k] = l.x[k] + s * gx[k], l.y[k] = l.y[k] + s * gy[k], l.z[k] = l.z[k] + s * gz[k];
  }
  return dLambda;
}

/// Projects one volume constraint in place; returns Δλ.
inline Real projectTetVolume(Vec3* p[4], const Real w[4], Real restVolume, bool unilateral, bool xpbd, Real kPrime,
                             Real alphaTilde, Real lambda) {
  TetVolumeLanes<float> l;
  for (int k = 0; k < 4; ++k) l.x[k] = p[k]->x(), l.y[k] = p[k]->y(), l.z[k] = p[k]->z(), l.w[k] = w[k];
  l.restVolume = restVolume;
  l.maxC = unilateral ? Real(0) : std::numeric_limits<Real>::infinity();
  l.kPrime = kPrime, l.alphaTilde = alphaTilde, l.lambda = lambda;
  const Real dLambda = projectTetVolumeLanes(l, xpbd);
  for (int k = 0; k < 4; ++k) *p[k] = Vec3(l.x[k], l.y[k], l.z[k]);
  return dLambda;
}

/// Projects one tet's volume on padded positions (xyzw: x, y, z and the inverse mass per particle); adds Δλ to
/// `lambda`.
inline void projectTetVolumePadded(const TetVolumeConstraint& t, Real* xyzw, bool xpbd, Real invH2, Real& lambda) {
  Vec3* ps[4];
  Real ws[4];
  paddedVertices(xyzw, t.p, ps, ws);
  lambda += projectTetVolume(ps, ws, t.restVolume, t.unilateral, xpbd, t.kPrime, t.compliance * invH2, lambda);
}

/// Projects tets cs[order[n]] for n in [begin, end), which must share no particle (one colour), four at a time
/// (a short last batch repeats its last element in the empty lanes: batchOfFour).
/// Bit-identical to projectTetVolume on each in turn. `xyzw` holds the padded positions (padRange), `lambda` the
/// multipliers by tet.
void projectTetVolumesBatched(const TetVolumeConstraint* cs, const uint32_t* order, size_t begin, size_t end,
                              Real* lambda, Real* xyzw, bool xpbd, Real invH2);

/// The tets copied in a sweep's order (ElementOrder::order(): colour by colour), one array per field, position n
/// holding tet order[n]: four consecutive positions of a colour load each field with one vector load, and a sweep
/// streams through them instead of gathering four 36-byte structs from across the mesh.
struct PackedTetVolumes {
  std::vector<uint32_t> particles;  ///< p[0..3] of each position's tet (their places, when placed), 4 per position
  std::vector<Real> restVolume;     ///< V0, m³
  std::vector<Real> maxC;           ///< 0 (unilateral) or +inf
  std::vector<Real> kPrime;         ///< PBD k'
  std::vector<Real> compliance;     ///< XPBD α, m⁶/J
  /// With places: every tet as cs holds it but with its particles' places, for the kernels that read whole tets (the
  /// short last batches, the uncoloured rest); empty without.
  std::vector<TetVolumeConstraint> placed;
  bool rigid = true;           ///< Every compliance is 0 (an XPBD sweep then reads no strength or multiplier).
  bool anyUnilateral = false;  ///< Some tet only resists compression (its C is clamped).

  void reserve(size_t count);
  /// Copies tets cs[order[n]], n in [0, count) (no allocation within reserve()). `placeOf` (or null): where each
  /// particle is in the padded positions the sweep works on (ElementOrder::placeHalvesApart).
  void pack(const TetVolumeConstraint* cs, const uint32_t* order, size_t count, const uint32_t* placeOf = nullptr);
  /// The tets whole, as the sweep's padded positions number their particles: `placed`, or cs itself.
  const TetVolumeConstraint* tets(const TetVolumeConstraint* cs) const { return placed.empty() ? cs : placed.data(); }
};

/// projectTetVolumesBatched on the packed copy: the same bits. Whole fours from `begin` load packed fields; a short
/// last batch goes through projectTetVolumesBatched. A four whose compliances are all 0 under XPBD neither reads
/// nor writes its multipliers: with α̃ = 0 the step −(C + α̃λ)/(w∇C² + α̃) does not depend on λ, and nothing else
/// reads a rigid tet's λ. The loop is compiled per method and pack (PackedTetVolumes::rigid, anyUnilateral), so that
/// a rigid pack under XPBD loads no strength and one with no unilateral tet no clamp.
void projectPackedTetVolumes(const PackedTetVolumes& packed, const TetVolumeConstraint* cs, const uint32_t* order,
                             size_t begin, size_t end, Real* lambda, Real* xyzw, bool xpbd, Real invH2);

}  // namespace pbd

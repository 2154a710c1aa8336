// Shape matching of a particle cluster (Müller, Heidelberger, Teschner and Gross 2005, "Meshless Deformations Based
// on Shape Matching", SIGGRAPH 2005; the rigid matching, without its linear and quadratic extensions).
//
//   rest:  q_i = X_i - X_cm,  X_cm = Σ m_i X_i / Σ m_i                      (shapeMatchingRestOffsets; Σ m_i q_i = 0)
//   now:   c = Σ m_i p_i / Σ m_i,   A_pq = Σ m_i (p_i - c) q_iᵀ,   R = the rotation of the polar decomposition A_pq = R S
//   goals: g_i = R q_i + c,   PBD: Δp_i = k (g_i - p_i)                     (the paper's stiffness α is k here)
// R (closestRotation): A = U Σ Vᵀ by Eigen's JacobiSVD, R = U diag(1, 1, d) Vᵀ with d = sign det(U Vᵀ), the closest
// proper rotation (Kabsch). It stays a rotation for an inverted (mirrored) cluster, det A < 0, and for flat or
// collinear clusters (rank-deficient A: the spin about the line or the plane's normal is whatever the SVD returns).
// Müller et al. 2016 ("A Robust Method to Extract the Rotational Part of Deformations") is cheaper per call, but it
// needs last step's rotation as a warm start, and this kernel keeps no state.
//
// As one XPBD constraint per cluster (one λ), with the goals held fixed during the step:
//   C = sqrt(Σ_free m_i |p_i - g_i|²),   ∇_i C = m_i (p_i - g_i) / C,   Σ w_i |∇_i C|² = 1 when w_i = 1/m_i
//   PBD:  Δλ = -k' C               ->  Δp_i = k' (g_i - p_i)                          (exactly the paper's update)
//   XPBD: Δλ = (-C - α̃ λ)/(1 + α̃)  ->  Δp_i = (g_i - p_i) (C + α̃ λ) / ((1 + α̃) C)
// The energy ½ C²/α = Σ m_i |p_i - g_i|² / (2α) ties every particle to its goal by a spring of stiffness m_i / α, so
// α is in s²: 1/sqrt(α) is the angular frequency of that spring, α̃ = α / h². The first projection of a substep closes
// the fraction 1/(1 + α̃) of every particle's gap, the same fraction for all, which is what keeps the momentum below.
// With no pinned member, (R, c) minimize Σ m_i |p_i - g_i|² over rotations and translations, so by the envelope
// theorem ∇_i C above is also the exact gradient of C with goals that follow the particles.
//
// Momentum (every member free, m_i = 1/w_i): Δp_i = s (g_i - p_i) with one s for the whole cluster, and
//   linear:  Σ m_i (g_i - p_i) = R Σ m_i q_i + M c - M c = 0
//   angular: Σ m_i p_i × (g_i - p_i) = Σ m_i (p_i - c) × (R q_i) = the axial vector of A_pq Rᵀ - R A_pqᵀ = 0,
//            because A_pq Rᵀ = R S Rᵀ (with the reflection fix U Σ diag(1, 1, d) Uᵀ) is symmetric.
//
// Pinned members (w = 0) never move; they count as infinitely heavy: the centre is theirs, c = Σ_pinned m_i p_i /
// Σ_pinned m_i, and the offsets are taken about their rest centre q̄ = Σ_pinned m_i q_i / Σ_pinned m_i, so
// g_i = R (q_i - q̄) + c; R still comes from all members (about those centres). With one pin the goal shape swings
// about the pin. C sums over the free members only. The pins are external: momentum is not conserved then.
#pragma once

#include <Eigen/SVD>
#include <cmath>
#include <cstdint>
#include <limits>
#include <span>

#include "constraints/gradient_step.h"
#include "pbd/real.h"

namespace pbd {

/// A cluster as a world stores it: its members are a slice of three parallel arrays (particle indices, rest offsets,
/// masses) shared by all clusters.
struct ShapeMatchingCluster {
  uint32_t firstMember;  ///< Index of the cluster's first entry in the member arrays.
  uint32_t memberCount;  ///< n >= 2 (one particle has no shape).
  Real compliance;       ///< XPBD α, s² (see above); 0 = rigid.
  Real stiffness;        ///< PBD k in [0,1]; 1 = rigid.
  Real kPrime;           ///< Corrected PBD stiffness.
};

/// q_i = X_i - X_cm for the members (X = rest positions indexed by particle). m_i are the matching weights, normally
/// the particles' masses; a pinned member needs a finite m_i > 0 too. False (nothing written) when the spans'
/// sizes differ or a mass is not > 0.
inline bool shapeMatchingRestOffsets(std::span<const uint32_t> members, const Vec3* restPositions,
                                     std::span<const Real> masses, std::span<Vec3> restOffsets) {
  if (masses.size() != members.size() || restOffsets.size() != members.size() || members.empty()) return false;
  Real total = 0;
  Vec3 centre = Vec3::Zero();
  for (size_t k = 0; k < members.size(); ++k) {
    if (!(masses[k] > 0)) return false;
    total += masses[k];
    centre += masses[k] * restPositions[members[k]];
  }
  centre /= total;
  for (size_t k = 0; k < members.size(); ++k) restOffsets[k] = restPositions[members[k]] - centre;
  return true;
}

/// The proper rotation closest to A (det = +1 always; see the top of this file). In double: in float the SVD's
/// rounding is a rotation error of ~1e-7 every projection, which a stiff cluster turns into motion from nothing.
template <class Derived>
Mat3 closestRotation(const Eigen::MatrixBase<Derived>& A) {
  const Eigen::JacobiSVD<Eigen::Matrix3d> svd(A.template cast<double>(), Eigen::ComputeFullU | Eigen::ComputeFullV);
  Eigen::Matrix3d U = svd.matrixU();
  const Eigen::Matrix3d& V = svd.matrixV();
  if ((U * V.transpose()).determinant() < 0) U.col(2) = -U.col(2);  // the smallest singular value's direction
  return (U * V.transpose()).cast<Real>();
}

/// Where the goals are now: g_i = rotation (q_i - restCentre) + centre.
struct ShapeMatchingFrame {
  Mat3 rotation;    ///< R.
  Vec3 centre;      ///< c, m: the centre of mass, or of the pinned members if any.
  Vec3 restCentre;  ///< q̄, m: 0, or the pinned members' centre in rest offsets.
  Vec3 goal(const Vec3& restOffset) const { return rotation * (restOffset - restCentre) + centre; }
};

/// The goal frame of a cluster at positions p (indexed by particle; w = inverse masses, 0 = pinned). The sums run in
/// double, relative to the first member, so that the centre and the fit do not lose the cluster's small motions in
/// the rounding of its absolute position.
inline ShapeMatchingFrame shapeMatchingFrame(std::span<const uint32_t> members, std::span<const Vec3> restOffsets,
                                             std::span<const Real> masses, const Vec3* p, const Real* w) {
  const Eigen::Vector3d origin = p[members[0]].cast<double>();
  double total = 0, pinnedTotal = 0;
  Eigen::Vector3d centre = Eigen::Vector3d::Zero(), pinnedCentre = Eigen::Vector3d::Zero(),
                  pinnedRest = Eigen::Vector3d::Zero();
  for (size_t k = 0; k < members.size(); ++k) {
    const Eigen::Vector3d x = p[members[k]].cast<double>() - origin;
    total += masses[k];
    centre += masses[k] * x;
    if (w[members[k]] == 0) {
      pinnedTotal += masses[k];
      pinnedCentre += masses[k] * x;
      pinnedRest += masses[k] * restOffsets[k].cast<double>();
    }
  }
  const Eigen::Vector3d c = pinnedTotal > 0 ? Eigen::Vector3d(pinnedCentre / pinnedTotal) : Eigen::Vector3d(centre / total);
  const Eigen::Vector3d q = pinnedTotal > 0 ? Eigen::Vector3d(pinnedRest / pinnedTotal) : Eigen::Vector3d::Zero();
  Eigen::Matrix3d A = Eigen::Matrix3d::Zero();
  for (size_t k = 0; k < members.size(); ++k) {
    A += masses[k] * (p[members[k]].cast<double>() - origin - c) * (restOffsets[k].cast<double>() - q).transpose();
  }
  ShapeMatchingFrame f;
  f.centre = (origin + c).cast<Real>();
  f.restCentre = q.cast<Real>();
  f.rotation = closestRotation(A);
  return f;
}

/// Projects one cluster in place (members, restOffsets and masses are its slices of the member arrays; p and w are
/// indexed by particle); returns Δλ. No allocation.
inline Real projectShapeMatching(std::span<const uint32_t> members, std::span<const Vec3> restOffsets,
                                 std::span<const Real> masses, Vec3* p, const Real* w, bool xpbd, Real kPrime,
                                 Real alphaTilde, Real lambda) {
  if (members.size() < 2 || constraintDisabled(xpbd, kPrime, alphaTilde)) return 0;
  const ShapeMatchingFrame f = shapeMatchingFrame(members, restOffsets, masses, p, w);
  Real C2 = 0, weighted = 0;
  bool beyondRoundOff = false;
  for (size_t k = 0; k < members.size(); ++k) {
    const uint32_t i = members[k];
    if (w[i] == 0) continue;
    const Real gapSq = (p[i] - f.goal(restOffsets[k])).squaredNorm();
    C2 += masses[k] * gapSq;
    weighted += w[i] * masses[k] * masses[k] * gapSq;
    // A goal is computed in float from the centre and the rotated offset: a gap within a few ulps of those is
    // round-off, not deformation. Chasing it moves a resting stiff cluster the same way every substep (it drifted
    // 8 mm in 5 s at compliance 0), so a cluster whose gaps are all round-off is left alone.
    const Real ulps = 8 * std::numeric_limits<Real>::epsilon() * (f.centre.norm() + restOffsets[k].norm());
    beyondRoundOff |= gapSq > ulps * ulps;
  }
  if (!(C2 > 0) || !beyondRoundOff) return 0;
  const Real C = std::sqrt(C2);
  const Real dLambda = multiplierStep(C, weighted / C2, xpbd, kPrime, alphaTilde, lambda);
  const Real scale = dLambda / C;  // Δp_i = Δλ w_i ∇_i C = (Δλ / C) w_i m_i (p_i - g_i)
  for (size_t k = 0; k < members.size(); ++k) {
    const uint32_t i = members[k];
    p[i] += (scale * w[i] * masses[k]) * (p[i] - f.goal(restOffsets[k]));
  }
  return dLambda;
}

}  // namespace pbd

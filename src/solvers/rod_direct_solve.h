// A direct solve of one Cosserat rod's constraints (Deul et al. 2018, "Direct Position-Based Solver for Stiff Rods",
// for a chain): all stretch–shear and bend–twist constraints of the rod (constraints/cosserat_rod.h) in one XPBD
// Newton step,
//   (J M⁻¹ Jᵀ + α̃) Δλ = −C − α̃ λ,   Δp = M⁻¹ Jᵀ Δλ,   δθ = I⁻¹ J_θᵀ Δλ,   λ += Δλ
// with the Jacobians at the current state, on particles (M⁻¹ = w 1) and frame turns δθ (world frame, I⁻¹ = 1/I 1):
//   stretch–shear γ = Rᵀ u − e3, u = (p1 − p0) / l:   ∂γ/∂p0 = −Rᵀ / l,  ∂γ/∂p1 = Rᵀ / l,  ∂γ/∂θ = Rᵀ [u]×
//   bend–twist Ω = Im(q̄0 q1) = (w, Ω) part:          ∂Ω/∂θ1 = ½ (w 1 − [Ω]×) R0ᵀ = −∂Ω/∂θ0
// Ordered along the chain (stretch–shear 0, bend–twist 0, stretch–shear 1, ...), the 3 × 3 blocks couple only blocks at
// most two apart, so the matrix is banded (half bandwidth 8) and its Cholesky factor costs O(segments). A Gauss–Seidel
// sweep over the same constraints moves a load one segment per pass: a stiff rod of light frames would need hundreds
// of passes to feel its clamp, and its static twist and sag under few passes are many times too large.
#pragma once

#include <cstdint>
#include <vector>

#include "constraints/cosserat_rod.h"

namespace pbd {

/// Room for the direct solves of rods of `segments` segments in all (so that the step never allocates); each rod
/// works in its own part, from its first segment on.
struct RodSolveScratch {
  std::vector<double> band;  // the Cholesky factors, row by row, 9 entries a row (half bandwidth 8), 6 rows a segment
  std::vector<double> rhs;   // −C − α̃ λ, then Δλ, 6 a segment
  std::vector<Eigen::Matrix3d> jacobian;  // per segment: Rᵀ (∂γ/∂p1 = Rᵀ / l) and ∂γ/∂θ; per joint: B
  std::vector<Eigen::Vector3d> turn;      // per segment: its frame's turn δθ
  void reserve(uint32_t segments);
};

/// One rod: `segmentCount` consecutive segments and the segmentCount − 1 joints between them (joints[k] between
/// segments k and k + 1), over particles p with inverse masses w, their frames q, and their multipliers of this substep.
struct RodView {
  Vec3* p;
  const Real* w;
  const RodSegment* segments;
  const RodJoint* joints;
  Quat* q;
  Vec3* stretchLambda;
  Vec3* bendLambda;
  uint32_t segmentCount;
  uint32_t firstSegment;  ///< Its place among all rods' segments: where its part of the scratch starts.
};

/// One Newton step of the rod's constraints (see the top of the file), α̃ = α · invH2, scaled down where a frame would
/// turn by more than half a radian. The frames turn by δθ (q ← exp(δθ) q).
void solveRodDirect(const RodView& rod, Real invH2, RodSolveScratch& scratch);

}  // namespace pbd

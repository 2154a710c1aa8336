// Hierarchical Position Based Dynamics (Müller 2008, "Hierarchical Position Based Dynamics", VRIPHYS): a stack of
// ever coarser particle subsets with long-range unilateral distance constraints, solved coarsest first as a
// pre-pass of each substep, so that stretch spreads across a dense cloth in a few passes instead of one edge per
// Gauss-Seidel pass.
//
// Level 0 is every particle and the graph of the distance constraints. Level l+1 keeps a subset of level l, chosen
// greedily in index order: a particle is dropped only if it keeps at least min(k, degree) kept neighbours (its
// parents) and no already dropped neighbour falls below its own min(k, degree). Pinned particles (w = 0 at build
// time) with constraints are always kept, so the coarse levels stay anchored; particles without constraints are
// dropped (nothing to prolongate from or to).
//
// Coarse constraints of level l+1 join two kept particles a, b that are neighbours on level l or that share a
// dropped neighbour f on level l. They are unilateral, C = d - clamp(d, 0, L) with L = |restX_a - restX_b| (the
// rest distance at creation): they only resist stretching, because two particles of a bent or folded cloth may
// rightly come closer than their rest distance. Strength: compliance = min of the compliances of the constraints
// they summarize (the edge a-b, or the edges a-f and f-b), stiffness = max of theirs. Two springs in series are
// really softer (α_af + α_fb); the stiffer choice is deliberate, since the coarse pass only supplies a starting
// point that the full solve of level 0 then corrects.
//
// Prolongation: a dropped particle f of level l moves by Σ_p w_fp Δp_p over its parents p on level l+1, with
// w_fp = (1 / |restX_f - restX_p|) / Σ_q (1 / |restX_f - restX_q|): positive, summing to 1, nearer parents weigh
// more. Δp_p is how far the parent moved since its level's solve started. Pinned particles are never moved.
//
// Why since its level's solve, so that a level's correction reaches one level down only: the full cascade (children
// following all the coarser corrections too) converges faster but is unstable: the stretch-only correction carried
// down in full pumps energy into a swinging rigid cloth (ADenseRigidClothStretchesLessThanWithColouredGaussSeidel).
// Bilateral coarse constraints would cure it but stop a cloth from buckling and folding at the coarse scale, so the
// coarse constraints only resist stretching (docs/performance.md, "Tried and dropped": HPBD's full cascade).
//
// Masses: a coarse particle drags its children along, so it is projected with the lumped mass
// M_p = m_p + Σ_f w_fp m_f over its free children f (m = 1 / w, now). Then the level's projection keeps
// Σ_p M_p Δp_p = 0 (equal and opposite impulses), and that sum is exactly the world's momentum change of projection
// plus prolongation: the pre-pass keeps linear momentum (to rounding). With the bare m_p it would not, and the
// injected momentum shows up as spurious motion of a swinging cloth.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "constraints/distance.h"
#include "pbd/real.h"

namespace pbd {

/// One coarse level (l >= 1) of the hierarchy, and its prolongation to level l-1. All particle indices are the
/// world's, except `parents`, which index this level's `particles`.
struct HierarchyLevel {
  std::vector<uint32_t> particles;              ///< World indices of the particles this level keeps, ascending.
  std::vector<DistanceConstraint> constraints;  ///< Unilateral (minLength 0, maxLength = rest distance, m), i < j,
                                                ///< sorted by (i, j): the Gauss-Seidel order.
  std::vector<Real> lambda;                     ///< XPBD multipliers of `constraints`, zeroed when the level starts.
  std::vector<Vec3> start;                      ///< m, scratch: `particles`' positions when the level's solve
                                                ///< starts (the reference of the parents' Δp).
  std::vector<Real> lumpedMass;                 ///< kg, scratch per particle of `particles`: M_p (0 if pinned).
  std::vector<uint32_t> children;               ///< World indices of level l-1's particles dropped here that have
                                                ///< parents (at least one constraint), ascending.
  std::vector<uint32_t> parentBegin;            ///< children[c]'s parents are [parentBegin[c], parentBegin[c+1]);
                                                ///< children.size() + 1 entries.
  std::vector<uint32_t> parents;                ///< Indices into `particles`: every kept neighbour of the child.
  std::vector<Real> weights;                    ///< Prolongation weight per parent, > 0, summing to 1 per child.
};

/// What the hierarchy is built for (the SolverSettings fields of the same meaning).
struct HierarchyParams {
  int levels = 3;            ///< Levels including level 0; 1 = no coarse level.
  int parents = 2;           ///< k: parents each dropped particle needs (fewer where it has fewer neighbours).
  int coarseIterations = 2;  ///< Gauss-Seidel passes per coarse level; the PBD k' of coarse constraints uses it.
  bool operator==(const HierarchyParams&) const = default;
};

class Hierarchy {
 public:
  /// Rebuilds every coarse level from the world's distance constraints `cs[0, count)`, its rest positions
  /// (xyz per particle) and inverse masses. Allocates: called at the first step after a change, never after.
  void build(const DistanceConstraint* cs, size_t count, const Real* restXyz, const Real* inverseMasses,
             uint32_t particleCount, const HierarchyParams& params);

  /// The pre-pass of one substep: for l = coarsest .. 1, project level l, then prolongate to level l-1.
  /// Serial and in a fixed order, so the result does not depend on threads. Never allocates.
  void solve(Vec3* p, const Real* w, bool xpbd, Real invH2);
  /// Records level l's start positions, zeroes its multipliers and runs `coarseIterations` Gauss-Seidel passes.
  void projectLevel(size_t l, Vec3* p, const Real* w, bool xpbd, Real invH2);
  /// Moves every free child of level l by the weighted Δp of its parents since projectLevel(l) began.
  void prolongate(size_t l, Vec3* p, const Real* w) const;
  /// Level l's particles' lumped masses M_p from the current inverse masses (into level(l).lumpedMass) and their
  /// inverses, by world index, into lumpedInverseMass(); pinned particles get 0.
  void lumpMasses(size_t l, const Real* w);
  const Real* lumpedInverseMass() const { return lumpedInverse_.data(); }

  /// Levels including level 0 (so 1 when no coarse level was built).
  size_t levelCount() const { return coarse_.size() + 1; }
  /// Coarse level l, 1 <= l < levelCount().
  const HierarchyLevel& level(size_t l) const { return coarse_[l - 1]; }
  const HierarchyParams& params() const { return params_; }
  /// Why the last build stopped short of params().levels: the particles the refused level would have kept and the
  /// particles of the level it would have coarsened (refusedKept() < kMinCoarseParticles, or == refusedFrom(): it
  /// would not shrink). Both 0 when every level asked for was built.
  size_t refusedKept() const { return refusedKept_; }
  size_t refusedFrom() const { return refusedFrom_; }

  bool dirty = true;  ///< Constraints, particles or pins changed since the last build: rebuild before solving.

 private:
  std::vector<HierarchyLevel> coarse_;  // coarse_[l - 1] is level l
  std::vector<Real> lumpedInverse_;     // 1/kg per world particle: 1 / M_p of the level being projected
  HierarchyParams params_;
  size_t refusedKept_ = 0;  // see refusedKept()
  size_t refusedFrom_ = 0;  // see refusedFrom()
};

/// Below this many particles a coarse level is not worth a pass: the hierarchy stops.
inline constexpr size_t kMinCoarseParticles = 4;

}  // namespace pbd

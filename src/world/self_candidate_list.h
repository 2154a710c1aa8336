// Continuous self-collision's candidate list: one walk of a surface's BVH per step instead of two per substep.
//
// A cloth at rest, or moving slowly, finds nearly the same candidate pairs every substep, yet the per-substep broad
// phase refits the BVH and the normal cones and walks the tree twice a substep (the contacts, then the failsafe):
// 80 % of gallery:fold's frame at rest. The list is a Verlet list for it. Each vertex gets an anchor (its position
// when the list is made) and the surface a reach ε; the walk runs once with every vertex's box grown to its anchor ±
// (ε + half the thickness), and its element pairs are kept. The substep filters the list with its own boxes instead
// of walking, which lists every pair that can come within the thickness while the vertices stay within ε of their
// anchors less a common shift: each position set (x, p) less its vertices' mean displacement from their anchors, T_x
// and T_p. Why the shift: distances between elements do not change under a translation common to all of them, and
// at time t of the substep the positions (1 - t) x + t p less the translation (1 - t) T_x + t T_p lie within ε of
// their anchors (between two points that do). So a pair that comes within the thickness then has anchor boxes grown
// by ε + half the thickness that overlap: it was listed. A falling or thrown cloth (gallery:fold's first 15 frames,
// 4 mm a substep against a reach of about 1.4 mm for its 3.2 cm triangles) then keeps one list a step instead of
// walking its tree twice a substep.
//
// The normal-cone cull (fold_free_cull.h) is taken at the making, so it must hold for every place the vertices may
// reach (a translation turns no normal): a triangle whose corners each move by at most ε turns its normal by at most
// θ (kListTurnSin, below), so the list culls only patches whose cones are within π/3 − θ (kListCullCosHalfAngle);
// within the reach, their normals stay within π/3 of the cone's axis, which is what the per-substep cull asks. The
// reach is the largest ε that keeps every triangle's turn within θ: with e1, e2 the two shorter edges of a triangle
// from their shared corner and N = e1 × e2, moving the corners by at most ε changes e1, e2 by at most 2ε each, so N
// changes by at most |Δ| <= 2ε |e2| + 2ε |e1| + 4ε², and the angle between N and N + Δ is at most asin(|Δ| / |N|).
// |Δ| <= sin θ |N| gives 4ε² + 2Lε - sin θ |N| = 0, L = |e1| + |e2|, so ε = sin θ |N| / (L + sqrt(L² + 4 sin θ |N|)).
//
// The list is made anew at the first substep of every step (and whenever a vertex leaves its reach), so what a
// step computes depends only on the world's state when it starts: a snapshot, or self-collision switched on
// between steps, continues bit-identically. It is deterministic and the same for any thread count (the walk is).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "pbd/real.h"
#include "pbd/task_system.h"
#include "world/cloth_self_collision.h"

namespace pbd {

/// sin θ, θ = 10°: the most a triangle's normal may turn while the list holds.
inline constexpr double kListTurnSin = 0.17364817766693033;
/// cos(π/3 − θ) = cos 50°: the widest cone the list's cull takes, so that a turn of θ keeps the patch within π/3.
/// Written out, not computed: libm's cos may round differently in wasm and natively.
inline constexpr double kListCullCosHalfAngle = 0.6427876096865395;
/// The list holds while every vertex is within this fraction of the reach of its anchor: the margin keeps the float
/// boxes of the substep (rounded on their own) inside the list's.
inline constexpr Real kListHoldFraction = Real(0.99);
/// Element pairs the list has room for per triangle of the surface (20 bytes each): a list that would hold more is not
/// made (the substeps walk the tree, as without a list, until the next step). A sheet folded flat onto itself lists
/// 8.4 per triangle, a strip rolled into three turns half a thickness apart 14.7 (the densest in the tests).
inline constexpr size_t kListedPairsPerTriangle = 16;

/// The reach ε of a list made at positions x (world xyz; the surface's particles start at `first`): the least over
/// the triangles of the bound above, and at most `pad` (half the thickness: a wider reach lists pairs that are far
/// apart). 0 when a triangle is degenerate.
Real listReachOf(const SelfCollidingSurface& s, std::span<const Real> x, uint32_t first, Real pad);

/// Whether s's list holds for the substep from x to p: it was made, and every vertex's x and p, each less its set's
/// mean displacement from the anchors, are within kListHoldFraction of the reach of its anchor.
bool listHolds(const SelfCollidingSurface& s, std::span<const Real> x, std::span<const Real> p, uint32_t first);

/// Makes s's list for the substep from x to p with anchors x, or returns false and leaves none (listReach = 0): when a
/// vertex's p is already out of reach (less the mean displacement), or the list does not fit its room; then
/// listRefused stays set until forgetCandidateList, and the step's later substeps walk without trying again.
/// Overwrites the swept boxes, the BVH's boxes and the cones: the substep's own must be fitted after (sweepVertices
/// for the list's filter, sweepSurface for a walk). pad: half the thickness (halfPad).
bool makeCandidateList(SelfCollidingSurface& s, std::span<const Real> x, std::span<const Real> p, uint32_t first,
                       Real pad, TaskSystem& tasks);

/// Drops s's list and its refusal: the next substep makes a new one. Called when a step starts.
void forgetCandidateList(SelfCollidingSurface& s);

/// visit(a, b, c, d, pointTriangle) for every listed pair whose boxes in s.sweptLo / s.sweptHi overlap (a triangle's
/// box is its corners', an edge's its ends'), in the list's order: the substep's candidate pairs.
template <class Visit>
void forEachListedCandidate(const SelfCollidingSurface& s, Visit visit) {
  const Vec3 *lo = s.sweptLo.data(), *hi = s.sweptHi.data();
  for (const SelfCollidingSurface::WalkPair& pair : s.listedPairs) {
    const uint32_t* q = pair.particle;
    bool overlap;
    if (pair.pointTriangle) {
      const Vec3 triangleLo = lo[q[1]].cwiseMin(lo[q[2]]).cwiseMin(lo[q[3]]);
      const Vec3 triangleHi = hi[q[1]].cwiseMax(hi[q[2]]).cwiseMax(hi[q[3]]);
      overlap = boxesOverlap(lo[q[0]], hi[q[0]], triangleLo, triangleHi);
    } else {
      const Vec3 edgeLo = lo[q[0]].cwiseMin(lo[q[1]]), edgeHi = hi[q[0]].cwiseMax(hi[q[1]]);
      const Vec3 otherLo = lo[q[2]].cwiseMin(lo[q[3]]), otherHi = hi[q[2]].cwiseMax(hi[q[3]]);
      overlap = boxesOverlap(edgeLo, edgeHi, otherLo, otherHi);
    }
    if (overlap) visit(q[0], q[1], q[2], q[3], pair.pointTriangle);
  }
}

}  // namespace pbd

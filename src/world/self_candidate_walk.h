// The continuous self-collision broad phase's walk: the swept-box BVH of a surface walked against itself, its
// overlapping triangle pairs turned into point–triangle and edge–edge candidate pairs. Used by the per-substep broad
// phase and the failsafe (cloth_self_collision.cpp) and by the candidate list (self_candidate_list.h).
#pragma once

#include <cstddef>
#include <cstdint>

#include "pbd/task_system.h"
#include "world/cloth_self_collision.h"

namespace pbd {

/// Whether local vertex v (or a vertex it counts as, SelfCollidingSurface::identity) is a corner of triangle f.
inline bool isCorner(const SelfCollidingSurface& s, const uint32_t* f, uint32_t v) {
  const uint32_t i = s.identityOf(v);
  return s.identityOf(f[0]) == i || s.identityOf(f[1]) == i || s.identityOf(f[2]) == i;
}

/// visit(a, b, c, d, pointTriangle) for the point–triangle and edge–edge pairs (local indices) that triangles a and b
/// give, each from its elements' owner triangles only (so once), after the test of its own two boxes: the owned
/// corners of each against the other, then the owned edges of a against those of b, never two sharing a vertex.
template <class Visit>
void forEachCandidateOfTrianglePair(const SelfCollidingSurface& s, uint32_t a, uint32_t b, Visit& visit) {
  auto pointsAgainst = [&](uint32_t p, uint32_t q) {
    const SelfCollidingSurface::TriangleRecord& rp = s.records[p];
    const uint32_t* fq = s.records[q].corner;
    for (int k = 0; k < 3; ++k) {
      const uint32_t v = rp.corner[k];
      if (!(rp.ownedCorners >> k & 1) || isCorner(s, fq, v)) continue;
      if (boxesOverlap(s.triangleLo[q], s.triangleHi[q], s.sweptLo[v], s.sweptHi[v])) visit(v, fq[0], fq[1], fq[2], true);
    }
  };
  pointsAgainst(a, b);
  pointsAgainst(b, a);
  const SelfCollidingSurface::TriangleRecord& ra = s.records[a];
  const SelfCollidingSurface::TriangleRecord& rb = s.records[b];
  if (ra.ownedEdges == 0 || rb.ownedEdges == 0) return;
  for (int i = 0; i < 3; ++i) {
    if (!(ra.ownedEdges >> i & 1)) continue;
    const uint32_t ea = ra.edge[i];
    const uint32_t* ends = &s.edges[2 * size_t(ea)];
    for (int j = 0; j < 3; ++j) {
      if (!(rb.ownedEdges >> j & 1)) continue;
      const uint32_t eb = rb.edge[j];
      const uint32_t* others = &s.edges[2 * size_t(eb)];
      const uint32_t a0 = s.identityOf(ends[0]), a1 = s.identityOf(ends[1]);
      const uint32_t b0 = s.identityOf(others[0]), b1 = s.identityOf(others[1]);
      if (b0 == a0 || b0 == a1 || b1 == a0 || b1 == a1) continue;
      if (boxesOverlap(s.edgeLo[ea], s.edgeHi[ea], s.edgeLo[eb], s.edgeHi[eb])) {
        visit(ends[0], ends[1], others[0], others[1], false);
      }
    }
  }
}

/// The broad phase over a swept surface: visit(a, b, c, d, pointTriangle) for every point–triangle and edge–edge
/// pair (local indices) whose swept boxes overlap, each once, in the order of the BVH's walk of overlapping triangle
/// pairs (see findContinuousSelfContacts). With threads, the walk is cut into parts (splitOverlappingPairWalk), each
/// part's pairs are found on some thread into its own slot of s.walkPairs, and visit is then called on this thread
/// for the pairs of every part in order: the same calls in the same order, whatever the threads. A part that finds
/// more pairs than its slot holds is walked again here. skip must not change during the walk.
template <class Visit, class Skip>
void forEachSelfCandidate(SelfCollidingSurface& s, TaskSystem& tasks, Visit visit, Skip skip) {
  const size_t parts = tasks.concurrency() == 1 ? 0
                                                : s.bvh.splitOverlappingPairWalk(skip, 8 * size_t(tasks.concurrency()),
                                                                                 s.walkParts.data(), s.walkScratch.data(),
                                                                                 s.walkParts.size());
  if (parts == 0) {  // one thread (or no room to cut the walk): the walk as it is
    s.bvh.forEachOverlappingPair([&](uint32_t a, uint32_t b) { forEachCandidateOfTrianglePair(s, a, b, visit); }, skip);
    return;
  }
  const size_t slot = s.walkPairs.size() / parts;
  auto walk = [&](size_t begin, size_t end) {
    for (size_t k = begin; k < end; ++k) {
      SelfCollidingSurface::WalkPair* out = s.walkPairs.data() + k * slot;
      uint32_t n = 0;
      auto record = [&](uint32_t a, uint32_t b, uint32_t c, uint32_t d, bool pointTriangle) {
        if (n < slot) out[n] = {{a, b, c, d}, pointTriangle};
        ++n;
      };
      s.bvh.forEachOverlappingPairBelow(
          s.walkParts[k], [&](uint32_t a, uint32_t b) { forEachCandidateOfTrianglePair(s, a, b, record); }, skip);
      s.walkPartPairs[k] = n;
    }
  };
  tasks.parallelFor(parts, 1, walk);
  for (size_t k = 0; k < parts; ++k) {
    if (s.walkPartPairs[k] > slot) {
      s.bvh.forEachOverlappingPairBelow(
          s.walkParts[k], [&](uint32_t a, uint32_t b) { forEachCandidateOfTrianglePair(s, a, b, visit); }, skip);
      continue;
    }
    const SelfCollidingSurface::WalkPair* pairs = s.walkPairs.data() + k * slot;
    for (uint32_t n = 0; n < s.walkPartPairs[k]; ++n) {
      const uint32_t* q = pairs[n].particle;
      visit(q[0], q[1], q[2], q[3], pairs[n].pointTriangle);
    }
  }
}

}  // namespace pbd

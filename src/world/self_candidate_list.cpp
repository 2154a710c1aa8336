#include "world/self_candidate_list.h"

#include <algorithm>
#include <cmath>

#include "collision/particle_neighbours.h"
#include "collision/relative_move.h"
#include "world/fold_free_cull.h"
#include "world/self_candidate_walk.h"

namespace pbd {

namespace {

/// Whether every vertex's position in xyz, less the vertices' mean displacement from their anchors, is within
/// kListHoldFraction of the reach of its anchor.
bool withinReach(const SelfCollidingSurface& s, std::span<const Real> xyz, uint32_t first) {
  auto now = [&](size_t i) { return pointAt(xyz, first + uint32_t(i)); };
  auto anchor = [&](size_t i) { return Point3d(s.listAnchor[i].cast<double>()); };
  return movedApartWithin(s.listAnchor.size(), now, anchor, double(kListHoldFraction * s.listReach));
}

}  // namespace

Real listReachOf(const SelfCollidingSurface& s, std::span<const Real> x, uint32_t first, Real pad) {
  double reach = pad;
  for (const SelfCollidingSurface::TriangleRecord& r : s.records) {
    const Point3d a = pointAt(x, first + r.corner[0]), b = pointAt(x, first + r.corner[1]),
                  c = pointAt(x, first + r.corner[2]);
    const double ab = (b - a).norm(), bc = (c - b).norm(), ca = (a - c).norm();
    const double shorter = ab + bc + ca - std::max({ab, bc, ca});  // L: the two edges at the corner they share
    const double cross = (b - a).cross(c - a).norm();              // |N|, whichever corner it is taken at
    const double turn = kListTurnSin * cross;
    const double bound = turn / (shorter + std::sqrt(shorter * shorter + 4 * turn));
    if (!(bound >= reach)) reach = bound;  // NaN (a non-finite corner) too, and then no list
  }
  return reach > 0 ? Real(reach) : Real(0);
}

bool listHolds(const SelfCollidingSurface& s, std::span<const Real> x, std::span<const Real> p, uint32_t first) {
  return s.listReach > 0 && withinReach(s, x, first) && withinReach(s, p, first);
}

bool makeCandidateList(SelfCollidingSurface& s, std::span<const Real> x, std::span<const Real> p, uint32_t first,
                       Real pad, TaskSystem& tasks) {
  s.listReach = 0;
  s.listedPairs.clear();
  if (s.listRefused) return false;
  // A vertex that moves further than the reach within this very substep, relative to the vertices' mean move: no
  // list, and none for the rest of the step (a cloth deforming that fast would fail again, and the reach costs a pass
  // over the triangles). The largest move is checked against the pad first, the most any reach can be, so such a
  // cloth costs two passes over its vertices.
  const size_t n = s.sweptLo.size();
  auto now = [&](size_t i) { return pointAt(p, first + uint32_t(i)); };
  auto then = [&](size_t i) { return pointAt(x, first + uint32_t(i)); };
  const bool withinPad = movedApartWithin(n, now, then, double(kListHoldFraction * pad));
  const Real reach = withinPad ? listReachOf(s, x, first, pad) : Real(0);
  for (size_t i = 0; i < n && reach > 0; ++i) {
    s.listAnchor[i] = Vec3(x[3 * (first + i)], x[3 * (first + i) + 1], x[3 * (first + i) + 2]);
  }
  s.listReach = reach;
  if (!(reach > 0) || !withinReach(s, p, first)) {
    s.listReach = 0;
    s.listRefused = true;
    return false;
  }
  // Every place within the reach, grown by the pad; rounded outward a little, as halfPad does.
  const Real grow = (reach + pad) * (1 + Real(1e-5)) + Real(1e-9);
  for (size_t i = 0; i < n; ++i) {
    s.sweptLo[i] = s.listAnchor[i].array() - grow;
    s.sweptHi[i] = s.listAnchor[i].array() + grow;
  }
  refitSweptTree(s, x, p, first, tasks, kListCullCosHalfAngle);
  bool overflow = false;
  auto keep = [&](uint32_t a, uint32_t b, uint32_t c, uint32_t d, bool pointTriangle) {
    if (s.listedPairs.size() == s.listedPairs.capacity()) {
      overflow = true;
      return;
    }
    s.listedPairs.push_back({{a, b, c, d}, pointTriangle});
  };
  forEachSelfCandidate(s, tasks, keep, [&](int32_t a, int32_t b) { return foldFree(s, a, b, kListCullCosHalfAngle); });
  if (overflow) {
    s.listedPairs.clear();
    s.listReach = 0;
    s.listRefused = true;
    return false;
  }
  return true;
}

void forgetCandidateList(SelfCollidingSurface& s) {
  s.listReach = 0;
  s.listRefused = false;
  s.listedPairs.clear();
}

}  // namespace pbd

// Triangle-mesh colliders in the step: continuous contact generation per substep (collision/mesh_collider.h gives
// the contact plane), the late pass that keeps particles from ending a substep through the mesh, and the upkeep of
// who is inside a closed mesh. The planes become ordinary Contact records, so projection (contacts.cpp), friction
// and restitution treat them like every other contact. Each particle's first query of a pass (the costly part: the
// tree's nearest points and segment hits) runs for all particles in parallel, touching only that particle's state;
// the contacts are then added serially in particle order. So the contacts are the same on any number of threads;
// no allocation.
#include <algorithm>
#include <optional>
#include <span>

#include "world/collider_motion.h"
#include "world/world_state.h"

namespace pbd {
namespace {

/// Late-pass corrections smaller than this fraction of the thickness are rounding, not penetration: skipping them
/// keeps a resting particle from collecting a second, empty contact every substep.
constexpr Real kLateSlack = 1e-3f;
/// Re-classifications per particle in the late pass (a push off one triangle can cross another in a crease).
constexpr int kLateRounds = 4;

Point3d toPoint(const Vec3& v) { return v.cast<double>(); }

/// Whether the box around the segment a→b overlaps [lo, hi].
bool segmentBoxOverlaps(const Point3d& a, const Point3d& b, const Point3d& lo, const Point3d& hi) {
  return !((a.cwiseMin(b).array() > hi.array()).any() || (a.cwiseMax(b).array() < lo.array()).any());
}

/// A mesh contact plane in world coordinates (the frame of the substep's end pose), as a Contact.
Contact worldContact(const Collider& c, uint32_t collider, uint32_t i, const MeshContactPlane& plane, const Vec3& vi,
                     const Vec3& pi, Real invH, Real push, Real margin) {
  const Vec3 n = c.subEndRotation * plane.normal.cast<Real>();
  const Vec3 q = c.subEndPosition + c.subEndRotation * plane.point.cast<Real>();
  return {i, collider, n.dot(vi - colliderVelocity(c, pi, invH)), push, n, margin, q};
}

/// The mesh's root box grown by the collider's thickness and the largest body margin: the broad phase's bound.
void grownRoot(Real largestMargin, const Collider& c, const TriangleBvh::Node& root, Point3d& lo, Point3d& hi) {
  const double reach = double(c.def.thickness) + double(largestMargin);
  lo = root.lo.array() - reach, hi = root.hi.array() + reach;
}

/// Free particles per task of the parallel first queries (not tuned: a range of 64 tree queries, so that a small
/// body still splits across threads).
constexpr size_t kMeshQueriesPerTask = 64;

}  // namespace

void World::Impl::markMeshInsideUnknown() {
  for (MeshShape& m : collision.meshShapes) m.insideUnknown = true, m.forgetClearances();
}

/// (8) for a mesh collider: each free particle's path over the substep, x (start pose) → p (end pose), in the
/// collider's frame, against the mesh. Who starts inside a closed mesh is known from the last substep, or from
/// winding numbers when that knowledge was lost (see MeshShape::insideUnknown).
void World::Impl::generateMeshContacts(uint32_t k, Real h) {
  const Collider& c = collision.colliders[k];
  MeshShape& m = collision.meshShapes[c.mesh];
  const TriangleBvh::Node& root = m.surface.bvh().nodes()[0];
  Point3d lo, hi;
  grownRoot(particles.largestBodyMargin, c, root, lo, hi);
  const bool recheck = m.closed && m.insideUnknown;
  auto query = [&](uint32_t i, Real margin) {
    m.firstPlane[i].reset();
    const Point3d a = toPoint(toLocalAtStart(c, particleAt(particles.x, i)));
    const Point3d b = toPoint(toLocalAtEnd(c, particleAt(particles.p, i)));
    if (recheck) m.inside[i] = segmentBoxOverlaps(a, a, root.lo, root.hi) && m.contains(a);
    const bool startsInside = m.inside[i] != 0;
    if (!startsInside && !segmentBoxOverlaps(a, b, lo, hi)) return;  // broad phase: the mesh's box
    const double thickness = double(c.def.thickness) + double(margin);
    m.firstPlane[i] = m.particleContactPlane(i, a, b, startsInside, thickness);
  };
  forEachFreeParticleWithMarginInParallel(kMeshQueriesPerTask, query);
  forEachParticleWithMargin([&](uint32_t i, Real margin) {
    if (particles.w[i] == 0 || !m.firstPlane[i]) return;
    collision.contacts.push_back(worldContact(c, k, i, *m.firstPlane[i], particleAt(particles.v, i),
                                              particleAt(particles.p, i), 1 / h, 0, margin));
  });
  if (recheck) m.insideUnknown = false;
}

/// After the iterations: other constraints may have pulled a particle through the mesh or into its thickness.
/// Its path x → p is classified again and p projected, a few rounds (a push off one triangle can bring it into the
/// thickness of another in a crease); if the path still crosses the mesh after a push, the particle stays where it
/// started the substep (outside, by induction). A particle that started inside a closed mesh is pushed out once
/// and checked with the winding number; it stays flagged until it is out.
void World::Impl::addLateMeshContacts(uint32_t k, Real h) {
  const Collider& c = collision.colliders[k];
  MeshShape& m = collision.meshShapes[c.mesh];
  const TriangleBvh::Node& root = m.surface.bvh().nodes()[0];
  Point3d lo, hi;
  grownRoot(particles.largestBodyMargin, c, root, lo, hi);
  // Projects particle i onto the plane if it is closer than the thickness (beyond rounding); true if it moved.
  auto project = [&](uint32_t i, const MeshContactPlane& plane, Real margin) {
    const Vec3 pi = particleAt(particles.p, i);
    const Vec3 n = c.subEndRotation * plane.normal.cast<Real>();
    const Vec3 q = c.subEndPosition + c.subEndRotation * plane.point.cast<Real>();
    const Real thickness = c.def.thickness + margin;
    const Real push = thickness - (pi - q).dot(n);
    if (!(push > kLateSlack * thickness)) return false;
    moveInLatePass(i, pi + push * n, k);
    if (collision.contacts.size() < collision.contacts.capacity()) {
      collision.contacts.push_back(worldContact(c, k, i, plane, particleAt(particles.v, i), pi, 1 / h, push, margin));
    } else {
      ++diagnostics.report.droppedContacts;
    }
    return true;
  };
  // The first query of every particle, in parallel; where it finds no plane, the particle is done (but one that
  // started inside learns whether it still is).
  auto firstQuery = [&](uint32_t i, Real margin) {
    m.firstPlane[i].reset();
    const Point3d a = toPoint(toLocalAtStart(c, particleAt(particles.x, i)));
    const bool startsInside = m.inside[i] != 0;
    const Point3d b = toPoint(toLocalAtEnd(c, particleAt(particles.p, i)));
    if (!startsInside && !segmentBoxOverlaps(a, b, lo, hi)) return;
    const double thickness = double(c.def.thickness) + double(margin);
    m.firstPlane[i] = m.particleContactPlane(i, a, b, startsInside, thickness);
    if (!m.firstPlane[i] && startsInside) m.inside[i] = m.contains(b);
  };
  forEachFreeParticleWithMarginInParallel(kMeshQueriesPerTask, firstQuery);
  // The particles with a plane, in order: projected and queried again, a few rounds.
  forEachParticleWithMargin([&](uint32_t i, Real margin) {
    if (particles.w[i] == 0 || !m.firstPlane[i]) return;
    const Point3d a = toPoint(toLocalAtStart(c, particleAt(particles.x, i)));
    const bool startsInside = m.inside[i] != 0;
    const double thickness = double(c.def.thickness) + double(margin);
    bool moved = false;
    std::optional<MeshContactPlane> plane = m.firstPlane[i];
    for (int round = 0; round < kLateRounds; ++round) {
      if (round > 0)
        plane =
            m.particleContactPlane(i, a, toPoint(toLocalAtEnd(c, particleAt(particles.p, i))), startsInside, thickness);
      if (!plane || !project(i, *plane, margin)) break;
      moved = true;
      if (startsInside) break;  // pushed out by the shortest way: one move per substep
    }
    const Point3d b = toPoint(toLocalAtEnd(c, particleAt(particles.p, i)));
    if (startsInside) {
      m.inside[i] = m.contains(b);
    } else if (moved && m.crossingPlane(a, b)) {
      moveInLatePass(i, particleAt(particles.x, i), k);  // the last safe place
    }
  });
}

}  // namespace pbd

// Rod segments against the colliders (spheres, capsules, boxes and triangle meshes). The particles' own contacts keep
// a rod's particles out; a collider can still reach between two of them (a thin rod across a box's edge, a bar or a
// mesh's edge), since the particles are balls on the axis. Per segment and collider: the segment's point deepest in
// the collider (the signed distance to a convex shape is convex along a line, and the distance to a mesh near one of
// its edges has one minimum along a short segment: a golden-section search), and where that point is closer than the
// rod's radius plus the margins, both particles pushed along the normal by their share of it,
//   C = φ(x(t)) − thickness,  x(t) = (1 − t) p0 + t p1,  Δp0 = −w0 (1 − t) s n,  Δp1 = −w1 t s n,
//   s = C / (w0 (1 − t)² + w1 t²)
// (a point–edge contact). Then friction at position level as the particles' contacts have it (contacts.cpp,
// holdStaticFriction): the point's tangential move over the substep relative to the collider, undone within
// μ_s |C|, else shortened by μ_d |C|, moved back by the same shares. Planes need none: a segment's deepest point in a
// plane is one of its ends.
#include <algorithm>
#include <cmath>

#include "world/collider_motion.h"
#include "world/world_state.h"

namespace pbd {
namespace {

constexpr int kSearchSteps = 24;  // the bracket shrinks to 0.618^24 ≈ 1e-5 of the segment
constexpr Real kGolden = Real(0.6180339887);

/// The t in [0, 1] where φ(a + t (b − a)) is least, by golden-section search (φ convex in t).
template <class Phi>
Real deepestPoint(Phi phi) {
  Real lo = 0, hi = 1;
  Real t1 = hi - kGolden * (hi - lo), t2 = lo + kGolden * (hi - lo);
  Real f1 = phi(t1), f2 = phi(t2);
  for (int k = 0; k < kSearchSteps; ++k) {
    if (f1 <= f2) {
      hi = t2, t2 = t1, f2 = f1;
      t1 = hi - kGolden * (hi - lo), f1 = phi(t1);
    } else {
      lo = t1, t1 = t2, f1 = f2;
      t2 = lo + kGolden * (hi - lo), f2 = phi(t2);
    }
  }
  const Real t = (lo + hi) / 2;
  // The ends, which the search only approaches.
  const Real at = phi(t), atStart = phi(0), atEnd = phi(1);
  if (atStart <= at && atStart <= atEnd) return 0;
  return atEnd < at ? Real(1) : t;
}

}  // namespace

void World::Impl::projectRodSegmentContacts() {
  if (rods.empty()) return;
  for (uint32_t k = 0; k < collision.colliders.size(); ++k) {
    const Collider& c = collision.colliders[k];
    if (c.def.shape == ColliderShape::Plane) continue;
    if (c.mesh != kNoMesh) {
      projectRodSegmentsOnMesh(k);
      continue;
    }
    const Real reach = boundingRadius(c.def) + c.def.thickness;
    for (const RodSegment& s : rods.segments) {
      const Vec3 a = particleAt(particles.p, s.p0), ab = particleAt(particles.p, s.p1) - a;
      const Real margin = particles.bodyMaterials[bodyOf(s.p0)].thickness + c.def.thickness;
      // Broad phase: the segment's nearest point to the collider's centre is outside its bounding sphere.
      const Real lengthSq = ab.squaredNorm();
      const Real along =
          lengthSq > 0 ? std::clamp((c.subEndPosition - a).dot(ab) / lengthSq, Real(0), Real(1)) : Real(0);
      if ((a + along * ab - c.subEndPosition).norm() > reach + margin) continue;
      // The signed distance to a convex shape is convex along the segment: its minimum is the deepest point.
      const Real t = deepestPoint([&](Real u) { return worldDistance(c, a + u * ab).phi; });
      projectRodSegmentContact(k, s, t, worldDistance(c, a + t * ab), margin);
    }
  }
}

void World::Impl::projectRodSegmentsOnMesh(uint32_t k) {
  const Collider& c = collision.colliders[k];
  const MeshShape& m = collision.meshShapes[c.mesh];
  const TriangleBvh::Node& root = m.surface.bvh().nodes().front();
  for (const RodSegment& s : rods.segments) {
    const Vec3 a = particleAt(particles.p, s.p0), ab = particleAt(particles.p, s.p1) - a;
    const Real margin = particles.bodyMaterials[bodyOf(s.p0)].thickness + c.def.thickness;
    const Point3d la = toLocalAtEnd(c, a).cast<double>(), lb = toLocalAtEnd(c, a + ab).cast<double>();
    if ((la.cwiseMin(lb).array() > root.hi.array() + double(margin)).any() ||
        (la.cwiseMax(lb).array() < root.lo.array() - double(margin)).any())
      continue;
    // The distance to the surface (unsigned: the particles' own contacts keep them on their side); near a mesh's edge
    // it falls to one minimum along a short segment, which the search finds. Capped past the segment's length (the
    // search must see the slope toward a dip in the middle, not a plateau at the cap), which keeps queries local.
    const double cap = double(ab.norm()) + 2 * double(margin);
    auto local = [&](Real u) { return la + double(u) * (lb - la); };
    const Real t = deepestPoint([&](Real u) { return Real(m.surface.distanceUpTo(local(u), cap)); });
    const TriangleBvh::Closest q = m.surface.bvh().closestPoint(local(t), cap);
    if (q.triangle == TriangleBvh::kNone || !(q.distance > 0)) continue;  // nothing near, or no side to push to
    const Vec3 n = c.subEndRotation * ((local(t) - q.point) / q.distance).cast<Real>();
    projectRodSegmentContact(k, s, t, ShapeDistance{Real(q.distance), n}, margin);
  }
}

void World::Impl::projectRodSegmentContact(uint32_t k, const RodSegment& s, Real t, const ShapeDistance& d,
                                           Real margin) {
  const Collider& c = collision.colliders[k];
  const Real w0 = particles.w[s.p0], w1 = particles.w[s.p1];
  const Real C = d.phi - margin;
  const Real weight = w0 * (1 - t) * (1 - t) + w1 * t * t;
  if (!(C < 0) || !(weight > 0)) return;
  // Moves the point x(t) by `delta`: each particle by its share, w_i b_i / Σ w_j b_j² of it.
  auto movePoint = [&](const Vec3& delta) {
    const Vec3 from0 = particleAt(particles.p, s.p0), from1 = particleAt(particles.p, s.p1);
    const Vec3 to0 = from0 + (w0 * (1 - t) / weight) * delta, to1 = from1 + (w1 * t / weight) * delta;
    for (int axis = 0; axis < 3; ++axis) {
      particles.p[3 * size_t(s.p0) + axis] = to0[axis];
      particles.p[3 * size_t(s.p1) + axis] = to1[axis];
    }
    recordContactMomentum(k, s.p0, from0, false);
    recordContactMomentum(k, s.p1, from1, false);
  };
  movePoint(-C * d.n);
  const Vec3 point = (1 - t) * particleAt(particles.p, s.p0) + t * particleAt(particles.p, s.p1);
  const Vec3 start = (1 - t) * particleAt(particles.x, s.p0) + t * particleAt(particles.x, s.p1);
  const Vec3 move = point - start - colliderVelocity(c, point, 1);
  const Vec3 tangential = move - move.dot(d.n) * d.n;
  const Contact asParticle{s.p0, k, 0, 0, d.n, margin};  // for the materials' friction coefficients
  const Real pushed = -C, length = tangential.norm();
  if (length < contactStaticFriction(asParticle) * pushed) {
    movePoint(-tangential);
  } else if (length > 0) {
    movePoint(-std::min(Real(1), contactFriction(asParticle) * pushed / length) * tangential);
  }
}

}  // namespace pbd

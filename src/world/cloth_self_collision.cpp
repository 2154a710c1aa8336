// Continuous cloth self-collision, per substep for each body that has it on:
//   broad phase  the body's triangle BVH (built once on the rest shape) is refitted with every triangle's box swept
//                from x to p and grown by the thickness; each vertex's swept box and each edge's swept box query it;
//   narrow phase continuous point–triangle and edge–edge tests over the substep (collision/continuous_contact.h);
//   solve        each pair found is a SelfContact (constraints/self_contact.h), projected with the other constraints
//                every iteration, serially in the order found (vertices, then edges, each in index order, triangles
//                in tree order), so the result is deterministic.
// The BVH refit was chosen over the spatial hash: a hash of triangle centres needs a query radius of the largest
// swept triangle, which one fast particle makes as large as its whole path for every query.
#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <sstream>

#include "collision/continuous_contact.h"
#include "world/body_builders.h"
#include "world/world_state.h"

namespace pbd {

SelfCollidingSurface makeSelfCollidingSurface(const char* fn, uint32_t body, std::span<const Real> restXyz,
                                              std::vector<uint32_t> triangles, const ContinuousSelfCollision& settings) {
  const size_t count = restXyz.size() / 3;
  for (size_t k = 0; k < triangles.size(); ++k) {
    if (triangles[k] >= count) check::index(fn, "triangles[" + std::to_string(k) + "]", triangles[k], count);
  }
  SelfCollidingSurface s;
  s.body = body;
  s.settings = settings;
  s.triangles = std::move(triangles);
  if (settings.enabled) buildSelfCollisionIndex(s, restXyz);
  return s;
}

void buildSelfCollisionIndex(SelfCollidingSurface& s, std::span<const Real> restXyz) {
  const size_t count = restXyz.size() / 3;
  std::vector<std::pair<uint32_t, uint32_t>> edges;  // (edge, triangle) pairs sorted: owners are the first of each
  std::vector<std::pair<std::pair<uint32_t, uint32_t>, uint32_t>> corners;
  corners.reserve(s.triangles.size());
  for (uint32_t t = 0; 3 * size_t(t) < s.triangles.size(); ++t) {
    for (int k = 0; k < 3; ++k) {
      const uint32_t i = s.triangles[3 * size_t(t) + k], j = s.triangles[3 * size_t(t) + (k + 1) % 3];
      corners.push_back({{std::min(i, j), std::max(i, j)}, t});
    }
  }
  std::vector<std::pair<std::pair<uint32_t, uint32_t>, uint32_t>> sorted = corners;
  std::sort(sorted.begin(), sorted.end());
  for (const auto& [edge, t] : sorted) {
    if (!edges.empty() && edges.back() == edge) continue;
    edges.push_back(edge);
    s.edges.insert(s.edges.end(), {edge.first, edge.second});
    s.edgeOwner.push_back(t);
  }
  s.triangleEdges.reserve(corners.size());
  for (const auto& [edge, t] : corners) {
    s.triangleEdges.push_back(uint32_t(std::lower_bound(edges.begin(), edges.end(), edge) - edges.begin()));
  }
  std::vector<Point3d> rest(count);
  for (size_t i = 0; i < count; ++i) rest[i] = Point3d(restXyz[3 * i], restXyz[3 * i + 1], restXyz[3 * i + 2]);
  s.bvh = TriangleBvh(std::move(rest), s.triangles);
}

void checkSelfCollisionThickness(const char* fn, const std::string& arg, const ContinuousSelfCollision& settings,
                                 std::span<const uint32_t> triangles, std::span<const Real> restXyz) {
  if (!settings.enabled) return;
  double shortest = std::numeric_limits<double>::infinity();
  for (size_t t = 0; t + 2 < triangles.size(); t += 3) {
    for (int k = 0; k < 3; ++k) {
      const uint32_t i = triangles[t + k], j = triangles[t + (k + 1) % 3];
      double squared = 0;
      for (int a = 0; a < 3; ++a) squared += std::pow(double(restXyz[3 * size_t(i) + a]) - restXyz[3 * size_t(j) + a], 2);
      shortest = std::min(shortest, std::sqrt(squared));
    }
  }
  const double bound = shortest / std::sqrt(2.0);
  if (!(double(settings.thickness) < bound)) {
    std::ostringstream reason;
    reason << "must be < the shortest rest edge / sqrt(2) = " << bound;
    check::fail(fn, arg.empty() ? "thickness" : arg + ".thickness", reason.str().c_str(), settings.thickness);
  }
}

SelfCollidingSurface* World::Impl::selfSurfaceOf(uint32_t body) {
  const auto it = std::lower_bound(selfSurfaces.begin(), selfSurfaces.end(), body,
                                   [](const SelfCollidingSurface& s, uint32_t b) { return s.body < b; });
  return it != selfSurfaces.end() && it->body == body ? &*it : nullptr;
}

void World::Impl::reserveSelfSurface(const SelfCollidingSurface& surface) {
  selfSurfaces.reserve(selfSurfaces.size() + 1);
  reserveSelfContacts(surface);
}

// Only a surface that self-collides needs room for contacts: at 4 per element this is most of a cloth's memory
// (12.6 MB of 28 MB for a 128 x 128 cloth), so a surface switched off has none until it is switched on.
void World::Impl::reserveSelfContacts(const SelfCollidingSurface& surface) {
  if (!surface.settings.enabled) return;
  const size_t elements = surface.bvh.vertices().size() + surface.edges.size() / 2;
  selfContacts.reserve(selfContacts.capacity() + kSelfContactsPerElement * elements);
}

void World::Impl::appendSelfSurface(SelfCollidingSurface&& surface) { selfSurfaces.push_back(std::move(surface)); }

BodyRange World::Impl::appendSurfaceBody(const char* fn, const BodyBlueprint& b, const ContactMaterial& contact,
                                         const ContinuousSelfCollision& self) {
  check::continuousSelfCollision(fn, "continuousSelfCollision", self);
  SelfCollidingSurface surface = makeSelfCollidingSurface(fn, uint32_t(bodies.size()), b.positions, b.triangles, self);
  checkSelfCollisionThickness(fn, "continuousSelfCollision", self, surface.triangles, b.positions);
  reserveSelfSurface(surface);
  const BodyRange range = appendBody(fn, b, contact);
  appendSelfSurface(std::move(surface));
  return range;
}

namespace {

/// The swept box of particles `ids` (global) from x to p.
template <size_t N>
void sweptBox(const std::vector<Real>& x, const std::vector<Real>& p, const uint32_t (&ids)[N], Point3d& lo, Point3d& hi) {
  lo = Point3d::Constant(std::numeric_limits<double>::infinity());
  hi = -lo;
  for (uint32_t i : ids) {
    for (const std::vector<Real>* a : {&x, &p}) {
      const Point3d q((*a)[3 * size_t(i)], (*a)[3 * size_t(i) + 1], (*a)[3 * size_t(i) + 2]);
      lo = lo.cwiseMin(q), hi = hi.cwiseMax(q);
    }
  }
}

}  // namespace

void World::Impl::findContinuousSelfContacts() {
  selfContacts.clear();
  for (SelfCollidingSurface& s : selfSurfaces) {
    if (!s.settings.enabled) continue;
    const uint32_t first = bodies[s.body].begin, n = bodies[s.body].end - first;
    s.bvh.refitSwept({x.data() + 3 * size_t(first), 3 * size_t(n)}, {p.data() + 3 * size_t(first), 3 * size_t(n)},
                     s.settings.thickness);
    // One candidate pair: narrow phase on global particles g[4], kept if it needs a constraint and there is room.
    auto test = [&](const uint32_t (&g)[4], bool pointTriangle) {
      if (w[g[0]] == 0 && w[g[1]] == 0 && w[g[2]] == 0 && w[g[3]] == 0) return;
      if (selfContacts.size() == selfContacts.capacity()) return;
      Point3d start[4], end[4];
      for (int k = 0; k < 4; ++k) {
        start[k] = Point3d(x[3 * size_t(g[k])], x[3 * size_t(g[k]) + 1], x[3 * size_t(g[k]) + 2]);
        end[k] = Point3d(p[3 * size_t(g[k])], p[3 * size_t(g[k]) + 1], p[3 * size_t(g[k]) + 2]);
      }
      const std::optional<ContinuousContact> c = pointTriangle
                                                     ? pointTriangleContact(start, end, s.settings.thickness)
                                                     : edgeEdgeContact(start, end, s.settings.thickness);
      if (!c) return;
      SelfContact contact{{g[0], g[1], g[2], g[3]}, {}, c->normal.cast<Real>(), s.settings.thickness};
      for (int k = 0; k < 4; ++k) contact.weight[k] = Real(c->weight[k]);
      selfContacts.push_back(contact);
    };
    Point3d lo, hi;
    for (uint32_t i = 0; i < n; ++i) {  // point–triangle: a vertex against the triangles it is not a corner of
      const uint32_t ids[1] = {first + i};
      sweptBox(x, p, ids, lo, hi);
      s.bvh.forEachOverlap(lo, hi, [&](uint32_t t) {
        const uint32_t* f = s.bvh.triangle(t);
        if (f[0] == i || f[1] == i || f[2] == i) return;
        test({first + i, first + f[0], first + f[1], first + f[2]}, true);
      });
    }
    const uint32_t edgeCount = uint32_t(s.edges.size() / 2);
    for (uint32_t e = 0; e < edgeCount; ++e) {  // edge–edge: each pair once, never two edges sharing a vertex
      const uint32_t a = s.edges[2 * size_t(e)], b = s.edges[2 * size_t(e) + 1];
      const uint32_t ids[2] = {first + a, first + b};
      sweptBox(x, p, ids, lo, hi);
      s.bvh.forEachOverlap(lo, hi, [&](uint32_t t) {
        for (int k = 0; k < 3; ++k) {
          const uint32_t other = s.triangleEdges[3 * size_t(t) + k];
          if (other <= e || s.edgeOwner[other] != t) continue;
          const uint32_t c = s.edges[2 * size_t(other)], d = s.edges[2 * size_t(other) + 1];
          if (c == a || c == b || d == a || d == b) continue;
          test({first + a, first + b, first + c, first + d}, false);
        }
      });
    }
  }
}

void World::Impl::projectContinuousSelfContacts() {
  Vec3* P = asVec3(p);
  for (const SelfContact& c : selfContacts) {
    Vec3* const xs[4] = {&P[c.particle[0]], &P[c.particle[1]], &P[c.particle[2]], &P[c.particle[3]]};
    const Real ws[4] = {w[c.particle[0]], w[c.particle[1]], w[c.particle[2]], w[c.particle[3]]};
    projectSelfContact(xs, ws, c.weight, c.normal, c.thickness);
  }
}

void World::setContinuousSelfCollision(uint32_t body, const ContinuousSelfCollision& settings) {
  const char* fn = "setContinuousSelfCollision";
  check::index(fn, "body", body, impl_->bodies.size());
  SelfCollidingSurface* s = impl_->selfSurfaceOf(body);
  if (!s) check::fail(fn, "body", "has no triangles (only cloth and triangle-mesh bodies self-collide)", body);
  check::continuousSelfCollision(fn, "", settings);
  const ParticleRange range = impl_->bodies[body];
  const std::span<const Real> rest(impl_->restX.data() + 3 * size_t(range.begin), 3 * size_t(range.end - range.begin));
  checkSelfCollisionThickness(fn, "", settings, s->triangles, rest);
  if (settings.enabled && s->edges.empty()) {
    // Switched on for the first time: build the index and the contact room (may throw; nothing changed yet).
    SelfCollidingSurface built{s->body, settings, s->triangles, {}, {}, {}, {}};
    buildSelfCollisionIndex(built, rest);
    impl_->reserveSelfContacts(built);
    *s = std::move(built);
  }
  s->settings = settings;
}

const ContinuousSelfCollision& World::continuousSelfCollision(uint32_t body) const {
  const char* fn = "continuousSelfCollision";
  check::index(fn, "body", body, impl_->bodies.size());
  const SelfCollidingSurface* s = impl_->selfSurfaceOf(body);
  if (!s) check::fail(fn, "body", "has no triangles (only cloth and triangle-mesh bodies self-collide)", body);
  return s->settings;
}

uint32_t World::continuousSelfContactCount() const { return uint32_t(impl_->selfContacts.size()); }

}  // namespace pbd

// Tearable bodies (pbd/bodies.h Tearing): made with the body, checked edges, the step's scan for overstretched
// edges, and their triangles for renderers. The tear itself is World::tearEdges (snapshot.cpp, body_tearing.h).
#include <algorithm>
#include <limits>
#include <numeric>
#include <optional>
#include <string>

#include "base/checks.h"
#include "bodies/body_builders.h"
#include "world/world_state.h"

namespace pbd {

std::optional<TearableSurface> World::Impl::makeTearableSurface(const char* fn, const BodyBlueprint& b,
                                                                const Tearing& tearing) const {
  if (!tearing.enabled) return std::nullopt;
  if (!(tearing.strain > 0)) check::fail(fn, "tearing.strain", "must be > 0 (infinity: only tearEdges tears)", tearing.strain);
  if (!b.surface.empty()) check::fail(fn, "tearing", "needs an open surface (pressure 0)", 1);
  TearableSurface surface;
  surface.body = uint32_t(particles.bodies.size());
  surface.strain = tearing.strain;
  surface.mesh.triangles = b.triangles;
  surface.mesh.tornSides.assign(b.triangles.size() / 3, 0);
  surface.mesh.origin.resize(b.inverseMasses.size());
  std::iota(surface.mesh.origin.begin(), surface.mesh.origin.end(), 0u);
  watchEdges(surface, b.positions);
  return surface;
}

void World::Impl::checkTearEdges(const char* fn, uint32_t body, std::span<const uint32_t> edges) {
  check::index(fn, "body", body, particles.bodies.size());
  if (!tearing.find(body)) check::fail(fn, "body", "is not tearable (see Tearing)", body);
  if (edges.size() % 2 != 0) check::fail(fn, "edges", "length must be even (two particles per edge)", edges.size());
  const ParticleRange r = particles.bodies[body];
  for (size_t k = 0; k < edges.size(); ++k) {
    if (edges[k] < r.begin || edges[k] >= r.end)
      check::fail(fn, "edges[" + std::to_string(k) + "]", "is not a particle of the body", edges[k]);
  }
}

void watchEdges(TearableSurface& s, std::span<const Real> restXyz) {
  s.watched.clear();
  if (!(s.strain < std::numeric_limits<Real>::infinity())) return;
  std::vector<std::pair<uint32_t, uint32_t>> edges;
  const std::vector<uint32_t>& corners = s.mesh.triangles;
  for (size_t t = 0; 3 * t < corners.size(); ++t) {
    for (int k = 0; k < 3; ++k) {
      if (s.mesh.tornSides[t] >> k & 1) continue;
      const uint32_t a = corners[3 * t + k], b = corners[3 * t + (k + 1) % 3];
      edges.push_back({std::min(a, b), std::max(a, b)});
    }
  }
  std::sort(edges.begin(), edges.end());
  edges.erase(std::unique(edges.begin(), edges.end()), edges.end());
  const Real limit = (1 + s.strain) * (1 + s.strain);
  const Vec3* rest = reinterpret_cast<const Vec3*>(restXyz.data());
  s.watched.reserve(edges.size());
  for (auto [a, b] : edges) s.watched.push_back({a, b, limit * (rest[a] - rest[b]).squaredNorm()});
}

bool World::Impl::findOverstretchedEdges(TearableSurface& surface) {
  const uint32_t begin = particles.bodies[surface.body].begin;
  const Vec3* x = asVec3(particles.x) + begin;
  tearing.overstretched.clear();
  for (const WatchedEdge& e : surface.watched) {
    if ((x[e.a] - x[e.b]).squaredNorm() > e.tearLength2)
      tearing.overstretched.insert(tearing.overstretched.end(), {begin + e.a, begin + e.b});
  }
  return !tearing.overstretched.empty();
}

const std::vector<TearReport>& World::lastTears() const { return impl_->tearing.lastTears; }

std::vector<uint32_t> World::bodyTriangles(uint32_t body) const {
  check::index("bodyTriangles", "body", body, bodyCount());
  const TearableSurface* surface = impl_->tearing.find(body);
  if (!surface) check::fail("bodyTriangles", "body", "is not tearable (see Tearing)", body);
  std::vector<uint32_t> triangles = surface->mesh.triangles;
  for (uint32_t& v : triangles) v += impl_->particles.bodies[body].begin;
  return triangles;
}

}  // namespace pbd

// The mesh collider's clearance cache (collision/mesh_collider.h, issue #5): the clearance a query reports is a lower
// bound of the true distance to the surface, and a particle walking randomly around the bunny gets exactly the
// contact planes the uncached query gives at every step, while most of its queries are skipped.
#include <gtest/gtest.h>

#include <limits>
#include <optional>
#include <random>

#include "collision/mesh_collider.h"
#include "scenes/bunny.h"

using namespace pbd;

namespace {

/// The distance from q to the mesh by brute force over its triangles.
double bruteDistance(const MeshShape& m, const Point3d& q) {
  const TriangleBvh& bvh = m.surface.bvh();
  double best = std::numeric_limits<double>::infinity();
  for (uint32_t t = 0; t < bvh.triangleCount(); ++t) {
    const uint32_t* f = bvh.triangle(t);
    best = std::min(best, (q - closestPointOnTriangle(bvh.vertex(f[0]), bvh.vertex(f[1]), bvh.vertex(f[2]), q)).norm());
  }
  return best;
}

MeshShape bunnyShape() {
  const SurfaceMesh bunny = scenes::bunny(0.05f, 0);
  return MeshShape(bunny.positions, bunny.triangles);
}

bool samePlane(const std::optional<MeshContactPlane>& a, const std::optional<MeshContactPlane>& b) {
  if (a.has_value() != b.has_value()) return false;
  return !a || (a->point == b->point && a->normal == b->normal);
}

}  // namespace

TEST(MeshClearance, TheReportedClearanceIsALowerBoundOfTheDistance) {
  const MeshShape m = bunnyShape();
  const auto& root = m.surface.bvh().nodes()[0];
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> u(0, 1);
  int informative = 0;
  for (int trial = 0; trial < 300; ++trial) {
    const Point3d b = root.lo + (root.hi - root.lo).cwiseProduct(Point3d(u(rng), u(rng), u(rng)) * 1.4 -
                                                                 Point3d::Constant(0.2));
    const Point3d a = b + 0.002 * Point3d(u(rng) - 0.5, u(rng) - 0.5, u(rng) - 0.5);
    if (m.contains(a)) continue;
    double clearance = -1;
    m.contactPlane(a, b, false, 0.003, clearance);
    const double distance = bruteDistance(m, b);
    EXPECT_LE(clearance, distance + 1e-12) << "trial " << trial;
    EXPECT_GE(clearance, 0);
    if (clearance > 0.003) ++informative;
  }
  EXPECT_GT(informative, 50) << "points away from the surface learn a clearance beyond the thickness";
}

TEST(MeshClearance, CachedQueriesGiveTheUncachedPlanesAndSkipMost) {
  MeshShape cached = bunnyShape();
  const MeshShape plain = bunnyShape();
  const auto& root = plain.surface.bvh().nodes()[0];
  const double size = (root.hi - root.lo).norm(), thickness = 0.004;
  std::mt19937 rng(7);
  std::normal_distribution<double> step(0, 1);
  const uint32_t particles = 40;
  cached.resizeParticles(particles);
  int skipped = 0, planes = 0, queries = 0;
  for (uint32_t i = 0; i < particles; ++i) {
    // A walk from a point above the bunny, drifting down onto it: far, then near, then touching.
    Point3d x = 0.5 * (root.lo + root.hi) + Point3d(0, 0.6 * size, 0) + 0.2 * size * Point3d(step(rng), 0, step(rng));
    for (int k = 0; k < 400; ++k) {
      const Point3d p = x + Point3d(0, -0.004 * size, 0) + 0.002 * size * Point3d(step(rng), step(rng), step(rng));
      const bool inside = plain.contains(x);
      const Point3d learnedAt = cached.clearanceFrom[i];
      double learned;
      const std::optional<MeshContactPlane> expected = plain.contactPlane(x, p, inside, thickness, learned);
      const std::optional<MeshContactPlane> got = cached.particleContactPlane(i, x, p, inside, thickness);
      ASSERT_TRUE(samePlane(expected, got)) << "particle " << i << ", step " << k;
      ++queries;
      skipped += k > 0 && cached.clearanceFrom[i] == learnedAt && cached.clearanceFrom[i] != p;
      planes += expected.has_value();
      // Where a plane was found, the particle stops on it, as the solver would put it.
      x = expected ? Point3d(p + std::max(0.0, thickness - (p - expected->point).dot(expected->normal)) * expected->normal)
                   : p;
    }
  }
  EXPECT_GT(planes, 100) << "the walks reach the surface";
  EXPECT_GT(skipped, queries / 4) << "the cache skips the far steps";
}

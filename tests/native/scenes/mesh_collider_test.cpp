// Triangle-mesh colliders (continuous collision): the BVH's queries against brute force, a 100 m/s particle stopped
// by a thin wall in one substep, restitution and friction through the shared velocity pass, a particle started
// inside a closed mesh pushed out by the shortest way, cloth draped on a sphere mesh and on the Stanford bunny
// staying outside (generalized winding number), a moving mesh platform carrying a particle, deformation, bad input.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

#include "mesh/triangle_bvh.h"
#include "native/expect_error.h"
#include "mesh/winding_number.h"
#include "pbd/world.h"
#include "scenes/bunny.h"
#include "scenes/free_space.h"
#include "scenes/ball_and_floor_meshes.h"
#include "scenes/icosphere.h"
#include "scenes/scenes.h"
#include "native/long_scene.h"

using namespace pbd;

namespace {

struct Mesh {
  std::vector<Real> positions;
  std::vector<uint32_t> triangles;
};

/// Two triangles spanning the square [-1, 1]² in the plane x = 0 (normal +X): an open, two-sided wall.
Mesh wall() { return {{0, -1, -1, 0, 1, -1, 0, 1, 1, 0, -1, 1}, {0, 1, 2, 0, 2, 3}}; }

/// A closed box [lo, hi], 12 triangles wound counter-clockwise seen from outside.
Mesh boxMesh(const Vec3& lo, const Vec3& hi) {
  Mesh m;
  for (int k = 0; k < 8; ++k) {
    m.positions.insert(m.positions.end(), {k & 1 ? hi.x() : lo.x(), k & 2 ? hi.y() : lo.y(), k & 4 ? hi.z() : lo.z()});
  }
  m.triangles = {0, 2, 3, 0, 3, 1, 4, 5, 7, 4, 7, 6, 0, 1, 5, 0, 5, 4, 2, 6, 7, 2, 7, 3, 0, 4, 6, 0, 6, 2, 1, 3, 7, 1, 7, 5};
  return m;
}

ColliderDef meshCollider(const Mesh& m, Real thickness) {
  ColliderDef d;
  d.shape = ColliderShape::TriangleMesh;
  d.meshPositions = m.positions;
  d.meshTriangles = m.triangles;
  d.thickness = thickness;
  return d;
}

using scenes::weightless;

std::vector<Point3d> points(const std::vector<Real>& xyz) {
  std::vector<Point3d> v;
  for (size_t k = 0; k < xyz.size(); k += 3) v.emplace_back(xyz[k], xyz[k + 1], xyz[k + 2]);
  return v;
}

/// Brute force over all triangles: the first hit of a→b and the nearest point (ties to the lowest index).
TriangleBvh::Hit bruteHit(const std::vector<Point3d>& v, const std::vector<uint32_t>& f, const Point3d& a, const Point3d& b) {
  TriangleBvh::Hit best{-1, a, TriangleBvh::kNone};
  for (uint32_t t = 0; t < f.size() / 3; ++t) {
    const double s = segmentTriangle(v[f[3 * t]], v[f[3 * t + 1]], v[f[3 * t + 2]], a, b);
    if (s >= 0 && (best.triangle == TriangleBvh::kNone || s < best.s)) best = {s, a + s * (b - a), t};
  }
  return best;
}
TriangleBvh::Closest bruteClosest(const std::vector<Point3d>& v, const std::vector<uint32_t>& f, const Point3d& q) {
  TriangleBvh::Closest best{INFINITY, q, TriangleBvh::kNone};
  for (uint32_t t = 0; t < f.size() / 3; ++t) {
    const Point3d x = closestPointOnTriangle(v[f[3 * t]], v[f[3 * t + 1]], v[f[3 * t + 2]], q);
    if ((q - x).norm() < best.distance) best = {(q - x).norm(), x, t};
  }
  return best;
}

void expectBvhMatchesBruteForce(const TriangleBvh& bvh, std::mt19937& rng, double extent) {
  std::uniform_real_distribution<double> u(-extent, extent);
  int hits = 0;
  for (int trial = 0; trial < 2000; ++trial) {
    const Point3d a(u(rng), u(rng), u(rng)), b(u(rng), u(rng), u(rng));
    const TriangleBvh::Hit h = bvh.firstHit(a, b), hb = bruteHit(bvh.vertices(), bvh.triangles(), a, b);
    ASSERT_EQ(h.triangle, hb.triangle) << "trial " << trial;
    if (hb.triangle != TriangleBvh::kNone) {
      ++hits;
      EXPECT_EQ(h.s, hb.s);
    }
    const TriangleBvh::Closest c = bvh.closestPoint(a, INFINITY), cb = bruteClosest(bvh.vertices(), bvh.triangles(), a);
    EXPECT_EQ(c.distance, cb.distance) << "trial " << trial;
    EXPECT_EQ(c.triangle, cb.triangle);
    EXPECT_EQ(bvh.closestPoint(a, 0.5 * cb.distance).triangle, TriangleBvh::kNone);
  }
  EXPECT_GT(hits, 200) << "the random segments should hit the mesh often";
}

/// Unsigned distance from world point p to the mesh (collider at the identity pose).
double distanceToMesh(const mesh::SurfaceBvh& s, const Real* p) { return s.distanceUpTo(Point3d(p[0], p[1], p[2]), INFINITY); }

}  // namespace

TEST(TriangleBvh, QueriesEqualBruteForceAlsoAfterRefit) {
  std::mt19937 rng(5);
  const scenes::IcosphereMesh ico = scenes::icosphere(3, 1.0);
  TriangleBvh sphere(points(ico.positions), ico.triangles);
  expectBvhMatchesBruteForce(sphere, rng, 1.5);
  // A soup of random triangles, then deformed and refitted: same answers as brute force on the new vertices.
  std::uniform_real_distribution<Real> u(-1, 1);
  std::vector<Real> soup;
  std::vector<uint32_t> tris;
  for (uint32_t t = 0; t < 300; ++t) {
    const Vec3 c(u(rng), u(rng), u(rng));
    for (int k = 0; k < 3; ++k) {
      const Vec3 p = c + 0.2f * Vec3(u(rng), u(rng), u(rng));
      soup.insert(soup.end(), {p.x(), p.y(), p.z()});
      tris.push_back(3 * t + k);
    }
  }
  TriangleBvh bvh(points(soup), tris);
  expectBvhMatchesBruteForce(bvh, rng, 1.2);
  for (Real& x : soup) x = 1.3f * x + 0.1f * u(rng);
  bvh.refit(soup);
  EXPECT_EQ(bvh.vertices()[7], points(soup)[7]);
  expectBvhMatchesBruteForce(bvh, rng, 1.5);
}

TEST(MeshCollider, ABulletStopsOnTheNearSideOfAThinWallInOneSubstep) {
  const Real thickness = 1e-3f, h = 1.0f / 60;
  // Two triangles, and a closed box 1 mm thick: 100 m/s covers 1.67 m in the substep, far past the wall at x = 0.5.
  for (const Mesh& m : {wall(), boxMesh(Vec3(0, -1, -1), Vec3(1e-3f, 1, 1))}) {
    for (Real restitution : {0.0f, 0.5f}) {
      World world = weightless(1);
      ColliderDef d = meshCollider(m, thickness);
      d.position = Vec3(0.5f, 0, 0);
      d.restitution = restitution;
      d.friction = 0;
      world.addCollider(d);
      world.addParticle(Vec3(0, 0.1f, 0.2f), 1, Vec3(100, 0, 0));
      world.step(h);
      EXPECT_NEAR(world.positions()[0], 0.5f - thickness, 1e-5f) << "restitution " << restitution;
      EXPECT_EQ(world.positions()[1], 0.1f);
      EXPECT_EQ(world.contactCount(), 1u);
      if (restitution > 0) {
        // The velocity pass restores e times the 100 m/s approach speed, away from the wall.
        EXPECT_NEAR(world.velocities()[0], -restitution * 100, 1e-3f);
        world.step(h);
        EXPECT_NEAR(world.positions()[0], 0.5f - thickness - restitution * 100 * h, 1e-4f);
      } else {
        // Inelastic: v = (p - x)/h still carries it to the wall; the next step stops it there.
        EXPECT_NEAR(world.velocities()[0], (0.5f - thickness) / h, 1e-2f);
        world.step(h);
        EXPECT_NEAR(world.positions()[0], 0.5f - thickness, 1e-5f);
        EXPECT_NEAR(world.velocities()[0], 0, 1e-3f);
      }
    }
  }
}

TEST(MeshCollider, AnOpenWallIsTwoSided) {
  World world = weightless(1);
  const Mesh m = wall();
  world.addCollider(meshCollider(m, 0.01f));
  world.addParticle(Vec3(0.3f, 0, 0), 1, Vec3(-60, 0, 0));  // from +X
  world.addParticle(Vec3(-0.3f, 0, 0), 1, Vec3(60, 0, 0));  // from -X
  world.step(1.0f / 60);
  EXPECT_NEAR(world.positions()[0], 0.01f, 1e-5f);
  EXPECT_NEAR(world.positions()[3], -0.01f, 1e-5f);
}

TEST(MeshCollider, AParticleInsideAClosedMeshIsPushedOutToTheNearestSurface) {
  const scenes::IcosphereMesh ico = scenes::icosphere(3, 0.5);
  const mesh::SurfaceBvh surface(points(ico.positions), ico.triangles);
  const Real thickness = 0.01f;
  std::mt19937 rng(9);
  std::uniform_real_distribution<Real> u(-0.25f, 0.25f);  // inside the icosphere's inscribed sphere
  for (int trial = 0; trial < 20; ++trial) {
    World world = weightless(1);
    world.addCollider(meshCollider({ico.positions, ico.triangles}, thickness));
    const Vec3 start(u(rng), u(rng), u(rng));
    world.addParticle(start, 1);
    const double depth = distanceToMesh(surface, start.data());
    ASSERT_GE(surface.windingNumber(start.cast<double>()), 0.5);
    world.step(1.0f / 60);
    const Real* p = world.positions();
    EXPECT_LT(surface.windingNumber(Point3d(p[0], p[1], p[2])), 0.5) << "trial " << trial;
    EXPECT_NEAR(distanceToMesh(surface, p), thickness, 1e-4) << "trial " << trial;
    // By the shortest way: it moved its depth plus the thickness.
    EXPECT_NEAR((Vec3(p[0], p[1], p[2]) - start).norm(), depth + thickness, 1e-4) << "trial " << trial;
  }
}

namespace {

/// A 24 x 24 cloth dropped on collider `d` (identity pose, its thickness 0.01 m) for 5 s: every particle ends
/// outside it and no closer to it than the thickness allows, some lie on it, and the cloth is at rest.
/// signedDistance(p): m from the collider's surface, negative inside.
template <class SignedDistance>
void dropClothOn(ColliderDef d, const Vec3& clothOrigin, Real width, SignedDistance signedDistance) {
  const Real thickness = 0.01f;
  World world;
  SolverSettings s;
  s.substeps = 10;
  s.linearDamping = 0.5f;
  s.ground.height = -1;
  world.setSettings(s);
  d.thickness = thickness;
  d.friction = 0.6f;
  world.addCollider(d);
  ClothDef c;
  c.columns = c.rows = 24;
  c.spacing = width / 23;
  c.origin = clothOrigin;
  c.axisU = Vec3(1, 0, 0);
  c.axisV = Vec3(0, 0, 1);
  c.bend = Strength{1e-4f, 1};
  const BodyRange r = world.addCloth(c);
  for (int frame = 0; frame < 300; ++frame) {
    world.step(1.0f / 60);
    ASSERT_FALSE(world.lastStepReport().rolledBack);
  }
  int touching = 0;
  double fastest = 0;
  for (uint32_t i = r.firstParticle; i < r.firstParticle + r.particleCount; ++i) {
    const Real* p = world.positions() + 3 * size_t(i);
    const Real* v = world.velocities() + 3 * size_t(i);
    const double dist = signedDistance(p);
    EXPECT_GT(dist, thickness - 1e-4) << "particle " << i << (dist < 0 ? " is inside" : "");
    touching += dist < thickness + 1e-3;
    // Sliding = moving while touching. (The flaps hanging free may still swing a little: since static friction acts
    // at position level the contact patch holds instead of slipping, and a flap swung at 0.22 m/s after 5 s.)
    if (dist < thickness + 1e-3) fastest = std::max(fastest, double(Vec3(v[0], v[1], v[2]).norm()));
  }
  EXPECT_GT(touching, 20) << "the cloth should lie on the mesh";
  double meanSpeed = 0;
  for (uint32_t i = r.firstParticle; i < r.firstParticle + r.particleCount; ++i) {
    const Real* v = world.velocities() + 3 * size_t(i);
    meanSpeed += Vec3(v[0], v[1], v[2]).norm() / r.particleCount;
  }
  EXPECT_LT(meanSpeed, 0.03) << "m/s: the cloth should have settled after 5 s";
  EXPECT_LT(fastest, 0.2) << "m/s: no particle should still be sliding fast";
}

/// dropClothOn on a triangle-mesh collider: the distance is signed by the winding number.
void dropClothOn(const Mesh& m, const Vec3& clothOrigin, Real width) {
  const mesh::SurfaceBvh surface(points(m.positions), m.triangles);
  dropClothOn(meshCollider(m, 0.01f), clothOrigin, width, [&](const Real* p) {
    const double dist = distanceToMesh(surface, p);
    return surface.windingNumber(Point3d(p[0], p[1], p[2])) < 0.5 ? dist : -dist;
  });
}

}  // namespace

TEST(MeshCollider, ClothDrapedOnASphereMeshStaysOutside) {
  PBD_LONG_SCENE();
  const scenes::IcosphereMesh ico = scenes::icosphere(3, 0.4);
  dropClothOn({ico.positions, ico.triangles}, Vec3(-0.6f, 0.6f, -0.6f), 1.2f);
}

TEST(Colliders, ClothDrapedOnASphereStaysOutsideWithinTheThicknessAfter5Seconds) {
  ColliderDef sphere;
  sphere.shape = ColliderShape::Sphere;
  sphere.radius = 0.4f;
  dropClothOn(sphere, Vec3(-0.6f, 0.6f, -0.6f), 1.2f,
              [](const Real* p) { return std::sqrt(double(p[0]) * p[0] + double(p[1]) * p[1] + double(p[2]) * p[2]) - 0.4; });
}

TEST(MeshCollider, ClothDrapedOnTheStanfordBunnyStaysOutside) {
  const SurfaceMesh bunny = scenes::bunny(0.05f, 0);  // about 0.5 m tall, standing on y = 0
  Vec3 lo = Vec3::Constant(1e9f), hi = -lo;
  for (size_t k = 0; k < bunny.positions.size(); k += 3) {
    const Vec3 p(bunny.positions[k], bunny.positions[k + 1], bunny.positions[k + 2]);
    lo = lo.cwiseMin(p);
    hi = hi.cwiseMax(p);
  }
  const Vec3 centre = (lo + hi) / 2;
  dropClothOn({bunny.positions, bunny.triangles}, Vec3(centre.x() - 0.5f, hi.y() + 0.1f, centre.z() - 0.5f), 1.0f);
}

TEST(MeshCollider, AMovingPlatformCarriesAParticleByFriction) {
  World world;
  SolverSettings s;
  s.substeps = 10;
  s.ground.enabled = false;
  world.setSettings(s);
  const Real thickness = 0.01f, u = 1, h = 1.0f / 60;
  const Mesh slab = boxMesh(Vec3(-2, -0.05f, -1), Vec3(2, 0, 1));  // top face at y = 0
  ColliderDef d = meshCollider(slab, thickness);
  d.friction = 0.5f;
  const uint32_t platform = world.addCollider(d);
  world.addParticle(Vec3(0, thickness, 0), 1);
  Real relative = 0;
  for (int frame = 1; frame <= 90; ++frame) {
    world.setColliderPose(platform, Vec3(u * h * frame, 0, 0), Quat::Identity());
    world.step(h);
    EXPECT_NEAR(world.positions()[1], thickness, 1e-4f) << "frame " << frame << ": it rests on the top face";
    if (frame == 60) relative = world.positions()[0] - u * h * frame;
  }
  // Coulomb: it slips until v = u, for u / (μ g) = 0.2 s and u² / (2 μ g) = 0.10 m behind; then it rides along.
  EXPECT_NEAR(world.velocities()[0], u, 1e-3f);
  EXPECT_NEAR(relative, -u * u / (2 * 0.5f * 9.81f), 0.01f);
  EXPECT_NEAR(world.positions()[0] - u * h * 90, relative, 1e-4f);
}

TEST(MeshCollider, DeformingTheMeshMovesWhereParticlesStop) {
  World world = weightless(1);
  Mesh m = wall();
  const uint32_t k = world.addCollider(meshCollider(m, 1e-3f));
  for (size_t i = 0; i < m.positions.size(); i += 3) m.positions[i] = 0.3f;  // the wall moves to x = 0.3
  world.setColliderMeshVertices(k, m.positions);
  world.addParticle(Vec3(-0.5f, 0, 0), 1, Vec3(100, 0, 0));
  world.step(1.0f / 60);
  EXPECT_NEAR(world.positions()[0], 0.3f - 1e-3f, 1e-5f);
}

TEST(MeshCollider, BadInputIsRejectedAndTheWorldIsUnchanged) {
  World world = weightless(1);
  world.addParticle(Vec3(-0.5f, 0, 0), 1, Vec3(100, 0, 0));
  const uint32_t k = world.addCollider(meshCollider(wall(), 1e-3f));
  Mesh m = wall();
  expectError([&] { world.addCollider(meshCollider({{}, m.triangles}, 0)); }, {"addCollider", "meshPositions", "empty"});
  expectError([&] { world.addCollider(meshCollider({m.positions, {}}, 0)); }, {"addCollider", "meshTriangles", "at least 1"});
  expectError([&] { world.addCollider(meshCollider({m.positions, {0, 1, 4}}, 0)); }, {"meshTriangles[2]", "out of range"});
  expectError([&] { world.addCollider(meshCollider({m.positions, {0, 1, 2, 0, 2, 2}}, 0)); },
              {"meshTriangles[3..5]", "repeats a vertex"});
  Mesh flat = m;
  flat.positions[7] = flat.positions[4] = -1;  // vertices 1 and 2 fall onto vertex 0's edge line: zero area
  flat.positions[8] = flat.positions[5] = -1;
  expectError([&] { world.addCollider(meshCollider(flat, 0)); }, {"meshTriangles[0..2]", "degenerate"});
  Mesh bad = m;
  bad.positions[4] = NAN;
  expectError([&] { world.addCollider(meshCollider(bad, 0)); }, {"meshPositions[4]", "finite"});
  expectError([&] { world.addCollider(meshCollider({{0, 0}, {0, 0, 0}}, 0)); }, {"meshPositions.size()"});
  EXPECT_EQ(world.colliderCount(), 1u);
  std::vector<Real> moved = m.positions;
  expectError([&] { world.setColliderMeshVertices(k, bad.positions); }, {"setColliderMeshVertices", "positions[4]"});
  expectError([&] { world.setColliderMeshVertices(k, flat.positions); }, {"setColliderMeshVertices", "degenerate"});
  expectError([&] { world.setColliderMeshVertices(k, std::span<const Real>(moved).first(9)); }, {"positions.size()"});
  expectError([&] { world.setColliderMeshVertices(7, moved); }, {"collider", "out of range"});
  ColliderDef sphere;
  sphere.position = Vec3(0, 10, 0);  // out of the way
  const uint32_t ball = world.addCollider(sphere);
  expectError([&] { world.setColliderMeshVertices(ball, moved); }, {"not a triangle mesh"});
  // The wall is still where it was: the bullet stops at x = 0.
  world.step(1.0f / 60);
  EXPECT_NEAR(world.positions()[0], -1e-3f, 1e-5f);
}

// The mesh passes' first queries and particle self-collision's pair search run in parallel ranges; contacts and
// pairs are still added in particle order. Two cloths falling over a closed icosphere mesh onto an open floor mesh,
// one onto the other (particle self-collision on), must step to the same bits on 1 to 4 threads.
TEST(MeshCollider, AClothOverMeshesWithSelfCollisionGivesTheSameBitsOnAnyThreadCount) {
  PBD_LONG_SCENE();
  const scenes::BallAndFloorMeshes meshes{scenes::icosphere(2, 0.25)};
  struct Run {
    uint64_t hash;
    uint32_t mostContacts, mostPairs, searches;
  };
  auto run = [&](TaskSystem* tasks) {
    World w(tasks);
    SolverSettings s = w.settings();
    s.selfCollision = {true, 0.02f};
    w.setSettings(s);
    scenes::addBallAndFloorMeshes(w, meshes, Vec3(0, 0.25f, 0), 0.01f);
    ClothDef cloth;
    cloth.columns = cloth.rows = 24;
    cloth.spacing = 1.4f / 23;
    cloth.origin = Vec3(-0.65f, 0.7f, -0.75f);
    w.addCloth(cloth);
    cloth.origin += Vec3(0.02f, 0.1f, 0.02f);  // a second cloth lands on the first
    w.addCloth(cloth);
    Run r{0, 0, 0, 0};
    for (int f = 0; f < 150; ++f) {
      w.step(1.0f / 60);
      r.mostContacts = std::max(r.mostContacts, w.contactCount());
      r.mostPairs = std::max(r.mostPairs, w.selfCollisionPairCount());
      r.searches += w.lastStepReport().selfCollisionSearches;
    }
    r.hash = scenes::stateHash(w);
    return r;
  };
  const Run serial = run(nullptr);
  std::printf("contacts %u, pairs %u, searches %u\n", serial.mostContacts, serial.mostPairs, serial.searches);
  // The premise: the cloths touch the meshes and each other.
  EXPECT_GT(serial.mostContacts, 100u);
  EXPECT_GT(serial.mostPairs, 10u);
  EXPECT_GT(serial.searches, 10u);
  for (unsigned workers : {1u, 2u, 3u}) {
    ThreadPool pool(workers);
    EXPECT_EQ(run(&pool).hash, serial.hash) << "workers " << workers;
  }
}

TEST(MeshCollider, ALatePushIntoAnAnalyticColliderIsPushedOutOfItToo) {
  // The analytic colliders' late scan looks only where the particles' boxes reach, and a mesh collider's late pass
  // (collider 0) moves particles before it. A particle predicted far below both is pulled by an attachment into the
  // closed box mesh during the solve; the mesh's late pass puts it back on the side its path came in by (the bottom
  // face, y = -1), which is the centre of sphere B (collider 1). B's scan must see it there and push it out.
  World world = weightless(1);
  const uint32_t i = world.addParticle(Vec3(0, -3, 0), 1);
  const Mesh cube = boxMesh(Vec3(-1, -1, -1), Vec3(1, 1, 1));
  world.addCollider(meshCollider(cube, 0.01f));
  ColliderDef b;
  b.position = Vec3(0, -1, 0), b.radius = 0.5f;
  world.addCollider(b);
  AttachmentDef pull;
  pull.particle = i;
  pull.target = Vec3(0, 0.1f, 0);
  world.addAttachment(pull);
  world.step(1.0f / 60);
  const Vec3 x(world.positions()[0], world.positions()[1], world.positions()[2]);
  EXPECT_GE((x - b.position).norm(), b.radius * 0.999f) << x.transpose();  // out of B
  EXPECT_FALSE(x.cwiseAbs().maxCoeff() < 1) << x.transpose();                // and not inside the cube
}

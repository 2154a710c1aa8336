// Continuous cloth self-collision (issue #5): the self-contact kernel against finite differences and momentum, the
// continuous narrow phase against known crossing times and points, and whole worlds: a piece of a cloth fired at 10
// m/s through the same cloth stays on its side (and tunnels with the feature off, even with particle-particle
// collision), momentum is conserved, a flat cloth at rest stays bit-identical, bad input, snapshots.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "collision/continuous_contact.h"
#include "constraints/self_contact.h"
#include "native/expect_error.h"
#include "io/byte_stream.h"
#include "pbd/world.h"
#include "scenes/free_space.h"
#include "native/random_particles.h"

using namespace pbd;

namespace {

using test::randomVec;

// --- Kernel ---------------------------------------------------------------------------------------------------

TEST(ClothSelfContactKernel, GradientMatchesCentralDifferences) {
  std::mt19937 rng(3);
  const Real eps = 1e-3f, thickness = 0.01f;
  for (int trial = 0; trial < 100; ++trial) {
    Vec3 x[4];
    for (Vec3& v : x) v = randomVec(rng, 1);
    const Real u = Real(rng() % 1000) / 1000, b1 = Real(rng() % 500) / 1000, b2 = Real(rng() % 500) / 1000;
    const Real c[4] = {trial % 2 ? 1 - u : 1, trial % 2 ? u : -(1 - b1 - b2), trial % 2 ? -(1 - b1) : -b1,
                       trial % 2 ? -b1 : -b2};  // edge–edge and point–triangle weights alternately
    const Vec3 n = randomVec(rng, 1).normalized();
    for (int i = 0; i < 4; ++i) {
      for (int a = 0; a < 3; ++a) {
        Vec3 plus[4], minus[4];
        std::copy(x, x + 4, plus), std::copy(x, x + 4, minus);
        plus[i][a] += eps, minus[i][a] -= eps;
        const Vec3* pp[4] = {&plus[0], &plus[1], &plus[2], &plus[3]};
        const Vec3* mp[4] = {&minus[0], &minus[1], &minus[2], &minus[3]};
        const Real fd = (selfContactValue(pp, c, n, thickness) - selfContactValue(mp, c, n, thickness)) / (2 * eps);
        EXPECT_NEAR(fd, c[i] * n[a], 2e-3f) << "trial " << trial << " particle " << i << " axis " << a;
      }
    }
  }
}

TEST(ClothSelfContactKernel, ProjectionSatisfiesTheConstraintAndConservesMomentum) {
  std::mt19937 rng(5);
  for (int trial = 0; trial < 100; ++trial) {
    Vec3 x[4];
    for (Vec3& v : x) v = randomVec(rng, 0.1f);
    const Real c[4] = {1, -0.2f, -0.3f, -0.5f};
    const Vec3 n = randomVec(rng, 1).normalized();
    // Equal masses (the case) on odd trials, unequal ones on even trials: Σ m Δx = 0 either way.
    const Real w[4] = {1, trial % 2 ? Real(1) : Real(3), trial % 2 ? Real(1) : Real(0.25f), trial % 2 ? Real(1) : Real(2)};
    Vec3* xs[4] = {&x[0], &x[1], &x[2], &x[3]};
    const Vec3 before[4] = {x[0], x[1], x[2], x[3]};
    const Real thickness = 0.3f;  // larger than any random gap: always violated
    ASSERT_LT(selfContactValue(xs, c, n, thickness), 0);
    projectSelfContact(xs, w, c, n, thickness);
    EXPECT_NEAR(selfContactValue(xs, c, n, thickness), 0, 1e-5f);
    Vec3 momentum = Vec3::Zero();
    for (int i = 0; i < 4; ++i) momentum += (x[i] - before[i]) / w[i];
    EXPECT_LT(momentum.norm(), 1e-5f) << "trial " << trial;
    // A pinned corner does not move (its share goes to the others) and the constraint is still met.
    const Real pinned[4] = {1, 1, 1, 0};
    std::copy(before, before + 4, x);
    projectSelfContact(xs, pinned, c, n, thickness);
    EXPECT_EQ(x[3], before[3]);
    EXPECT_NEAR(selfContactValue(xs, c, n, thickness), 0, 1e-5f);
  }
}

TEST(ClothSelfContactKernel, SatisfiedConstraintDoesNothing) {
  Vec3 x[4] = {Vec3(0, 1, 0), Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 0, 1)};
  Vec3* xs[4] = {&x[0], &x[1], &x[2], &x[3]};
  const Real c[4] = {1, -Real(1) / 3, -Real(1) / 3, -Real(1) / 3}, w[4] = {1, 1, 1, 1};
  EXPECT_EQ(projectSelfContact(xs, w, c, Vec3(0, 1, 0), 0.5f), 0);
  EXPECT_EQ(x[0], Vec3(0, 1, 0));
}

// --- Narrow phase ---------------------------------------------------------------------------------------------

TEST(ClothContinuousNarrowPhase, CoplanarityTimesMatchSampledSignChanges) {
  std::mt19937 rng(7);
  int roots = 0;
  for (int trial = 0; trial < 300; ++trial) {
    Point3d start[4], end[4];
    for (int k = 0; k < 4; ++k) start[k] = Point3d::Random(), end[k] = start[k] + Point3d::Random();
    double times[3];
    const int n = coplanarityTimes(start, end, times);
    auto f = [&](double t) {
      Point3d x[4];
      for (int k = 0; k < 4; ++k) x[k] = start[k] + t * (end[k] - start[k]);
      return (x[1] - x[0]).cross(x[2] - x[0]).dot(x[3] - x[0]);
    };
    int changes = 0;  // sign changes on a fine grid: a lower bound on the roots, equal unless two are very close
    for (int s = 0; s < 2000; ++s) changes += (f(s / 2000.0) < 0) != (f((s + 1) / 2000.0) < 0);
    EXPECT_GE(n, changes) << "trial " << trial;
    for (int k = 0; k < n; ++k) {
      EXPECT_NEAR(f(times[k]), 0, 1e-9) << "trial " << trial;
      if (k > 0) {
        EXPECT_GE(times[k], times[k - 1]);
      }
    }
    roots += n;
  }
  EXPECT_GT(roots, 50);  // the test saw roots at all
}

TEST(ClothContinuousNarrowPhase, APointThroughATriangleIsCaughtAtItsCrossingPoint) {
  // Triangle in y = 0; the point goes from y = 1 to y = -1 straight down through (0.2, 0, 0.3): crossing at t = 0.5.
  const Point3d a(0, 0, 0), b(1, 0, 0), c(0, 0, 1);
  const Point3d start[4] = {Point3d(0.2, 1, 0.3), a, b, c}, end[4] = {Point3d(0.2, -1, 0.3), a, b, c};
  const auto contact = pointTriangleContact(start, end, 0.01);
  ASSERT_TRUE(contact);
  EXPECT_NEAR(contact->normal.y(), 1, 1e-12);  // towards the side it came from
  // β = (1 - 0.2 - 0.3, 0.2, 0.3) for corners a, b, c.
  EXPECT_NEAR(contact->weight[0], 1, 1e-12);
  EXPECT_NEAR(contact->weight[1], -0.5, 1e-9);
  EXPECT_NEAR(contact->weight[2], -0.2, 1e-9);
  EXPECT_NEAR(contact->weight[3], -0.3, 1e-9);
  // Beside the triangle (x + z > 1), or stopping short of it, there is no contact.
  const Point3d besideStart[4] = {Point3d(0.8, 1, 0.8), a, b, c}, besideEnd[4] = {Point3d(0.8, -1, 0.8), a, b, c};
  EXPECT_FALSE(pointTriangleContact(besideStart, besideEnd, 0.01));
  const Point3d shortEnd[4] = {Point3d(0.2, 0.02, 0.3), a, b, c};
  EXPECT_FALSE(pointTriangleContact(start, shortEnd, 0.01));
  // Ending within the thickness above it: a contact (proximity at the end of the substep).
  const Point3d nearEnd[4] = {Point3d(0.2, 0.005, 0.3), a, b, c};
  EXPECT_TRUE(pointTriangleContact(start, nearEnd, 0.01));
}

TEST(ClothContinuousNarrowPhase, CrossingEdgesAreCaughtWithTheirParameters) {
  // Edge 1 along x at y = 1 falls to y = -1; edge 2 along z at y = 0 stays: they meet at (0.25, 0, 0) -> u = 0.25,
  // v = 0.5.
  const Point3d start[4] = {Point3d(0, 1, 0), Point3d(1, 1, 0), Point3d(0.25, 0, -1), Point3d(0.25, 0, 1)};
  const Point3d end[4] = {Point3d(0, -1, 0), Point3d(1, -1, 0), start[2], start[3]};
  const auto contact = edgeEdgeContact(start, end, 0.01);
  ASSERT_TRUE(contact);
  EXPECT_NEAR(contact->weight[0], 0.75, 1e-9);
  EXPECT_NEAR(contact->weight[1], 0.25, 1e-9);
  EXPECT_NEAR(contact->weight[2], -0.5, 1e-9);
  EXPECT_NEAR(contact->weight[3], -0.5, 1e-9);
  EXPECT_NEAR(contact->normal.y(), 1, 1e-9);
  // Shifted past the end of edge 2 (z from 2 to 4): they pass each other.
  const Point3d farStart[4] = {start[0], start[1], Point3d(0.25, 0, 2), Point3d(0.25, 0, 4)};
  const Point3d farEnd[4] = {end[0], end[1], farStart[2], farStart[3]};
  EXPECT_FALSE(edgeEdgeContact(farStart, farEnd, 0.01));
}

// --- Worlds ---------------------------------------------------------------------------------------------------

/// One body: a flat sheet of n x n vertices in y = 0 over [-0.5, 0.5]² (corners pinned unless free) and, above it,
/// a small separate triangle (the last three vertices), not aligned with the sheet's vertices.
struct SheetAndFlake {
  World world;
  MeshBody body;
  uint32_t flake[3];
  std::vector<uint32_t> sheetTriangles;  // particle indices
  static constexpr int kN = 11;

  SheetAndFlake(bool continuous, bool pinCorners, Real flakeHeight = 0.1f) {
    TriangleMeshDef def;
    const Real spacing = Real(1) / (kN - 1);
    for (int r = 0; r < kN; ++r) {
      for (int c = 0; c < kN; ++c) def.positions.insert(def.positions.end(), {-0.5f + c * spacing, 0, -0.5f + r * spacing});
    }
    for (int r = 0; r + 1 < kN; ++r) {
      for (int c = 0; c + 1 < kN; ++c) {
        const uint32_t i = uint32_t(r * kN + c);
        def.triangles.insert(def.triangles.end(), {i, i + 1, i + kN, i + 1, i + kN + 1, i + kN});
      }
    }
    const size_t sheetTriangleIndices = def.triangles.size();
    const uint32_t f = uint32_t(kN * kN);
    def.positions.insert(def.positions.end(), {0.03f, flakeHeight, 0.04f, 0.09f, flakeHeight, 0.02f, 0.05f, flakeHeight, 0.11f});
    def.triangles.insert(def.triangles.end(), {f, f + 2, f + 1});
    if (pinCorners) def.pinned = {0, kN - 1, kN * (kN - 1), kN * kN - 1};
    def.mass = 1;
    def.bending = false;
    def.continuousSelfCollision = {continuous, 0.005f};
    SolverSettings s = scenes::freeSpace();
    s.substeps = 2;
    s.iterations = 4;
    world.setSettings(s);
    body = world.addTriangleMesh(def);
    for (int k = 0; k < 3; ++k) flake[k] = body.renderToParticle[f + k];
    for (size_t k = 0; k < sheetTriangleIndices; ++k) sheetTriangles.push_back(body.renderToParticle[def.triangles[k]]);
  }

  void fire(Real speed) {
    for (uint32_t i : flake) world.setVelocity(i, Vec3(0, -speed, 0));
  }
  Vec3 x(uint32_t i) const { return Vec3(world.positions()[3 * i], world.positions()[3 * i + 1], world.positions()[3 * i + 2]); }

  /// Height of q above the sheet (its triangle under q's xz, interpolated); NaN when q is beside the sheet.
  Real heightAboveSheet(const Vec3& q) const {
    for (size_t t = 0; t < sheetTriangles.size(); t += 3) {
      const Vec3 a = x(sheetTriangles[t]), b = x(sheetTriangles[t + 1]), c = x(sheetTriangles[t + 2]);
      // Barycentrics of q in the xz projection.
      const Real det = (b.x() - a.x()) * (c.z() - a.z()) - (c.x() - a.x()) * (b.z() - a.z());
      const Real u = ((q.x() - a.x()) * (c.z() - a.z()) - (c.x() - a.x()) * (q.z() - a.z())) / det;
      const Real v = ((b.x() - a.x()) * (q.z() - a.z()) - (q.x() - a.x()) * (b.z() - a.z())) / det;
      if (u < 0 || v < 0 || u + v > 1) continue;
      return q.y() - ((1 - u - v) * a.y() + u * b.y() + v * c.y());
    }
    return std::nanf("");
  }
};

TEST(ClothSelfCollisionWorld, AFlakeFiredAt10MetresPerSecondStaysOnItsSide) {
  SheetAndFlake scene(true, true);
  scene.fire(10);
  Real lowest = 1;
  uint32_t contacts = 0;
  for (int step = 0; step < 60; ++step) {
    scene.world.step(1.0f / 60);
    contacts += scene.world.continuousSelfContactCount();
    for (uint32_t i : scene.flake) {
      const Real h = scene.heightAboveSheet(scene.x(i));
      ASSERT_TRUE(std::isfinite(h)) << "step " << step;  // still over the sheet (it was fired straight down)
      ASSERT_GT(h, 0) << "particle " << i << " step " << step;
      lowest = std::min(lowest, h);
    }
  }
  // It did collide (so the test is not vacuous): it came down onto the sheet (which then threw it back up).
  EXPECT_GT(contacts, 0u);
  EXPECT_LT(lowest, 0.02f);
}

TEST(ClothSelfCollisionWorld, WithoutItTheFlakeTunnelsEvenWithParticleCollision) {
  SheetAndFlake scene(false, true);
  SolverSettings s = scene.world.settings();
  s.selfCollision = {true, 0.005f};  // particle–particle with a small radius: the flake passes between vertices
  scene.world.setSettings(s);
  scene.fire(10);
  for (int step = 0; step < 10; ++step) scene.world.step(1.0f / 60);
  int below = 0;
  for (uint32_t i : scene.flake) below += scene.heightAboveSheet(scene.x(i)) < 0;
  EXPECT_EQ(below, 3);
}

TEST(ClothSelfCollisionWorld, SelfContactsConserveLinearMomentum) {
  SheetAndFlake scene(true, false);  // free sheet, no gravity, no ground: nothing outside the body acts on it
  scene.fire(10);
  auto momentum = [&] {
    Eigen::Vector3d m = Eigen::Vector3d::Zero();
    for (uint32_t i = 0; i < scene.world.particleCount(); ++i) {
      for (int a = 0; a < 3; ++a) m[a] += double(scene.world.velocities()[3 * i + a]) / scene.world.inverseMasses()[i];
    }
    return m;
  };
  const Eigen::Vector3d before = momentum();
  uint32_t contacts = 0;
  for (int step = 0; step < 20; ++step) {
    scene.world.step(1.0f / 60);
    contacts += scene.world.continuousSelfContactCount();
  }
  EXPECT_GT(contacts, 0u);
  // Float noise: each of the 124 velocities (p - x)/h carries ~ulp(0.5)/h = 7e-6 m/s; a momentum leak would be of
  // the order of the flake's whole momentum.
  EXPECT_LT((momentum() - before).norm(), 1e-3 * before.norm());
  for (uint32_t i : scene.flake) EXPECT_GT(scene.heightAboveSheet(scene.x(i)), 0);
}

TEST(ClothSelfCollisionWorld, AFlatClothAtRestStaysExactlyAtRest) {
  World world;
  SolverSettings s;
  s.gravity = Vec3::Zero();
  world.setSettings(s);
  ClothDef def;
  def.columns = def.rows = 16;
  def.spacing = 0.02f;
  def.continuousSelfCollision = {true, 0.01f};  // half the spacing: below spacing/√2
  world.addCloth(def);
  const std::vector<Real> start(world.positions(), world.positions() + 3 * world.particleCount());
  for (int step = 0; step < 60; ++step) world.step(1.0f / 60);
  EXPECT_EQ(world.continuousSelfContactCount(), 0u);
  EXPECT_EQ(0, std::memcmp(start.data(), world.positions(), start.size() * sizeof(Real)));
}

TEST(ClothSelfCollisionWorld, SameInputSameBits) {
  auto run = [] {
    SheetAndFlake scene(true, false);
    scene.fire(10);
    for (int step = 0; step < 20; ++step) scene.world.step(1.0f / 60);
    return std::vector<Real>(scene.world.positions(), scene.world.positions() + 3 * scene.world.particleCount());
  };
  EXPECT_EQ(run(), run());
}

TEST(ClothSelfCollisionWorld, BadSettingsAreRefusedAndTheWorldIsUnchanged) {
  World world;
  for (Real bad : {Real(0), Real(-1), std::nanf(""), INFINITY}) {
    ClothDef def;
    def.continuousSelfCollision = {true, bad};
    expectError([&] { world.addCloth(def); }, {"addCloth: continuousSelfCollision.thickness"});
    TriangleMeshDef mesh;
    mesh.positions = {0, 0, 0, 1, 0, 0, 0, 0, 1};
    mesh.triangles = {0, 1, 2};
    mesh.continuousSelfCollision = {true, bad};
    expectError([&] { world.addTriangleMesh(mesh); }, {"addTriangleMesh: continuousSelfCollision.thickness"});
  }
  EXPECT_EQ(world.particleCount(), 0u);
  EXPECT_EQ(world.bodyCount(), 0u);
  const BodyRange cloth = world.addCloth(ClothDef{});
  RopeDef rope;
  const BodyRange r = world.addRope(rope);
  expectError([&] { world.setContinuousSelfCollision(cloth.body, {true, 0}); }, {"setContinuousSelfCollision: thickness"});
  expectError([&] { world.setContinuousSelfCollision(r.body, {true, 0.01f}); }, {"setContinuousSelfCollision: body", "no triangles"});
  expectError([&] { world.setContinuousSelfCollision(7, {true, 0.01f}); }, {"setContinuousSelfCollision: body", "out of range"});
  expectError([&] { world.continuousSelfCollision(r.body); }, {"continuousSelfCollision: body"});
  EXPECT_FALSE(world.continuousSelfCollision(cloth.body).enabled);  // unchanged by the refused calls
  world.setContinuousSelfCollision(cloth.body, {true, 0.02f});
  EXPECT_TRUE(world.continuousSelfCollision(cloth.body).enabled);
  EXPECT_EQ(world.continuousSelfCollision(cloth.body).thickness, 0.02f);
}

TEST(ClothSelfCollisionWorld, TheSetterTurnsItOnAtRuntime) {
  SheetAndFlake scene(false, true);
  scene.world.setContinuousSelfCollision(scene.body.range.body, {true, 0.005f});
  scene.fire(10);
  for (int step = 0; step < 10; ++step) scene.world.step(1.0f / 60);
  for (uint32_t i : scene.flake) EXPECT_GT(scene.heightAboveSheet(scene.x(i)), 0);
}

// A surface switched off builds no BVH and reserves no contact room (most of a cloth's memory); switched on later,
// it must build the same BVH from the rest shape, so the run is bit for bit the one switched on from the start.
TEST(ClothSelfCollisionWorld, SwitchedOnLaterRunsBitIdenticallyToOnFromTheStart) {
  SheetAndFlake on(true, false, 0.2f), later(false, false, 0.2f);
  later.world.setContinuousSelfCollision(later.body.range.body, {true, 0.005f});
  on.fire(10), later.fire(10);
  uint32_t contacts = 0;
  for (int step = 0; step < 20; ++step) {
    on.world.step(1.0f / 60);
    later.world.step(1.0f / 60);
    contacts += later.world.continuousSelfContactCount();
    ASSERT_EQ(on.world.continuousSelfContactCount(), later.world.continuousSelfContactCount()) << "step " << step;
  }
  EXPECT_GT(contacts, 0u);
  EXPECT_EQ(0, std::memcmp(on.world.positions(), later.world.positions(), 3 * on.world.particleCount() * sizeof(Real)));
  // Off, on and off again: the index stays built and the flag is all that changes.
  later.world.setContinuousSelfCollision(later.body.range.body, {false, 0.005f});
  later.world.step(1.0f / 60);
  EXPECT_EQ(later.world.continuousSelfContactCount(), 0u);
  later.world.setContinuousSelfCollision(later.body.range.body, {true, 0.005f});
  later.world.step(1.0f / 60);
  EXPECT_TRUE(std::isfinite(later.x(later.flake[0]).y()));
}

TEST(ClothSelfCollisionWorld, SnapshotsKeepTheFlagAndContinueBitIdentically) {
  SheetAndFlake scene(true, false, 0.2f);
  scene.fire(10);
  scene.world.step(1.0f / 60);  // mid-flight
  const std::vector<uint8_t> blob = scene.world.saveSnapshot();
  World loaded;
  loaded.loadSnapshot(blob.data(), blob.size());
  EXPECT_TRUE(loaded.continuousSelfCollision(scene.body.range.body).enabled);
  EXPECT_EQ(loaded.continuousSelfCollision(scene.body.range.body).thickness, 0.005f);
  uint32_t contacts = 0;
  for (int step = 0; step < 20; ++step) {
    scene.world.step(1.0f / 60);
    loaded.step(1.0f / 60);
    contacts += loaded.continuousSelfContactCount();
  }
  EXPECT_GT(contacts, 0u);
  EXPECT_EQ(0, std::memcmp(scene.world.positions(), loaded.positions(), 3 * loaded.particleCount() * sizeof(Real)));
}

/// Offset of section `tag` in a snapshot blob (sections start after the 20-byte header: tag, u64 length, body).
size_t sectionAt(const std::vector<uint8_t>& blob, const char* tag) {
  size_t at = 20;
  while (at + 12 <= blob.size() - 8 && std::memcmp(&blob[at], tag, 4) != 0) {
    uint64_t length = 0;
    std::memcpy(&length, &blob[at + 4], 8);
    at += 12 + size_t(length);
  }
  return at + 12 <= blob.size() - 8 ? at : 0;
}

void resign(std::vector<uint8_t>& blob) {
  const uint64_t h = io::fnv1a64(blob.data(), blob.size() - 8);
  std::memcpy(&blob[blob.size() - 8], &h, 8);
}

TEST(ClothSelfCollisionWorld, SnapshotsWithoutTheSectionLoadAndBadThicknessIsRefused) {
  SheetAndFlake scene(true, false);
  const std::vector<uint8_t> blob = scene.world.saveSnapshot();
  const size_t at = sectionAt(blob, "CSCD");
  ASSERT_NE(at, 0u);
  // A blob from before the section: cut it out, fix the payload length and checksum. It loads; the body has no
  // self-colliding surface then (the triangles were not saved), which the getter says.
  std::vector<uint8_t> old = blob;
  uint64_t length = 0, payload = 0;
  std::memcpy(&length, &old[at + 4], 8);
  old.erase(old.begin() + std::ptrdiff_t(at), old.begin() + std::ptrdiff_t(at + 12 + length));
  std::memcpy(&payload, &old[12], 8);
  payload -= 12 + length;
  std::memcpy(&old[12], &payload, 8);
  resign(old);
  World fromOld;
  fromOld.loadSnapshot(old.data(), old.size());
  EXPECT_EQ(fromOld.particleCount(), scene.world.particleCount());
  expectError([&] { fromOld.continuousSelfCollision(0); }, {"no triangles"});
  // Thickness 0 in the blob (u32 count, u32 body, u8 enabled, then the float): refused, naming it.
  std::vector<uint8_t> bad = blob;
  const float zero = 0;
  std::memcpy(&bad[at + 12 + 4 + 4 + 1], &zero, 4);
  resign(bad);
  World target;
  expectError<SnapshotError>([&] { target.loadSnapshot(bad.data(), bad.size()); },
                             {"continuousSelfCollision[0].thickness must be > 0"});
  EXPECT_EQ(target.particleCount(), 0u);
}

}  // namespace

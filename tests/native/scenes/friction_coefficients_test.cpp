// Static and dynamic friction coefficients (issue #5): a block on an incline of slope θ is held while μ_s > tan θ
// (position-level static friction, contacts.cpp holdStaticFriction), slides with g (sin θ − μ_d cos θ) when
// μ_s < tan θ, and once moving keeps accelerating by that law even when μ_s > tan θ (static friction no longer acts).
// Checked on the ground (gravity tilted) and on a tilted box and plane collider (real geometry), with each coefficient set by
// the surface and by the body. Defaults (staticFriction = -1) reproduce the single-coefficient results bit for bit.
// Also: bad input names the argument and leaves the world unchanged; snapshots keep the coefficients.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <vector>

#include "native/expect_error.h"
#include "scenes/snapshot_edit.h"
#include "pbd/world.h"
#include "scenes/scenes.h"

using namespace pbd;

namespace {

constexpr Real kG = 9.81f;
constexpr Real kTheta = Real(M_PI / 6);  // tan θ = 0.577
constexpr Real kFrame = 1.0f / 60;

/// g (sin θ − μ_d cos θ): the acceleration down the slope of a block sliding with dynamic friction μ_d.
Real slidingAcceleration(Real muDynamic) { return kG * (std::sin(kTheta) - muDynamic * std::cos(kTheta)); }

/// Mean of the free particles' component along `axis` of positions (velocities = false) or velocities.
Real meanAlong(const World& w, const Vec3& axis, bool velocities) {
  const Real* a = velocities ? w.velocities() : w.positions();
  double sum = 0;
  for (uint32_t i = 0; i < w.particleCount(); ++i) sum += Vec3(a[3 * i], a[3 * i + 1], a[3 * i + 2]).dot(axis);
  return Real(sum / w.particleCount());
}

/// A 4x4 patch lying on the surface along `downSlope` (unit) and z.
ClothDef patchAt(const Vec3& origin, const Vec3& downSlope, const ContactMaterial& material) {
  ClothDef c;
  c.columns = c.rows = 4;
  c.spacing = 0.05f;
  c.origin = origin;
  c.axisU = downSlope;
  c.axisV = Vec3(0, 0, 1);
  c.contact = material;
  return c;
}

/// The patch on the ground under gravity tilted by θ about z: a block on an incline, slope down along +x.
struct GroundIncline {
  World world;
  Vec3 down{1, 0, 0};
  GroundIncline(Real muStatic, Real muDynamic, const ContactMaterial& material = {},
                Solver solver = SolverSettings{}.solver) {
    SolverSettings s;
    s.solver = solver;
    s.substeps = 20;
    s.gravity = Vec3(kG * std::sin(kTheta), -kG * std::cos(kTheta), 0);
    s.ground.friction = muDynamic;
    s.ground.staticFriction = muStatic;
    world.setSettings(s);
    world.addCloth(patchAt(Vec3(0, 0, 0), down, material));
  }
};

/// The patch on top of a box collider, or on a plane collider through the same top face (ground off). Tilted: the
/// collider is rotated by θ about z under vertical gravity, the slope runs down along (cos θ, −sin θ, 0) and the
/// top face's normal is (sin θ, cos θ, 0). Not tilted: axis-aligned under gravity tilted by θ (as GroundIncline).
/// Both exercise the collider's coefficients.
struct BoxIncline {
  World world;
  Vec3 down;
  BoxIncline(Real muStatic, Real muDynamic, bool tilted, ColliderShape shape = ColliderShape::Box,
             Solver solver = SolverSettings{}.solver) {
    SolverSettings s;
    s.solver = solver;
    s.substeps = 20;
    s.ground.enabled = false;
    if (!tilted) s.gravity = Vec3(kG * std::sin(kTheta), -kG * std::cos(kTheta), 0);
    world.setSettings(s);
    ColliderDef box;
    box.shape = ColliderShape::Box;
    box.halfExtents = Vec3(2, 0.1f, 1);
    const Real angle = tilted ? kTheta : 0;
    box.rotation = Quat(Eigen::AngleAxis<Real>(-angle, Vec3::UnitZ()));
    box.friction = muDynamic;
    box.staticFriction = muStatic;
    const Vec3 normal(std::sin(angle), std::cos(angle), 0);
    box.shape = shape;
    if (shape == ColliderShape::Plane) box.position = 0.1f * normal;  // the box's top face
    world.addCollider(box);
    down = Vec3(std::cos(angle), -std::sin(angle), 0);
    world.addCloth(patchAt(0.1f * normal - Vec3(0, 0, 0.075f), down, {}));
  }
};

/// Mean displacement along the slope over `seconds` from rest.
Real creep(World& world, const Vec3& down, Real seconds) {
  const Real x0 = meanAlong(world, down, false);
  for (int f = 0; f < int(60 * seconds); ++f) world.step(kFrame);
  return meanAlong(world, down, false) - x0;
}

/// Acceleration along the slope measured from the velocity between t0 and t1 (s, after the start-up).
Real measuredAcceleration(World& world, const Vec3& down, Real t0, Real t1) {
  for (int f = 0; f < int(60 * t0 + 0.5f); ++f) world.step(kFrame);
  const Real v0 = meanAlong(world, down, true);
  for (int f = int(60 * t0 + 0.5f); f < int(60 * t1 + 0.5f); ++f) world.step(kFrame);
  return (meanAlong(world, down, true) - v0) / (t1 - t0);
}

}  // namespace

TEST(FrictionCoefficients, MixingRuleAndDefaults) {
  // The default static coefficient is the same side's dynamic one, bit for bit.
  for (Real mu : {0.0f, 0.3f, 1.7f}) EXPECT_EQ(staticOrDynamic(kSameAsFriction, mu), mu);
  EXPECT_EQ(staticOrDynamic(0.25f, 0.9f), 0.25f);  // μ_s < μ_d is allowed (contact_material.h says why)
  EXPECT_EQ(GroundSettings{}.staticFriction, kSameAsFriction);
  EXPECT_EQ(ColliderDef{}.staticFriction, kSameAsFriction);
  EXPECT_EQ(ContactMaterial{}.staticFriction, kSameAsFriction);
  // Setting μ_s explicitly equal to μ_d on both sides steps exactly as the defaults do.
  GroundIncline defaults(kSameAsFriction, 0.4f), explicitSame(0.4f, 0.4f);
  for (int f = 0; f < 60; ++f) defaults.world.step(kFrame), explicitSame.world.step(kFrame);
  EXPECT_EQ(scenes::stateHash(defaults.world), scenes::stateHash(explicitSame.world));
}

TEST(FrictionCoefficients, HeldOnAnInclineWhenStaticExceedsTanTheta) {
  // μ_s = 0.8 > tan θ = 0.577 > μ_d = 0.3: with one coefficient 0.3 the block would slide at 1.95 m/s².
  GroundIncline ground(0.8f, 0.3f);
  const Real onGround = creep(ground.world, ground.down, 2);
  // A box under tilted gravity, and a box rotated by θ. On the rotated one the substeps' poses used to come from
  // slerp between two equal rotations, which rounds: the surface "moved" by ~1e-8 m per substep, the held particles
  // followed it by different amounts, the rigid patch built that into stress, and after a second a particle slipped;
  // μ_d < tan θ then let the whole patch slide (0.9 m by 2 s).
  BoxIncline box(0.8f, 0.3f, false), rotated(0.8f, 0.3f, true), plane(0.8f, 0.3f, true, ColliderShape::Plane);
  const Real onBox = creep(box.world, box.down, 2);
  const Real onRotated = creep(rotated.world, rotated.down, 3);
  const Real onPlane = creep(plane.world, plane.down, 3);
  std::printf("creep: ground %.3g m, box %.3g m (2 s), rotated box %.3g m, tilted plane %.3g m (3 s)\n",
              double(onGround), double(onBox), double(onRotated), double(onPlane));
  EXPECT_LT(std::abs(onGround), 1e-4f);
  EXPECT_LT(std::abs(onBox), 1e-4f);
  EXPECT_LT(std::abs(onRotated), 1e-4f);
  EXPECT_LT(std::abs(onPlane), 1e-4f);
  // The body's own μ_s mixes with the surface's: sqrt(2.2 · 0.3) = 0.81 holds where the surface's 0.3 alone slides.
  GroundIncline bodyHeld(0.3f, 0.3f, ContactMaterial{kSurfaceFriction, 0, 2.2f});
  GroundIncline surfaceAlone(0.3f, 0.3f);
  EXPECT_LT(std::abs(creep(bodyHeld.world, bodyHeld.down, 2)), 1e-4f);
  EXPECT_GT(creep(surfaceAlone.world, surfaceAlone.down, 2), 1.0f);  // 1/2 a t² = 3.9 m: the body's μ_s did it
}

TEST(FrictionCoefficients, HeldWithoutStickSlipOnARotatedBoxAndWhenThePatchIsUneven) {
  // μ = 0.8 > tan θ. Exact symmetry (the ground, gravity tilted) gives every particle the same share of the load, so
  // nothing pulls on a held one. A rotated box (rounded geometry) or a patch placed unevenly breaks that: a particle
  // whose share exceeds μ_s d slips, its neighbours' rigid constraints pull it back and push them on, and without
  // dynamic friction on the slipping particle's path the patch crept by stick-slip (3 mm in 2 s on the box, 5 mm on
  // the uneven ground patch).
  BoxIncline box(0.8f, 0.8f, true);
  for (int f = 0; f < 30; ++f) box.world.step(kFrame);
  const Real onBox = creep(box.world, box.down, 2);
  GroundIncline uneven(0.8f, 0.8f);
  for (uint32_t i = 0; i < uneven.world.particleCount(); ++i) {  // 10 µm along and up to 40 µm above the ground
    const Real* q = uneven.world.positions();
    const Vec3 jitter(std::sin(1.7f * Real(i)), 2 + 2 * std::sin(0.9f * Real(i)), std::cos(2.3f * Real(i)));
    uneven.world.setPosition(i, Vec3(q[3 * i], q[3 * i + 1], q[3 * i + 2]) + 1e-5f * jitter);
  }
  for (int f = 0; f < 30; ++f) uneven.world.step(kFrame);  // settles onto the ground
  const Real onGround = creep(uneven.world, uneven.down, 2);
  std::printf("creep over 2 s: rotated box %.3g m, uneven patch %.3g m\n", double(onBox), double(onGround));
  EXPECT_LT(std::abs(onBox), 1e-5f);
  EXPECT_LT(std::abs(onGround), 1e-5f);
}

TEST(FrictionCoefficients, SlidesWithTheDynamicCoefficientWhenStaticIsBelowTanTheta) {
  for (auto [muStatic, muDynamic] : {std::pair{0.5f, 0.3f}, {0.4f, 0.1f}}) {
    const Real expected = slidingAcceleration(muDynamic);
    GroundIncline ground(muStatic, muDynamic);
    EXPECT_NEAR(measuredAcceleration(ground.world, ground.down, 0.5f, 1.5f), expected, 0.05f * expected)
        << "ground μ_s " << muStatic << " μ_d " << muDynamic;
    for (bool tilted : {false, true}) {
      BoxIncline box(muStatic, muDynamic, tilted);
      EXPECT_NEAR(measuredAcceleration(box.world, box.down, 0.25f, 0.75f), expected, 0.05f * expected)
          << "box μ_s " << muStatic << " μ_d " << muDynamic << " tilted " << tilted;
    }
    BoxIncline plane(muStatic, muDynamic, true, ColliderShape::Plane);
    EXPECT_NEAR(measuredAcceleration(plane.world, plane.down, 0.25f, 0.75f), expected, 0.05f * expected)
        << "tilted plane μ_s " << muStatic << " μ_d " << muDynamic;
  }
}

TEST(FrictionCoefficients, ALaunchedBlockAcceleratesWithTheDynamicCoefficient) {
  // μ_s = 0.8 would hold it at rest, but moving it feels μ_d = 0.3 < tan θ only: it speeds up at g(sinθ − μ_d cosθ).
  GroundIncline ground(0.8f, 0.3f);
  for (uint32_t i = 0; i < ground.world.particleCount(); ++i) ground.world.setVelocity(i, Vec3(1, 0, 0));
  const Real expected = slidingAcceleration(0.3f);
  EXPECT_NEAR(measuredAcceleration(ground.world, ground.down, 0.25f, 1.25f), expected, 0.05f * expected);
}

TEST(FrictionCoefficients, HoldAndSlideUnderVertexBlockDescentWhoseStepsPushTheContacts) {
  // Under VBD the contacts' normal part is an energy of the vertex steps and friction the same position-level hold
  // (solvers/vertex_block_descent.h): the same creep bound and sliding law on the ground, a rotated box and a plane.
  constexpr Solver kVbd = Solver::VertexBlockDescent;
  GroundIncline ground(0.8f, 0.3f, {}, kVbd);
  BoxIncline rotated(0.8f, 0.3f, true, ColliderShape::Box, kVbd);
  BoxIncline plane(0.8f, 0.3f, true, ColliderShape::Plane, kVbd);
  EXPECT_LT(std::abs(creep(ground.world, ground.down, 2)), 1e-4f);
  EXPECT_LT(std::abs(creep(rotated.world, rotated.down, 2)), 1e-4f);
  EXPECT_LT(std::abs(creep(plane.world, plane.down, 2)), 1e-4f);
  const Real expected = slidingAcceleration(0.1f);
  GroundIncline slidingGround(0.4f, 0.1f, {}, kVbd);
  BoxIncline slidingBox(0.4f, 0.1f, true, ColliderShape::Box, kVbd);
  EXPECT_NEAR(measuredAcceleration(slidingGround.world, slidingGround.down, 0.5f, 1.5f), expected, 0.05f * expected);
  EXPECT_NEAR(measuredAcceleration(slidingBox.world, slidingBox.down, 0.25f, 0.75f), expected, 0.05f * expected);
}

TEST(FrictionCoefficients, BadInputNamesTheArgumentAndChangesNothing) {
  World world;
  world.addCloth(patchAt(Vec3(0, 0.2f, 0), Vec3(1, 0, 0), {}));
  const uint64_t before = scenes::stateHash(world);
  for (Real bad : {std::nanf(""), -0.5f, Real(INFINITY)}) {
    SolverSettings s = world.settings();
    s.ground.staticFriction = bad;
    expectError([&] { world.setSettings(s); }, {"setSettings: ground.staticFriction must"});
    EXPECT_EQ(world.settings().ground.staticFriction, kSameAsFriction);

    ColliderDef def;
    def.staticFriction = bad;
    expectError([&] { world.addCollider(def); }, {"addCollider: staticFriction must"});
    EXPECT_EQ(world.colliderCount(), 0u);

    expectError([&] { world.setBodyMaterial(0, {kSurfaceFriction, 0, bad}); }, {"setBodyMaterial: staticFriction must"});
    EXPECT_EQ(world.bodyMaterial(0).staticFriction, kSameAsFriction);

    ClothDef cloth = patchAt(Vec3(1, 0.2f, 0), Vec3(1, 0, 0), {kSurfaceFriction, 0, bad});
    expectError([&] { world.addCloth(cloth); }, {"addCloth: contact.staticFriction must"});
    EXPECT_EQ(world.bodyCount(), 1u);
  }
  expectError([&] { world.setBodyMaterial(0, {kSurfaceFriction, 0, -2}); }, {"must be >= 0 (or -1: same as friction)"});
  EXPECT_EQ(scenes::stateHash(world), before);
  // Accepted: 0, the default -1, and μ_s < μ_d.
  SolverSettings s = world.settings();
  s.ground.staticFriction = 0;
  world.setSettings(s);
  ColliderDef def;
  def.friction = 0.9f, def.staticFriction = 0.2f;
  world.addCollider(def);
  world.setBodyMaterial(0, {0.5f, 0, kSameAsFriction});
  EXPECT_EQ(world.bodyMaterial(0).staticFriction, kSameAsFriction);
}

TEST(FrictionCoefficients, SnapshotsKeepTheStaticCoefficients) {
  // On the box, μ_s = 0.8 holds the block; restored as the default (μ_s = μ_d = 0.1) it would slide.
  BoxIncline source(0.8f, 0.1f, false);
  SolverSettings s = source.world.settings();
  s.ground.staticFriction = 0.7f;
  source.world.setSettings(s);
  source.world.setBodyMaterial(0, {kSurfaceFriction, 0, 1.2f});
  for (int f = 0; f < 10; ++f) source.world.step(kFrame);
  const std::vector<uint8_t> blob = source.world.saveSnapshot();
  World loaded;
  loaded.loadSnapshot(blob.data(), blob.size());
  EXPECT_EQ(loaded.settings().ground.staticFriction, 0.7f);
  EXPECT_EQ(loaded.bodyMaterial(0).staticFriction, 1.2f);
  for (int f = 0; f < 60; ++f) source.world.step(kFrame), loaded.step(kFrame);
  EXPECT_EQ(scenes::stateHash(loaded), scenes::stateHash(source.world));
  EXPECT_TRUE(loaded.saveSnapshot() == source.world.saveSnapshot());

  // A blob from before section SFRC: cut it out (tag, u64 length, body), fix the payload length and checksum. It
  // loads with every staticFriction at the default, as such a world stepped.
  std::vector<uint8_t> old = blob;
  ASSERT_TRUE(scenes::cutSnapshotSection(old, "SFRC"));
  World fromOld;
  fromOld.loadSnapshot(old.data(), old.size());
  EXPECT_EQ(fromOld.settings().ground.staticFriction, kSameAsFriction);
  EXPECT_EQ(fromOld.bodyMaterial(0).staticFriction, kSameAsFriction);
  EXPECT_EQ(fromOld.particleCount(), source.world.particleCount());
}

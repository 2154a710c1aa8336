// Per-body friction and restitution: the combination rule (pbd/contact_material.h) as maths, Coulomb friction from
// the body side on an incline (stays when μ > tan θ, slides with g (sin θ - μ cos θ) when below), a rebound to e² h
// with e from the body (ground and collider), validation that leaves the world unchanged, and snapshots that keep the
// materials and still load blobs written before them.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "scenes/snapshot_edit.h"
#include "pbd/errors.h"
#include "pbd/world.h"
#include "scenes/scenes.h"

using namespace pbd;

namespace {

/// Friction μ that comes out of sqrt(μ_body · μ_surface) with a surface of μ = 1: the body's μ_body = μ².
Real bodyFrictionFor(Real mu) { return mu * mu; }

/// Mean x velocity of the free particles.
Real meanVx(const World& w) {
  double sum = 0;
  for (uint32_t i = 0; i < w.particleCount(); ++i) sum += w.velocities()[3 * i];
  return Real(sum / w.particleCount());
}

/// A 4x4 stiff patch lying flat on the ground (friction 1) under gravity tilted by θ about z: the same physics as a
/// block on an incline of slope θ, with the friction set by the body's material.
struct Incline {
  World world;
  BodyRange patch;
  Incline(Real theta, const ContactMaterial& material) {
    SolverSettings s;
    s.substeps = 20;
    s.gravity = Vec3(9.81f * std::sin(theta), -9.81f * std::cos(theta), 0);
    s.ground.friction = 1;
    world.setSettings(s);
    ClothDef c;
    c.columns = c.rows = 4;
    c.spacing = 0.05f;
    c.origin = Vec3(0, 0, 0);
    c.axisU = Vec3(1, 0, 0);
    c.axisV = Vec3(0, 0, 1);
    c.contact = material;
    patch = world.addCloth(c);
  }
};

}  // namespace

TEST(ContactMaterial, CombinationRule) {
  for (Real surface : {0.0f, 0.1f, 0.3f, 0.5f, 0.7f, 1.0f, 1.3f, 2.5f}) {
    // The default body leaves the surface in charge, bit for bit (sqrt(1 * μ) would round).
    EXPECT_EQ(mixFriction(kSurfaceFriction, surface), surface);
    EXPECT_EQ(mixRestitution(0, std::min(surface, 1.0f)), std::min(surface, 1.0f));
    for (Real body : {0.0f, 0.2f, 0.5f, 1.0f, 4.0f}) {
      EXPECT_NEAR(mixFriction(body, surface), std::sqrt(double(body) * surface), 1e-6 * (1 + surface + body));
      EXPECT_EQ(mixFriction(body, surface), mixFriction(surface, body));  // symmetric
    }
    EXPECT_NEAR(mixFriction(surface, surface), surface, 1e-6f * (1 + surface));  // a material on itself
    EXPECT_EQ(mixFriction(0, surface), 0);                                        // ice slides on anything
  }
  EXPECT_EQ(mixRestitution(0.8f, 0.1f), 0.8f);  // either side may bounce
  EXPECT_EQ(mixRestitution(0.1f, 0.8f), 0.8f);
}

TEST(ContactMaterial, ABlockStaysOnAnInclineWhenBodyFrictionExceedsTanTheta) {
  // Static friction acts at position level (contacts.cpp, holdStaticFriction): each substep's prediction slides the
  // block by g sin θ h², and since that is less than μ times the normal correction g cos θ h², it is undone. Before
  // that, friction acted only in the velocity pass, which stops the block but keeps the slide: a creep of
  // g sin θ h per second, 8.2 mm in 2 s at 20 substeps. Held = velocity zero after every step and no creep.
  const Real theta = Real(M_PI / 6), seconds = 2;
  for (int substeps : {20, 40}) {
    Incline incline(theta, {bodyFrictionFor(0.8f), 0});
    SolverSettings s = incline.world.settings();
    s.substeps = substeps;
    incline.world.setSettings(s);
    const Real x0 = incline.world.positions()[0];
    for (int f = 0; f < 60 * seconds; ++f) {
      incline.world.step(1.0f / 60);
      ASSERT_LT(std::abs(meanVx(incline.world)), 1e-6f) << "frame " << f;
    }
    const Real creep = incline.world.positions()[0] - x0;
    std::printf("incline creep over %g s at %d substeps: %.3g mm\n", double(seconds), substeps, 1e3 * double(creep));
    EXPECT_LT(std::abs(creep), 0.5e-3f) << "substeps " << substeps;
  }
}

TEST(ContactMaterial, ABlockSlidesWithGTimesSinMinusMuCosWhenBelow) {
  const Real theta = Real(M_PI / 6), mu = 0.3f, g = 9.81f;
  const Real expected = g * (std::sin(theta) - mu * std::cos(theta));  // 2.36 m/s²
  for (bool viaSetter : {false, true}) {
    Incline incline(theta, viaSetter ? ContactMaterial{} : ContactMaterial{bodyFrictionFor(mu), 0});
    if (viaSetter) incline.world.setBodyMaterial(incline.patch.body, {bodyFrictionFor(mu), 0});
    const Real t0 = 0.5f, t1 = 1.5f;  // after any start-up transient
    for (int f = 0; f < 30; ++f) incline.world.step(1.0f / 60);
    const Real v0 = meanVx(incline.world);
    for (int f = 0; f < 60; ++f) incline.world.step(1.0f / 60);
    const Real accel = (meanVx(incline.world) - v0) / (t1 - t0);
    EXPECT_NEAR(accel, expected, 0.05f * expected) << (viaSetter ? "setBodyMaterial" : "ClothDef::contact");
  }
  // The surface's own μ = 1 > tan θ would have held it: the slide is the body's doing.
  Incline held(theta, {});
  for (int f = 0; f < 60; ++f) held.world.step(1.0f / 60);
  EXPECT_LT(std::abs(meanVx(held.world)), 1e-3f);
}

/// Height of the first apex after the first bounce of a particle dropped from h0.
Real reboundApex(World& world, uint32_t particle) {
  Real apex = -1e30f;
  bool bounced = false;
  for (int f = 0; f < 60 * 2; ++f) {
    world.step(1.0f / 60);
    const Real vy = world.velocities()[3 * particle + 1];
    if (vy > 0) bounced = true;
    if (bounced && vy <= 0) break;
    if (bounced) apex = std::max(apex, world.positions()[3 * particle + 1]);
  }
  return apex;
}

TEST(ContactMaterial, ADroppedParticleReboundsToESquaredHWithEFromTheBody) {
  const Real e = 0.6f, h0 = 2;
  {  // on the ground (its own restitution 0)
    World world;
    SolverSettings s;
    s.substeps = 40;
    s.ground.restitution = 0;
    s.ground.friction = 0;
    world.setSettings(s);
    const uint32_t p = world.addParticle(Vec3(0, h0, 0), 1);
    world.setBodyMaterial(world.bodyCount() - 1, {kSurfaceFriction, e});
    EXPECT_NEAR(reboundApex(world, p), e * e * h0, 0.05f * e * e * h0);
  }
  {  // on a box collider (its own restitution 0.1: the larger one wins)
    World world;
    SolverSettings s;
    s.substeps = 40;
    s.ground.enabled = false;
    world.setSettings(s);
    ColliderDef box;
    box.shape = ColliderShape::Box;
    box.position = Vec3(0, -0.5f, 0);
    box.halfExtents = Vec3(1, 0.5f, 1);
    box.restitution = 0.1f;
    box.friction = 0;
    world.addCollider(box);
    RopeDef r;  // a one-link rope standing in for "a body": both ends bounce
    r.start = Vec3(0, h0, 0);
    r.end = Vec3(0.1f, h0, 0);
    r.contact = {kSurfaceFriction, e};
    world.addRope(r);
    EXPECT_NEAR(reboundApex(world, 0), e * e * h0, 0.05f * e * e * h0);
  }
}

TEST(ContactMaterial, BadMaterialsAreRefusedAndTheWorldIsUnchanged) {
  World world;
  ClothDef c;
  const BodyRange cloth = world.addCloth(c);
  EXPECT_EQ(cloth.body, 0u);
  EXPECT_EQ(world.addParticle(Vec3(0, 1, 0), 1), 4u);
  EXPECT_EQ(world.bodyCount(), 2u);
  world.setBodyMaterial(0, {0.4f, 0.25f});
  const uint64_t hash = scenes::stateHash(world);
  auto refused = [&](auto call, const std::string& needle) {
    try {
      call();
      ADD_FAILURE() << needle << ": accepted";
    } catch (const InvalidArgument& e) {
      EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
    }
    EXPECT_EQ(world.bodyMaterial(0).friction, 0.4f);
    EXPECT_EQ(world.bodyMaterial(0).restitution, 0.25f);
    EXPECT_EQ(world.particleCount(), 5u);
    EXPECT_EQ(scenes::stateHash(world), hash);
  };
  refused([&] { world.setBodyMaterial(0, {-0.5f, 0}); }, "setBodyMaterial: friction must be >= 0");
  refused([&] { world.setBodyMaterial(0, {NAN, 0}); }, "setBodyMaterial: friction must be finite");
  refused([&] { world.setBodyMaterial(0, {INFINITY, 0}); }, "setBodyMaterial: friction must be finite");
  refused([&] { world.setBodyMaterial(0, {0.5f, 1.5f}); }, "setBodyMaterial: restitution must be in [0");
  refused([&] { world.setBodyMaterial(0, {0.5f, -0.1f}); }, "setBodyMaterial: restitution must be in [0");
  refused([&] { world.setBodyMaterial(2, {0.5f, 0}); }, "setBodyMaterial: body is out of range");
  refused([&] { (void)world.bodyMaterial(7); }, "bodyMaterial: body is out of range");
  ClothDef badCloth;
  badCloth.contact.friction = -2;
  refused([&] { world.addCloth(badCloth); }, "addCloth: contact.friction must be >= 0");
  RopeDef badRope;
  badRope.contact.restitution = 2;
  refused([&] { world.addRope(badRope); }, "addRope: contact.restitution must be in [0");
}

TEST(ContactMaterial, SnapshotsKeepMaterialsAndLoadBlobsWrittenBeforeThem) {
  World source;
  ClothDef c;
  c.columns = c.rows = 6;
  c.origin = Vec3(0, 0.3f, 0);
  c.contact = {0.09f, 0.4f};
  source.addCloth(c);
  source.addParticle(Vec3(1, 1, 0), 1);
  source.setMaxSpeed(3);
  for (int f = 0; f < 10; ++f) source.step(1.0f / 60);
  std::vector<uint8_t> blob = source.saveSnapshot();
  World loaded;
  loaded.loadSnapshot(blob.data(), blob.size());
  EXPECT_EQ(loaded.bodyMaterial(0).friction, 0.09f);
  EXPECT_EQ(loaded.bodyMaterial(0).restitution, 0.4f);
  EXPECT_EQ(loaded.bodyMaterial(1).friction, kSurfaceFriction);
  EXPECT_EQ(loaded.settings().maxSpeed, 3.0f);
  for (int f = 0; f < 30; ++f) source.step(1.0f / 60), loaded.step(1.0f / 60);
  EXPECT_EQ(scenes::stateHash(loaded), scenes::stateHash(source));  // continues bit-identically
  EXPECT_TRUE(loaded.saveSnapshot() == source.saveSnapshot());

  // A blob from before: cut the contactMaterials section out (tag, u64 length, body), fix the payload length and
  // checksum. It loads, with default materials and no velocity clamp.
  std::vector<uint8_t> old = blob;
  ASSERT_TRUE(scenes::cutSnapshotSection(old, "CMAT"));
  World fromOld;
  fromOld.loadSnapshot(old.data(), old.size());
  EXPECT_EQ(fromOld.bodyMaterial(0).friction, kSurfaceFriction);
  EXPECT_EQ(fromOld.bodyMaterial(0).restitution, 0);
  EXPECT_EQ(fromOld.settings().maxSpeed, 0);
  EXPECT_EQ(fromOld.particleCount(), source.particleCount());

  // A material out of range in the blob is refused naming it.
  std::vector<uint8_t> bad = blob;
  size_t at = 20;
  for (; std::memcmp(&bad[at], "CMAT", 4) != 0;) {
    uint64_t length = 0;
    std::memcpy(&length, &bad[at + 4], 8);
    at += 12 + size_t(length);
  }
  const float negative = -3;
  std::memcpy(&bad[at + 12 + 8], &negative, 4);  // u64 count, then contactMaterials[0].friction
  const uint64_t hb = io::fnv1a64(bad.data(), bad.size() - 8);
  std::memcpy(&bad[bad.size() - 8], &hb, 8);
  try {
    loaded.loadSnapshot(bad.data(), bad.size());
    ADD_FAILURE() << "loaded";
  } catch (const SnapshotError& e) {
    EXPECT_NE(std::string(e.what()).find("contactMaterials[0].friction must be >= 0"), std::string::npos) << e.what();
  }
}

namespace {

/// Where a particle of a body with contact thickness `bodyThickness` comes to rest, dropped from 0.3 m above the
/// surface (0 = the ground, thickness 0.01 m; 1 = a box collider whose top is at y = 1, thickness 0.02 m; 2 = a
/// triangle-mesh floor at y = 2, thickness 0.005 m; 3 = a plane collider through y = 3, thickness 0.03 m). A second
/// body without thickness rests beside it.
struct RestingPair {
  World world;
  Real surface = 0, surfaceThickness = 0;
  RestingPair(int kind, Real bodyThickness) {
    SolverSettings s;
    s.substeps = 10;
    s.ground.thickness = 0.01f;
    world.setSettings(s);
    surface = Real(kind);
    ColliderDef d;
    d.position = Vec3(0, surface, 0);
    if (kind == 1) d.shape = ColliderShape::Box, d.position.y() -= 0.5f, d.halfExtents = Vec3(2, 0.5f, 2), d.thickness = 0.02f;
    const std::vector<Real> floor = {-2, 0, -2, 2, 0, -2, 2, 0, 2, -2, 0, 2};
    const std::vector<uint32_t> floorTriangles = {0, 2, 1, 0, 3, 2};
    if (kind == 2) d.shape = ColliderShape::TriangleMesh, d.meshPositions = floor, d.meshTriangles = floorTriangles, d.thickness = 0.005f;
    if (kind == 3) d.shape = ColliderShape::Plane, d.thickness = 0.03f;
    surfaceThickness = kind == 0 ? 0.01f : d.thickness;
    if (kind != 0) world.addCollider(d);
    world.addParticle(Vec3(0, surface + 0.3f, 0), 1);
    world.setBodyMaterial(0, {kSurfaceFriction, 0, kSameAsFriction, bodyThickness});
    world.addParticle(Vec3(0.5f, surface + 0.3f, 0), 1);
    for (int f = 0; f < 90; ++f) world.step(1.0f / 60);
  }
  Real height(uint32_t i) const { return world.positions()[3 * i + 1]; }
};

}  // namespace

TEST(ContactMaterial, ABodysThicknessAddsToEverySurfacesOwn) {
  // t = t_body + t_surface: the particle rests that far above the ground and every kind of collider, the other body
  // at the surface's thickness alone; at rest, not hovering (its speed is 0).
  for (int kind = 0; kind < 4; ++kind) {
    RestingPair pair(kind, 0.05f);
    EXPECT_NEAR(pair.height(0), pair.surface + pair.surfaceThickness + 0.05f, 1e-4f) << "surface " << kind;
    EXPECT_NEAR(pair.height(1), pair.surface + pair.surfaceThickness, 1e-4f) << "surface " << kind;
    EXPECT_NEAR(pair.world.velocities()[1], 0, 1e-3f) << "surface " << kind;
  }
  // setBodyMaterial changes it at the next step: the particle lifts to the new margin.
  RestingPair pair(1, 0.05f);
  pair.world.setBodyMaterial(0, {kSurfaceFriction, 0, kSameAsFriction, 0.01f});
  for (int f = 0; f < 60; ++f) pair.world.step(1.0f / 60);
  EXPECT_NEAR(pair.height(0), 1 + 0.02f + 0.01f, 1e-4f);
}

TEST(ContactMaterial, ThicknessIsCheckedAndKeptBySnapshots) {
  World world;
  world.addParticle(Vec3(0, 0.5f, 0), 1);
  const uint64_t before = scenes::stateHash(world);
  for (Real bad : {-0.01f, std::nanf(""), Real(INFINITY)}) {
    try {
      world.setBodyMaterial(0, {kSurfaceFriction, 0, kSameAsFriction, bad});
      ADD_FAILURE() << "accepted thickness " << bad;
    } catch (const InvalidArgument& e) {
      EXPECT_NE(std::string(e.what()).find("setBodyMaterial: thickness must"), std::string::npos) << e.what();
    }
    ClothDef c;
    c.contact.thickness = bad;
    try {
      world.addCloth(c);
      ADD_FAILURE() << "accepted contact.thickness " << bad;
    } catch (const InvalidArgument& e) {
      EXPECT_NE(std::string(e.what()).find("addCloth: contact.thickness must"), std::string::npos) << e.what();
    }
  }
  EXPECT_EQ(world.bodyMaterial(0).thickness, 0);
  EXPECT_EQ(world.bodyCount(), 1u);
  EXPECT_EQ(scenes::stateHash(world), before);
  // Saved and loaded: the margin is kept and the world steps on bit for bit; a blob from before section CTHK loads
  // with thickness 0, as such a world stepped.
  world.setBodyMaterial(0, {kSurfaceFriction, 0, kSameAsFriction, 0.04f});
  for (int f = 0; f < 30; ++f) world.step(1.0f / 60);
  const std::vector<uint8_t> blob = world.saveSnapshot();
  World loaded;
  loaded.loadSnapshot(blob.data(), blob.size());
  EXPECT_EQ(loaded.bodyMaterial(0).thickness, 0.04f);
  for (int f = 0; f < 30; ++f) world.step(1.0f / 60), loaded.step(1.0f / 60);
  EXPECT_EQ(scenes::stateHash(loaded), scenes::stateHash(world));
  EXPECT_NEAR(world.positions()[1], 0.04f, 1e-5f);
  std::vector<uint8_t> old = blob;
  ASSERT_TRUE(scenes::cutSnapshotSection(old, "CTHK"));
  World fromOld;
  fromOld.loadSnapshot(old.data(), old.size());
  EXPECT_EQ(fromOld.bodyMaterial(0).thickness, 0);
}

// Every setter and builder rejects bad input with pbd::InvalidArgument naming the argument, and leaves the world
// exactly as it was (same state bits, same counts, same settings).
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <limits>
#include <string>

#include "pbd/errors.h"
#include "pbd/world.h"
#include "scenes/scenes.h"

using namespace pbd;

namespace {

const Real kNaN = std::numeric_limits<Real>::quiet_NaN();
const Real kInf = std::numeric_limits<Real>::infinity();

struct StateSummary {
  uint64_t hash;
  uint32_t particles, constraints;
  int substeps, iterations;
  Real gravityY, damping;
  bool operator==(const StateSummary&) const = default;
};

StateSummary stateSummary(const World& w) {
  return {scenes::stateHash(w), w.particleCount(), w.constraintCount(), w.settings().substeps,
          w.settings().iterations, w.settings().gravity.y(), w.settings().linearDamping};
}

class BadInput : public ::testing::Test {
 protected:
  void SetUp() override {
    scenes::hangingCloth(world, 4);
    AttachmentDef a;
    a.particle = 5;
    a.target = Vec3(0, 1, 0);
    attachment = world.addAttachment(a);
    world.step(1.0f / 60);
  }

  /// The call must throw InvalidArgument whose message contains every fragment, and change nothing.
  void expectRejected(const std::function<void()>& call, std::initializer_list<const char*> fragments) {
    const StateSummary before = stateSummary(world);
    try {
      call();
      ADD_FAILURE() << "no exception; expected one mentioning " << *fragments.begin();
    } catch (const InvalidArgument& e) {
      for (const char* f : fragments) EXPECT_NE(std::string(e.what()).find(f), std::string::npos) << e.what();
    }
    EXPECT_TRUE(stateSummary(world) == before) << "the world changed";
  }

  World world;
  uint32_t attachment = 0;
};

}  // namespace

TEST_F(BadInput, Step) {
  expectRejected([&] { world.step(0); }, {"step", "dt"});
  expectRejected([&] { world.step(-1); }, {"step", "dt"});
  expectRejected([&] { world.step(kNaN); }, {"step", "dt", "finite"});
  expectRejected([&] { world.step(kInf); }, {"step", "dt"});
  expectRejected([&] { world.step(100); }, {"step", "dt"});
}

TEST_F(BadInput, Settings) {
  expectRejected([&] { world.setGravity(Vec3(0, kNaN, 0)); }, {"setGravity", "gravity.y"});
  expectRejected([&] { world.setSubsteps(0); }, {"setSubsteps", "substeps"});
  expectRejected([&] { world.setSubsteps(100000); }, {"setSubsteps", "substeps"});
  expectRejected([&] { world.setIterations(-3); }, {"setIterations", "iterations"});
  expectRejected([&] { world.setLinearDamping(-1); }, {"setLinearDamping", "linearDamping"});
  expectRejected([&] { world.setLinearDamping(kInf); }, {"setLinearDamping", "linearDamping"});
  expectRejected([&] { world.setRigidDamping(1.5f); }, {"setRigidDamping", "rigidDamping"});
  expectRejected([&] { world.setChebyshevRho(1); }, {"setChebyshevRho", "chebyshevRho", "[0, 1)"});
  expectRejected([&] { world.setChebyshevRho(-0.1f); }, {"setChebyshevRho", "chebyshevRho"});
  expectRejected([&] { world.setChebyshevRho(kNaN); }, {"setChebyshevRho", "chebyshevRho", "finite"});
  expectRejected([&] { world.setMethod(Method(7)); }, {"setMethod", "method"});
  expectRejected([&] { world.setSolver(Solver(9)); }, {"setSolver", "solver"});
  expectRejected([&] { world.setJacobiRelaxation(0); }, {"setJacobiRelaxation", "jacobiRelaxation"});
  expectRejected([&] { world.setJacobiRelaxation(2); }, {"setJacobiRelaxation", "jacobiRelaxation"});
  expectRejected([&] { world.setJacobiRelaxation(kNaN); }, {"setJacobiRelaxation", "jacobiRelaxation"});
  GroundSettings g;
  g.friction = -1;
  expectRejected([&] { world.setGround(g); }, {"setGround", "ground.friction"});
  g = GroundSettings{};
  g.restitution = 2;
  expectRejected([&] { world.setGround(g); }, {"setGround", "ground.restitution"});
  g = GroundSettings{};
  g.height = kNaN;
  expectRejected([&] { world.setGround(g); }, {"setGround", "ground.height"});
  SelfCollisionSettings sc;
  sc.radius = 0;
  expectRejected([&] { world.setSelfCollision(sc); }, {"setSelfCollision", "selfCollision.radius"});
  sc.radius = kNaN;
  expectRejected([&] { world.setSelfCollision(sc); }, {"setSelfCollision", "selfCollision.radius"});
  SolverSettings s;
  s.iterations = 0;
  expectRejected([&] { world.setSettings(s); }, {"setSettings", "iterations"});
}

TEST_F(BadInput, Particles) {
  expectRejected([&] { world.addParticle(Vec3(kNaN, 0, 0), 1); }, {"addParticle", "position.x"});
  expectRejected([&] { world.addParticle(Vec3(0, 0, 0), -1); }, {"addParticle", "inverseMass"});
  expectRejected([&] { world.addParticle(Vec3(0, 0, 0), kInf); }, {"addParticle", "inverseMass"});
  expectRejected([&] { world.addParticle(Vec3(0, 0, 0), 1, Vec3(0, 0, kInf)); }, {"addParticle", "velocity.z"});
  const Real xyz[6] = {0, 0, 0, 1, kNaN, 0};
  const Real w[2] = {1, 1};
  expectRejected([&] { world.addParticles(xyz, w, 2); }, {"addParticles", "positions[4]"});
  const Real good[6] = {0, 0, 0, 1, 1, 0};
  const Real badW[2] = {1, -2};
  expectRejected([&] { world.addParticles(good, badW, 2); }, {"addParticles", "inverseMasses[1]"});
  const Real infiniteW[2] = {kInf, 1};  // passes ">= 0": found by the world API fuzzer
  expectRejected([&] { world.addParticles(good, infiniteW, 2); }, {"addParticles", "inverseMasses[0]", "finite"});
  expectRejected([&] { world.addParticles(good, w, 0); }, {"addParticles", "count"});
  expectRejected([&] { world.addParticles(good, w, size_t(kMaxParticles) + 1); }, {"addParticles", "count"});
  expectRejected([&] { world.addParticles(nullptr, w, 2); }, {"addParticles", "positions"});
  expectRejected([&] { world.setInverseMass(99, 1); }, {"setInverseMass", "particle", "out of range"});
  expectRejected([&] { world.setInverseMass(1, kNaN); }, {"setInverseMass", "inverseMass"});
  expectRejected([&] { world.setVelocity(99, Vec3::Zero()); }, {"setVelocity", "particle"});
  expectRejected([&] { world.setVelocity(1, Vec3(kNaN, 0, 0)); }, {"setVelocity", "velocity.x"});
  expectRejected([&] { world.setPosition(16, Vec3::Zero()); }, {"setPosition", "particle"});
  expectRejected([&] { world.distanceConstraint(1u << 30); }, {"distanceConstraint", "constraint"});
  expectRejected([&] { world.distanceConstraintColour(1u << 30); }, {"distanceConstraintColour", "constraint"});
  expectRejected([&] { world.setPosition(1, Vec3(0, kInf, 0)); }, {"setPosition", "position.y"});
  expectRejected([&] { world.setExternalForce(1, Vec3(0, kInf, 0)); }, {"setExternalForce", "force.y"});
}

TEST_F(BadInput, Constraints) {
  DistanceConstraintDef d;
  d.i = 0;
  d.j = 16;
  expectRejected([&] { world.addDistanceConstraint(d); }, {"addDistanceConstraint", "j", "out of range"});
  d.j = 0;
  expectRejected([&] { world.addDistanceConstraint(d); }, {"addDistanceConstraint", "j", "differ"});
  d.j = 1;
  d.strength.compliance = -1;
  expectRejected([&] { world.addDistanceConstraint(d); }, {"addDistanceConstraint", "compliance"});
  d.strength = Strength{0, 1.5f};
  expectRejected([&] { world.addDistanceConstraint(d); }, {"addDistanceConstraint", "stiffness"});
  d.strength = Strength{};
  d.minLength = kNaN;
  expectRejected([&] { world.addDistanceConstraint(d); }, {"addDistanceConstraint", "minLength"});
  d.minLength = 2;
  d.maxLength = 1;
  expectRejected([&] { world.addDistanceConstraint(d); }, {"addDistanceConstraint", "maxLength"});
  expectRejected([&] { world.setDistanceStrength(0, 1000, Strength{}); }, {"setDistanceStrength", "first+count"});
  expectRejected([&] { world.setDistanceStrength(0, 1, Strength{kNaN, 1}); }, {"setDistanceStrength", "compliance"});

  DihedralConstraintDef h;
  h.p0 = 0, h.p1 = 5, h.p2 = 1, h.p3 = 4;  // cloth particles: (0,0) (1,1) | edge (1,0)-(0,1)
  h.p3 = 99;
  expectRejected([&] { world.addDihedralConstraint(h); }, {"addDihedralConstraint", "p3", "out of range"});
  h.p3 = 0;
  expectRejected([&] { world.addDihedralConstraint(h); }, {"addDihedralConstraint", "p3", "differ"});
  h.p3 = 4;
  h.strength.compliance = -1;
  expectRejected([&] { world.addDihedralConstraint(h); }, {"addDihedralConstraint", "compliance"});
  h.strength = Strength{};
  h.restAngle = 4;
  expectRejected([&] { world.addDihedralConstraint(h); }, {"addDihedralConstraint", "restAngle"});
  h.restAngle = kNaN;
  expectRejected([&] { world.addDihedralConstraint(h); }, {"addDihedralConstraint", "restAngle"});

  AttachmentDef a;
  a.particle = 99;
  expectRejected([&] { world.addAttachment(a); }, {"addAttachment", "particle"});
  a.particle = 1;
  a.target = Vec3(kNaN, 0, 0);
  expectRejected([&] { world.addAttachment(a); }, {"addAttachment", "target.x"});
  expectRejected([&] { world.setAttachmentTarget(attachment + 1, Vec3::Zero()); }, {"setAttachmentTarget", "attachment"});
  expectRejected([&] { world.setAttachmentTarget(attachment, Vec3(0, 0, kInf)); }, {"setAttachmentTarget", "target.z"});
  expectRejected([&] { world.removeAttachment(7); }, {"removeAttachment", "attachment"});
  world.removeAttachment(attachment);
  expectRejected([&] { world.removeAttachment(attachment); }, {"removeAttachment", "removed"});
  expectRejected([&] { world.setAttachmentTarget(attachment, Vec3::Zero()); }, {"setAttachmentTarget", "removed"});
}

// Found by tests/fuzz/world_api_fuzz (corpus crash-max-length-below-current-distance): with minLength = -1 (the
// current distance, here ~5.7 m) maxLength was only checked against 0, so maxLength 0.5 was accepted and stored
// below the resolved minLength (distanceConstraint() then reports min > max, and the projection pulls toward 0.5
// above 5.7 m and pushes to 5.7 m below it). maxLength must be >= the resolved minLength.
TEST_F(BadInput, MaxLengthBelowTheCurrentDistanceIsRejected) {
  World w;
  w.addParticle(Vec3(1, 0, 0), 0);
  w.addParticle(Vec3(-1, -5.25f, 1), 0);
  DistanceConstraintDef d;
  d.i = 1;
  d.j = 0;
  d.minLength = -1;
  d.maxLength = 0.5f;
  try {
    w.addDistanceConstraint(d);
    const DistanceConstraintDef stored = w.distanceConstraint(0);
    ADD_FAILURE() << "accepted: stored minLength " << stored.minLength << " > maxLength " << stored.maxLength;
  } catch (const InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("maxLength"), std::string::npos) << e.what();
    EXPECT_EQ(w.distanceConstraintCount(), 0u);
  }
  d.maxLength = 6;  // above the current distance: fine
  w.addDistanceConstraint(d);
  const DistanceConstraintDef stored = w.distanceConstraint(w.distanceConstraintCount() - 1);
  EXPECT_LE(stored.minLength, stored.maxLength);
}

TEST_F(BadInput, Colliders) {
  auto bad = [&](auto mutate, const char* field) {
    ColliderDef d;
    mutate(d);
    expectRejected([&] { world.addCollider(d); }, {"addCollider", field});
  };
  bad([](ColliderDef& d) { d.shape = ColliderShape(9); }, "shape");
  bad([](ColliderDef& d) { d.position = Vec3(0, kNaN, 0); }, "position.y");
  bad([](ColliderDef& d) { d.rotation = Quat(0, 0, 0, 0); }, "rotation");
  bad([](ColliderDef& d) { d.rotation = Quat(kInf, 0, 0, 0); }, "rotation.w");
  bad([](ColliderDef& d) { d.radius = 0; }, "radius");
  bad([](ColliderDef& d) { d.halfHeight = -1; }, "halfHeight");
  bad([](ColliderDef& d) { d.halfExtents = Vec3(1, 0, 1); }, "halfExtents.y");
  bad([](ColliderDef& d) { d.thickness = -0.1f; }, "thickness");
  bad([](ColliderDef& d) { d.friction = kNaN; }, "friction");
  bad([](ColliderDef& d) { d.restitution = 1.5f; }, "restitution");
  const uint32_t k = world.addCollider(ColliderDef{});
  expectRejected([&] { world.setColliderPose(k + 1, Vec3::Zero(), Quat::Identity()); }, {"setColliderPose", "collider"});
  expectRejected([&] { world.setColliderPose(k, Vec3(kInf, 0, 0), Quat::Identity()); }, {"setColliderPose", "position.x"});
  expectRejected([&] { world.setColliderPose(k, Vec3::Zero(), Quat(0, 0, 0, 0)); }, {"setColliderPose", "rotation"});
}

TEST_F(BadInput, Cloth) {
  auto bad = [&](auto mutate, const char* field) {
    ClothDef c;
    c.columns = c.rows = 3;
    mutate(c);
    expectRejected([&] { world.addCloth(c); }, {"addCloth", field});
  };
  bad([](ClothDef& c) { c.columns = 1; }, "columns");
  bad([](ClothDef& c) { c.rows = -5; }, "rows");
  bad([](ClothDef& c) { c.columns = c.rows = 100000; }, "columns*rows");
  bad([](ClothDef& c) { c.spacing = 0; }, "spacing");
  bad([](ClothDef& c) { c.spacing = kNaN; }, "spacing");
  bad([](ClothDef& c) { c.origin = Vec3(0, kInf, 0); }, "origin.y");
  bad([](ClothDef& c) { c.axisU = Vec3::Zero(); }, "axisU");
  bad([](ClothDef& c) { c.axisV = Vec3(2, 0, 0); }, "axisV");
  bad([](ClothDef& c) { c.mass = -1; }, "mass");
  bad([](ClothDef& c) { c.pinned = {0, 9}; }, "pinned[1]");
  bad([](ClothDef& c) { c.stretch.compliance = -1; }, "stretch.compliance");
  bad([](ClothDef& c) { c.shear.stiffness = 2; }, "shear.stiffness");
  bad([](ClothDef& c) { c.bend.stiffness = kNaN; }, "bend.stiffness");
  bad([](ClothDef& c) { c.tethers = TetherMode::Geodesic; }, "tethers");  // no pins
  bad([](ClothDef& c) { c.tethers = TetherMode(5); }, "tethers");
  bad([](ClothDef& c) { c.tetherSlack = 0.5f; }, "tetherSlack");
  bad([](ClothDef& c) { c.bendModel = BendModel(3); }, "bendModel");
  bad([](ClothDef& c) { c.tetherSlack = kNaN; }, "tetherSlack");
}

TEST_F(BadInput, Rope) {
  auto bad = [&](auto mutate, const char* field) {
    RopeDef r;
    r.segments = 4;
    mutate(r);
    expectRejected([&] { world.addRope(r); }, {"addRope", field});
  };
  bad([](RopeDef& r) { r.segments = 0; }, "segments");
  bad([](RopeDef& r) { r.end = r.start; }, "end");
  bad([](RopeDef& r) { r.start = Vec3(kNaN, 0, 0); }, "start.x");
  bad([](RopeDef& r) { r.mass = 0; }, "mass");
  bad([](RopeDef& r) { r.pinned = {5}; }, "pinned[0]");
  bad([](RopeDef& r) { r.stretch.compliance = kInf; }, "stretch.compliance");
}

TEST_F(BadInput, GoodInputStillWorksAfterRejections) {
  world.setSubsteps(4);
  const BodyRange rope = world.addRope(RopeDef{});
  EXPECT_EQ(rope.particleCount, 2u);
  EXPECT_EQ(world.particleCount(), 18u);
  world.step(1.0f / 60);
  for (uint32_t k = 0; k < 3 * world.particleCount(); ++k) EXPECT_TRUE(std::isfinite(world.positions()[k]));
}

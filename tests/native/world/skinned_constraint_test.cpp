// Skinned constraints (character cloth) in a world: a cape on an animated "character" (the cloth's rest grid carried
// by a rigid motion that swings and turns) under every solver and integrator. At the end of every step each particle
// is within its maximum distance of its skinned position and not behind its backstop; at maximum distance 0 the
// cloth is the skinned mesh to the bit; a free particle swings freely until its limit and then rests there; the state
// round-trips through snapshots; removeBody and bad input behave.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "native/expect_error.h"
#include "pbd/world.h"
#include "scenes/scenes.h"

using namespace pbd;

namespace {

constexpr int kColumns = 8, kRows = 8;
constexpr Real kSpacing = 0.05f, kDt = 1.0f / 60;
const Vec3 kOutward(0, 0, -1);  // the cape hangs behind the character (z < 0): the skin's outward normal

using scenes::everySolver;

std::string nameOf(Solver s, Integrator i) {
  return "solver " + std::to_string(int(s)) + (i == Integrator::Bdf2 ? " bdf2" : " euler");
}

/// The character's motion at time t: a turn about y, a bob, and a sway back and forth (z), brisk as a run's.
Eigen::Isometry3f characterPose(Real t) {
  Eigen::Isometry3f pose = Eigen::Isometry3f::Identity();
  pose.translate(Vec3(0.1f * std::sin(2 * t), 0.05f * std::sin(6 * t), 0.3f * std::sin(3 * t)));
  pose.rotate(Eigen::AngleAxisf(0.8f * std::sin(2 * t), Vec3::UnitY()));
  return pose;
}

struct Cape {
  World world;
  std::vector<Vec3> rest;         // the skinned mesh in the character's frame: the cloth's rest grid
  std::vector<SkinnedConstraintDef> defs;
  std::vector<Real> targets, normals;

  /// Where the character puts the skin at time t, handed to the world.
  void skinAt(Real t) {
    const Eigen::Isometry3f pose = characterPose(t);
    for (size_t i = 0; i < rest.size(); ++i) {
      const Vec3 s = pose * rest[i], n = pose.linear() * kOutward;
      for (int a = 0; a < 3; ++a) targets[3 * i + a] = s[a], normals[3 * i + a] = n[a];
    }
    world.setSkinnedTargets(0, targets, normals);
  }
};

/// A vertical 8 × 8 cloth at the character's back; row r may swing `reach(r)` from its skinned position, behind a
/// backstop plane `backstop` m inside the body (radius 0) or a sphere of radius `radius`.
void buildCape(Cape& cape, Solver solver, Integrator integrator, Real (*reach)(int), Real backstop, Real radius) {
  World& w = cape.world;
  w.setSolver(solver);
  w.setIntegrator(integrator);
  w.setSubsteps(4);
  w.setIterations(solver == Solver::ProjectiveDynamics || solver == Solver::VertexBlockDescent ? 4 : 2);
  ClothDef c;
  c.columns = kColumns, c.rows = kRows, c.spacing = kSpacing;
  c.origin = Vec3(-0.5f * kSpacing * (kColumns - 1), 1.5f, -0.02f);
  c.axisU = Vec3(1, 0, 0), c.axisV = Vec3(0, -1, 0);
  c.mass = 0.5f;
  c.stretch = {1e-5f, 1}, c.shear = {1e-4f, 1};
  const BodyRange body = w.addCloth(c);
  for (uint32_t i = body.firstParticle; i < body.firstParticle + body.particleCount; ++i) {
    cape.rest.emplace_back(w.positions()[3 * i], w.positions()[3 * i + 1], w.positions()[3 * i + 2]);
    SkinnedConstraintDef d;
    d.particle = i;
    d.maxDistance = reach(int((i - body.firstParticle) / kColumns));
    d.backstopDistance = backstop;
    d.backstopRadius = radius;
    cape.defs.push_back(d);
  }
  cape.targets.resize(3 * cape.rest.size());
  cape.normals.resize(3 * cape.rest.size());
  EXPECT_EQ(w.addSkinnedConstraints(cape.defs), 0u);
  EXPECT_EQ(w.skinnedConstraintCount(), uint32_t(cape.rest.size()));
}

Real growingReach(int row) { return 0.01f * Real(row); }  // shoulders held, the hem swings 7 cm
Real noReach(int) { return 0; }

struct Violations {
  double distance = 0, backstop = 0;  // m, the worst excess (negative: all inside)
  int atDistance = 0, atBackstop = 0;  // particle-steps ending within 0.1 mm of a limit: the limits bind
};

/// How far the world's particles are outside their limits, against the skin of the step just taken.
Violations violations(const Cape& cape) {
  Violations v;
  for (size_t i = 0; i < cape.rest.size(); ++i) {
    const SkinnedConstraintDef& d = cape.defs[i];
    const Vec3 x(cape.world.positions()[3 * i], cape.world.positions()[3 * i + 1], cape.world.positions()[3 * i + 2]);
    const Vec3 s(cape.targets[3 * i], cape.targets[3 * i + 1], cape.targets[3 * i + 2]);
    const Vec3 n(cape.normals[3 * i], cape.normals[3 * i + 1], cape.normals[3 * i + 2]);
    const double distance = double((x - s).norm() - d.maxDistance);
    double backstop = -1;
    if (d.backstopDistance < 0) {
    } else if (d.backstopRadius == 0) {
      backstop = double(-d.backstopDistance - (x - s).dot(n));
    } else {
      const Vec3 centre = s - (d.backstopDistance + d.backstopRadius) * n;
      backstop = double(d.backstopRadius - (x - centre).norm());
    }
    v.distance = std::max(v.distance, distance), v.backstop = std::max(v.backstop, backstop);
    v.atDistance += d.maxDistance > 0 && distance > -1e-4;
    v.atBackstop += backstop > -1e-4;
  }
  return v;
}

/// Runs the cape for `frames` steps and returns the worst violations seen at the end of any step.
Violations runCape(Cape& cape, int frames) {
  Violations worst;
  for (int f = 1; f <= frames; ++f) {
    cape.skinAt(Real(f) * kDt);
    cape.world.step(kDt);
    const Violations v = violations(cape);
    worst.distance = std::max(worst.distance, v.distance);
    worst.backstop = std::max(worst.backstop, v.backstop);
    worst.atDistance += v.atDistance, worst.atBackstop += v.atBackstop;
  }
  return worst;
}

}  // namespace

TEST(SkinnedConstraint, CapeStaysWithinItsMaximumDistanceAndNeverBehindItsBackstop) {
  for (Solver solver : everySolver()) {
    for (Integrator integrator : {Integrator::ImplicitEuler, Integrator::Bdf2}) {
      for (Real radius : {Real(0), Real(0.3f)}) {
        Cape cape;
        buildCape(cape, solver, integrator, growingReach, 0.01f, radius);
        const Violations worst = runCape(cape, 120);
        const std::string label = nameOf(solver, integrator) + " radius " + std::to_string(radius);
        EXPECT_LE(worst.distance, 1e-6) << label;
        EXPECT_LE(worst.backstop, 1e-6) << label;
        EXPECT_FALSE(cape.world.lastStepReport().rolledBack) << label;
      }
    }
  }
}

// The limits must bind, or the test above proves nothing: the swinging hem reaches its maximum distance, and the
// turns press the cape against its backstop.
TEST(SkinnedConstraint, LimitsBindInTheCapeScene) {
  for (Real radius : {Real(0), Real(0.3f)}) {
    Cape cape;
    buildCape(cape, Solver::ColouredGaussSeidel, Integrator::ImplicitEuler, growingReach, 0.01f, radius);
    const Violations v = runCape(cape, 120);
    EXPECT_GT(v.atDistance, 20) << radius;
    EXPECT_GT(v.atBackstop, 20) << radius;
  }
}

TEST(SkinnedConstraint, ZeroMaximumDistanceIsTheSkinnedMeshToTheBit) {
  for (Solver solver : everySolver()) {
    for (Integrator integrator : {Integrator::ImplicitEuler, Integrator::Bdf2}) {
      Cape cape;
      buildCape(cape, solver, integrator, noReach, -1, 0);
      for (int f = 1; f <= 30; ++f) {
        cape.skinAt(Real(f) * kDt);
        cape.world.step(kDt);
        for (size_t k = 0; k < cape.targets.size(); ++k)
          ASSERT_EQ(cape.world.positions()[k], cape.targets[k]) << nameOf(solver, integrator) << " frame " << f;
      }
      // And its velocity is the skin's: the last frame's motion over dt, to float round-off of the skin.
      const Real t = 30 * kDt;
      const Vec3 before = characterPose(t - kDt) * cape.rest[0], now = characterPose(t) * cape.rest[0];
      const Vec3 v(cape.world.velocities()[0], cape.world.velocities()[1], cape.world.velocities()[2]);
      if (integrator == Integrator::ImplicitEuler) {
        EXPECT_LT((v - (now - before) / kDt).norm(), 0.05f * ((now - before) / kDt).norm() + 1e-3f)
            << nameOf(solver, integrator);
      }
    }
  }
}

// One particle hung from a fixed skinned point with 1 m of slack: it falls freely (½ g t²) until the limit, then
// rests at exactly 1 m below, with no velocity left.
TEST(SkinnedConstraint, SlackParticleFallsFreelyThenRestsAtItsLimit) {
  World w;
  w.setSubsteps(10);
  GroundSettings ground;
  ground.enabled = false;
  w.setGround(ground);
  const uint32_t p = w.addParticle(Vec3(0, 2, 0), 1);
  SkinnedConstraintDef d;
  d.particle = p;
  d.maxDistance = 1;
  w.addSkinnedConstraints({&d, 1});
  const Real g = -w.settings().gravity.y();
  for (int f = 1; f <= 20; ++f) {  // 0.33 s: ½ g t² = 0.54 m, within the slack
    w.step(kDt);
    const Real t = Real(f) * kDt, h = kDt / 10;
    // Symplectic Euler's fall after n substeps: g h² n (n + 1) / 2.
    const Real n = Real(10 * f);
    EXPECT_NEAR(2 - w.positions()[1], g * h * h * n * (n + 1) / 2, 1e-4f) << t;
  }
  for (int f = 0; f < 120; ++f) w.step(kDt);
  EXPECT_NEAR(w.positions()[1], 1, 1e-6f);
  EXPECT_NEAR(w.velocities()[1], 0, 1e-4f);
}

TEST(SkinnedConstraint, SnapshotContinuesBitIdentically) {
  Cape original;
  buildCape(original, Solver::ColouredGaussSeidel, Integrator::ImplicitEuler, growingReach, 0.01f, 0.3f);
  runCape(original, 20);
  const std::vector<uint8_t> blob = original.world.saveSnapshot();
  Cape copy;
  copy.rest = original.rest, copy.defs = original.defs, copy.targets = original.targets,
  copy.normals = original.normals;
  copy.world.loadSnapshot(blob.data(), blob.size());
  EXPECT_EQ(copy.world.skinnedConstraintCount(), original.world.skinnedConstraintCount());
  EXPECT_TRUE(copy.world.saveSnapshot() == blob);
  runCape(original, 20);  // both play frames 1..20 of the motion again, from the blob's state
  runCape(copy, 20);
  EXPECT_TRUE(original.world.saveSnapshot() == copy.world.saveSnapshot());
}

TEST(SkinnedConstraint, RemoveBodyTakesItsSkinnedConstraintsAndRenumbersTheRest) {
  World w;
  const uint32_t lone = w.addParticle(Vec3(0, 1, 0), 1);
  RopeDef r;
  r.segments = 3;
  const BodyRange rope = w.addRope(r);
  std::vector<SkinnedConstraintDef> defs(3);
  defs[0].particle = lone, defs[1].particle = rope.firstParticle + 1, defs[2].particle = rope.firstParticle + 2;
  defs[2].maxDistance = 0.25f;
  w.addSkinnedConstraints(defs);
  const BodyRemoval removed = w.removeBody(0);
  EXPECT_EQ(removed.skinnedRuns, (std::vector<uint32_t>{0, 1}));
  ASSERT_EQ(w.skinnedConstraintCount(), 2u);
  // The survivors follow their particles (one down): a snapshot shows them by value.
  World fresh;
  const std::vector<uint8_t> blob = w.saveSnapshot();
  fresh.loadSnapshot(blob.data(), blob.size());
  EXPECT_EQ(fresh.skinnedConstraintCount(), 2u);
  const Real target[3] = {5, 5, 5};
  w.setSkinnedTargets(1, target, {});
  w.step(kDt);
  EXPECT_NEAR((Vec3(w.positions()[6], w.positions()[7], w.positions()[8]) - Vec3(5, 5, 5)).norm(), 0.25f, 1e-5f);
}

TEST(SkinnedConstraint, BadInputIsRefusedAndChangesNothing) {
  World w;
  w.addParticle(Vec3(0, 1, 0), 1);
  w.addParticle(Vec3(0, 2, 0), 1);
  std::vector<SkinnedConstraintDef> defs(2);
  defs[1].particle = 3;
  expectError([&] { w.addSkinnedConstraints(defs); }, {"addSkinnedConstraints", "constraints[1].particle", "3"});
  defs[1].particle = 0;
  expectError([&] { w.addSkinnedConstraints(defs); }, {"constraints[1].particle", "already has a skinned constraint"});
  defs[1].particle = 1, defs[1].maxDistance = -0.5f;
  expectError([&] { w.addSkinnedConstraints(defs); }, {"constraints[1].maxDistance", "-0.5"});
  defs[1].maxDistance = NAN;
  expectError([&] { w.addSkinnedConstraints(defs); }, {"constraints[1].maxDistance", "finite"});
  defs[1].maxDistance = 0, defs[1].backstopDistance = -2;
  expectError([&] { w.addSkinnedConstraints(defs); }, {"constraints[1].backstopDistance", "-1: no backstop"});
  defs[1].backstopDistance = 0, defs[1].backstopRadius = -1;
  expectError([&] { w.addSkinnedConstraints(defs); }, {"constraints[1].backstopRadius"});
  EXPECT_EQ(w.skinnedConstraintCount(), 0u);
  defs[1].backstopRadius = 0;
  w.addSkinnedConstraints(defs);
  expectError([&] { w.addSkinnedConstraints({defs.data(), 1}); }, {"constraints[0].particle", "already has"});
  const std::vector<uint8_t> before = w.saveSnapshot();
  const Real four[4] = {0, 0, 0, 1};
  expectError([&] { w.setSkinnedTargets(0, four, {}); }, {"setSkinnedTargets", "positions", "multiple of 3"});
  const Real nine[9] = {0, 0, 0, 1, 1, 1, 2, 2, 2};
  expectError([&] { w.setSkinnedTargets(0, nine, {}); }, {"setSkinnedTargets", "past the last", "3"});
  expectError([&] { w.setSkinnedTargets(2, {nine, 3}, {}); }, {"setSkinnedTargets", "first", "2"});
  expectError([&] { w.setSkinnedTargets(0, {nine, 6}, {nine, 3}); }, {"setSkinnedTargets", "normals", "length"});
  const Real bad[6] = {0, 0, 0, 1, INFINITY, 1};
  expectError([&] { w.setSkinnedTargets(0, bad, {}); }, {"setSkinnedTargets", "positions[4]", "finite"});
  expectError([&] { w.setSkinnedTargets(0, {nine, 6}, bad); }, {"setSkinnedTargets", "normals[4]", "finite"});
  EXPECT_TRUE(w.saveSnapshot() == before);
}

// More skinned constraints than one task takes (kParticlesPerTask), so that the pass splits: the same bits serially
// and on pools of 2 and 4.
TEST(SkinnedConstraint, SameBitsOnAnyThreadCount) {
  auto run = [](TaskSystem* tasks) {
    World w(tasks);
    w.setSubsteps(4);
    ClothDef c;
    c.columns = c.rows = 72;
    c.spacing = 0.02f;
    c.origin = Vec3(-0.71f, 1.5f, 0);
    c.axisU = Vec3(1, 0, 0), c.axisV = Vec3(0, -1, 0);
    const BodyRange body = w.addCloth(c);
    std::vector<SkinnedConstraintDef> defs(body.particleCount);
    std::vector<Real> targets(3 * defs.size()), normals(3 * defs.size());
    for (uint32_t k = 0; k < defs.size(); ++k) {
      defs[k].particle = body.firstParticle + k;
      defs[k].maxDistance = 0.002f * Real(k / 72);
      defs[k].backstopDistance = 0.005f;
    }
    w.addSkinnedConstraints(defs);
    std::vector<Real> rest(w.positions(), w.positions() + targets.size());
    for (int f = 1; f <= 10; ++f) {
      const Eigen::Isometry3f pose = characterPose(Real(f) * kDt);
      for (size_t k = 0; k < defs.size(); ++k) {
        const Vec3 s = pose * Vec3(rest[3 * k], rest[3 * k + 1], rest[3 * k + 2]), n = pose.linear() * kOutward;
        for (int a = 0; a < 3; ++a) targets[3 * k + a] = s[a], normals[3 * k + a] = n[a];
      }
      w.setSkinnedTargets(0, targets, normals);
      w.step(kDt);
    }
    return std::vector<Real>(w.positions(), w.positions() + targets.size());
  };
  const std::vector<Real> serial = run(nullptr);
  for (unsigned workers : {1u, 3u}) {
    ThreadPool pool(workers);
    EXPECT_TRUE(run(&pool) == serial) << "pool of " << workers + 1;
  }
}

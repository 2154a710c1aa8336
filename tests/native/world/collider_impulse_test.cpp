// World::colliderImpulse: what the particles' contacts gave a collider over a step, the reaction a coupled rigid body
// receives. Newton's third law is the oracle: with no gravity and no ground, the particles' momentum changes only
// through the contacts (internal constraints conserve it), so its change over a step must be minus the colliders'
// impulses, and its angular momentum's change minus their angular impulses; at rest on a collider under gravity the
// collider carries the body's weight, m g per second.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "native/expect_error.h"
#include "native/long_scene.h"
#include "pbd/task_system.h"
#include "pbd/world.h"
#include "scenes/free_space.h"
#include "scenes/measures.h"
#include "scenes/icosphere.h"
#include "scenes/scenes.h"

using namespace pbd;

namespace {

/// A 12×12 cloth (0.05 m spacing, 0.9 kg) thrown down and sideways onto collider `def` below it, at `speed` m/s.
World thrownCloth(Solver solver, const ColliderDef& def, Integrator integrator = Integrator::ImplicitEuler) {
  World world;
  SolverSettings s = scenes::freeSpace(Method::Xpbd, 8, 2);
  s.solver = solver;
  s.integrator = integrator;
  world.setSettings(s);
  ClothDef c;
  c.columns = c.rows = 12;
  c.spacing = 0.05f;
  c.origin = Vec3(-0.27f, 0.3f, -0.25f);
  c.stretch = Strength{1e-6f, 1};
  c.shear = Strength{1e-5f, 1};
  c.mass = 0.9f;
  world.addCloth(c);
  for (uint32_t i = 0; i < world.particleCount(); ++i) world.setVelocity(i, Vec3(0.4f, -3, 0.2f));
  world.addCollider(def);
  return world;
}

ColliderDef sphere(Real friction, Real restitution) {
  ColliderDef def;
  def.shape = ColliderShape::Sphere;
  def.position = Vec3(0, -0.1f, 0);
  def.radius = 0.2f;
  def.friction = friction;
  def.restitution = restitution;
  return def;
}

/// Steps `frames` frames and checks, per step, that the particles' momenta changed by minus the colliders'
/// impulses; returns the sum of |J| over the steps.
double checkExchange(World& world, int frames, double tolerance, bool angularToo = true) {
  double exchanged = 0;
  for (int f = 0; f < frames; ++f) {
    const scenes::Momenta before = scenes::momenta(world);
    world.step(1.0f / 60);
    const scenes::Momenta after = scenes::momenta(world);
    Eigen::Vector3d linear = Eigen::Vector3d::Zero(), angular = Eigen::Vector3d::Zero();
    for (uint32_t k = 0; k < world.colliderCount(); ++k) {
      const ColliderImpulse j = world.colliderImpulse(k);
      linear += j.linear.cast<double>();
      angular += j.angular.cast<double>();
    }
    const double scale = std::max(before.linear.norm(), linear.norm());
    EXPECT_LT((after.linear - before.linear + linear).norm(), tolerance * scale) << "frame " << f;
    const double angularScale = std::max(before.angular.norm(), angular.norm()) + 0.3 * scale;  // 0.3 m: the arm
    if (angularToo) {
      EXPECT_LT((after.angular - before.angular + angular).norm(), tolerance * angularScale) << "frame " << f;
    }
    exchanged += linear.norm();
  }
  return exchanged;
}

TEST(ColliderImpulse, ZeroBeforeAnyStep) {
  World world = thrownCloth(Solver::ColouredGaussSeidel, sphere(0.5f, 0));
  EXPECT_EQ(world.colliderImpulse(0).linear, Vec3::Zero());
  EXPECT_EQ(world.colliderImpulse(0).angular, Vec3::Zero());
  expectError([&] { world.colliderImpulse(1); }, {"colliderImpulse", "collider"});
}

/// Normal pushes, static and dynamic friction and restitution against a sphere are all felt by it, under both
/// integrators. Exactly for the PBD solvers, whose internal projections conserve both momenta. Projective Dynamics'
/// global step conserves linear momentum only (the island guard cannot tell its pull back from a contact push of
/// the iteration before); Vertex Block Descent's vertex steps conserve neither before they converge, so neither is
/// an exact oracle there (RestingClothWeighsOnItsSupport checks them on average).
TEST(ColliderImpulse, IsMinusWhatTheParticlesGot) {
  for (Solver solver : {Solver::GaussSeidel, Solver::Jacobi, Solver::ColouredGaussSeidel, Solver::Hierarchical,
                        Solver::ProjectiveDynamics}) {
    SCOPED_TRACE(int(solver));
    World world = thrownCloth(solver, sphere(0.6f, 0.4f));
    const bool angularToo = solver != Solver::ProjectiveDynamics;
    const double exchanged = checkExchange(world, 20, 2e-5, angularToo);
    // The cloth arrives with 0.9 kg × 3 m/s downward; the sphere stops at least a third of it.
    EXPECT_GT(exchanged, 0.3 * 0.9 * 3);
  }
}

/// BDF2 is a two-step method: an impulse reaches the velocities over several substeps (v = (3/2 p − 2x + 1/2 x⁻)/h
/// takes 3/2 of a push at once and the recurrence the rest), so only the whole exchange is an oracle: from before
/// the cloth arrives until it has left the sphere and moves freely, its momentum changed by minus the sum of the
/// impulses.
TEST(ColliderImpulse, SumsToTheWholeExchangeUnderBdf2) {
  World world = thrownCloth(Solver::ColouredGaussSeidel, sphere(0.2f, 0.6f), Integrator::Bdf2);
  world.step(1.0f / 60);
  const scenes::Momenta before = scenes::momenta(world);
  Eigen::Vector3d impulses = Eigen::Vector3d::Zero();
  for (int f = 0; f < 40; ++f) {
    world.step(1.0f / 60);
    impulses += world.colliderImpulse(0).linear.cast<double>();
  }
  ASSERT_EQ(world.colliderImpulse(0).linear, Vec3::Zero());  // it has left the sphere
  const scenes::Momenta after = scenes::momenta(world);
  EXPECT_GT(impulses.norm(), 0.3 * 0.9 * 3);
  EXPECT_LT((after.linear - before.linear + impulses).norm(), 1e-3 * impulses.norm());
}

/// A moving box (kinematic, swept across the substeps) hits a cloth at rest: the box gives the cloth momentum, so its
/// impulse points against its motion; a turning box gives it angular momentum too.
TEST(ColliderImpulse, MovingAndTurningColliderPushesTheCloth) {
  ColliderDef box;
  box.shape = ColliderShape::Box;
  box.position = Vec3(0, -0.3f, 0);
  box.halfExtents = Vec3(0.15f, 0.1f, 0.15f);
  box.friction = 0.8f;
  World world = thrownCloth(Solver::ColouredGaussSeidel, box);
  for (uint32_t i = 0; i < world.particleCount(); ++i) world.setVelocity(i, Vec3::Zero());
  double upward = 0;
  for (int f = 0; f < 30; ++f) {
    const Real t = Real(f + 1) / 60;
    const Vec3 position(0, -0.3f + 1.5f * t, 0);
    world.setColliderPose(0, position, Quat(Eigen::AngleAxis<Real>(2 * t, Vec3::UnitY())));
    const scenes::Momenta before = scenes::momenta(world);
    world.step(1.0f / 60);
    const scenes::Momenta after = scenes::momenta(world);
    const ColliderImpulse j = world.colliderImpulse(0);
    const double scale = std::max(after.linear.norm(), 1e-3);
    EXPECT_LT((after.linear - before.linear + j.linear.cast<double>()).norm(), 2e-5 * scale) << f;
    EXPECT_LT((after.angular - before.angular + j.angular.cast<double>()).norm(),
              2e-5 * (after.angular.norm() + 0.3 * scale))
        << f;
    upward -= j.linear.y();
  }
  EXPECT_GT(upward, 0.1);  // the box lifted the cloth: the cloth pushed it down
  EXPECT_GT(scenes::momenta(world).angular.y(), 1e-4);  // and friction spun the cloth with it
}

/// A closed triangle mesh (continuous contacts, their late pass and its fallback) is felt like an analytic shape.
TEST(ColliderImpulse, TriangleMeshColliderFeelsItsContacts) {
  const scenes::IcosphereMesh mesh = scenes::icosphere(2, 0.2);
  ColliderDef def = sphere(0.6f, 0.4f);
  def.shape = ColliderShape::TriangleMesh;
  def.meshPositions = mesh.positions;
  def.meshTriangles = mesh.triangles;
  World world = thrownCloth(Solver::ColouredGaussSeidel, def);
  EXPECT_GT(checkExchange(world, 20, 2e-5), 0.3 * 0.9 * 3);
}

/// At rest on a static box under gravity the box carries the cloth's weight: its impulse per step is m g dt
/// downward, within 2 %, averaged over a second once the cloth has settled.
TEST(ColliderImpulse, RestingClothWeighsOnItsSupport) {
  PBD_LONG_SCENE();
  ColliderDef box;
  box.shape = ColliderShape::Box;
  box.position = Vec3(0, -0.2f, 0);
  box.halfExtents = Vec3(0.5f, 0.1f, 0.5f);
  for (Solver solver : scenes::everySolver()) {
    SCOPED_TRACE(int(solver));
    World world = thrownCloth(solver, box);
    SolverSettings s = world.settings();
    s.gravity = Vec3(0, -9.81f, 0);
    world.setSettings(s);
    for (uint32_t i = 0; i < world.particleCount(); ++i) world.setVelocity(i, Vec3::Zero());
    for (int f = 0; f < 120; ++f) world.step(1.0f / 60);
    Eigen::Vector3d sum = Eigen::Vector3d::Zero();
    for (int f = 0; f < 60; ++f) {
      world.step(1.0f / 60);
      sum += world.colliderImpulse(0).linear.cast<double>();
    }
    const double weight = 0.9 * 9.81;  // N: the sum over 1 s is this many N·s
    EXPECT_NEAR(sum.y(), -weight, 0.02 * weight);
    EXPECT_LT(std::hypot(sum.x(), sum.z()), 0.02 * weight);
  }
}

/// Collider indices shift on removal, and the impulses with them; a rolled-back step leaves none.
TEST(ColliderImpulse, FollowsRemovalAndRollBack) {
  ColliderDef far = sphere(0.5f, 0);
  far.position = Vec3(5, 0, 0);
  World world = thrownCloth(Solver::ColouredGaussSeidel, far);
  world.addCollider(sphere(0.5f, 0));
  for (int f = 0; f < 8; ++f) world.step(1.0f / 60);
  const ColliderImpulse hit = world.colliderImpulse(1);
  ASSERT_GT(hit.linear.norm(), 0);
  EXPECT_EQ(world.colliderImpulse(0).linear, Vec3::Zero());
  world.removeCollider(0);
  EXPECT_EQ(world.colliderImpulse(0).linear, hit.linear);
  world.setExternalForce(0, Vec3(0, 3e38f, 0));  // finite, but h w f overflows to Inf
  world.step(1.0f / 60);
  ASSERT_TRUE(world.lastStepReport().rolledBack);
  EXPECT_EQ(world.colliderImpulse(0).linear, Vec3::Zero());
}

}  // namespace

namespace {

/// A rigid body of a minimal external engine coupled to `world` through collider `k` the way pbd-wasm/rapier couples
/// Rapier's: the engine steps (gravity and the last step's impulse), the collider is put at its state, the world
/// steps, and the collider's impulse goes to the engine.
struct ExternalBody {
  Real mass;
  Vec3 inertia, position, velocity;
  Vec3 impulse = Vec3::Zero();

  void step(World& world, uint32_t k, Real dt) {
    velocity += dt * world.settings().gravity + impulse / mass;
    position += dt * velocity;
    world.setColliderPose(k, position, Quat::Identity());
    world.setColliderBody(k, {mass, inertia, velocity, Vec3::Zero()});
    world.step(dt);
    impulse = world.colliderImpulse(k).linear;
  }
};

/// A 24² cloth of 1 kg pinned at its four corners, 1 m up (10 substeps × 4 iterations, damped at 1/s), and a cube
/// of 0.3 m and `mass` dropped on it from 0.3 m above.
World hammock(Real mass, ExternalBody& box, TaskSystem* tasks = nullptr) {
  World world(tasks);
  SolverSettings s;
  s.ground.enabled = false;
  s.substeps = 10;
  s.iterations = 4;
  s.linearDamping = 1;
  world.setSettings(s);
  ClothDef c;
  c.columns = c.rows = 24;
  c.spacing = 0.05f;
  c.origin = Vec3(-0.575f, 1, -0.575f);
  c.mass = 1;
  c.pinned = {0, 23, 24 * 23, 24 * 24 - 1};
  world.addCloth(c);
  ColliderDef def;
  def.shape = ColliderShape::Box;
  def.halfExtents = Vec3::Constant(0.15f);
  box = {mass, Vec3::Constant(mass * 0.09f / 6), Vec3(0, 1.3f, 0), Vec3::Zero()};
  def.position = box.position;
  world.addCollider(def);
  return world;
}

}  // namespace

/// A box of 1 or 10 kg dropped into a 1 kg hammock comes to rest in it: the cloth carries its weight (the impulses
/// it gives the box over a second are m g within 2 %), and the box stays in the cloth, at rest. As a kinematic
/// collider (the same loop without setColliderBody) the 10 kg box fell through: the cloth's push reached it a frame
/// late, every frame.
TEST(ColliderBody, AHeavyBoxComesToRestInAHammock) {
  PBD_LONG_SCENE();
  for (Real mass : {1.0f, 10.0f}) {
    SCOPED_TRACE(mass);
    ExternalBody box{};
    World world = hammock(mass, box);
    for (int f = 0; f < 540; ++f) box.step(world, 0, 1.0f / 60);
    double carried = 0, lowest = 1e9, highest = -1e9;
    for (int f = 0; f < 60; ++f) {
      box.step(world, 0, 1.0f / 60);
      carried += box.impulse.y();
      lowest = std::min(lowest, double(box.position.y())), highest = std::max(highest, double(box.position.y()));
    }
    EXPECT_NEAR(carried, mass * 9.81, 0.02 * mass * 9.81);
    EXPECT_GT(lowest, 0.6);             // in the cloth (its corners at 1 m), not through it
    EXPECT_LT(highest - lowest, 0.01);  // at rest
    EXPECT_LT(box.velocity.norm(), 0.05f);
  }
}

/// The dynamic box's motion is serial and the cloth's solve gives the same bits on any thread count: so does the
/// coupled scene, box included.
TEST(ColliderBody, SameBitsOnAnyThreadCount) {
  auto run = [](TaskSystem* tasks) {
    ExternalBody box{};
    World world = hammock(10, box, tasks);
    for (int f = 0; f < 60; ++f) box.step(world, 0, 1.0f / 60);
    std::vector<Real> state = scenes::positionsOf(world);
    for (const Vec3& v : {box.position, box.velocity, world.colliderBody(0).angularVelocity}) {
      state.insert(state.end(), v.data(), v.data() + 3);
    }
    return state;
  };
  const std::vector<Real> serial = run(nullptr);
  for (unsigned workers = 1; workers <= 2; ++workers) {
    ThreadPool pool(workers);
    EXPECT_EQ(run(&pool), serial) << workers + 1 << " threads";
  }
}

/// Within a step the body and the particles exchange momentum: in zero gravity Σ m v of the particles plus the
/// body's m v (colliderBody after the step) is kept, and so is the angular momentum with the body's c × m v + I ω.
TEST(ColliderBody, ExchangesMomentumWithTheParticlesWithinTheStep) {
  World world = thrownCloth(Solver::ColouredGaussSeidel, sphere(0.6f, 0.3f));
  const Real mass = 0.5f, moment = 0.4f * mass * 0.2f * 0.2f;  // a solid sphere's inertia: isotropic
  world.setColliderBody(0, {mass, Vec3::Constant(moment), Vec3(0.2f, 1, 0), Vec3(0, 3, 1)});
  auto total = [&] { return scenes::momentaWithBody(world, 0, mass, moment); };
  const scenes::Momenta before = total();
  const Vec3 bodyBefore = world.colliderBody(0).linearVelocity;
  for (int f = 0; f < 30; ++f) world.step(1.0f / 60);
  const scenes::Momenta after = total();
  EXPECT_GT((world.colliderBody(0).linearVelocity - bodyBefore).norm(), 1);  // the cloth stopped and turned it
  EXPECT_LT((after.linear - before.linear).norm(), 1e-5 * before.linear.norm());
  EXPECT_LT((after.angular - before.angular).norm(), 1e-4 * before.angular.norm());
}

TEST(ColliderBody, RejectsBadBodiesAndIsKeptByRemoveBodyButNotSnapshots) {
  World world = thrownCloth(Solver::ColouredGaussSeidel, sphere(0.6f, 0.3f));
  const ColliderBody good{1, Vec3::Constant(0.1f), Vec3(0, 1, 0), Vec3::Zero()};
  expectError([&] { world.setColliderBody(0, {-1, Vec3::Constant(0.1f)}); }, {"setColliderBody", "mass"});
  expectError([&] { world.setColliderBody(0, {1, Vec3(0.1f, 0, 0.1f)}); }, {"setColliderBody", "inertia.y"});
  expectError([&] { world.setColliderBody(0, {1, Vec3::Constant(0.1f), Vec3(NAN, 0, 0)}); },
              {"setColliderBody", "linearVelocity"});
  expectError([&] { world.setColliderBody(1, good); }, {"setColliderBody", "collider"});
  EXPECT_EQ(world.colliderBody(0).mass, 0);  // unchanged
  world.setColliderBody(0, good);
  world.addParticle(Vec3(5, 5, 5), 1);
  world.removeBody(1);
  EXPECT_EQ(world.colliderBody(0).linearVelocity, good.linearVelocity);
  const std::vector<uint8_t> blob = world.saveSnapshot();
  world.loadSnapshot(blob.data(), blob.size());
  EXPECT_EQ(world.colliderBody(0).mass, 0);
}

/// A cloth hanging from attachments on its top row pulls their targets down with its weight: over a second of rest
/// the attachments' impulses sum to −m g within 2 %, under every solver that books them; under VBD asking throws.
TEST(AttachmentImpulse, AHangingClothWeighsOnItsTargets) {
  for (Solver solver : {Solver::GaussSeidel, Solver::ColouredGaussSeidel, Solver::ProjectiveDynamics,
                        Solver::VertexBlockDescent}) {
    SCOPED_TRACE(int(solver));
    World world;
    SolverSettings s;
    s.ground.enabled = false;
    s.solver = solver;
    s.linearDamping = 1;
    world.setSettings(s);
    ClothDef c;
    c.columns = c.rows = 12;
    c.spacing = 0.05f;
    c.origin = Vec3(0, 1, 0);
    c.axisU = Vec3(1, 0, 0);
    c.axisV = Vec3(0, -1, 0);
    c.mass = 0.9f;
    world.addCloth(c);
    std::vector<uint32_t> handles;
    for (uint32_t i = 0; i < 12; ++i) {
      AttachmentDef a;
      a.particle = i, a.target = scenes::positionOf(world, i);
      handles.push_back(world.addAttachment(a));
    }
    EXPECT_EQ(world.attachmentImpulse(handles[0]), Vec3::Zero());
    for (int f = 0; f < 180; ++f) world.step(1.0f / 60);
    if (solver == Solver::VertexBlockDescent) {
      expectError([&] { world.attachmentImpulse(handles[0]); }, {"attachmentImpulse", "solver"});
      continue;
    }
    Eigen::Vector3d sum = Eigen::Vector3d::Zero();
    for (int f = 0; f < 60; ++f) {
      world.step(1.0f / 60);
      for (uint32_t h : handles) sum += world.attachmentImpulse(h).cast<double>();
    }
    EXPECT_NEAR(sum.y(), -0.9 * 9.81, 0.02 * 0.9 * 9.81);
    EXPECT_LT(std::hypot(sum.x(), sum.z()), 0.02 * 0.9 * 9.81);
  }
}

/// A free cloth in zero gravity dragged by one corner: per step the particles' momentum changes by minus the
/// attachment's impulse (its pushes are the only outside force).
TEST(AttachmentImpulse, IsMinusWhatTheParticlesGot) {
  for (Solver solver : {Solver::GaussSeidel, Solver::ColouredGaussSeidel, Solver::ProjectiveDynamics}) {
    SCOPED_TRACE(int(solver));
    World world = thrownCloth(solver, sphere(0, 0));
    world.removeCollider(0);
    for (uint32_t i = 0; i < world.particleCount(); ++i) world.setVelocity(i, Vec3::Zero());
    const Vec3 start = scenes::positionOf(world, 0);
    const uint32_t handle = world.addAttachment({0, start, Strength{1e-4f, 1}});
    double exchanged = 0;
    for (int f = 0; f < 30; ++f) {
      world.setAttachmentTarget(handle, start + Real(f + 1) / 60 * Vec3(-1, 0.5f, 0));
      const scenes::Momenta before = scenes::momenta(world);
      world.step(1.0f / 60);
      const Eigen::Vector3d j = world.attachmentImpulse(handle).cast<double>();
      const Eigen::Vector3d gained = scenes::momenta(world).linear - before.linear;
      // 1e-4: an island an attachment touches gets back none of what float32 round-off of p takes (2e-5 here).
      EXPECT_LT((gained + j).norm(), 1e-4 * std::max({before.linear.norm(), j.norm(), 1e-3})) << f;
      exchanged += j.norm();
    }
    EXPECT_GT(exchanged, 0.3);  // it dragged the 0.9 kg cloth to about 1 m/s
  }
}

// Vertex Block Descent's contacts (solvers/vertex_block_descent.h, world/vertex_block_descent_stage.cpp): which
// contacts are energies of the vertex steps, what their normal forces give the colliders (a resting cloth's weight,
// at any iteration count), a crumpled cloth coming to rest on the ground, and the same bits on any thread count. The
// kernel's derivatives are in constraints/energy_kernels_test.cpp; friction under VBD in
// scenes/friction_coefficients_test.cpp.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "native/long_scene.h"
#include "native/world_internals.h"
#include "pbd/task_system.h"
#include "pbd/world.h"
#include "scenes/measures.h"
#include "scenes/scenes.h"

using namespace pbd;

namespace {

constexpr Real kFrame = 1.0f / 60;

SolverSettings vbdSettingsAt(int iterations) {
  SolverSettings s;
  s.solver = Solver::VertexBlockDescent;
  s.iterations = iterations;
  return s;
}

/// An 8×8 patch (0.5 m, 1 kg) lying on the top face of a box collider (ground off), the box turned by `angle` about
/// z: what the box carries at rest is the patch's weight.
struct PatchOnBox {
  World world;
  uint32_t box = 0;
  explicit PatchOnBox(int iterations, Real angle = 0) {
    SolverSettings s = vbdSettingsAt(iterations);
    s.ground.enabled = false;
    world.setSettings(s);
    ColliderDef b;
    b.shape = ColliderShape::Box;
    b.halfExtents = Vec3(1, 0.1f, 1);
    b.rotation = Quat(Eigen::AngleAxis<Real>(-angle, Vec3::UnitZ()));
    box = world.addCollider(b);
    ClothDef c;
    c.columns = c.rows = 8;
    c.spacing = 0.5f / 7;
    c.axisU = Vec3(std::cos(angle), -std::sin(angle), 0);
    c.origin = 0.1f * Vec3(std::sin(angle), std::cos(angle), 0) - 0.25f * c.axisU - Vec3(0, 0, 0.25f);
    world.addCloth(c);
  }
};

/// The largest particle speed (m/s).
Real maxSpeed(const World& world) {
  Real fastest = 0;
  for (uint32_t i = 0; i < world.particleCount(); ++i) {
    const Real* v = world.velocities() + 3 * i;
    fastest = std::max(fastest, std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]));
  }
  return fastest;
}

}  // namespace

TEST(VertexBlockDescentContacts, TheGroundsAndStaticCollidersContactsAreEnergiesADynamicOnesAreNot) {
  World world;
  world.setSettings(vbdSettingsAt(1));
  ColliderDef box;
  box.shape = ColliderShape::Box;
  box.position = Vec3(0, 0.1f, 0);
  box.halfExtents = Vec3(0.2f, 0.1f, 0.2f);
  const uint32_t k = world.addCollider(box);
  ClothDef c;
  c.columns = c.rows = 12;
  c.spacing = 0.06f;
  c.origin = Vec3(-0.33f, 0.25f, -0.33f);  // wider than the box: its rim falls to the ground
  world.addCloth(c);
  // After a step: the contacts generated for the last substep, then those the late pass added (projected, a
  // particle pushed inside after the solve). Every generated contact of the ground and of a collider without a body
  // is an energy, numbered into vbdContacts; a dynamic collider's are projected.
  auto check = [&](bool boxIsEnergy) {
    const WorldImpl& m = WorldInternals::of(world);
    const std::vector<Contact>& contacts = m.collision.contacts;
    size_t energies[2] = {0, 0}, lastEnergy = 0, firstLate = contacts.size();  // [ground, box]
    for (size_t j = 0; j < contacts.size(); ++j) {
      const Contact& contact = contacts[j];
      const bool ground = contact.collider == kGroundCollider;
      if (contact.energy == kNotEnergy) {
        if (ground || boxIsEnergy) firstLate = std::min(firstLate, j);
        continue;
      }
      EXPECT_TRUE(ground || boxIsEnergy) << "a dynamic collider's contact was an energy";
      ASSERT_LT(contact.energy, m.solverData.vbdContacts.size());
      EXPECT_EQ(m.solverData.vbdContacts[contact.energy].particle, contact.particle);
      EXPECT_EQ(m.solverData.vbdContacts[contact.energy].surface, contact.collider);
      ++energies[ground ? 0 : 1], lastEnergy = j;
    }
    EXPECT_GT(energies[0], 0u);
    EXPECT_EQ(energies[1] > 0, boxIsEnergy);
    EXPECT_LT(lastEnergy, firstLate) << "a generated contact of the ground or a static collider was projected";
    EXPECT_EQ(m.solverData.vbdContacts.size(), energies[0] + energies[1]);
  };
  // Until the rim touches the ground (about 1 s; when exactly follows rounding, as VBD gains energy on the fall).
  auto touchesGround = [&] {
    for (const Contact& contact : WorldInternals::of(world).collision.contacts)
      if (contact.collider == kGroundCollider) return true;
    return false;
  };
  int frames = 0;
  for (; frames < 180 && (frames < 60 || !touchesGround()); ++frames) world.step(kFrame);
  ASSERT_TRUE(touchesGround()) << "the rim never reached the ground in 3 s";
  check(true);
  ColliderBody body;  // a heavy body resting on the ground: its contacts push it, as projections
  body.mass = 1000, body.inertia = Vec3(10, 10, 10), body.gravity = false;
  world.setColliderBody(k, body);
  for (frames = 0; frames < 60 && (frames < 1 || !touchesGround()); ++frames) world.step(kFrame);
  ASSERT_TRUE(touchesGround());
  check(false);
}

TEST(VertexBlockDescentContacts, ARestingPatchGivesTheBoxItsWeightAtAnyIterationCount) {
  // ColliderImpulse over a step = -(total force on the patch from the box) dt = m g dt downward at rest: the normal
  // forces of the vertex steps, booked once a substep from the last iteration, and (on the turned box) the friction
  // that holds the patch on the slope.
  for (auto [iterations, angle] : {std::pair{1, 0.0f}, {4, 0.0f}, {1, 0.3f}}) {
    PatchOnBox patch(iterations, angle);
    for (int f = 0; f < 60; ++f) patch.world.step(kFrame);
    const Vec3 impulse = patch.world.colliderImpulse(patch.box).linear;
    const Real weight = patch.world.settings().gravity.norm() * kFrame;  // N·s a frame, 1 kg
    std::printf("%d iterations, box turned %.1f rad: impulse %.6f %.6f %.6f (m g dt %.6f)\n", iterations,
                double(angle), double(impulse.x()), double(impulse.y()), double(impulse.z()), double(weight));
    EXPECT_LE((impulse - Vec3(0, -weight, 0)).norm(), 1e-3f * weight)
        << iterations << " iterations, box turned " << angle << " rad";
  }
}

TEST(VertexBlockDescentContacts, ACrumpledClothComesToRestOnTheGround) {
  PBD_LONG_SCENE();
  // A 24² cloth (1 m, defaults) let go hanging with its lower edge 5 cm above the ground: it folds onto it.
  World world;
  world.setSettings(vbdSettingsAt(1));
  ClothDef c;
  c.columns = c.rows = 24;
  c.spacing = 1.0f / 23;
  c.origin = Vec3(-0.5f, 1.05f, 0);
  c.axisV = Vec3(0, -1, 0);
  world.addCloth(c);
  for (int f = 0; f < 240; ++f) world.step(kFrame);
  const Real at4 = maxSpeed(world);
  for (int f = 0; f < 60; ++f) world.step(kFrame);
  std::printf("largest speed: %.2e m/s at 4 s, %.2e at 5 s\n", double(at4), double(maxSpeed(world)));
  EXPECT_LT(at4, 1e-2f);
  EXPECT_LT(maxSpeed(world), 1e-3f);
}

TEST(VertexBlockDescentContacts, SameBitsOnAnyThreadCount) {
  auto run = [](TaskSystem* tasks) {
    World world(tasks);
    world.setSettings(vbdSettingsAt(2));
    ColliderDef sphere;
    sphere.shape = ColliderShape::Sphere;
    sphere.position = Vec3(0, 0.5f, 0);
    sphere.radius = 0.4f;
    world.addCollider(sphere);
    ClothDef c;
    c.columns = c.rows = 48;  // 2,304 particles: the colours span several ranges of 256
    c.spacing = 1.2f / 47;
    c.origin = Vec3(-0.6f, 1.0f, -0.6f);
    c.stretch.compliance = c.shear.compliance = 1e-4f;
    world.addCloth(c);
    for (int f = 0; f < 15; ++f) world.step(kFrame);  // landed on the sphere
    EXPECT_GT(WorldInternals::of(world).solverData.vbdContacts.size(), 100u);
    return scenes::stateHash(world);
  };
  const uint64_t serial = run(nullptr);
  ThreadPool pool(1);
  EXPECT_EQ(run(&pool), serial);
}

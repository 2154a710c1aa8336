// Internal constraints conserve linear and angular momentum. A free-floating cloth with only internal (distance)
// constraints, no gravity and no ground: linear momentum is conserved to round-off. Angular momentum is kept by the
// step's guard (src/world/internal_momentum.cpp), which removes the angular impulse that projecting from moved
// positions leaves; without it a rotating body lost ~½ω²h² of L per substep, and a pre-stressed one spun up. The
// same guard gives back what float32 round-off of the positions takes, so neither depends on the substep count.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <random>

#include "native/world_internals.h"
#include "pbd/task_system.h"
#include "pbd/world.h"
#include "scenes/icosphere.h"
#include "scenes/scenes.h"
#include "scenes/measures.h"
#include "native/long_scene.h"
#include "scenes/free_space.h"
#include "scenes/tet_cube.h"

using namespace pbd;

namespace {

/// A 12x12 cloth with uneven masses, tumbling and translating, plus random velocity noise.
void buildTumblingCloth(World& world, Method method, int substeps) {
  SolverSettings s = scenes::freeSpace();
  s.method = method;
  s.substeps = substeps;
  s.iterations = 2;
  world.setSettings(s);
  ClothDef c;
  c.columns = c.rows = 12;
  c.spacing = 0.1f;
  c.origin = Vec3(-0.55f, 0.3f, -0.55f);
  c.stretch = Strength{1e-5f, 0.9f};
  c.shear = Strength{1e-4f, 0.7f};
  world.addCloth(c);
  std::mt19937 rng(3);
  std::uniform_real_distribution<Real> u(-1, 1);
  const Vec3 omega(0.3f, 2.0f, -0.5f), drift(0.4f, -0.2f, 0.1f);
  for (uint32_t i = 0; i < world.particleCount(); ++i) {
    world.setInverseMass(i, Real(1) / (0.005f + 0.01f * (u(rng) + 1)));
    const Vec3 x(world.positions()[3 * i], world.positions()[3 * i + 1], world.positions()[3 * i + 2]);
    world.setVelocity(i, drift + omega.cross(x) + 0.2f * Vec3(u(rng), u(rng), u(rng)));
  }
}

double angularDrift(Method method, int substeps) {
  World world;
  buildTumblingCloth(world, method, substeps);
  world.step(1.0f / 60);  // the first step removes the noise's constraint-violating part
  const scenes::Momenta before = scenes::momenta(world);
  for (int f = 0; f < 60; ++f) world.step(1.0f / 60);
  const scenes::Momenta after = scenes::momenta(world);
  // Positions are float32, but the guard gives back what each projection's round-off takes (1e-4 |P| over a second
  // at 20 substeps without it). A real leak (a one-sided correction) is O(1).
  EXPECT_LT((after.linear - before.linear).norm(), 1e-5 * before.linear.norm());
  std::printf("substeps %d: |dP|/|P| = %.2e, |dL|/|L| = %.2e\n", substeps,
              (after.linear - before.linear).norm() / before.linear.norm(),
              (after.angular - before.angular).norm() / before.angular.norm());
  return (after.angular - before.angular).norm() / before.angular.norm();
}

/// What a free body's motion kept over 2 s: |ΔP| / |P0|, |ΔL| / |L0| about the origin and about the centre of mass,
/// and how far the centre of mass left its line c0 + t P0 / M (m).
struct FreeBodyDrift {
  double linear, angular, spin, offLine;
  uint64_t hash;        // the state at the end (scenes::stateHash)
  size_t guardChunks;   // how many chunks the guard's passes split the cube's island into
  bool guardOnThreads;  // whether those passes are shared out (enough members in free islands)
};

/// A Neo-Hookean cube (0.4 m, 4³ cells, 1000 kg/m³: 64 kg) floating free, drifting at 1 m/s along x and spinning at
/// `spin` rad/s about (1, 2, 3) through its centre, which starts at y = 1: where float32's ulp doubles, so the
/// worst place for round-off (a uniform bias across the binades moved the centre of mass 6e-5 m in 2 s). `cells`
/// per edge, `frames` of 1/60 s, on `tasks`.
FreeBodyDrift freeCubeDrift(int substeps, Real spin, int cells = 4, int frames = 120, TaskSystem* tasks = nullptr,
                            Integrator integrator = Integrator::ImplicitEuler) {
  World world(tasks);
  SolverSettings settings = scenes::freeSpace(Method::Xpbd, substeps);
  settings.integrator = integrator;
  world.setSettings(settings);
  SoftBodyDef def = scenes::tetCube(cells, 0.4f, Vec3(-0.2f, 0.8f, -0.2f));
  def.edgeConstraints = false;
  def.material = SoftMaterial::NeoHookean;
  world.addSoftBody(def);
  const Vec3 omega = spin * Vec3(1, 2, 3).normalized();
  for (uint32_t i = 0; i < world.particleCount(); ++i) {
    world.setVelocity(i, Vec3(1, 0, 0) + omega.cross(scenes::positionOf(world, i) - Vec3(0, 1, 0)));
  }
  auto centre = [&] {
    double mass = 0;
    Eigen::Vector3d c = Eigen::Vector3d::Zero();
    for (uint32_t i = 0; i < world.particleCount(); ++i) {
      mass += 1.0 / world.inverseMasses()[i];
      c += (1.0 / world.inverseMasses()[i]) * scenes::positionOf(world, i).cast<double>();
    }
    return std::pair{Eigen::Vector3d(c / mass), mass};
  };
  const auto [c0, mass] = centre();
  const scenes::Momenta before = scenes::momenta(world);
  const scenes::CentreMomenta spinBefore = scenes::centreMomenta(world);
  for (int f = 0; f < frames; ++f) world.step(1.0f / 60);
  const scenes::Momenta after = scenes::momenta(world);
  const scenes::CentreMomenta spinAfter = scenes::centreMomenta(world);
  const Eigen::Vector3d line = c0 + (frames / 60.0) * before.linear / mass;
  return {(after.linear - before.linear).norm() / before.linear.norm(),
          (after.angular - before.angular).norm() / before.angular.norm(),
          (spinAfter.angular - spinBefore.angular).norm() / spinBefore.angular.norm(), (centre().first - line).norm(),
          scenes::stateHash(world), WorldInternals::of(world).islands.chunks.size(),
          WorldInternals::of(world).islands.freeMembers >= 2 * kGuardChunkMembers};
}

}  // namespace

// Issue 51 item 2: at 40 substeps this cube lost 5.6e-2 of its linear momentum and 1e-2 of its angular momentum in
// 2 s, and its centre of mass left its line by 5e-2 m, before the guard gave back what round-off takes. The positions
// still round (the centre of mass lags by what a substep's round-off took, a random walk).
TEST(Momentum, AFreeBodyKeepsItsMomentaAtEverySubstepCount) {
  PBD_LONG_SCENE();  // 86 s under the sanitizers, the longest test of npm test's sanitized suite
  for (int substeps : {1, 10, 40, 64}) {
    for (Real spin : {0.3f, 8.0f}) {  // the physics report has 1.3 rad/s
      const FreeBodyDrift d = freeCubeDrift(substeps, spin);
      EXPECT_LT(d.linear, 1e-5) << substeps << " substeps, " << spin << " rad/s";
      EXPECT_LT(d.angular, 1e-4) << substeps << " substeps, " << spin << " rad/s";
      EXPECT_LT(d.spin, 3e-4) << substeps << " substeps, " << spin << " rad/s";
      EXPECT_LT(d.offLine, 1e-4) << substeps << " substeps, " << spin << " rad/s";
      std::printf("%2d substeps, %.1f rad/s: |dP|/|P| %.1e, |dL|/|L| %.1e (origin) %.1e (centre), off line %.1e m\n",
                  substeps, double(spin), d.linear, d.angular, d.spin, d.offLine);
    }
  }
}

// Under BDF2 the guard aims each substep at the island's angular momentum itself (IslandFrame::torqueTarget): BDF2's
// prediction adds about (4/9) (ω h)² of a spinning body's L a substep, which the projections' torque about the lever
// made up for until the guard took that torque out. Before, at 8 rad/s, this cube's L changed by 50 % in 2 s at 1
// substep and 4.9 % at 10, and a rod of two particles gained 150 %, 18 %, 3.8 % and 2.3 % at 1, 10, 40 and 64. Its P
// changed by 1.4e-5 at 64 substeps and 8 rad/s, BDF2's recurrence carrying on every rounding of the velocities the
// guard gave back to, until the guard booked that rounding too (prepareIslandFrames).
TEST(Momentum, AFreeBodyKeepsItsAngularMomentumUnderBdf2) {
  PBD_LONG_SCENE();
  for (int substeps : {1, 10, 40, 64}) {
    for (Real spin : {0.3f, 8.0f}) {
      const FreeBodyDrift d = freeCubeDrift(substeps, spin, 4, 120, nullptr, Integrator::Bdf2);
      std::printf("BDF2, %2d substeps, %.1f rad/s: |dP|/|P| %.1e, |dL|/|L| %.1e\n", substeps, double(spin), d.linear,
                  d.angular);
      EXPECT_LT(d.linear, 1e-5) << substeps << " substeps, " << spin << " rad/s";
      EXPECT_LT(d.angular, 1e-4) << substeps << " substeps, " << spin << " rad/s";
    }
  }
  for (int substeps : {1, 10, 40, 64}) {
    World world;
    SolverSettings settings = scenes::freeSpace(Method::Xpbd, substeps);
    settings.integrator = Integrator::Bdf2;
    world.setSettings(settings);
    const Real r = 0.2f, omega = 8;
    world.addParticle(Vec3(r, 0, 0), 1, Vec3(0, omega * r, 0));
    world.addParticle(Vec3(-r, 0, 0), 1, Vec3(0, -omega * r, 0));
    DistanceConstraintDef rod;
    rod.i = 0, rod.j = 1;
    world.addDistanceConstraint(rod);
    const scenes::Momenta before = scenes::momenta(world);
    for (int f = 0; f < 120; ++f) world.step(1.0f / 60);
    const double drift = (scenes::momenta(world).angular - before.angular).norm() / before.angular.norm();
    std::printf("BDF2 rod, %2d substeps: |dL|/|L| %.1e\n", substeps, drift);
    EXPECT_LT(drift, 1e-5) << substeps << " substeps";
  }
}

// A body too big for one of the guard's chunks (12³ cells, 2,197 particles: four chunks of equal length, three of
// kGuardChunkMembers rounded up to a multiple of kGuardChunkGroups, shared out on threads; the premise, asserted): its
// island's sums add the chunks' in a fixed order, so it keeps its momenta as a small body does, and the same bits on
// 1 to 3 threads as on the calling thread alone.
TEST(Momentum, ABodyOfSeveralGuardChunksKeepsItsMomentaAndItsBitsOnAnyThreadCount) {
#ifdef PBD_SANITIZED_TESTS
  const int frames = 1;  // 45 s under the sanitizers at 4 frames; the wasm suite runs all 4
#else
  const int frames = 4;
#endif
  const FreeBodyDrift serial = freeCubeDrift(40, 8.0f, 12, frames);
  EXPECT_EQ(serial.guardChunks, 4u);
  EXPECT_TRUE(serial.guardOnThreads);
  EXPECT_LT(serial.linear, 1e-5);
  EXPECT_LT(serial.angular, 1e-4);
  EXPECT_LT(serial.spin, 3e-4);
  EXPECT_LT(serial.offLine, 1e-4);
  std::printf("12^3 cube, 40 substeps, 8 rad/s, %d frames: |dP|/|P| %.1e, |dL|/|L| %.1e (origin) %.1e (centre)\n",
              frames, serial.linear, serial.angular, serial.spin);
  for (unsigned workers = 1; workers <= 2; ++workers) {
    ThreadPool pool(workers);
    EXPECT_EQ(freeCubeDrift(40, 8.0f, 12, frames, &pool).hash, serial.hash) << workers << " workers";
  }
}

TEST(Momentum, InternalConstraintsConserveLinearAndAngularMomentum) {
  for (Method m : {Method::Xpbd, Method::Pbd}) {
    EXPECT_LT(angularDrift(m, 20), 0.01) << (m == Method::Xpbd ? "xpbd" : "pbd");
  }
}

TEST(Momentum, CoarseSubstepsKeepAngularMomentumToo) {
  // At 5 substeps the scheme's own drift was 1.2e-2 without the guard; with it, 6e-5 (measured). At 20 substeps both
  // are ~3e-3: the float round-off of the positions, which the guard cannot see, dominates there.
  EXPECT_LT(angularDrift(Method::Xpbd, 5), 1e-3);
  EXPECT_LT(angularDrift(Method::Pbd, 5), 1e-3);
}

namespace {

/// A 0.3 m balloon of 0.2 kg inflated to 1.4 times its rest volume (a rigid volume against a stretchy skin), its
/// centre `height` above the origin.
void addBalloon(World& world, float height) {
  const scenes::IcosphereMesh ico = scenes::icosphere(3, 0.3);
  TriangleMeshDef d;
  d.positions = ico.positions;
  for (size_t k = 1; k < d.positions.size(); k += 3) d.positions[k] += height;
  d.triangles = ico.triangles;
  d.mass = 0.2f;
  d.pressure = 1.4f;
  d.stretch = Strength{1e-4f, 0.5f};
  d.bend = Strength{1, 0.02f};
  d.volume = Strength{0, 1};
  world.addTriangleMesh(d);
}

}  // namespace

// A weightless balloon inflated to 1.4 x its volume with a rigid volume constraint starts with zero angular momentum
// and must keep it. Without the guard, Gauss-Seidel and coloured Gauss-Seidel spun it up by themselves (|L| after
// 2 s: 3.9e-2 and 1.25e-1 kg m²/s; Jacobi: 3e-6; HPBD 0.5; under BDF2 up to 2.8): sequential projections each take
// their correction from positions the earlier ones of the sweep moved, and a rigid volume fighting the skin makes
// large corrections every substep. On the ground the balloon then rolled away (the soak's gallery:balloon failure).
// BDF2 is a two-step scheme that keeps L only to its own order: during the first frames' violent inflation it ends
// with |L| of 1e-4 to 1.4e-3 (measured), then keeps it. Projective Dynamics is left out: this balloon blows up under
// it with or without the guard (400 J of internal motion in the first frame, 600 J under BDF2), a separate problem:
// PD's global step does not see the rigid volume, which the PBD-style pass after it enforces against PD's springs.
TEST(Momentum, AnInflatedBalloonKeepsZeroAngularMomentumUnderEverySolver) {
  PBD_LONG_SCENE();
  for (Solver solver : {Solver::GaussSeidel, Solver::ColouredGaussSeidel, Solver::Jacobi, Solver::Hierarchical})
  for (Integrator integrator : {Integrator::ImplicitEuler, Integrator::Bdf2}) {
    World world;
    SolverSettings s = scenes::freeSpace();
    s.solver = solver;
    s.integrator = integrator;
    world.setSettings(s);
    addBalloon(world, 0);
    for (int f = 0; f < 60; ++f) world.step(1.0f / 60);
    const double L1 = scenes::momenta(world).angular.norm();
    for (int f = 0; f < 60; ++f) world.step(1.0f / 60);
    const double L2 = scenes::momenta(world).angular.norm();
    std::printf("solver %d integrator %d: |L| = %.2e, then %.2e kg m²/s\n", int(solver), int(integrator), L1, L2);
    const bool bdf2 = integrator == Integrator::Bdf2;
    // Round-off alone: 1e-5 kg m²/s and below under implicit Euler; a spin-up is 1e-2 and more, and grows.
    EXPECT_LT(L2, bdf2 ? 3e-3 : 1e-4) << "solver " << int(solver) << " integrator " << int(integrator);
    EXPECT_LT(std::abs(L2 - L1), 1e-4) << "solver " << int(solver) << " integrator " << int(integrator);
  }
}

// On a frictionless ground the contacts push straight up, so nothing turns the balloon about the vertical: its L_y
// stays 0. The ground touches the balloon every substep, so every substep but a step's first runs the guard without
// counting round-off (IslandFrame::slim); the projections' torque must still come out. With the slim substeps' rotation
// left out, L_y reached 5.9e-2 kg m²/s in 2 s (checked); with it, 2e-7.
TEST(Momentum, ABalloonRestingOnAFrictionlessGroundDoesNotSpinUp) {
  World world;
  SolverSettings s = world.settings();
  s.ground.friction = 0;
  world.setSettings(s);
  addBalloon(world, 0.3f);  // resting on the ground
  double largest = 0;
  for (int f = 0; f < 120; ++f) {
    world.step(1.0f / 60);
    largest = std::max(largest, std::abs(scenes::momenta(world).angular.y()));
  }
  std::printf("balloon on a frictionless ground: largest |L_y| over 2 s %.2e kg m²/s\n", largest);
  EXPECT_LT(largest, 1e-4);
}

// The guard works per island, the bodies joined by internal constraints, not per body: a spinning cloth tied to a
// still one by a distance constraint between two bodies spins it up, and only the pair keeps its angular momentum.
// A guard per body would cancel the torque the tie carries (the still cloth would stay still).
TEST(Momentum, BodiesTiedTogetherExchangeAngularMomentum) {
  World world;
  SolverSettings s = scenes::freeSpace();
  world.setSettings(s);
  ClothDef c;
  c.columns = c.rows = 6;
  c.spacing = 0.05f;
  c.origin = Vec3(-0.3f, 0, -0.125f);
  const BodyRange spinning = world.addCloth(c);
  c.origin = Vec3(0.05f, 0, -0.125f);
  const BodyRange still = world.addCloth(c);
  // The spinning cloth's corner at x = -0.05 to the still one's at x = 0.05, 10 cm apart.
  DistanceConstraintDef tie;
  tie.i = spinning.firstParticle + 5;
  tie.j = still.firstParticle;
  world.addDistanceConstraint(tie);
  const Vec3 centre(-0.175f, 0, 0);
  for (uint32_t i = spinning.firstParticle; i < spinning.firstParticle + spinning.particleCount; ++i) {
    const Vec3 x(world.positions()[3 * i], world.positions()[3 * i + 1], world.positions()[3 * i + 2]);
    world.setVelocity(i, Vec3(0, 3, 0).cross(x - centre));  // 3 rad/s about the vertical through its centre
  }
  const Eigen::Vector3d before = scenes::momenta(world).angular;
  for (int f = 0; f < 60; ++f) world.step(1.0f / 60);
  const Eigen::Vector3d total = scenes::momenta(world).angular;
  const Eigen::Vector3d gained =
      scenes::momenta(world, still.firstParticle, still.firstParticle + still.particleCount).angular;
  std::printf("L before %.4e, after %.4e, the still cloth's %.4e kg m²/s\n", before.norm(), total.norm(), gained.norm());
  EXPECT_LT((total - before).norm(), 1e-3 * before.norm());
  EXPECT_GT(gained.norm(), 0.1 * before.norm());
}

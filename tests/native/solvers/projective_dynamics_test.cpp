// Solver::ProjectiveDynamics (Bouaziz et al. 2014): the local projections against their definitions, and the solver
// against analytic answers (free fall, a spring's static stretch mg/w, a pendulum's period), invariants (rest stays
// at rest, linear momentum, volume of a resting soft body), its factorization count and thread-count determinism.
#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <cmath>
#include <cstdio>
#include <vector>

#include "pbd/errors.h"
#include "pbd/task_system.h"
#include "pbd/world.h"
#include "scenes/measures.h"
#include "scenes/scenes.h"
#include "scenes/tet_cube.h"
#include "solvers/projective_dynamics.h"
#include "native/long_scene.h"
#include "scenes/free_space.h"

using namespace pbd;

namespace {

constexpr Real kG = 9.81f;

SolverSettings pdSettings(Method method, int substeps, int iterations, bool gravity, bool ground) {
  SolverSettings s;
  s.solver = Solver::ProjectiveDynamics;
  s.method = method;
  s.substeps = substeps;
  s.iterations = iterations;
  s.gravity = gravity ? Vec3(0, -kG, 0) : Vec3::Zero();
  s.ground.enabled = ground;
  return s;
}

using scenes::positionOf;

Eigen::Matrix3d rotationAbout(const Eigen::Vector3d& axis, double angle) {
  return Eigen::AngleAxisd(angle, axis.normalized()).toRotationMatrix();
}

ClothDef dihedralCloth(int n, Real spacing, const Vec3& origin) {
  ClothDef c = scenes::dihedralCloth(n, spacing, origin);
  c.bend = Strength{1e-2f, 0.5f};
  return c;
}

}  // namespace

// --- Local projections ---

TEST(ProjectiveKernels, EdgeProjectionKeepsDirectionAndClampsLength) {
  const Eigen::Vector3d e(0.3, -0.4, 1.2);  // |e| = 1.3
  const Eigen::Vector3d p = pdProjectEdge(e, 1.0, 1.0);
  EXPECT_NEAR(p.norm(), 1.0, 1e-12);
  EXPECT_NEAR(p.normalized().dot(e.normalized()), 1.0, 1e-12);
  EXPECT_EQ(pdProjectEdge(e, 1.0, 2.0), e);  // inside the slack: no correction
  EXPECT_NEAR(pdProjectEdge(e, 1.5, 2.0).norm(), 1.5, 1e-12);
}

TEST(ProjectiveKernels, ClosestRotationIsThePolarFactor) {
  // F = R0 S with S symmetric positive definite: the polar decomposition's rotation is R0.
  const Eigen::Matrix3d R0 = rotationAbout(Eigen::Vector3d(1, 2, -0.5), 0.9);
  Eigen::Matrix3d S;
  S << 1.3, 0.2, -0.1, 0.2, 0.8, 0.05, -0.1, 0.05, 1.1;
  const Eigen::Matrix3d R = pdClosestRotation(R0 * S);
  EXPECT_LT((R - R0).norm(), 1e-9);
  // A reflected F (det < 0) still gives a proper rotation, and no other rotation nearby is closer.
  Eigen::Matrix3d F = R0 * S;
  F.col(0) = -F.col(0);
  const Eigen::Matrix3d Q = pdClosestRotation(F);
  EXPECT_LT((Q.transpose() * Q - Eigen::Matrix3d::Identity()).norm(), 1e-9);
  EXPECT_NEAR(Q.determinant(), 1.0, 1e-9);
  for (int a = 0; a < 3; ++a) {
    const Eigen::Matrix3d nudge = rotationAbout(Eigen::Vector3d::Unit(a), 1e-3);
    EXPECT_LE((F - Q).norm(), (F - nudge * Q).norm() + 1e-12) << "axis " << a;
  }
}

TEST(ProjectiveKernels, UnitDeterminantProjectionIsClosestOnTheVolumeSet) {
  const Eigen::Matrix3d U = rotationAbout(Eigen::Vector3d(0.3, 1, 0.2), 0.7);
  const Eigen::Matrix3d V = rotationAbout(Eigen::Vector3d(-1, 0.4, 0.9), -0.4);
  const Eigen::Vector3d sigma(1.4, 0.9, 0.6);  // det 0.756: compressed
  const Eigen::Matrix3d F = U * sigma.asDiagonal() * V.transpose();
  const Eigen::Matrix3d T = pdClosestUnitDeterminant(F, false);
  EXPECT_NEAR(T.determinant(), 1.0, 1e-9);
  // Optimality (Lagrange): T - F is parallel to ∂det/∂T = cof T, the normal of {det = 1} at T.
  const Eigen::Matrix3d step = T - F, cof = T.determinant() * T.inverse().transpose();
  EXPECT_NEAR(std::abs(step.cwiseProduct(cof).sum()) / (step.norm() * cof.norm()), 1.0, 1e-6);
  // Unilateral: a stretched tet (det >= 1) is left alone, a compressed one is projected the same way.
  const Eigen::Matrix3d G = 1.2 * F;  // det 1.31
  EXPECT_EQ(pdClosestUnitDeterminant(G, true), G);
  EXPECT_LT((pdClosestUnitDeterminant(F, true) - T).norm(), 1e-12);
  // An inverted tet is sent to an upright one.
  Eigen::Matrix3d inverted = Eigen::Matrix3d::Identity();
  inverted(2, 2) = -0.3;
  EXPECT_NEAR(pdClosestUnitDeterminant(inverted, false).determinant(), 1.0, 1e-9);
}

TEST(ProjectiveKernels, BendingProjectionReachesTheRestAngleAboutTheCentroid) {
  const Vec3 x[4] = {Vec3(0, 0, -1), Vec3(0.3f, 0.8f, 1), Vec3(-1, 0, 0), Vec3(1, 0, 0)};
  Real phi;
  Vec3 grad[4];
  ASSERT_TRUE(evalDihedral(x[0], x[1], x[2], x[3], phi, grad));
  const Real rest = phi + 0.4f;
  Eigen::Vector3d out[4];
  pdProjectBending(x, rest, out);
  Vec3 q[4];
  Eigen::Vector3d sum = Eigen::Vector3d::Zero();
  for (int k = 0; k < 4; ++k) q[k] = out[k].cast<Real>(), sum += out[k];
  ASSERT_TRUE(evalDihedral(q[0], q[1], q[2], q[3], phi, grad));
  EXPECT_NEAR(phi, rest, 1e-4f);
  EXPECT_LT(sum.norm(), 1e-9);
}

// --- The solver ---

TEST(ProjectiveDynamics, RestStaysAtRest) {
  World world;
  world.setSettings(pdSettings(Method::Xpbd, 10, 4, false, false));
  const BodyRange cloth = world.addCloth(dihedralCloth(12, 0.1f, Vec3(-0.5f, 1, -0.5f)));
  SoftBodyDef cube = scenes::tetCube(3, 0.3f, Vec3(1, 0, 0));
  cube.material = SoftMaterial::NeoHookean;
  cube.edgeConstraints = false;
  world.addSoftBody(cube);
  SoftBodyDef box = scenes::tetCube(2, 0.2f, Vec3(2, 0, 0));  // volume tets and edges
  world.addSoftBody(box);
  const std::vector<Real> x0(world.positions(), world.positions() + 3 * world.particleCount());
  for (int f = 0; f < 60; ++f) world.step(1.0f / 60);
  Real maxMove = 0, maxSpeed = 0;
  for (size_t k = 0; k < x0.size(); ++k) {
    maxMove = std::max(maxMove, std::abs(world.positions()[k] - x0[k]));
    maxSpeed = std::max(maxSpeed, std::abs(world.velocities()[k]));
  }
  EXPECT_LT(maxMove, 1e-5f);
  EXPECT_LT(maxSpeed, 1e-4f);
  EXPECT_GT(world.dihedralConstraintCount(), 0u);
  EXPECT_EQ(cloth.particleCount, 144u);
}

TEST(ProjectiveDynamics, FreeFallIsExact) {
  // A rigid cloth and a lone particle fall together: internal elements at rest exert nothing, so every particle
  // follows symplectic Euler's x0 + v0 t + ½ g t² + ½ g t h exactly (free_fall_test.cpp).
  World world;
  SolverSettings s = pdSettings(Method::Xpbd, 4, 2, true, false);
  s.gravity = Vec3(0.5f, -kG, 0.25f);
  world.setSettings(s);
  world.addCloth(dihedralCloth(6, 0.1f, Vec3(0.5f, 1, -0.2f)));
  const Vec3 lone(1, 2, -2), v0(2, 5, -1);
  const uint32_t single = world.addParticle(lone, 1, v0);
  const std::vector<Real> x0(world.positions(), world.positions() + 3 * world.particleCount());
  const Real dt = 1.0f / 60, h = dt / 4, t = 60 * dt;
  for (int f = 0; f < 60; ++f) world.step(dt);
  const Vec3 drop = Real(0.5) * s.gravity * t * t + Real(0.5) * s.gravity * t * h;
  for (uint32_t i = 0; i < world.particleCount(); ++i) {
    const Vec3 start(x0[3 * i], x0[3 * i + 1], x0[3 * i + 2]);
    const Vec3 expected = start + drop + (i == single ? Vec3(v0 * t) : Vec3::Zero());
    ASSERT_LT((positionOf(world, i) - expected).norm(), 2e-3f) << "particle " << i;
  }
}

TEST(ProjectiveDynamics, InternalElementsConserveLinearMomentum) {
  // A free cloth, equal masses, no gravity, stretched by 20% and drifting: the elements pull it back together
  // (large internal forces) while Σ m v stays the same.
  for (Method method : {Method::Xpbd, Method::Pbd}) {
    World world;
    world.setSettings(pdSettings(method, 10, 3, false, false));
    ClothDef c = dihedralCloth(10, 0.1f, Vec3(-0.5f, 0.5f, -0.5f));
    c.stretch = Strength{1e-4f, 0.8f};
    world.addCloth(c);
    const Vec3 drift(0.3f, -0.2f, 0.1f);
    for (uint32_t i = 0; i < world.particleCount(); ++i) {
      world.setPosition(i, Real(1.2) * positionOf(world, i) + Vec3(0, 0.01f * Real(i % 3), 0));  // off the plane too
      world.setVelocity(i, drift);
    }
    const scenes::Momenta before = scenes::momenta(world);
    const Vec3 start = positionOf(world, 0);
    for (int f = 0; f < 30; ++f) world.step(1.0f / 60);
    const scenes::Momenta after = scenes::momenta(world);
    EXPECT_GT((positionOf(world, 0) - start - Real(0.5) * drift).norm(), 0.02f);  // the cloth did contract
    EXPECT_LT((after.linear - before.linear).norm(), 1e-3 * before.linear.norm()) << int(method);
  }
}

namespace {

/// A bob of `mass` hanging from a pin by one edge: mean length over the last half of `seconds` (the equilibrium).
double settledSpringLength(Method method, Integrator integrator, Real mass, const Strength& strength, int substeps,
                     int iterations) {
  World world;
  SolverSettings s = pdSettings(method, substeps, iterations, true, false);
  s.integrator = integrator;
  world.setSettings(s);
  const uint32_t bob = scenes::pinnedBob(world, Vec3(0, -1, 0), 1 / mass, strength);
  double sum = 0;
  int samples = 0;
  for (int f = 0; f < 20 * 60; ++f) {
    world.step(1.0f / 60);
    if (f >= 10 * 60) sum += -double(world.positions()[3 * bob + 1]), ++samples;
  }
  return sum / samples;
}

}  // namespace

TEST(ProjectiveDynamics, SpringStretchIsMgOverTheWeight) {
  // XPBD: w = 1/α, so the static stretch is m g α (like XPBD), for any iteration count and either integrator.
  const Real mass = 2, alpha = 1e-3f;
  const double expected = mass * kG * alpha;
  for (Integrator integrator : {Integrator::ImplicitEuler, Integrator::Bdf2}) {
    for (int iterations : {1, 5}) {
      const double stretch = settledSpringLength(Method::Xpbd, integrator, mass, Strength{alpha, 1}, 4, iterations) - 1;
      std::printf("spring: stretch %.6f m, m g α = %.6f m (iterations %d, integrator %d)\n", stretch, expected,
                  iterations, int(integrator));
      EXPECT_NEAR(stretch, expected, 0.01 * expected) << "iterations " << iterations << " bdf2 " << int(integrator);
    }
  }
  // PBD: w = k/(1-k) m/h², so m g / w = (1-k) h² g / k, PBD's own answer (spring_equilibrium_test.cpp).
  const Real k = 0.5f, h = 1.0f / 60 / 2;
  const double pbdExpected = (1 - k) * h * h * kG / k;
  const double pbdStretch = settledSpringLength(Method::Pbd, Integrator::ImplicitEuler, 1, Strength{0, k}, 2, 3) - 1;
  EXPECT_NEAR(pbdStretch, pbdExpected, 0.01 * pbdExpected);
}

TEST(ProjectiveDynamics, RigidPendulumKeepsItsLengthAndPeriod) {
  World world;
  world.setSettings(pdSettings(Method::Xpbd, 20, 1, true, false));
  const Real length = 1, theta0 = 0.05f;
  const uint32_t bob = scenes::pinnedBob(world, Vec3(length * std::sin(theta0), -length * std::cos(theta0), 0), 1);
  const Real dt = 1.0f / 60;
  std::vector<double> crossings;
  double prevX = world.positions()[3 * bob], worstLength = 0;
  for (int f = 1; f <= 60 * 12; ++f) {
    world.step(dt);
    const double x = world.positions()[3 * bob];
    worstLength = std::max(worstLength, std::abs(double(positionOf(world, bob).norm()) - length));
    if (prevX < 0 && x >= 0) crossings.push_back((f - 1 + -prevX / (x - prevX)) * dt);
    prevX = x;
  }
  ASSERT_GE(crossings.size(), 4u);
  const double period = (crossings.back() - crossings.front()) / double(crossings.size() - 1);
  const double expected = 2 * M_PI * std::sqrt(length / kG);
  std::printf("pendulum: period %.4f s (2π√(L/g) = %.4f s), worst |length - L| = %.2e m\n", period, expected, worstLength);
  EXPECT_NEAR(period, expected, 0.03 * expected);
  EXPECT_LT(worstLength, 1e-3);
}

TEST(ProjectiveDynamics, SoftBodyRestsOnTheGroundWithoutCollapsing) {
  PBD_LONG_SCENE();
  for (SoftMaterial material : {SoftMaterial::NeoHookean, SoftMaterial::Volume}) {
    World world;
    world.setSettings(pdSettings(Method::Xpbd, 10, 5, true, true));
    SoftBodyDef cube = scenes::tetCube(3, 0.3f, Vec3(-0.15f, 0.05f, -0.15f));
    cube.material = material;
    cube.youngsModulus = 1e5f;
    cube.poissonRatio = 0.4f;
    cube.edgeConstraints = material == SoftMaterial::Volume;  // volume tets alone have no shear stiffness
    const BodyRange body = world.addSoftBody(cube);
    const double restVolume = scenes::meshVolume(world, cube, body.firstParticle);
    for (int f = 0; f < 120; ++f) world.step(1.0f / 60);
    const double volume = scenes::meshVolume(world, cube, body.firstParticle);
    Real bottom = 1e9f, top = -1e9f, speed = 0;
    for (uint32_t i = body.firstParticle; i < body.firstParticle + body.particleCount; ++i) {
      bottom = std::min(bottom, world.positions()[3 * i + 1]);
      top = std::max(top, world.positions()[3 * i + 1]);
      speed = std::max(speed, Vec3(world.velocities() + 3 * i).norm());
    }
    std::printf("soft cube (material %d): volume %.4f of rest, height %.4f m of 0.3\n", int(material),
                volume / restVolume, double(top - bottom));
    EXPECT_NEAR(volume, restVolume, 0.03 * restVolume) << "material " << int(material);
    EXPECT_GT(bottom, -1e-4f);       // on the ground, not through it
    EXPECT_LT(bottom, 1e-3f);        // and it did fall onto it
    EXPECT_GT(top - bottom, 0.27f);  // 0.3 m tall at rest: sags, does not collapse
    EXPECT_LT(speed, 0.05f);         // at rest
  }
}

TEST(ProjectiveDynamics, FactorsOnceUntilSomethingTheMatrixDependsOnChanges) {
  World world;
  world.setSettings(pdSettings(Method::Xpbd, 5, 2, true, true));
  ClothDef c = dihedralCloth(8, 0.1f, Vec3(-0.4f, 1, -0.4f));
  c.pinned = {0, 7};
  world.addCloth(c);
  AttachmentDef a;
  a.particle = 60;
  a.target = positionOf(world, 60);
  const uint32_t grab = world.addAttachment(a);
  EXPECT_EQ(world.projectiveFactorizationCount(), 0u);
  for (int f = 0; f < 30; ++f) {
    world.setAttachmentTarget(grab, a.target + Vec3(0, 0.01f * Real(f), 0));  // attachments are not in the matrix
    world.step(1.0f / 60);
  }
  EXPECT_EQ(world.projectiveFactorizationCount(), 1u);
  world.setInverseMass(5, 0);  // one more pin: the reduced system changes
  for (int f = 0; f < 5; ++f) world.step(1.0f / 60);
  EXPECT_EQ(world.projectiveFactorizationCount(), 2u);
  world.setDistanceStrength(0, 3, Strength{1e-3f, 1});  // weights
  world.step(1.0f / 60);
  EXPECT_EQ(world.projectiveFactorizationCount(), 3u);
  world.setSubsteps(7);  // h
  for (int f = 0; f < 5; ++f) world.step(1.0f / 60);
  EXPECT_EQ(world.projectiveFactorizationCount(), 4u);
  world.setMethod(Method::Pbd);  // weights from stiffness
  world.step(1.0f / 60);
  EXPECT_EQ(world.projectiveFactorizationCount(), 5u);
  // Kinematic: the attached particle went where it was led.
  EXPECT_LT((positionOf(world, 60) - (a.target + Vec3(0, 0.29f, 0))).norm(), 1e-4f);
}

TEST(ProjectiveDynamics, BitIdenticalForAnyThreadCount) {
  auto run = [](TaskSystem* tasks) {
    World world(tasks);
    scenes::hangingCloth(world, 70);  // 4900 particles, 29,000 edges: the local step and the right-hand side split
    world.setSolver(Solver::ProjectiveDynamics);
    world.setIterations(2);
    for (int f = 0; f < 4; ++f) world.step(1.0f / 60);
    return scenes::stateHash(world);
  };
  const uint64_t serial = run(nullptr);
  ThreadPool pool(1);
  EXPECT_EQ(run(&pool), serial);
}

TEST(ProjectiveDynamics, UnknownSolverIsRejected) {
  World world;
  EXPECT_THROW(world.setSolver(Solver(int(Solver::VertexBlockDescent) + 1)), InvalidArgument);  // past the last
  EXPECT_EQ(world.settings().solver, Solver::ColouredGaussSeidel);
  world.setSolver(Solver::ProjectiveDynamics);
  EXPECT_EQ(world.settings().solver, Solver::ProjectiveDynamics);
}

// Time integration: implicit Euler is first order and BDF2 second order (halving dt cuts a spring's trajectory
// error by ~2x and ~4x), BDF2 keeps the XPBD equilibrium, and it loses less energy on a swinging spring pendulum.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "pbd/world.h"
#include "scenes/scenes.h"
#include "scenes/free_space.h"

using namespace pbd;

namespace {

constexpr double kOmega = 10;  // rad/s: unit mass on a spring of stiffness 100 N/m (compliance 0.01 m/N)

/// |x(T) - x_exact(T)| for a mass oscillating on an XPBD spring from rest at displacement A, T = 1 s.
double springError(Integrator integrator, int stepsPerSecond) {
  World world;
  SolverSettings s = scenes::freeSpace();
  s.integrator = integrator;
  s.substeps = 1;
  s.iterations = 1;
  world.setSettings(s);
  const double amplitude = 0.2;
  scenes::pinnedBob(world, Vec3(Real(1 + amplitude), 0, 0), 1, Strength{Real(1 / (kOmega * kOmega)), 1}, 1);
  for (int f = 0; f < stepsPerSecond; ++f) world.step(1.0f / Real(stepsPerSecond));
  return std::abs(world.positions()[3] - (1 + amplitude * std::cos(kOmega * 1.0)));
}

/// Total energy of a spring pendulum (unit mass, spring of compliance 1e-3 and rest length 1) after `seconds`.
double pendulumEnergy(Integrator integrator, double seconds, double* initial) {
  World world;
  SolverSettings s;
  s.integrator = integrator;
  s.substeps = 4;
  s.ground.enabled = false;
  world.setSettings(s);
  const Real compliance = 1e-3f;
  scenes::pinnedBob(world, Vec3(std::sin(0.8f), -std::cos(0.8f), 0), 1, Strength{compliance, 1});
  auto energy = [&] {
    const Real* x = world.positions() + 3;
    const Real* v = world.velocities() + 3;
    const double stretch = std::sqrt(double(x[0]) * x[0] + double(x[1]) * x[1] + double(x[2]) * x[2]) - 1;
    return 0.5 * (double(v[0]) * v[0] + double(v[1]) * v[1] + double(v[2]) * v[2]) + 9.81 * x[1] +
           0.5 / compliance * stretch * stretch;
  };
  *initial = energy();
  for (int f = 0; f < int(seconds * 60); ++f) world.step(1.0f / 60);
  return energy();
}

}  // namespace

TEST(Integrator, EulerIsFirstOrderAndBdf2SecondOrder) {
  const double e1 = springError(Integrator::ImplicitEuler, 100), e2 = springError(Integrator::ImplicitEuler, 200);
  const double b1 = springError(Integrator::Bdf2, 100), b2 = springError(Integrator::Bdf2, 200);
  std::printf("spring error at T = 1 s: Euler %.3e -> %.3e (x%.2f), BDF2 %.3e -> %.3e (x%.2f)\n", e1, e2, e1 / e2, b1,
              b2, b1 / b2);
  EXPECT_NEAR(e1 / e2, 2.0, 0.4);
  EXPECT_NEAR(b1 / b2, 4.0, 0.8);
  EXPECT_LT(b1, e1);
}

TEST(Integrator, Bdf2KeepsTheXpbdSpringEquilibrium) {
  World world;
  SolverSettings s;
  s.integrator = Integrator::Bdf2;
  s.substeps = 4;
  s.ground.enabled = false;
  s.linearDamping = 1;  // zero at rest: it only shortens the settling here (BDF2 has no gravity-before-damping shift)
  world.setSettings(s);
  scenes::pinnedBob(world, Vec3(0, -1, 0), 0.5f, Strength{1e-3f, 1});
  for (int f = 0; f < 600; ++f) world.step(1.0f / 60);
  const double expected = 2 * 9.81 * 1e-3;
  EXPECT_NEAR(-world.positions()[4] - 1, expected, 0.01 * expected);
}

TEST(Integrator, Bdf2LosesLessEnergyThanEulerOnASpringPendulum) {
  double initialEuler, initialBdf2;
  const double euler = pendulumEnergy(Integrator::ImplicitEuler, 10, &initialEuler);
  const double bdf2 = pendulumEnergy(Integrator::Bdf2, 10, &initialBdf2);
  std::printf("spring pendulum energy after 10 s (J, from %.4f): Euler %.4f, BDF2 %.4f\n", initialEuler, euler, bdf2);
  EXPECT_GT(bdf2, euler);
  EXPECT_LE(bdf2, initialBdf2 + 1e-3);  // and it does not gain energy
}

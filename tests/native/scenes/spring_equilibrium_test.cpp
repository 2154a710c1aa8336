// A mass hanging from a pinned particle by one distance constraint.
// XPBD: the static extension is m g α whatever the substeps and iterations (Macklin et al. 2016).
// PBD with k' = 1 - (1-k)^(1/n): the stretch does not depend on the iteration count n (Müller et al. 2006, 3.3).
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <tuple>

#include "pbd/world.h"
#include "scenes/scenes.h"

using namespace pbd;

namespace {

constexpr Real kLength = 1;
constexpr Real kGravity = 9.81f;

/// Builds the hanging spring, runs `seconds` of undamped motion and returns the spring's length averaged over the
/// last half: the mean of the (numerically decaying) oscillation is the equilibrium.
Real settledLength(Method method, int substeps, int iterations, Real mass, Strength strength, Real seconds) {
  World world;
  SolverSettings s;
  s.method = method;
  s.substeps = substeps;
  s.iterations = iterations;
  s.gravity = Vec3(0, -kGravity, 0);
  s.ground.enabled = false;
  world.setSettings(s);
  const uint32_t bob = scenes::pinnedBob(world, Vec3(0, -kLength, 0), 1 / mass, strength);
  const int frames = int(seconds * 60);
  double sum = 0;
  int samples = 0;
  for (int f = 0; f < frames; ++f) {
    world.step(1.0f / 60);
    if (f >= frames / 2) {
      sum += -world.positions()[3 * bob + 1];
      ++samples;
    }
  }
  return Real(sum / samples);
}

class XpbdSpring : public ::testing::TestWithParam<std::tuple<int, int>> {};
class PbdSpring : public ::testing::TestWithParam<int> {};

}  // namespace

TEST_P(XpbdSpring, SettlesAtExtensionMgAlpha) {
  const auto [substeps, iterations] = GetParam();
  const Real mass = 2, alpha = 1e-3f;
  const Real extension = settledLength(Method::Xpbd, substeps, iterations, mass, Strength{alpha, 1}, 20) - kLength;
  const Real expected = mass * kGravity * alpha;
  EXPECT_NEAR(extension, expected, 0.01f * expected) << "substeps " << substeps << " iterations " << iterations;
}

INSTANTIATE_TEST_SUITE_P(SubstepsAndIterations, XpbdSpring,
                         ::testing::Combine(::testing::Values(1, 4, 16), ::testing::Values(1, 4, 16)));

TEST_P(PbdSpring, StretchDoesNotDependOnIterations) {
  const int iterations = GetParam();
  const Real k = 0.5f, substeps = 2, dt = 1.0f / 60;
  const Real stretch = settledLength(Method::Pbd, int(substeps), iterations, 1, Strength{0, k}, 20) - kLength;
  // Each projection sequence removes a fraction k of the error of the prediction x + h² g, so at rest
  // s = (1 - k)(s + h² g), s = (1 - k) h² g / k.
  const Real h = dt / substeps;
  const Real expected = (1 - k) * h * h * kGravity / k;
  EXPECT_NEAR(stretch, expected, 0.01f * expected) << "iterations " << iterations;
}

INSTANTIATE_TEST_SUITE_P(Iterations, PbdSpring, ::testing::Values(1, 4, 32));

namespace {

struct DampedCase {
  const char* name;
  Integrator integrator;
  Real linearDamping, rigidDamping;
  int substeps;
};

class DampedXpbdSpring : public ::testing::TestWithParam<DampedCase> {};

}  // namespace

// A damper exerts no force at rest: every damping model acts on the velocity carried over, never on the substep's
// external impulse, so the damped spring comes to rest at the undamped m g α. (Damping applied after gravity held
// it short by a factor 1 - d h: 8 % at d = 5/s and one 1/60 s substep.)
TEST_P(DampedXpbdSpring, RestsAtTheUndampedExtension) {
  const DampedCase c = GetParam();
  const Real mass = 2, alpha = 1e-3f;
  World world;
  SolverSettings s;
  s.method = Method::Xpbd;
  s.integrator = c.integrator;
  s.substeps = c.substeps;
  s.linearDamping = c.linearDamping;
  s.rigidDamping = c.rigidDamping;
  s.gravity = Vec3(0, -kGravity, 0);
  s.ground.enabled = false;
  world.setSettings(s);
  const uint32_t bob = scenes::pinnedBob(world, Vec3(0, -kLength, 0), 1 / mass, Strength{alpha, 1});
  for (int f = 0; f < 600; ++f) world.step(1.0f / 60);
  const Real extension = -world.positions()[3 * bob + 1] - kLength, expected = mass * kGravity * alpha;
  EXPECT_NEAR(extension, expected, 0.002f * expected) << c.name;
  EXPECT_LT(std::abs(world.velocities()[3 * bob + 1]), 1e-4f) << c.name << ": not at rest";
}

INSTANTIATE_TEST_SUITE_P(
    DampingModels, DampedXpbdSpring,
    ::testing::Values(DampedCase{"linear 5/s, 1 substep", Integrator::ImplicitEuler, 5, 0, 1},
                      DampedCase{"linear 5/s, 4 substeps", Integrator::ImplicitEuler, 5, 0, 4},
                      DampedCase{"linear 20/s, 1 substep", Integrator::ImplicitEuler, 20, 0, 1},
                      DampedCase{"linear and rigid-motion, 1 substep", Integrator::ImplicitEuler, 5, 0.5f, 1},
                      DampedCase{"BDF2, linear, 1 substep", Integrator::Bdf2, 5, 0, 1},
                      DampedCase{"BDF2, linear and rigid-motion, 4 substeps", Integrator::Bdf2, 5, 0.5f, 4}),
    [](const ::testing::TestParamInfo<DampedCase>& info) { return "Case" + std::to_string(info.index); });

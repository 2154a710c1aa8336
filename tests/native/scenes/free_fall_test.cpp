// Free fall against x0 + v0 t + ½ g t². Algorithm 1 is symplectic Euler (v += h g, then x += h v), whose
// position after t = N h is exactly x0 + v0 t + ½ g t² + ½ g t h: the test checks that known error term too.
// (The position error term is +½ g t h: each substep moves with the velocity at its end.)
#include <gtest/gtest.h>

#include "pbd/world.h"

using namespace pbd;

namespace {

struct FreeFallCase {
  int substeps;
  int frames;
};

class FreeFall : public ::testing::TestWithParam<FreeFallCase> {};

}  // namespace

TEST_P(FreeFall, MatchesAnalyticTrajectoryUpToTheSchemesKnownError) {
  const auto [substeps, frames] = GetParam();
  World world;
  SolverSettings s;
  s.substeps = substeps;
  s.gravity = Vec3(0.5f, -9.81f, 0.25f);
  s.ground.enabled = false;
  world.setSettings(s);
  // Near the origin: positions are float32, and the velocity (p - x) / h resolves ulp(x) / h, so far from the
  // origin and at small h the velocity itself gets coarse (at y = 100 m and h = 1/240 s: 2 mm/s).
  const Vec3 x0(1, 2, -2), v0(2, 5, -1);
  world.addParticle(x0, 1, v0);
  const Real dt = 1.0f / 60, h = dt / Real(substeps);
  for (int f = 0; f < frames; ++f) world.step(dt);
  const Real t = frames * dt;
  const Vec3 x(world.positions()[0], world.positions()[1], world.positions()[2]);
  const Vec3 exact = x0 + v0 * t + Real(0.5) * s.gravity * t * t;
  const Vec3 schemeError = Real(0.5) * s.gravity * t * h;
  for (int a = 0; a < 3; ++a) {
    EXPECT_NEAR(x[a], exact[a] + schemeError[a], 2e-3f) << "axis " << a;
  }
  // The scheme's error is real and first order: it is not hidden by the tolerance above.
  EXPECT_GT((x - exact).norm(), 0.5f * schemeError.norm());
  const Vec3 v(world.velocities()[0], world.velocities()[1], world.velocities()[2]);
  EXPECT_LT((v - (v0 + s.gravity * t)).norm(), 2e-3f);
}

INSTANTIATE_TEST_SUITE_P(Substeps, FreeFall,
                         ::testing::Values(FreeFallCase{1, 60}, FreeFallCase{4, 60}, FreeFallCase{16, 30}));

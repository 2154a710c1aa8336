// A rigid pendulum (compliance 0) swinging at small amplitude has period 2π√(L/g).
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "pbd/world.h"
#include "scenes/scenes.h"

using namespace pbd;

namespace {

/// Returns the mean period measured from upward zero crossings of the bob's x coordinate.
double measuredPeriod(Method method, int substeps, Real length, Real theta0) {
  World world;
  SolverSettings s;
  s.method = method;
  s.substeps = substeps;
  s.iterations = 1;
  s.ground.enabled = false;
  world.setSettings(s);
  const uint32_t bob = scenes::pinnedBob(world, Vec3(length * std::sin(theta0), -length * std::cos(theta0), 0), 1);
  const Real dt = 1.0f / 60;
  std::vector<double> crossings;
  double prevX = world.positions()[3 * bob];
  for (int f = 1; f <= 60 * 12; ++f) {
    world.step(dt);
    const double x = world.positions()[3 * bob];
    if (prevX < 0 && x >= 0) crossings.push_back((f - 1 + -prevX / (x - prevX)) * dt);
    prevX = x;
  }
  EXPECT_GE(crossings.size(), 4u);
  return (crossings.back() - crossings.front()) / double(crossings.size() - 1);
}

}  // namespace

TEST(Pendulum, SmallAnglePeriodIsTwoPiRootLOverG) {
  const Real length = 1, theta0 = 0.05f;
  const double expected = 2 * M_PI * std::sqrt(length / 9.81);
  for (Method m : {Method::Xpbd, Method::Pbd}) {
    const double period = measuredPeriod(m, 20, length, theta0);
    EXPECT_NEAR(period, expected, 0.01 * expected) << (m == Method::Xpbd ? "xpbd" : "pbd");
  }
}

TEST(Pendulum, LongerPendulumSwingsSlower) {
  // Guards against a test that passes for any period: T scales with √L.
  const double shortT = measuredPeriod(Method::Xpbd, 20, 0.25f, 0.05f);
  const double longT = measuredPeriod(Method::Xpbd, 20, 1.0f, 0.05f);
  EXPECT_NEAR(longT / shortT, 2.0, 0.02);
}

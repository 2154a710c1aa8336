// The skinned constraint's projection (constraints/skinned.h): the result is allowed (within the maximum distance,
// not behind the backstop), an allowed point stays where it is, and with a plane backstop the result is the nearest
// allowed point (checked against many allowed points: none is nearer).
#include <gtest/gtest.h>

#include <random>

#include "constraints/skinned.h"

using namespace pbd;

namespace {

struct Case {
  Vec3 s, n, p;
  Real maxDistance, backstopDistance, backstopRadius;
};

Vec3 randomUnit(std::mt19937& rng) {
  std::normal_distribution<float> g;
  Vec3 v(g(rng), g(rng), g(rng));
  return v.normalized();
}

Case randomCase(std::mt19937& rng, bool sphere) {
  std::uniform_real_distribution<float> u(0, 1), box(-1, 1);
  Case c;
  c.s = Vec3(box(rng), box(rng), box(rng));
  c.n = randomUnit(rng);
  c.p = c.s + 0.6f * Vec3(box(rng), box(rng), box(rng));
  c.maxDistance = 0.4f * u(rng);
  c.backstopDistance = 0.3f * u(rng);
  c.backstopRadius = sphere ? 0.05f + 0.5f * u(rng) : 0;
  return c;
}

bool allowed(const Case& c, const Vec3& p, Real slack) {
  if ((p - c.s).norm() > c.maxDistance + slack) return false;
  if (c.backstopRadius == 0) return (p - c.s).dot(c.n) >= -c.backstopDistance - slack;
  const Vec3 centre = c.s - (c.backstopDistance + c.backstopRadius) * c.n;
  return (p - centre).norm() >= c.backstopRadius - slack;
}

Vec3 projected(const Case& c) {
  Vec3 p = c.p;
  projectSkinned(p, c.s, c.n, c.maxDistance, c.backstopDistance, c.backstopRadius);
  return p;
}

}  // namespace

TEST(SkinnedKernel, ResultIsAllowedForPlaneAndSphereBackstops) {
  std::mt19937 rng(7);
  for (bool sphere : {false, true}) {
    for (int k = 0; k < 5000; ++k) {
      const Case c = randomCase(rng, sphere);
      EXPECT_TRUE(allowed(c, projected(c), 2e-6f)) << "case " << k << (sphere ? " sphere" : " plane");
    }
  }
}

TEST(SkinnedKernel, AllowedPointStaysPut) {
  std::mt19937 rng(11);
  int checked = 0;
  for (bool sphere : {false, true}) {
    for (int k = 0; k < 5000; ++k) {
      const Case c = randomCase(rng, sphere);
      if (!allowed(c, c.p, 0)) continue;
      ++checked;
      EXPECT_EQ(projected(c), c.p) << "case " << k;
    }
  }
  EXPECT_GT(checked, 200);
}

TEST(SkinnedKernel, PlaneBackstopGivesTheNearestAllowedPoint) {
  std::mt19937 rng(3);
  std::uniform_real_distribution<float> box(-1, 1);
  for (int k = 0; k < 300; ++k) {
    const Case c = randomCase(rng, false);
    const Vec3 q = projected(c);
    const Real best = (q - c.p).norm();
    for (int t = 0; t < 2000; ++t) {  // allowed points around s: none nearer to p than q
      const Vec3 candidate = c.s + c.maxDistance * Vec3(box(rng), box(rng), box(rng));
      if (!allowed(c, candidate, 0)) continue;
      ASSERT_GE((candidate - c.p).norm(), best - 1e-5f) << "case " << k;
    }
  }
}

TEST(SkinnedKernel, ZeroMaximumDistanceLandsOnTheSkinnedPointExactly) {
  Vec3 p(0.3f, -0.2f, 0.7f);
  const Vec3 s(0.1f, 0.2f, 0.3f);
  projectSkinned(p, s, Vec3(0, 1, 0), 0, 0, 0);
  EXPECT_EQ(p, s);
}

TEST(SkinnedKernel, ZeroNormalOrNegativeBackstopDistanceTurnsTheBackstopOff) {
  const Vec3 s(0, 0, 0), behind(0, -0.5f, 0);
  Vec3 p = behind;
  projectSkinned(p, s, Vec3::Zero(), 1, 0, 0);
  EXPECT_EQ(p, behind);
  projectSkinned(p, s, Vec3(0, 1, 0), 1, -1, 0);
  EXPECT_EQ(p, behind);
  projectSkinned(p, s, Vec3(0, 1, 0), 1, 0.1f, 0);  // on: onto the plane 0.1 below s
  EXPECT_NEAR(p.y(), -0.1f, 1e-7f);
}

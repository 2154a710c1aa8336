// Long-range attachments: the kernel (gradient, one-sided, exact), the builder (nearest pin, Euclidean and
// geodesic limits), and the point of them: a cloth that stops stretching at one iteration per substep.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <vector>

#include "constraints/tether.h"
#include "pbd/world.h"
#include "scenes/finite_difference.h"
#include "scenes/scenes.h"
#include "bodies/body_builders.h"

using namespace pbd;

TEST(TetherKernel, GradientMatchesCentralDifferences) {
  const Vec3 anchor(0.2f, 1, -0.3f), p(0.9f, -0.4f, 0.5f);
  const Vec3 grad = (p - anchor).normalized();
  const Vec3 fd = scenes::centralDifference([&](const Vec3& y) { return tetherValue(y, anchor, 1); }, p);
  for (int a = 0; a < 3; ++a) EXPECT_NEAR(fd[a], grad[a], 1e-3f);
}

TEST(TetherKernel, PullsBackOnlyWhenTooFarAndLandsOnTheLimit) {
  const Vec3 anchor(1, 2, 3);
  Vec3 inside = anchor + Vec3(0.3f, 0, 0);
  EXPECT_EQ(projectTether(inside, anchor, 0.5f), 0);
  EXPECT_EQ(inside, anchor + Vec3(0.3f, 0, 0));
  Vec3 outside = anchor + Vec3(0.6f, -0.8f, 0);  // 1 m away
  EXPECT_NEAR(projectTether(outside, anchor, 0.5f), 0.5f, 1e-6f);
  EXPECT_NEAR((outside - anchor).norm(), 0.5f, 1e-6f);
  EXPECT_NEAR((outside - anchor).normalized().x(), 0.6f, 1e-6f);  // along the same direction
}

TEST(TetherBuilder, NearestPinAndLimitsEuclideanAndGeodesic) {
  ClothDef c;
  c.columns = 9;
  c.rows = 6;
  c.spacing = 0.1f;
  c.pinned = {0, 8};
  c.tethers = TetherMode::Euclidean;
  const BodyBlueprint euclid = buildCloth(c);
  c.tethers = TetherMode::Geodesic;
  const BodyBlueprint geodesic = buildCloth(c);
  ASSERT_EQ(euclid.tethers.size(), 9u * 6 - 2);
  ASSERT_EQ(geodesic.tethers.size(), euclid.tethers.size());
  auto at = [&](uint32_t i) { return Vec3(euclid.positions[3 * i], euclid.positions[3 * i + 1], euclid.positions[3 * i + 2]); };
  for (size_t k = 0; k < euclid.tethers.size(); ++k) {
    const Tether& t = euclid.tethers[k];
    const Real toFirst = (at(t.particle) - at(0)).norm(), toLast = (at(t.particle) - at(8)).norm();
    EXPECT_NEAR(t.maxLength, std::min(toFirst, toLast), 1e-6f);
    EXPECT_EQ(t.anchor, toFirst <= toLast ? 0u : 8u);
    // Along the cloth is never shorter than the straight line, and on the pinned edge it is the same.
    EXPECT_GE(geodesic.tethers[k].maxLength, t.maxLength - 1e-6f);
    if (t.particle < 9) {
      EXPECT_NEAR(geodesic.tethers[k].maxLength, t.maxLength, 1e-5f);
    }
  }
}

namespace {

/// A rigid n x n cloth hanging from two corners at 10 substeps x 1 iteration, with the given tethers; returns the
/// largest ratio |p - anchor| / limit seen at the end of any frame, for the tethers `limits` (built separately,
/// so that a cloth without tethers can be measured against the same limits).
double worstTetherRatio(int n, int frames, TetherMode mode, const std::vector<Tether>& limits) {
  World world;
  SolverSettings s;
  s.substeps = 10;
  s.iterations = 1;
  s.ground.enabled = false;
  world.setSettings(s);
  ClothDef c;
  c.columns = c.rows = n;
  c.spacing = 1.0f / Real(n - 1);
  c.origin = Vec3(-0.5f, 1.0f, 0);
  c.pinned = {0, uint32_t(n - 1)};
  c.bend = Strength{0, 1};
  c.tethers = mode;
  const BodyRange range = world.addCloth(c);
  EXPECT_EQ(range.tetherCount, mode == TetherMode::None ? 0u : uint32_t(n * n - 2));
  double worst = 0;
  for (int f = 0; f < frames; ++f) {
    world.step(1.0f / 60);
    const Real* x = world.positions();
    for (const Tether& t : limits) {
      const Vec3 p(x[3 * t.particle], x[3 * t.particle + 1], x[3 * t.particle + 2]);
      const Vec3 a(x[3 * t.anchor], x[3 * t.anchor + 1], x[3 * t.anchor + 2]);
      worst = std::max(worst, double((p - a).norm() / t.maxLength));
    }
  }
  return worst;
}

ClothDef tetheredCloth(int n, TetherMode mode) {
  ClothDef c;
  c.columns = c.rows = n;
  c.spacing = 1.0f / Real(n - 1);
  c.pinned = {0, uint32_t(n - 1)};
  c.tethers = mode;
  return c;
}

}  // namespace

TEST(Tethers, AHangingClothStopsStretchingAtOneIterationPerSubstep) {
  // Without tethers, a rigid 96 x 96 cloth at one iteration per substep sags: particles end up further from the
  // pins than the cloth's rest shape allows. With tethers they never do, at the end of any frame.
  const int n = 96, frames = 90;
  const std::vector<Tether> euclidean = buildCloth(tetheredCloth(n, TetherMode::Euclidean)).tethers;
  const std::vector<Tether> geodesic = buildCloth(tetheredCloth(n, TetherMode::Geodesic)).tethers;
  const double plain = worstTetherRatio(n, frames, TetherMode::None, euclidean);
  const double withEuclidean = worstTetherRatio(n, frames, TetherMode::Euclidean, euclidean);
  const double withGeodesic = worstTetherRatio(n, frames, TetherMode::Geodesic, geodesic);
  std::printf("worst distance to the pin / limit: none %.4f, euclidean %.6f, geodesic %.6f\n", plain, withEuclidean,
              withGeodesic);
  EXPECT_GT(plain, 1.02);
  EXPECT_LE(withEuclidean, 1.00001);
  EXPECT_LE(withGeodesic, 1.00001);
}

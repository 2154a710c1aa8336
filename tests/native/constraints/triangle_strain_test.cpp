// Strain-based triangle stretch and shear: gradients against central differences, no correction at rest or after a
// rigid motion, no momentum from the correction, engineering strain and shear sign, stretch and shear set separately,
// degenerate rest triangles rejected.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <string>

#include "constraints/triangle_strain.h"
#include "native/batch_oracle.h"
#include "scenes/finite_difference.h"

using namespace pbd;

namespace {

/// A right triangle in the z = 0 plane with legs 2 (along x) and 1 (along y): rest frame ex = x, ey = y.
const Vec3 kRest[3] = {Vec3(0, 0, 0), Vec3(2, 0, 0), Vec3(0, 1, 0)};

Mat2 restInverse(const Vec3 X[3] = kRest, const Vec3& warp = Vec3::Zero()) {
  Mat2 inverse;
  Real area = 0;
  EXPECT_TRUE(restTriangleFrame(X, inverse, area, warp));
  return inverse;
}

/// The value of one constraint at positions x (NaN when degenerate).
Real strainValue(const Vec3 x[3], const Mat2& inverse, TriangleStrain which) {
  const Vec3* q[3] = {&x[0], &x[1], &x[2]};
  Real C = std::numeric_limits<Real>::quiet_NaN();
  Vec3 grad[3];
  triangleStrain(q, inverse, which, C, grad);
  return C;
}

Real strainValue(const Vec3 x[3], TriangleStrain which) { return strainValue(x, restInverse(), which); }

/// Strengths of stretch and shear in one method.
struct Strength2 {
  bool xpbd;
  Real kPrime[2];      ///< {stretch, shear}
  Real alphaTilde[2];  ///< {stretch, shear}
};

const Real kInf = std::numeric_limits<Real>::infinity();

/// One projection of x in place; returns the largest vertex move.
Real project(Vec3 x[3], const Real w[3], const Mat2& inverse, const Strength2& s, Real lambda[3]) {
  const Vec3 before[3] = {x[0], x[1], x[2]};
  Vec3* p[3] = {&x[0], &x[1], &x[2]};
  projectTriangleStrain(p, w, inverse, s.xpbd, s.kPrime, s.alphaTilde, lambda);
  Real m = 0;
  for (int k = 0; k < 3; ++k) m = std::max(m, (x[k] - before[k]).norm());
  return m;
}

Real project(Vec3 x[3], const Real w[3], const Strength2& s) {
  Real lambda[3] = {0, 0, 0};
  return project(x, w, restInverse(), s, lambda);
}

}  // namespace

TEST(TriangleStrainKernel, GradientsMatchCentralDifferences) {
  std::mt19937 rng(4);
  std::uniform_real_distribution<Real> u(-0.4f, 0.4f);
  for (int trial = 0; trial < 40; ++trial) {
    Vec3 X[3], x[3];
    for (int k = 0; k < 3; ++k) X[k] = kRest[k] + Vec3(u(rng), u(rng), u(rng));  // a random rest triangle too
    const Mat2 inverse = restInverse(X, trial % 2 ? Vec3(1, 1, 0) : Vec3::Zero());
    for (int k = 0; k < 3; ++k) x[k] = X[k] + Vec3(u(rng), u(rng), u(rng));
    const Vec3* q[3] = {&x[0], &x[1], &x[2]};
    for (TriangleStrain which : {TriangleStrain::StretchX, TriangleStrain::StretchY, TriangleStrain::Shear}) {
      Real C;
      Vec3 grad[3];
      ASSERT_TRUE(triangleStrain(q, inverse, which, C, grad));
      for (int k = 0; k < 3; ++k) {
        const Vec3 fd = scenes::centralDifference(
            [&](const Vec3& y) {
              Vec3 z[3] = {x[0], x[1], x[2]};
              z[k] = y;
              return strainValue(z, inverse, which);
            },
            x[k]);
        EXPECT_LT((fd - grad[k]).norm(), 3e-3f * (1 + grad[k].norm()))
            << "trial " << trial << " constraint " << int(which) << " vertex " << k;
      }
    }
  }
}

TEST(TriangleStrainKernel, NoCorrectionAtRestOrAfterARigidMotion) {
  std::mt19937 rng(6);
  std::uniform_real_distribution<Real> u(-1, 1);
  const Real w[3] = {1, 2, 0.5f};
  for (int trial = 0; trial < 20; ++trial) {
    const Eigen::AngleAxis<Real> rotation(trial == 0 ? 0 : 3 * u(rng), Vec3(u(rng), u(rng), u(rng)).normalized());
    const Vec3 shift = trial == 0 ? Vec3::Zero() : Vec3(5 * u(rng), 5 * u(rng), 5 * u(rng));
    Vec3 start[3];
    for (int k = 0; k < 3; ++k) start[k] = rotation * kRest[k] + shift;
    for (const Strength2& s : {Strength2{true, {1, 1}, {0, 0}}, Strength2{false, {1, 1}, {0, 0}}}) {
      Vec3 x[3] = {start[0], start[1], start[2]};
      EXPECT_LT(project(x, w, s), 2e-6f) << "trial " << trial;
    }
  }
}

TEST(TriangleStrainKernel, CorrectionsCarryNoLinearOrAngularMomentum) {
  std::mt19937 rng(10);
  std::uniform_real_distribution<Real> u(-0.4f, 0.4f);
  const Real mass[3] = {1, 4, 0.5f};
  const Real w[3] = {1 / mass[0], 1 / mass[1], 1 / mass[2]};
  const Mat2 inverse = restInverse();
  // One constraint's step (gradients taken at one configuration) conserves both exactly; the three in a row
  // (projectTriangleStrain) conserve linear momentum exactly and angular momentum to second order.
  for (int trial = 0; trial < 30; ++trial) {
    Vec3 start[3];
    for (int k = 0; k < 3; ++k) start[k] = kRest[k] + Vec3(u(rng), u(rng), u(rng)) + Vec3(0.5f, -1, 2);
    for (int which = 0; which < 4; ++which) {
      Vec3 x[3] = {start[0], start[1], start[2]};
      Vec3* p[3] = {&x[0], &x[1], &x[2]};
      if (which < 3) {
        Real C;
        Vec3 grad[3];
        ASSERT_TRUE(triangleStrain(p, inverse, TriangleStrain(which), C, grad));
        projectAlongGradients(p, w, grad, 3, C, 0, true, 1, 0, 0);
      } else {
        project(x, w, Strength2{true, {1, 1}, {0, 0}});
      }
      Vec3 linear = Vec3::Zero(), angular = Vec3::Zero();
      Real scale = 0;
      for (int k = 0; k < 3; ++k) {
        linear += mass[k] * (x[k] - start[k]);
        angular += mass[k] * start[k].cross(x[k] - start[k]);
        scale += mass[k] * (x[k] - start[k]).norm();
      }
      EXPECT_LT(linear.norm(), 1e-5f * scale + 2e-5f) << "trial " << trial;
      if (which < 3) {
        EXPECT_LT(angular.norm(), 3e-5f * scale + 6e-5f) << "trial " << trial << " constraint " << which;
      }
    }
  }
}

TEST(TriangleStrainKernel, PureStretchIsTheEngineeringStrainAndShearHasASign) {
  // 20% longer along x, 10% shorter along y: C_xx = 0.2, C_yy = -0.1, no shear.
  const Vec3 stretched[3] = {Vec3(0, 0, 0), Vec3(2.4f, 0, 0), Vec3(0, 0.9f, 0)};
  EXPECT_NEAR(strainValue(stretched, TriangleStrain::StretchX), 0.2f, 1e-6f);
  EXPECT_NEAR(strainValue(stretched, TriangleStrain::StretchY), -0.1f, 1e-6f);
  EXPECT_NEAR(strainValue(stretched, TriangleStrain::Shear), 0, 1e-6f);
  // The y axis leaning towards +x by θ keeps both lengths and gives C_xy = sin θ > 0 (axes closing up);
  // leaning away gives the opposite sign.
  for (Real theta : {0.3f, -0.3f}) {
    const Vec3 sheared[3] = {Vec3(0, 0, 0), Vec3(2, 0, 0), Vec3(std::sin(theta), std::cos(theta), 0)};
    EXPECT_NEAR(strainValue(sheared, TriangleStrain::StretchX), 0, 1e-6f);
    EXPECT_NEAR(strainValue(sheared, TriangleStrain::StretchY), 0, 1e-6f);
    EXPECT_NEAR(strainValue(sheared, TriangleStrain::Shear), std::sin(theta), 1e-6f);
  }
  // A warp direction along the y axis swaps the roles of the stretches.
  Vec3 alongY[3] = {Vec3(0, 0, 0), Vec3(2, 0, 0), Vec3(0, 1, 0)};
  const Mat2 warpY = restInverse(kRest, Vec3(0, 1, 0));
  alongY[2].y() = 1.3f;
  EXPECT_NEAR(strainValue(alongY, warpY, TriangleStrain::StretchX), 0.3f, 1e-6f);
  EXPECT_NEAR(strainValue(alongY, warpY, TriangleStrain::StretchY), 0, 1e-6f);
}

TEST(TriangleStrainKernel, StretchAndShearAreSetSeparately) {
  const Real w[3] = {1, 1, 1};
  const Vec3 sheared[3] = {Vec3(0, 0, 0), Vec3(2, 0, 0), Vec3(std::sin(0.4f), std::cos(0.4f), 0)};
  const Vec3 stretched[3] = {Vec3(0, 0, 0), Vec3(2.6f, 0, 0), Vec3(0, 1.2f, 0)};
  // Shear off (PBD k = 0, or XPBD α = +∞): a purely sheared triangle is left alone, whatever the stretch strength.
  for (const Strength2& s : {Strength2{false, {1, 0}, {0, 0}}, Strength2{true, {1, 1}, {0, kInf}}}) {
    Vec3 x[3] = {sheared[0], sheared[1], sheared[2]};
    Real lambda[3] = {0, 0, 0};
    for (int it = 0; it < 20; ++it) EXPECT_LT(project(x, w, restInverse(), s, lambda), 1e-6f);
    EXPECT_EQ(lambda[2], 0);
    EXPECT_NEAR(strainValue(x, TriangleStrain::Shear), std::sin(0.4f), 1e-5f);
  }
  // Stretch off: a purely stretched triangle is left alone; shear on removes the shear.
  for (const Strength2& s : {Strength2{false, {0, 1}, {0, 0}}, Strength2{true, {1, 1}, {kInf, 0}}}) {
    Vec3 x[3] = {stretched[0], stretched[1], stretched[2]};
    EXPECT_EQ(project(x, w, s), 0);
    Vec3 y[3] = {sheared[0], sheared[1], sheared[2]};
    Real lambda[3] = {0, 0, 0};
    for (int it = 0; it < 20; ++it) project(y, w, restInverse(), s, lambda);
    EXPECT_LT(std::abs(strainValue(y, TriangleStrain::Shear)), 1e-4f);
  }
  // Both on, rigid: the stretched triangle comes back to its rest lengths.
  Vec3 x[3] = {stretched[0], stretched[1], stretched[2]};
  Real lambda[3] = {0, 0, 0};
  for (int it = 0; it < 20; ++it) project(x, w, restInverse(), Strength2{true, {1, 1}, {0, 0}}, lambda);
  EXPECT_NEAR((x[1] - x[0]).norm(), 2, 1e-4f);
  EXPECT_NEAR((x[2] - x[0]).norm(), 1, 1e-4f);
  EXPECT_NEAR((x[2] - x[1]).norm(), std::sqrt(5.0f), 1e-4f);
}

TEST(TriangleStrainKernel, DegenerateRestTrianglesAreRejectedAndCollapsedOnesLeftAlone) {
  Mat2 inverse;
  Real area = -1;
  const Vec3 line[3] = {Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(3, 0, 0)};
  EXPECT_FALSE(restTriangleFrame(line, inverse, area));
  EXPECT_EQ(area, 0);
  EXPECT_FALSE(restTriangleFrame(kRest, inverse, area, Vec3(0, 0, 1)));  // warp along the normal
  ASSERT_TRUE(restTriangleFrame(kRest, inverse, area));
  EXPECT_NEAR(area, 1, 1e-6f);
  // Current positions all on one point, or all pinned: no correction, no NaN.
  const Real w[3] = {1, 1, 1}, pinned[3] = {0, 0, 0};
  Vec3 point[3] = {Vec3(1, 1, 1), Vec3(1, 1, 1), Vec3(1, 1, 1)};
  EXPECT_EQ(project(point, w, Strength2{true, {1, 1}, {0, 0}}), 0);
  Vec3 x[3] = {Vec3(0, 0, 0), Vec3(3, 0, 0), Vec3(0, 2, 0)};
  EXPECT_EQ(project(x, pinned, Strength2{true, {1, 1}, {0, 0}}), 0);
}

TEST(TriangleStrainKernel, FourWideBatchIsBitIdenticalToOneByOne) {
  // 37 to 39 independent triangles (3 particles each): random shapes around the rest triangle, flattened onto a line,
  // shrunk to a point, pinned vertices, free, soft and rigid stretch and shear, in both methods; the batch
  // path (batches of 4 lanes, the last short by 3 to 1, on padded positions) must match projectTriangleStrain
  // exactly and keep the inverse masses.
  std::mt19937 rng(11);
  std::uniform_real_distribution<Real> u(-1, 1);
  for (int n : {37, 38, 39}) {
    std::vector<Real> xyz(9 * n), w(3 * n), lambda(3 * n);
    std::vector<TriangleStrainConstraint> cs(n);
    std::vector<uint32_t> order;
    for (int k = 0; k < n; ++k) {
      TriangleStrainConstraint& c = cs[k];
      Vec3 rest[3];
      for (int v = 0; v < 3; ++v) rest[v] = kRest[v] + 0.3f * Vec3(u(rng), u(rng), 0.5f * u(rng));
      ASSERT_TRUE(restTriangleFrame(rest, c.restInverse, c.restArea));
      c.stretchCompliance = k % 4 == 0 ? 0 : k % 4 == 1 ? 1e-3f : kInf;
      c.shearCompliance = k % 3 == 0 ? 0 : k % 3 == 1 ? 1e-2f : kInf;
      c.stretchKPrime = k % 5 == 0 ? 0 : 0.7f, c.shearKPrime = k % 7 == 0 ? 0 : 0.4f;
      for (int v = 0; v < 3; ++v) {
        c.p[v] = uint32_t(3 * k + v);
        Vec3 x = rest[v] + 0.4f * Vec3(u(rng), u(rng), u(rng));
        if (k % 9 == 4 && v == 2) {  // on the line through the other two: F of rank 1, the shear at ±1
          for (int a = 0; a < 3; ++a) x[a] = 2 * xyz[9 * k + 3 + a] - xyz[9 * k + a];
        }
        if (k % 11 == 6) x = Vec3(0.5f, 0.5f, 0.5f);  // shrunk to a point
        for (int a = 0; a < 3; ++a) xyz[9 * k + 3 * v + a] = x[a];
        w[3 * k + v] = (k + v) % 5 == 0 ? 0 : 1 + 0.5f * u(rng);
      }
      for (int s3 = 0; s3 < 3; ++s3) lambda[3 * k + s3] = 0.01f * u(rng);
      order.push_back(uint32_t(n - 1 - k));  // any order within a colour
    }
    for (bool xpbd : {true, false}) {
      test::expectBatchMatchesOneByOne(
          xyz, w, lambda,
          [&](Real* xyzw, Real* batchLambda) {
            projectTriangleStrainsBatched(cs.data(), order.data(), 0, n, batchLambda, xyzw, xpbd, 3600);
          },
          [&](Vec3* P, Real* serialLambda) {
            for (uint32_t k : order) {
              const TriangleStrainConstraint& c = cs[k];
              Vec3* ps[3] = {&P[c.p[0]], &P[c.p[1]], &P[c.p[2]]};
              const Real ws[3] = {w[c.p[0]], w[c.p[1]], w[c.p[2]]};
              const Real kPrime[2] = {c.stretchKPrime, c.shearKPrime};
              const Real alphaTilde[2] = {c.stretchCompliance * 3600, c.shearCompliance * 3600};
              projectTriangleStrain(ps, ws, c.restInverse, xpbd, kPrime, alphaTilde, &serialLambda[3 * k]);
            }
          },
          "n " + std::to_string(n) + " xpbd " + std::to_string(xpbd));
    }
  }
}

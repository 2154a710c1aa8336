// Dihedral bending: gradients against finite differences (including near 0 and π), zero correction at rest,
// no momentum from the correction, a hinge bent to 0°, 90°, 180° and 270° returns to rest without NaN, and a stiff
// dihedral cloth that never gains energy (free with a tiny disturbance, and swinging as a hinged plate).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <random>
#include <string>

#include "constraints/dihedral.h"
#include "math/wide_float.h"
#include "native/batch_oracle.h"
#include "pbd/errors.h"
#include "pbd/world.h"
#include "scenes/free_space.h"
#include "scenes/measures.h"

using namespace pbd;

namespace {

/// A hinge: edge p2-p3 on the z axis, wing p0 in the x direction, wing p1 rotated by `open` about the edge.
void hinge(Real open, Vec3 out[4]) {
  out[2] = Vec3(0, 0, 0);
  out[3] = Vec3(0, 0, 1);
  out[0] = Vec3(1, 0, 0.4f);
  out[1] = Vec3(std::cos(open), std::sin(open), 0.6f);
}

Real angleOf(const Vec3 p[4]) {
  Real phi;
  Vec3 g[4];
  evalDihedral(p[0], p[1], p[2], p[3], phi, g);
  return phi;
}

}  // namespace

TEST(DihedralKernel, GradientMatchesCentralDifferencesIncludingNearZeroAndPi) {
  std::mt19937 rng(8);
  std::uniform_real_distribution<Real> u(-0.05f, 0.05f);
  const Real eps = 1e-3f;
  for (Real open : {0.3f, 1.5f, 2.5f, 3.1f, -2.0f, 0.02f, Real(M_PI) - 0.02f}) {
    Vec3 p[4];
    hinge(open, p);
    for (Vec3& q : p) q += Vec3(u(rng), u(rng), u(rng));
    Real phi;
    Vec3 grad[4];
    ASSERT_TRUE(evalDihedral(p[0], p[1], p[2], p[3], phi, grad));
    for (int k = 0; k < 4; ++k) {
      for (int a = 0; a < 3; ++a) {
        Vec3 plus[4] = {p[0], p[1], p[2], p[3]}, minus[4] = {p[0], p[1], p[2], p[3]};
        plus[k][a] += eps;
        minus[k][a] -= eps;
        const Real fd = wrapAngle(angleOf(plus) - angleOf(minus)) / (2 * eps);
        EXPECT_NEAR(fd, grad[k][a], 3e-3f) << "open " << open << " vertex " << k << " axis " << a;
      }
    }
  }
}

TEST(DihedralKernel, NoCorrectionAtRestAndNoMomentumFromTheCorrection) {
  Vec3 p[4];
  hinge(1.2f, p);
  const Real rest = angleOf(p);
  Vec3* ptr[4] = {&p[0], &p[1], &p[2], &p[3]};
  const Real w[4] = {1, 2, 0.5f, 1.5f};
  Vec3 before[4] = {p[0], p[1], p[2], p[3]};
  EXPECT_EQ(projectDihedral(ptr, w, rest, true, 1, 0, 0), 0);
  for (int k = 0; k < 4; ++k) EXPECT_LT((p[k] - before[k]).norm(), 1e-6f);
  projectDihedral(ptr, w, rest + 0.4f, true, 1, 0, 0);  // within the trust region: one full linearized step
  Vec3 linear = Vec3::Zero(), angular = Vec3::Zero();
  for (int k = 0; k < 4; ++k) {
    const Vec3 d = p[k] - before[k];
    linear += d / w[k];
    angular += before[k].cross(d) / w[k];
  }
  EXPECT_LT(linear.norm(), 1e-5f);
  EXPECT_LT(angular.norm(), 2e-3f);  // to first order: the angle's gradient is rotation-free
  EXPECT_LT(std::abs(wrapAngle(angleOf(p) - (rest + 0.4f))), 0.15f * 0.4f);  // one linearized step removes most
}

/// Distance from a wing vertex to the line through the shared edge p2-p3.
static Real wingLength(const Vec3 p[4], int wing) {
  const Vec3 e = (p[3] - p[2]).normalized();
  const Vec3 r = p[wing] - p[2];
  return (r - r.dot(e) * e).norm();
}

// A fold 2.5 rad away from rest. Without the trust region one projection moves the wings along straight lines by
// the whole 2.5 rad and lengthens them √(1 + 2.5²) = 2.7 times; with it, it turns them by at most kMaxDihedralStep
// (wings +12%), and repeated projections still reach the rest angle.
TEST(DihedralKernel, ALargeFoldTurnsByAtMostTheTrustRegionPerProjection) {
  Vec3 p[4];
  hinge(0.3f, p);
  const Real rest = wrapAngle(angleOf(p) + 2.5f);
  Vec3* ptr[4] = {&p[0], &p[1], &p[2], &p[3]};
  const Real w[4] = {1, 1, 1, 1};
  const Real wings[2] = {wingLength(p, 0), wingLength(p, 1)};
  const Real before = angleOf(p);
  projectDihedral(ptr, w, rest, true, 1, 0, 0);
  EXPECT_LT(std::abs(wrapAngle(angleOf(p) - before)), kMaxDihedralStep * 1.1f);
  for (int k = 0; k < 2; ++k) EXPECT_LT(wingLength(p, k), 1.13f * wings[k]) << "wing " << k;
  for (int it = 0; it < 30; ++it) projectDihedral(ptr, w, rest, true, 1, 0, 0);
  EXPECT_LT(std::abs(wrapAngle(angleOf(p) - rest)), 0.02f);
}

TEST(DihedralKernel, DegenerateTrianglesAreLeftAlone) {
  Vec3 p[4] = {Vec3(0, 0, 0.5f), Vec3(1, 1, 0), Vec3(0, 0, 0), Vec3(0, 0, 1)};  // p0 on the edge: zero area
  Vec3* ptr[4] = {&p[0], &p[1], &p[2], &p[3]};
  const Real w[4] = {1, 1, 1, 1};
  EXPECT_EQ(projectDihedral(ptr, w, 1, true, 1, 0, 0), 0);
  for (const Vec3& q : p) EXPECT_TRUE(q.allFinite());
}

TEST(DihedralKernel, ADegenerateRestShapeIsRejectedByTheWorld) {
  World world;
  for (int k = 0; k < 4; ++k) world.addParticle(Vec3(Real(k), 0, 0), 1);  // all on one line: no triangle has area
  DihedralConstraintDef d;
  d.p0 = 0, d.p1 = 3, d.p2 = 1, d.p3 = 2;
  try {
    world.addDihedralConstraint(d);
    ADD_FAILURE() << "accepted a degenerate hinge";
  } catch (const InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("degenerate"), std::string::npos) << e.what();
  }
  EXPECT_EQ(world.constraintCount(), 0u);
}

TEST(DihedralHinge, ReturnsToRestFromZeroNinetyOneEightyAndTwoSeventyDegrees) {
  // A hinge of 4 particles, edge pinned, rest angle 45°, started at 0°, 90°, 180° and 270°.
  for (Real startDegrees : {0.0f, 90.0f, 180.0f, 270.0f}) {
    World world;
    SolverSettings s = scenes::freeSpace();
    s.substeps = 20;
    s.linearDamping = 3;
    world.setSettings(s);
    Vec3 p[4];
    hinge(Real(M_PI) / 4, p);
    const Real rest = angleOf(p);
    hinge(startDegrees * Real(M_PI) / 180, p);
    if (startDegrees == 180) p[1] += Vec3(0, 0.01f, 0);  // exactly flat-folded back onto itself is a tie
    const Real w[4] = {1, 1, 0, 0};
    for (int k = 0; k < 4; ++k) world.addParticle(p[k], w[k]);
    DihedralConstraintDef d;
    d.p0 = 0, d.p1 = 1, d.p2 = 2, d.p3 = 3;
    d.restAngle = rest;
    d.strength.compliance = 1e-4f;
    world.addDihedralConstraint(d);
    DistanceConstraintDef arm;  // keep the wings rigid so only the angle changes
    for (uint32_t wing : {0u, 1u})
      for (uint32_t end : {2u, 3u}) arm.i = wing, arm.j = end, world.addDistanceConstraint(arm);
    for (int f = 0; f < 240; ++f) world.step(1.0f / 60);
    Vec3 q[4];
    for (int k = 0; k < 4; ++k) q[k] = Vec3(world.positions()[3 * k], world.positions()[3 * k + 1], world.positions()[3 * k + 2]);
    for (int k = 0; k < 12; ++k) ASSERT_TRUE(std::isfinite(world.positions()[k]));
    EXPECT_NEAR(wrapAngle(angleOf(q) - rest), 0, 0.02f) << "start " << startDegrees << "°";
  }
}

namespace {

/// A 12 x 12 cantilever: clamped (its first two rows pinned: one pinned row is a free hinge line), held horizontal
/// by bending alone. Returns the free edge's
/// mean height after 2 s (0 = still flat).
Real cantileverTip(BendModel model, Real bendCompliance, uint32_t* dihedralCount) {
  World world;
  SolverSettings s;
  s.substeps = 20;
  s.ground.enabled = false;
  s.linearDamping = 2;
  world.setSettings(s);
  ClothDef c;
  c.columns = c.rows = 12;
  c.spacing = 0.03f;
  for (uint32_t k = 0; k < 24; ++k) c.pinned.push_back(k);
  c.bendModel = model;
  c.bend = Strength{bendCompliance, 1};
  const BodyRange range = world.addCloth(c);
  *dihedralCount = range.dihedralCount;
  for (int f = 0; f < 120; ++f) world.step(1.0f / 60);
  Real sum = 0;
  for (uint32_t col = 0; col < 12; ++col) sum += world.positions()[3 * (11 * 12 + col) + 1];
  return sum / 12;
}

}  // namespace

TEST(DihedralCloth, OneHingePerInteriorEdgeAndItHoldsACantilever) {
  uint32_t count = 0;
  const Real stiff = cantileverTip(BendModel::Dihedral, 1e-7f, &count);
  EXPECT_EQ(count, 11u * 11 + 11 * 10 + 10 * 11);  // diagonals + interior horizontal + interior vertical edges
  uint32_t none = 0;
  const Real limp = cantileverTip(BendModel::Dihedral, 10.0f, &none);
  std::printf("cantilever free-edge height: stiff dihedral %.4f m, limp %.4f m\n", stiff, limp);
  EXPECT_GT(stiff, -0.05f);       // a 33 cm plate barely droops
  EXPECT_LT(limp, -0.25f);        // hangs down
}

namespace {

/// A 10 x 10 cloth of 10 cm cells with stiff dihedral bending (1e-4 1/(N m), nearly rigid at these masses).
ClothDef stiffDihedralCloth() {
  ClothDef c;
  c.columns = c.rows = 10;
  c.spacing = 0.1f;
  c.origin = Vec3(0, 1, 0);
  c.bendModel = BendModel::Dihedral;
  c.bend = Strength{1e-4f, 1};
  return c;
}

}  // namespace

// Before the symmetric sweep, one substep's linearized map had |μ| = 1.0126 on this grid: 4e-8 J grew to ~500 J
// within a second at 40 substeps. The disturbance (~5 mJ) stays well above float round-off, which on its own
// random-walks a free cloth's velocities to about 1e-5 J per second at 2400 substeps/s, with or without dihedrals.
TEST(DihedralCloth, AFreeStiffClothDoesNotAmplifyATinyDisturbance) {
  for (Solver solver : {Solver::GaussSeidel, Solver::Jacobi, Solver::ColouredGaussSeidel, Solver::Hierarchical}) {
    for (int substeps : {10, 40}) {
      World world;
      SolverSettings s = scenes::freeSpace(Method::Xpbd, substeps);
      s.solver = solver;
      world.setSettings(s);
      world.addCloth(stiffDihedralCloth());
      scenes::randomVelocities(world, 7, 0.1f, Vec3::Zero(), Vec3::Zero());
      const double before = scenes::mechanicalEnergy(world);
      const double worst = scenes::peakEnergyOver(world, 60);
      EXPECT_LE(worst, 1.02 * before) << "solver " << int(solver) << ", " << substeps << " substeps: kinetic energy "
                               << before << " J grew to " << worst << " J";
    }
  }
}

// A rigid plate hinged at two corners swings down and back: with no damping its energy may only fall. Before the
// fix it rose from 9.6 J to 17.8 J in 2 s (Euler) and about 10⁵ J (BDF2).
TEST(DihedralCloth, AHingedStiffPlateNeverGainsEnergy) {
  for (Integrator integrator : {Integrator::ImplicitEuler, Integrator::Bdf2}) {
    for (Method method : {Method::Xpbd, Method::Pbd}) {
      World world;
      SolverSettings s;
      s.ground.enabled = false;
      s.integrator = integrator;
      s.method = method;
      world.setSettings(s);
      ClothDef c = stiffDihedralCloth();
      c.pinned = {0, 9};
      world.addCloth(c);
      const double start = scenes::mechanicalEnergy(world);
      const double worst = scenes::peakEnergyOver(world, 240);
      EXPECT_LE(worst, start * 1.001) << "integrator " << int(integrator) << ", method " << int(method);
      EXPECT_LT(scenes::mechanicalEnergy(world), start);
    }
  }
}

TEST(DihedralKernel, FourWideBatchIsBitIdenticalToOneByOne) {
  // 37 to 39 independent dihedrals (each with its own 4 particles): random shapes around flat and folded, rest
  // angles across (-π, π], a degenerate wing, a zero-length edge and pinned vertices, in both methods; the batch path
  // (batches of 4 lanes, the last short by 3 to 1, on padded positions) must match projectDihedral exactly and keep
  // the inverse masses.
  std::mt19937 rng(5);
  std::uniform_real_distribution<Real> u(-1, 1);
  for (int n : {37, 38, 39}) {
    std::vector<Real> xyz(12 * n), w(4 * n);
    std::vector<DihedralConstraint> cs;
    std::vector<uint32_t> order;
    for (int k = 0; k < n; ++k) {
      Vec3 p[4];
      hinge(Real(M_PI) * u(rng), p);
      for (int v = 0; v < 4; ++v) {
        for (int a = 0; a < 3; ++a) xyz[12 * k + 3 * v + a] = p[v][a] + 0.1f * u(rng);
        w[4 * k + v] = (k + v) % 6 == 0 ? 0 : 1 + 0.5f * u(rng);
      }
      if (k % 9 == 4) for (int a = 0; a < 3; ++a) xyz[12 * k + a] = xyz[12 * k + 6 + a];           // wing 0 on p2
      if (k % 13 == 7) for (int a = 0; a < 3; ++a) xyz[12 * k + 9 + a] = xyz[12 * k + 6 + a];      // p3 on p2
      const uint32_t b = uint32_t(4 * k);
      cs.push_back({b, b + 1, b + 2, b + 3, Real(M_PI) * u(rng), k % 2 ? 1e-3f : 0.0f, 0.7f, 0.4f});
      order.push_back(uint32_t(n - 1 - k));  // any order within a colour
    }
    for (bool xpbd : {true, false}) {
      test::expectBatchMatchesOneByOne(
          xyz, w, std::vector<Real>(n, 0.01f),
          [&](Real* xyzw, Real* lambda) {
            projectDihedralsBatched(cs.data(), order.data(), 0, n, lambda, xyzw, xpbd, 3600);
          },
          [&](Vec3* P, Real* lambda) {
            for (uint32_t k : order) {
              const DihedralConstraint& d = cs[k];
              Vec3* ps[4] = {&P[d.p0], &P[d.p1], &P[d.p2], &P[d.p3]};
              const Real ws[4] = {w[d.p0], w[d.p1], w[d.p2], w[d.p3]};
              lambda[k] += projectDihedral(ps, ws, d.restAngle, xpbd, d.kPrime, d.compliance * 3600, lambda[k]);
            }
          },
          "n " + std::to_string(n) + " xpbd " + std::to_string(xpbd));
    }
  }
}

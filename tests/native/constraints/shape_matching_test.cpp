// Shape matching: a rigidly moved cluster is left alone, a deformed one moves to its rigid goal (exactly with k = 1),
// a mirrored one still gets a proper rotation, the correction carries no momentum with unequal masses, the
// constraint's gradient against central differences, pinned members, and the XPBD compliance.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "constraints/shape_matching.h"
#include "scenes/finite_difference.h"

using namespace pbd;

namespace {

/// A cluster of 8 particles (particle indices 2..9 of a larger array, to check the indexing) with unequal masses.
struct Cluster {
  std::vector<Vec3> p;                 ///< All positions (indices 0, 1 and 10 are not members).
  std::vector<Real> w;                 ///< Inverse masses by particle.
  std::vector<uint32_t> members;
  std::vector<Vec3> restOffsets;
  std::vector<Real> masses;

  Cluster() {
    std::mt19937 rng(2);
    std::uniform_real_distribution<Real> u(-1, 1), m(0.3f, 3);
    for (int i = 0; i < 11; ++i) {
      p.push_back(Vec3(u(rng), u(rng), u(rng)));
      w.push_back(1 / m(rng));
    }
    for (uint32_t i = 2; i < 10; ++i) {
      members.push_back(i);
      masses.push_back(1 / w[i]);
    }
    restOffsets.resize(members.size());
    EXPECT_TRUE(shapeMatchingRestOffsets(members, p.data(), masses, restOffsets));
  }

  Real project(bool xpbd, Real kPrime, Real alphaTilde = 0, Real lambda = 0) {
    return projectShapeMatching(members, restOffsets, masses, p.data(), w.data(), xpbd, kPrime, alphaTilde, lambda);
  }
  ShapeMatchingFrame frame() const { return shapeMatchingFrame(members, restOffsets, masses, p.data(), w.data()); }
  /// Moves every member to R q_i + shift (a rigid motion of the rest shape when det R = 1).
  void place(const Mat3& R, const Vec3& shift) {
    for (size_t k = 0; k < members.size(); ++k) p[members[k]] = R * restOffsets[k] + shift;
  }
};

Mat3 randomAxisRotation(std::mt19937& rng) {
  std::uniform_real_distribution<Real> u(-1, 1);
  return Eigen::AngleAxis<Real>(3 * u(rng), Vec3(u(rng), u(rng), u(rng)).normalized()).toRotationMatrix();
}

/// C = sqrt(Σ m_i |p_i - g_i|²) with the goals recomputed from the positions.
Real goalDistance(const Cluster& c) {
  const ShapeMatchingFrame f = c.frame();
  Real sum = 0;
  for (size_t k = 0; k < c.members.size(); ++k)
    sum += c.masses[k] * (c.p[c.members[k]] - f.goal(c.restOffsets[k])).squaredNorm();
  return std::sqrt(sum);
}

Real largestMove(const std::vector<Vec3>& a, const std::vector<Vec3>& b) {
  Real m = 0;
  for (size_t i = 0; i < a.size(); ++i) m = std::max(m, (a[i] - b[i]).norm());
  return m;
}

}  // namespace

TEST(ShapeMatchingKernel, ARigidlyMovedClusterIsLeftAlone) {
  std::mt19937 rng(3);
  for (int trial = 0; trial < 20; ++trial) {
    Cluster c;
    c.place(trial == 0 ? Mat3(Mat3::Identity()) : randomAxisRotation(rng), Vec3(trial, -2, 0.5f * trial));
    const std::vector<Vec3> before = c.p;
    for (bool xpbd : {true, false}) c.project(xpbd, 1);
    EXPECT_LT(largestMove(c.p, before), 2e-6f * (1 + trial)) << "trial " << trial;
  }
}

TEST(ShapeMatchingKernel, ADeformedClusterMovesToItsRigidGoal) {
  std::mt19937 rng(4);
  std::uniform_real_distribution<Real> u(-0.3f, 0.3f);
  for (Real k : {1.0f, 0.5f}) {
    Cluster c;
    c.place(randomAxisRotation(rng), Vec3(1, 2, 3));
    for (uint32_t i : c.members) c.p[i] += Vec3(u(rng), u(rng), u(rng));
    const ShapeMatchingFrame f = c.frame();
    const std::vector<Vec3> before = c.p;
    c.project(false, k);
    for (size_t m = 0; m < c.members.size(); ++m) {
      const uint32_t i = c.members[m];
      const Vec3 expected = before[i] + k * (f.goal(c.restOffsets[m]) - before[i]);  // Δp = k (g - p)
      EXPECT_LT((c.p[i] - expected).norm(), 2e-6f) << "k " << k;
    }
    for (uint32_t i : {0u, 1u, 10u}) EXPECT_EQ(c.p[i], before[i]);  // not members
    if (k == 1) {
      EXPECT_LT(goalDistance(c), 1e-5f);  // reached: the cluster is now a rigid motion of its rest shape
      for (size_t a = 0; a < c.members.size(); ++a)
        for (size_t b = 0; b < a; ++b)
          EXPECT_NEAR((c.p[c.members[a]] - c.p[c.members[b]]).norm(), (c.restOffsets[a] - c.restOffsets[b]).norm(),
                      1e-5f);
    }
  }
}

TEST(ShapeMatchingKernel, AMirroredClusterStillGetsAProperRotation) {
  Cluster c;
  const Mat3 mirror = Eigen::Vector3f(-1, 1, 1).asDiagonal();
  c.place(mirror, Vec3(0, 1, 0));  // inverted: det A_pq < 0
  const ShapeMatchingFrame f = c.frame();
  EXPECT_NEAR(f.rotation.determinant(), 1, 1e-5f);
  EXPECT_LT((f.rotation.transpose() * f.rotation - Mat3::Identity()).norm(), 1e-5f);
  c.project(false, 1);
  for (uint32_t i : c.members) ASSERT_TRUE(c.p[i].allFinite());
  EXPECT_LT(goalDistance(c), 1e-4f);  // matched to a proper rotation of the rest shape
  // A flat cluster (rank-deficient A_pq) gives a rotation too.
  EXPECT_NEAR(closestRotation(Mat3(Eigen::Vector3f(2, 1, 0).asDiagonal())).determinant(), 1, 1e-5f);
  EXPECT_NEAR(closestRotation(Mat3::Zero()).determinant(), 1, 1e-5f);
}

TEST(ShapeMatchingKernel, CorrectionCarriesNoLinearOrAngularMomentum) {
  std::mt19937 rng(5);
  std::uniform_real_distribution<Real> u(-0.4f, 0.4f);
  for (int trial = 0; trial < 20; ++trial) {
    Cluster c;  // unequal masses, m_i = 1/w_i
    c.place(randomAxisRotation(rng), Vec3(2, -1, 3));
    for (uint32_t i : c.members) c.p[i] += Vec3(u(rng), u(rng), u(rng));
    const std::vector<Vec3> before = c.p;
    const bool xpbd = trial % 2;
    c.project(xpbd, 0.7f, 0.3f);
    Vec3 linear = Vec3::Zero(), angular = Vec3::Zero();
    Real scale = 0;
    for (size_t m = 0; m < c.members.size(); ++m) {
      const uint32_t i = c.members[m];
      const Vec3 d = c.p[i] - before[i];
      linear += c.masses[m] * d;
      angular += c.masses[m] * before[i].cross(d);
      scale += c.masses[m] * d.norm();
    }
    ASSERT_GT(scale, 0.1f);
    EXPECT_LT(linear.norm(), 1e-5f * scale) << "trial " << trial;
    EXPECT_LT(angular.norm(), 4e-5f * scale) << "trial " << trial;  // |x| <= 4
  }
}

TEST(ShapeMatchingKernel, GradientMatchesCentralDifferences) {
  // ∇_i C = m_i (p_i - g_i) / C, exact because R and c minimize Σ m |p - g|² (envelope theorem).
  std::mt19937 rng(6);
  std::uniform_real_distribution<Real> u(-0.3f, 0.3f);
  for (int trial = 0; trial < 10; ++trial) {
    Cluster c;
    c.place(randomAxisRotation(rng), Vec3(0.2f, 0.1f, 0));
    for (uint32_t i : c.members) c.p[i] += Vec3(u(rng), u(rng), u(rng));
    const ShapeMatchingFrame f = c.frame();
    const Real C = goalDistance(c);
    for (size_t m = 0; m < c.members.size(); ++m) {
      const uint32_t i = c.members[m];
      const Vec3 grad = c.masses[m] * (c.p[i] - f.goal(c.restOffsets[m])) / C;
      const Vec3 fd = scenes::centralDifference(
          [&](const Vec3& y) {
            Cluster moved = c;
            moved.p[i] = y;
            return goalDistance(moved);
          },
          c.p[i]);
      EXPECT_LT((fd - grad).norm(), 3e-3f * (1 + grad.norm())) << "trial " << trial << " member " << m;
    }
  }
}

TEST(ShapeMatchingKernel, PinnedMembersStayAndTheOthersMatchAroundThem) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<Real> u(-0.3f, 0.3f);
  Cluster c;
  c.place(randomAxisRotation(rng), Vec3(0, 0, 0));
  for (uint32_t i : c.members) c.p[i] += Vec3(u(rng), u(rng), u(rng));
  const uint32_t pin = c.members[3];
  c.w[pin] = 0;
  const Vec3 pinned = c.p[pin];
  for (int it = 0; it < 3; ++it) c.project(false, 1);
  EXPECT_EQ(c.p[pin], pinned);
  // The free members sit on a rigid motion of the rest shape that passes through the pin.
  const ShapeMatchingFrame f = c.frame();
  for (size_t m = 0; m < c.members.size(); ++m)
    EXPECT_LT((c.p[c.members[m]] - f.goal(c.restOffsets[m])).norm(), 1e-5f) << "member " << m;
  // Everything pinned: nothing moves.
  for (uint32_t i : c.members) c.w[i] = 0;
  const std::vector<Vec3> before = c.p;
  EXPECT_EQ(c.project(true, 1), 0);
  EXPECT_EQ(c.p, before);
}

TEST(ShapeMatchingKernel, XpbdComplianceClosesTheFractionOneOverOnePlusAlphaTilde) {
  std::mt19937 rng(8);
  std::uniform_real_distribution<Real> u(-0.3f, 0.3f);
  for (Real alphaTilde : {0.0f, 1.0f, 3.0f}) {
    Cluster c;
    c.place(randomAxisRotation(rng), Vec3(0, 0, 0));
    for (uint32_t i : c.members) c.p[i] += Vec3(u(rng), u(rng), u(rng));
    const Real C0 = goalDistance(c);
    const ShapeMatchingFrame f = c.frame();
    const std::vector<Vec3> before = c.p;
    Real lambda = c.project(true, 1, alphaTilde);
    const Real fraction = 1 / (1 + alphaTilde);
    for (size_t m = 0; m < c.members.size(); ++m) {
      const uint32_t i = c.members[m];
      EXPECT_LT((c.p[i] - (before[i] + fraction * (f.goal(c.restOffsets[m]) - before[i]))).norm(), 2e-6f);
    }
    // Iterating with the accumulated λ approaches the compliant equilibrium C + α̃ λ = 0 (no inertia term here:
    // positions only move towards the goal).
    for (int it = 0; it < 50; ++it) lambda += c.project(true, 1, alphaTilde, lambda);
    EXPECT_LT(goalDistance(c), C0);
    EXPECT_NEAR(goalDistance(c) + alphaTilde * lambda, 0, 1e-3f * C0) << "α̃ " << alphaTilde;
  }
}

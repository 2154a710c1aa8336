// The Cosserat rod kernels (constraints/cosserat_rod.h): the third director is the frame's rotated z axis; the
// Darboux vector of a pair bent by θ about an axis is sin(θ/2) along it; stretch–shear lands a segment on its director
// in one projection when the frame is fixed, keeps the particles' momentum, turns a free frame toward a fixed edge and
// converges with both free; bend–twist brings a pair to its rest Darboux vector whichever sign its quaternions have;
// under XPBD both settle where the constraint equals −α̃ λ, the force balance of a compliant constraint.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "constraints/cosserat_rod.h"

using namespace pbd;

namespace {

Quat randomRotation(std::mt19937& rng) {
  std::normal_distribution<float> g;
  Quat q(g(rng), g(rng), g(rng), g(rng));
  q.normalize();
  return q;
}

Vec3 randomVector(std::mt19937& rng, Real scale) {
  std::uniform_real_distribution<float> u(-scale, scale);
  return Vec3(u(rng), u(rng), u(rng));
}

/// Γ in the world frame.
Vec3 stretchShear(const Vec3& p0, const Vec3& p1, const Quat& q, Real l) { return (p1 - p0) / l - thirdDirector(q); }

}  // namespace

TEST(CosseratRod, ThirdDirectorIsTheFramesRotatedZAxis) {
  std::mt19937 rng(3);
  for (int k = 0; k < 100; ++k) {
    const Quat q = randomRotation(rng);
    EXPECT_LT((thirdDirector(q) - q * Vec3(0, 0, 1)).norm(), 1e-6f);
  }
}

TEST(CosseratRod, DarbouxVectorOfABentPairIsHalfTheAngleAlongTheAxis) {
  std::mt19937 rng(4);
  for (int k = 0; k < 50; ++k) {
    const Quat q0 = randomRotation(rng);
    const Vec3 axis = randomVector(rng, 1).normalized();
    const Real theta = 0.7f;
    const Quat q1 = q0 * Quat(Eigen::AngleAxis<Real>(theta, axis));   // turned by θ about its own axis
    EXPECT_LT((darbouxVector(q0, q1) - std::sin(theta / 2) * axis).norm(), 1e-6f);
  }
}

TEST(CosseratRod, StretchShearLandsTheSegmentOnAFixedDirectorAndKeepsTheMomentum) {
  std::mt19937 rng(5);
  for (int k = 0; k < 50; ++k) {
    Vec3 p0 = randomVector(rng, 1), p1 = p0 + randomVector(rng, 0.3f);
    Quat q = randomRotation(rng);
    const Quat q0 = q;
    const Vec3 a0 = p0, a1 = p1;
    const Real w0 = 2, w1 = 0.5f, l = 0.2f;
    Vec3 lambda = Vec3::Zero();
    projectStretchShear(p0, p1, q, w0, w1, 0, l, false, 1, Vec3::Zero(), lambda);
    EXPECT_LT(stretchShear(p0, p1, q, l).norm(), 1e-5f);                 // linear in p: exact in one step
    EXPECT_EQ(q.coeffs(), q0.coeffs());                                   // a fixed frame stays
    EXPECT_LT(((p0 - a0) / w0 + (p1 - a1) / w1).norm(), 1e-6f);           // Σ m Δp = 0
  }
}

TEST(CosseratRod, StretchShearTurnsAFreeFrameTowardsAFixedEdge) {
  std::mt19937 rng(6);
  for (int k = 0; k < 20; ++k) {
    Vec3 p0 = Vec3::Zero(), p1 = randomVector(rng, 1).normalized() * 0.25f;   // the rest length: pure shear
    Quat q = randomRotation(rng);
    const Vec3 edge = p1 / 0.25f;
    if (thirdDirector(q).dot(edge) < -0.5f) continue;   // far from the edge: the step is not meant to flip a frame
    Vec3 lambda = Vec3::Zero();
    for (int it = 0; it < 200; ++it) projectStretchShear(p0, p1, q, 0, 0, 1, 0.25f, false, 1, Vec3::Zero(), lambda);
    EXPECT_LT((thirdDirector(q) - edge).norm(), 1e-4f) << k;
    EXPECT_NEAR(q.norm(), 1, 1e-6f);
    EXPECT_EQ(p0, Vec3::Zero());
  }
}

TEST(CosseratRod, StretchShearConvergesWithParticlesAndFrameFree) {
  std::mt19937 rng(7);
  for (int k = 0; k < 20; ++k) {
    Vec3 p0 = randomVector(rng, 1), p1 = p0 + Vec3(0, 0, 0.2f) + randomVector(rng, 0.05f);
    Quat q = Quat(Eigen::AngleAxis<Real>(0.3f, randomVector(rng, 1).normalized()));
    Vec3 lambda = Vec3::Zero();
    for (int it = 0; it < 100; ++it) projectStretchShear(p0, p1, q, 1, 1, 2, 0.2f, false, 1, Vec3::Zero(), lambda);
    EXPECT_LT(stretchShear(p0, p1, q, 0.2f).norm(), 1e-4f) << k;
  }
}

TEST(CosseratRod, BendTwistReachesTheRestDarbouxVectorWhicheverTheSign) {
  std::mt19937 rng(8);
  for (int k = 0; k < 30; ++k) {
    const Quat target0 = randomRotation(rng);
    const Quat target1 = target0 * Quat(Eigen::AngleAxis<Real>(0.4f, randomVector(rng, 1).normalized()));
    const Vec3 rest = darbouxVector(target0, target1);
    for (Real sign : {Real(1), Real(-1)}) {
      Quat q0 = target0 * Quat(Eigen::AngleAxis<Real>(0.3f, randomVector(rng, 1).normalized()));
      Quat q1 = target1;
      q1.coeffs() *= sign;   // the same rotation
      Vec3 lambda = Vec3::Zero();
      for (int it = 0; it < 200; ++it) projectBendTwist(q0, q1, 1, 0, rest, false, 1, Vec3::Zero(), lambda);
      const Quat relative = q0.conjugate() * target1;   // sign-free: compare rotations
      EXPECT_LT(std::min((relative.vec() - rest).norm(), (relative.vec() + rest).norm()), 1e-4f) << k << ' ' << sign;
      EXPECT_NEAR(q0.norm(), 1, 1e-6f);
    }
  }
}

// XPBD: a compliant constraint settles where C = −α̃ λ (λ the force times h²); with a rigid partner fixed, the
// free side gives way to it. Per component, as the compliance is set per component of the segment's frame.
TEST(CosseratRod, CompliantStepsSettleWhereTheConstraintBalancesItsMultiplier) {
  Vec3 p0 = Vec3::Zero(), p1(0.02f, 0.01f, 0.25f);
  Quat q = Quat::Identity();
  const Vec3 alphaTilde(0.5f, 2.0f, 0.1f);
  Vec3 lambda = Vec3::Zero();
  for (int it = 0; it < 400; ++it) projectStretchShear(p0, p1, q, 0, 1, 0, 0.2f, true, 1, alphaTilde, lambda);
  const Vec3 gamma = stretchShear(p0, p1, q, 0.2f);   // the frame is the identity: world = segment frame
  for (int a = 0; a < 3; ++a) EXPECT_NEAR(gamma[a], -alphaTilde[a] * lambda[a], 1e-5f) << a;
  EXPECT_GT(gamma.norm(), 1e-3f);   // compliant: not all the way

  Quat q0 = Quat(Eigen::AngleAxis<Real>(0.5f, Vec3(1, 0, 0))), q1 = Quat::Identity();
  const Vec3 restDarboux = Vec3::Zero(), bendAlpha(0.3f, 0.3f, 1.0f);
  Vec3 bendLambda = Vec3::Zero();
  for (int it = 0; it < 400; ++it) projectBendTwist(q0, q1, 1, 0, restDarboux, true, 1, bendAlpha, bendLambda);
  const Vec3 omega = darbouxVector(q0, q1);
  for (int a = 0; a < 3; ++a) EXPECT_NEAR(omega[a], -bendAlpha[a] * bendLambda[a], 1e-5f) << a;
  EXPECT_GT(omega.norm(), 1e-3f);
}

// The Cosserat rod kernels (constraints/cosserat_rod.h): the third director is the frame's rotated z axis; the
// Darboux vector of a pair bent by θ about an axis is sin(θ/2) along it; the stretch–shear and bend–twist Jacobians
// match finite differences of their constraints, for the particles and for turns of the frames; both constraints are
// unchanged by a rigid motion of the whole (so their forces keep linear and angular momentum); bend–twist does not
// depend on which of ±q a frame is given as.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "constraints/cosserat_rod.h"
#include "native/random_particles.h"

using namespace pbd;

namespace {

Quat randomQuaternion(std::mt19937& rng) {
  std::normal_distribution<float> g;
  Quat q(g(rng), g(rng), g(rng), g(rng));
  q.normalize();
  return q;
}

using test::randomVec;

/// q turned by the angle `angle` about the world axis `axis` (a turn δθ = angle · axis).
Quat turned(const Quat& q, const Vec3& axis, double angle) {
  return Quat((Eigen::AngleAxisd(angle, axis.cast<double>()) * q.cast<double>()).cast<Real>());
}

constexpr double kStep = 1e-3;

}  // namespace

TEST(CosseratRod, ThirdDirectorIsTheFramesRotatedZAxis) {
  std::mt19937 rng(3);
  for (int k = 0; k < 100; ++k) {
    const Quat q = randomQuaternion(rng);
    EXPECT_LT((thirdDirector(q) - q * Vec3(0, 0, 1)).norm(), 1e-6f);
  }
}

TEST(CosseratRod, DarbouxVectorOfABentPairIsHalfTheAngleAlongTheAxis) {
  std::mt19937 rng(4);
  for (int k = 0; k < 50; ++k) {
    const Quat q0 = randomQuaternion(rng);
    const Vec3 axis = randomVec(rng, 1).normalized();
    const Real theta = 0.7f;
    const Quat q1 = q0 * Quat(Eigen::AngleAxis<Real>(theta, axis));   // turned by θ about its own axis
    EXPECT_LT((darbouxVector(q0, q1) - std::sin(theta / 2) * axis).norm(), 1e-6f);
  }
}

// Central differences in float inputs: steps of 1e-3 against round-off of 1e-7, an agreement to about 1e-4.
TEST(CosseratRod, StretchShearJacobianMatchesFiniteDifferences) {
  std::mt19937 rng(5);
  for (int k = 0; k < 50; ++k) {
    const Vec3 p0 = randomVec(rng, 1), p1 = p0 + randomVec(rng, 0.3f);
    const Quat q = randomQuaternion(rng);
    const Real l = 0.2f;
    const StretchShear at = stretchShear(p0, p1, q, l);
    for (int a = 0; a < 3; ++a) {
      Vec3 e = Vec3::Zero();
      e[a] = Real(kStep);
      const Eigen::Vector3d dp1 = (stretchShear(p0, p1 + e, q, l).gamma - stretchShear(p0, p1 - e, q, l).gamma) / (2 * kStep);
      const Eigen::Vector3d dp0 = (stretchShear(p0 + e, p1, q, l).gamma - stretchShear(p0 - e, p1, q, l).gamma) / (2 * kStep);
      EXPECT_LT((dp1 - at.frameTranspose.col(a) / l).norm(), 1e-3 * at.frameTranspose.col(a).norm() / l);
      EXPECT_LT((dp0 + at.frameTranspose.col(a) / l).norm(), 1e-3 * at.frameTranspose.col(a).norm() / l);
      const Vec3 axis = Vec3::Unit(a);
      const Eigen::Vector3d dTheta =
          (stretchShear(p0, p1, turned(q, axis, kStep), l).gamma - stretchShear(p0, p1, turned(q, axis, -kStep), l).gamma) /
          (2 * kStep);
      EXPECT_LT((dTheta - at.turn.col(a)).norm(), 1e-3 * (1 + at.turn.col(a).norm())) << k << " " << a;
    }
  }
}

TEST(CosseratRod, BendTwistJacobianMatchesFiniteDifferences) {
  std::mt19937 rng(6);
  for (int k = 0; k < 50; ++k) {
    const Quat q0 = randomQuaternion(rng);
    const Quat q1 = turned(q0, randomVec(rng, 1).normalized(), 0.8);
    const Vec3 rest = 0.3f * randomVec(rng, 1);
    const BendTwist at = bendTwist(q0, q1, rest);
    for (int a = 0; a < 3; ++a) {
      const Vec3 axis = Vec3::Unit(a);
      const Eigen::Vector3d d1 =
          (bendTwist(q0, turned(q1, axis, kStep), rest).c - bendTwist(q0, turned(q1, axis, -kStep), rest).c) / (2 * kStep);
      const Eigen::Vector3d d0 =
          (bendTwist(turned(q0, axis, kStep), q1, rest).c - bendTwist(turned(q0, axis, -kStep), q1, rest).c) / (2 * kStep);
      EXPECT_LT((d1 - at.b.col(a)).norm(), 1e-3) << k << " " << a;
      EXPECT_LT((d0 + at.b.col(a)).norm(), 1e-3) << k << " " << a;
    }
  }
}

// A rigid motion of the whole moves neither constraint: J_p0 v + J_p1 v = 0 (linear momentum) and, for a turn ω,
// J_p0 (ω × p0) + J_p1 (ω × p1) + J_θ ω = 0 (angular momentum about the origin); bend–twist: −B ω + B ω.
TEST(CosseratRod, RigidMotionsLeaveTheConstraintsUnchanged) {
  std::mt19937 rng(7);
  for (int k = 0; k < 50; ++k) {
    const Vec3 p0 = randomVec(rng, 1), p1 = p0 + randomVec(rng, 0.3f);
    const Quat q = randomQuaternion(rng);
    const Real l = 0.25f;
    const StretchShear at = stretchShear(p0, p1, q, l);
    const Eigen::Vector3d omega = randomVec(rng, 1).cast<double>();
    const Eigen::Vector3d moved = at.frameTranspose / l * (omega.cross(p1.cast<double>()) - omega.cross(p0.cast<double>())) +
                                  at.turn * omega;
    EXPECT_LT(moved.norm(), 1e-6 * omega.norm());
    const Quat turnedQ = turned(q, Vec3(0.3f, -0.5f, 0.8f).normalized(), 0.9);
    const Eigen::Matrix3f r = (turnedQ * q.conjugate()).toRotationMatrix();
    const StretchShear rotated = stretchShear(r * p0, r * p1, turnedQ, l);
    EXPECT_LT((rotated.gamma - at.gamma).norm(), 1e-5);
  }
}

TEST(CosseratRod, BendTwistIsTheSameForEitherSignOfAFrame) {
  std::mt19937 rng(8);
  for (int k = 0; k < 50; ++k) {
    const Quat q0 = randomQuaternion(rng);
    const Quat q1 = turned(q0, randomVec(rng, 1).normalized(), 0.5);
    const Vec3 rest = darbouxVector(q0, turned(q0, randomVec(rng, 1).normalized(), 0.4));
    const Quat minusQ1(-q1.w(), -q1.x(), -q1.y(), -q1.z());
    const BendTwist a = bendTwist(q0, q1, rest), b = bendTwist(q0, minusQ1, rest);
    EXPECT_LT((a.c - b.c).norm(), 1e-6);
    EXPECT_LT((a.b - b.b).norm(), 1e-6);
    EXPECT_LT(a.c.norm(), 2 * std::sin(0.45));  // the nearer sign: both turns are under 0.5 rad
  }
}

TEST(CosseratRod, RotationVectorAndTurnedFrameAreLogAndExp) {
  std::mt19937 rng(9);
  for (int k = 0; k < 50; ++k) {
    const Quat q = randomQuaternion(rng);
    const Eigen::Vector3d turn = (2.5 * randomVec(rng, 1).normalized()).cast<double>();  // under π
    const Quat moved = turnedFrame(q, turn);
    EXPECT_LT((rotationVector(moved * q.conjugate()) - turn).norm(), 1e-5);
    const Eigen::AngleAxisd expected(turn.norm(), turn.normalized());
    EXPECT_LT(moved.angularDistance(Quat((expected * q.cast<double>()).cast<Real>())), 1e-5);
  }
}

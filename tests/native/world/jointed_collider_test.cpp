// Dynamic colliders held by a joint to the fixed world (ColliderBody::joint): a hinged rod swings with the period of a
// compound pendulum, 2π √(I_p / (m g d)), and a cloth hung rigidly from it lengthens that period as its mass and
// moment about the hinge predict; a ball-jointed body with a cloth hanging from it keeps the angular momentum of both
// about the pivot (the joint's force has no moment there); the body stays at its distance from the pivot. Bad joints
// are refused and leave the body as it was.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <vector>

#include "native/expect_error.h"
#include "pbd/world.h"
#include "scenes/free_space.h"
#include "scenes/measures.h"

using namespace pbd;

namespace {

constexpr Real kG = 9.81f;
const Vec3 kPivot(0, 2, 0);

/// A 1 kg rod, 1 m long and 4 cm thick (a box collider), hanging from a hinge about z at its top end, kPivot; it
/// passes the bottom of its swing at `omega` rad/s.
World hingedRod(Real omega, BodyJoint joint = BodyJoint::Hinge) {
  World world;
  SolverSettings s = scenes::freeSpace(Method::Xpbd, 10, 1);
  s.gravity = Vec3(0, -kG, 0);
  world.setSettings(s);
  ColliderDef rod;
  rod.shape = ColliderShape::Box;
  rod.halfExtents = Vec3(0.02f, 0.5f, 0.02f);
  rod.position = kPivot - Vec3(0, 0.5f, 0);
  world.addCollider(rod);
  ColliderBody b;
  b.mass = 1;
  b.inertia = Vec3((1 + 0.04f * 0.04f) / 12, 2 * 0.04f * 0.04f / 12, (1 + 0.04f * 0.04f) / 12);
  b.angularVelocity = Vec3(0, 0, omega);
  b.linearVelocity = b.angularVelocity.cross(rod.position - kPivot);
  b.joint = joint;
  b.jointPivot = kPivot;
  b.jointAxis = Vec3(0, 0, 2);  // normalized by the world
  world.setColliderBody(0, b);
  return world;
}

/// The rod's angle from the vertical about z, rad.
Real swingAngle(const World& world) { return 2 * std::asin(world.colliderDef(0).rotation.z()); }

/// The mean period of the swing over `frames` frames of 1/60 s, from its upward zero crossings, s.
double swingPeriod(World& world, int frames) {
  std::vector<double> crossings;
  Real last = swingAngle(world);
  for (int f = 1; f <= frames; ++f) {
    world.step(1.0f / 60);
    const Real now = swingAngle(world);
    if (last < 0 && now >= 0) crossings.push_back((f - 1 + last / (last - now)) / 60.0);
    last = now;
  }
  EXPECT_GE(crossings.size(), 3u);
  return (crossings.back() - crossings.front()) / double(crossings.size() - 1);
}

/// A 3 × 3 cloth of `mass` kg, 2 cm apart, just below the rod's lower end, every particle attached rigidly to the rod;
/// adds its moment of inertia and its m d about the pivot to `inertia` and `moment`.
void hangCloth(World& world, Real mass, Real omega, double& inertia, double& moment) {
  ClothDef c;
  c.columns = c.rows = 3;
  c.spacing = 0.02f;
  c.origin = Vec3(-0.02f, 0.97f, 0);
  c.axisU = Vec3(1, 0, 0), c.axisV = Vec3(0, -1, 0);
  c.mass = mass;
  world.addCloth(c);
  const Vec3 rodCentre = world.colliderDef(0).position;
  for (uint32_t i = 0; i < 9; ++i) {
    const Vec3 x = scenes::positionOf(world, i);
    world.setVelocity(i, Vec3(0, 0, omega).cross(x - kPivot));
    AttachmentDef a;
    a.particle = i;
    a.collider = 0;
    a.anchor = x - rodCentre;
    world.addAttachment(a);
    const double m = mass / 9.0;
    inertia += m * (x - kPivot).cast<double>().squaredNorm();
    moment += m * double(kPivot.y() - x.y());
  }
}

}  // namespace

TEST(JointedCollider, AHingedRodSwingsWithTheCompoundPendulumsPeriod) {
  World world = hingedRod(0.3f);
  const double inertia = (1 + 0.04 * 0.04) / 12 + 0.25, moment = 0.5;   // about the hinge: I_c + m d², m d
  const double predicted = 2 * std::numbers::pi * std::sqrt(inertia / (moment * kG));
  EXPECT_NEAR(swingPeriod(world, 600), predicted, 0.005 * predicted);
  const ColliderDef pose = world.colliderDef(0);
  EXPECT_NEAR((pose.position - kPivot).norm(), 0.5f, 1e-5f);   // carried round the hinge
  EXPECT_NEAR(pose.position.z(), 0, 1e-6f);                    // in the plane the hinge allows
  EXPECT_NEAR(pose.rotation.x(), 0, 1e-6f);
  EXPECT_NEAR(pose.rotation.y(), 0, 1e-6f);
}

TEST(JointedCollider, AClothHungFromItLengthensThePeriodAsItsMassPredicts) {
  const Real omega = 0.3f;
  World bare = hingedRod(omega), loaded = hingedRod(omega);
  double inertia = (1 + 0.04 * 0.04) / 12 + 0.25, moment = 0.5;
  const double barePredicted = 2 * std::numbers::pi * std::sqrt(inertia / (moment * kG));
  hangCloth(loaded, 0.2f, omega, inertia, moment);
  const double predicted = 2 * std::numbers::pi * std::sqrt(inertia / (moment * kG));
  ASSERT_GT(predicted / barePredicted, 1.05);   // the shift is far larger than the tolerance
  EXPECT_NEAR(swingPeriod(loaded, 900), predicted, 0.01 * predicted);
  EXPECT_NEAR(swingPeriod(bare, 900), barePredicted, 0.005 * barePredicted);
}

// Zero gravity: a ball-jointed rod spinning about an oblique axis at 2.3 rad/s drags a cloth round; the joint's force
// acts at the pivot, so the angular momentum of rod and cloth about the pivot is kept, to first order in h (the
// attachments turn the body within the substep, as XPBD's rigid bodies do): halving h halves the loss. The rod's
// inertia about the pivot is made isotropic (m d² more along its length), so that its spin, free of torque, stays
// constant: the world, as Rapier, leaves out the gyroscopic term, which would otherwise turn it.
double angularMomentumLostAboutThePivot(int substeps) {
  World world = hingedRod(0, BodyJoint::Ball);
  SolverSettings s = world.settings();
  s.gravity = Vec3::Zero();
  s.substeps = substeps;
  world.setSettings(s);
  double inertia = 0, moment = 0;
  hangCloth(world, 0.5f, 0, inertia, moment);
  ColliderBody b = world.colliderBody(0);
  b.inertia = Vec3(0.1f, 0.1f + 0.25f, 0.1f);
  b.angularVelocity = Vec3(1, 0.5f, 2);
  b.linearVelocity = b.angularVelocity.cross(world.colliderDef(0).position - kPivot);
  world.setColliderBody(0, b);
  for (uint32_t i = 0; i < 9; ++i)
    world.setVelocity(i, b.angularVelocity.cross(scenes::positionOf(world, i) - kPivot));
  auto aboutPivot = [&] {
    const ColliderBody body = world.colliderBody(0);
    const ColliderDef pose = world.colliderDef(0);
    const Eigen::Matrix3d R = pose.rotation.cast<double>().toRotationMatrix();
    const Eigen::Vector3d d = (pose.position - kPivot).cast<double>();
    const Eigen::Vector3d spin = R * body.inertia.cast<double>().asDiagonal() * R.transpose() *
                                 body.angularVelocity.cast<double>();
    const scenes::Momenta cloth = scenes::momenta(world);
    return Eigen::Vector3d(spin + d.cross(double(body.mass) * body.linearVelocity.cast<double>()) + cloth.angular -
                           kPivot.cast<double>().cross(cloth.linear));
  };
  const Eigen::Vector3d before = aboutPivot();
  for (int f = 0; f < 60; ++f) world.step(1.0f / 60);
  EXPECT_NEAR((world.colliderDef(0).position - kPivot).norm(), 0.5f, 1e-4f);
  EXPECT_GT((world.colliderDef(0).position - (kPivot - Vec3(0, 0.5f, 0))).norm(), 0.1f);   // it did swing round
  return (aboutPivot() - before).norm() / before.norm();
}

TEST(JointedCollider, ABallJointKeepsTheAngularMomentumAboutItsPivot) {
  const double at10 = angularMomentumLostAboutThePivot(10), at20 = angularMomentumLostAboutThePivot(20);
  EXPECT_LT(at10, 0.015);
  EXPECT_GT(at20 / at10, 0.4);   // first order in h
  EXPECT_LT(at20 / at10, 0.65);
}

TEST(JointedCollider, BadJointsAreRefused) {
  World world = hingedRod(0.3f);
  const ColliderBody kept = world.colliderBody(0);
  ColliderBody b = kept;
  b.jointAxis = Vec3::Zero();
  expectError([&] { world.setColliderBody(0, b); }, {"setColliderBody", "jointAxis", "must not be zero"});
  b = kept;
  b.jointPivot = Vec3(0, NAN, 0);
  expectError([&] { world.setColliderBody(0, b); }, {"setColliderBody", "jointPivot", "finite"});
  b = kept;
  b.joint = BodyJoint(7);
  expectError([&] { world.setColliderBody(0, b); }, {"setColliderBody", "joint"});
  EXPECT_EQ(world.colliderBody(0).joint, BodyJoint::Hinge);
  EXPECT_EQ(world.colliderBody(0).jointAxis, Vec3(0, 0, 1));   // normalized when it was set
}

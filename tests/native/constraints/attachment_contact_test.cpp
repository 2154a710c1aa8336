// Attachment and plane-contact kernels: gradients by finite differences, exact projection, unilateral behaviour.
#include <gtest/gtest.h>

#include "constraints/attachment.h"
#include "constraints/plane_contact.h"
#include "scenes/finite_difference.h"

using namespace pbd;

TEST(AttachmentKernel, GradientMatchesCentralDifferences) {
  const Vec3 target(0.3f, -0.2f, 0.5f);
  const Vec3 p(1.1f, 0.4f, -0.7f);
  const Vec3 grad = (p - target).normalized();
  const Vec3 fd = scenes::centralDifference([&](const Vec3& y) { return (y - target).norm(); }, p);
  for (int a = 0; a < 3; ++a) EXPECT_NEAR(fd[a], grad[a], 1e-3f);
}

TEST(AttachmentKernel, RigidProjectionLandsOnTarget) {
  Vec3 p(1, 2, 3);
  const Vec3 target(-1, 0, 0.5f);
  projectAttachment(p, 2, target, true, 1, 0, 0);
  EXPECT_NEAR((p - target).norm(), 0, 1e-6f);
}

TEST(AttachmentKernel, PinnedParticleDoesNotMove) {
  Vec3 p(1, 2, 3);
  EXPECT_EQ(projectAttachment(p, 0, Vec3::Zero(), true, 1, 0, 0), 0);
  EXPECT_EQ(p, Vec3(1, 2, 3));
}

TEST(PlaneContactKernel, GradientIsTheNormal) {
  const Vec3 n = Vec3(1, 2, -1).normalized();
  const Vec3 p(0.2f, -0.4f, 0.1f);
  const Vec3 fd = scenes::centralDifference([&](const Vec3& y) { return planeContactValue(y, n, 0.1f, 0.05f); }, p);
  for (int a = 0; a < 3; ++a) EXPECT_NEAR(fd[a], n[a], 1e-3f);
}

TEST(PlaneContactKernel, OnlyPushesOutNeverPullsIn) {
  const Vec3 up(0, 1, 0);
  Vec3 above(0, 0.5f, 0), below(0.3f, -0.25f, 0.1f);
  EXPECT_EQ(projectPlaneContact(above, up, 0, 0.1f), 0);
  EXPECT_EQ(above, Vec3(0, 0.5f, 0));
  EXPECT_NEAR(projectPlaneContact(below, up, 0, 0.1f), 0.35f, 1e-6f);
  EXPECT_NEAR(below[1], 0.1f, 1e-7f);
  EXPECT_EQ(below[0], 0.3f);
}

// Attachment and plane-contact kernels: gradients by finite differences, exact projection, unilateral behaviour.
#include <gtest/gtest.h>

#include "constraints/attachment.h"
#include "constraints/plane_contact.h"

using namespace pbd;

TEST(AttachmentKernel, GradientMatchesCentralDifferences) {
  const Vec3 target(0.3f, -0.2f, 0.5f);
  const Vec3 p(1.1f, 0.4f, -0.7f);
  const Vec3 grad = (p - target).normalized();
  const Real eps = 1e-3f;
  for (int a = 0; a < 3; ++a) {
    Vec3 e = Vec3::Zero();
    e[a] = eps;
    const Real fd = ((p + e - target).norm() - (p - e - target).norm()) / (2 * eps);
    EXPECT_NEAR(fd, grad[a], 1e-3f);
  }
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
  const Real eps = 1e-3f;
  for (int a = 0; a < 3; ++a) {
    Vec3 e = Vec3::Zero();
    e[a] = eps;
    const Real fd = (planeContactValue(p + e, n, 0.1f, 0.05f) - planeContactValue(p - e, n, 0.1f, 0.05f)) / (2 * eps);
    EXPECT_NEAR(fd, n[a], 1e-3f);
  }
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

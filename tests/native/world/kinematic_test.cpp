// Kinematic driving and unilateral limits at the world level: a dragged particle moves with the drag's velocity and
// keeps it when let go; a max-length (rope-like) constraint pulls only when stretched.
#include <gtest/gtest.h>

#include "pbd/world.h"
#include "scenes/free_space.h"

using namespace pbd;

namespace {

using scenes::weightless;

}  // namespace

TEST(Attachment, DraggedParticleMovesWithTheDragAndKeepsItsVelocityWhenReleased) {
  World world = weightless(8);
  const uint32_t p = world.addParticle(Vec3(0, 0, 0), 1);
  AttachmentDef a;
  a.particle = p;
  const uint32_t grab = world.addAttachment(a);
  const Vec3 dragVelocity(1.5f, 0.5f, 0);
  const Real dt = 1.0f / 60;
  for (int f = 1; f <= 30; ++f) {
    world.setAttachmentTarget(grab, dragVelocity * (f * dt));
    world.step(dt);
    EXPECT_NEAR(world.positions()[0], dragVelocity.x() * f * dt, 1e-5f);
  }
  // Every substep moved it by the same amount, so its velocity is the drag's, not a spike and a stop.
  EXPECT_NEAR(world.velocities()[0], dragVelocity.x(), 1e-3f);
  EXPECT_NEAR(world.velocities()[1], dragVelocity.y(), 1e-3f);
  world.removeAttachment(grab);
  const Real x0 = world.positions()[0];
  for (int f = 0; f < 30; ++f) world.step(dt);
  EXPECT_NEAR(world.positions()[0] - x0, dragVelocity.x() * 30 * dt, 1e-3f);
  EXPECT_EQ(world.constraintCount(), 0u);
}

TEST(DistanceLimits, MaxLengthOnlyResistsStretching) {
  World world = weightless(4);
  const uint32_t a = world.addParticle(Vec3(0, 0, 0), 1), b = world.addParticle(Vec3(0.5f, 0, 0), 1);
  DistanceConstraintDef d;
  d.i = a;
  d.j = b;
  d.minLength = 0;
  d.maxLength = 1;
  world.addDistanceConstraint(d);
  // Slack: they approach each other freely.
  world.setVelocity(b, Vec3(-0.3f, 0, 0));
  world.step(1.0f / 60);
  EXPECT_NEAR(world.velocities()[3 * b], -0.3f, 1e-5f);
  EXPECT_NEAR(world.velocities()[3 * a], 0, 1e-6f);
  // Taut: pulling apart past the max length is stopped, and the pair moves on together (momentum conserved).
  world.setPosition(b, Vec3(1, 0, 0));
  world.setVelocity(b, Vec3(2, 0, 0));
  world.step(1.0f / 60);
  const Real length = world.positions()[3 * b] - world.positions()[3 * a];
  EXPECT_NEAR(length, 1, 1e-5f);
  EXPECT_NEAR(world.velocities()[3 * a] + world.velocities()[3 * b], 2, 1e-4f);
}

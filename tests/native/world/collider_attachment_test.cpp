// Attachments that follow a collider's point (AttachmentDef::collider, anchor): the particle is held to the point
// wherever the collider goes within the substeps, and what the attachment gives the particle is the collider's
// (colliderImpulse), so a dynamic collider is pulled back within the substep: in zero gravity a cloth hung from a
// spinning body keeps the total linear and angular momentum of both. ColliderBody::gravity off keeps a body's
// velocity. removeCollider frees the attachments that follow it; snapshots keep them.
#include <gtest/gtest.h>

#include <vector>

#include "native/expect_error.h"
#include "pbd/world.h"
#include "scenes/free_space.h"
#include "scenes/measures.h"

using namespace pbd;

namespace {

ColliderDef boxCollider(const Vec3& position) {
  ColliderDef d;
  d.shape = ColliderShape::Box;
  d.halfExtents = Vec3(0.1f, 0.1f, 0.1f);
  d.position = position;
  return d;
}

/// A free 8 × 8 cloth (0.5 kg) whose top corners hang from the box collider's points (±0.15, -0.15, 0).
World hangingFromBox(Method method = Method::Xpbd) {
  World world;
  world.setSettings(scenes::freeSpace(method, 8, 2));
  ClothDef c;
  c.columns = c.rows = 8;
  c.spacing = 0.04f;
  c.origin = Vec3(-0.14f, -0.15f, 0);
  c.axisU = Vec3(1, 0, 0), c.axisV = Vec3(0, -1, 0);
  c.mass = 0.5f;
  world.addCloth(c);
  world.addCollider(boxCollider(Vec3(0, 0, 0)));
  for (uint32_t corner : {0u, 7u}) {
    AttachmentDef a;
    a.particle = corner;
    a.collider = 0;
    a.anchor = Vec3(corner == 0 ? -0.14f : 0.14f, -0.15f, 0);
    world.addAttachment(a);
  }
  return world;
}

}  // namespace

TEST(ColliderAttachment, FollowsAKinematicCollidersPoint) {
  World world = hangingFromBox();
  for (int f = 1; f <= 20; ++f) {
    const Quat turn(Eigen::AngleAxisf(0.05f * Real(f), Vec3(0.3f, 1, 0.2f).normalized()));
    world.setColliderPose(0, Vec3(0.02f * Real(f), 0.01f * Real(f), 0), turn);
    world.step(1.0f / 60);
    const ColliderDef pose = world.colliderDef(0);
    const Vec3 held = pose.position + pose.rotation * Vec3(0.14f, -0.15f, 0);
    EXPECT_LT((scenes::positionOf(world, 7) - held).norm(), 1e-5f) << f;
  }
  expectError([&] { world.setAttachmentTarget(0, Vec3::Zero()); }, {"setAttachmentTarget", "follows collider 0"});
}

// Zero gravity: a spinning, moving 2 kg box drags the hanging cloth along; both engines' momenta are one system.
TEST(ColliderAttachment, ExchangesMomentumWithADynamicColliderWithinTheStep) {
  World world = hangingFromBox();
  const Real mass = 2, moment = mass * (0.04f + 0.04f) / 12;   // a 0.2 m cube: isotropic
  world.setColliderBody(0, {mass, Vec3::Constant(moment), Vec3(1, 0.5f, 0), Vec3(0, 2, 1)});
  auto total = [&] { return scenes::momentaWithBody(world, 0, mass, moment); };
  const scenes::Momenta before = total();
  for (int f = 0; f < 30; ++f) world.step(1.0f / 60);
  const scenes::Momenta after = total();
  EXPECT_LT(world.colliderBody(0).linearVelocity.x(), 0.95f);   // it pulls the cloth along, and is held back
  EXPECT_LT((after.linear - before.linear).norm(), 1e-5 * before.linear.norm());
  // Angular to first order in h: the body turns within the substep (XPBD's rigid bodies). Against the scale of the
  // system's momenta (|P| times its 0.3 m size), 1e-3; the spin alone is 0.03 kg m²/s.
  EXPECT_LT((after.angular - before.angular).norm(), 1e-3 * before.linear.norm() * 0.3);
  const ColliderImpulse j = world.colliderImpulse(0);
  const Vec3 attached = world.attachmentImpulse(0) + world.attachmentImpulse(1);
  EXPECT_LT((j.linear - attached).norm(), 1e-6f);   // the collider's impulse is its attachments' (no contact)
}

TEST(ColliderAttachment, GravityOffKeepsTheBodysVelocity) {
  World world;
  world.setGravity(Vec3(0, -9.81f, 0));
  world.addCollider(boxCollider(Vec3(0, 2, 0)));
  ColliderBody b{1, Vec3::Constant(0.01f), Vec3(0.5f, 0, 0), Vec3::Zero()};
  b.gravity = false;
  world.setColliderBody(0, b);
  world.step(0.5f);
  EXPECT_EQ(world.colliderBody(0).linearVelocity, Vec3(0.5f, 0, 0));
  EXPECT_NEAR(world.colliderDef(0).position.y(), 2, 1e-6f);
  b.gravity = true;
  world.setColliderBody(0, b);
  world.step(0.5f);
  EXPECT_NEAR(world.colliderBody(0).linearVelocity.y(), -9.81f * 0.5f, 1e-4f);
}

TEST(ColliderAttachment, RemoveColliderFreesItsAttachmentsAndRenumbersTheOthers) {
  World world = hangingFromBox();
  world.addCollider(boxCollider(Vec3(1, 0, 0)));   // collider 1
  AttachmentDef a;
  a.particle = 63, a.collider = 1, a.anchor = Vec3(0, -0.2f, 0);
  const uint32_t onSecond = world.addAttachment(a);
  const uint32_t before = world.constraintCount();
  world.removeCollider(0);
  EXPECT_EQ(world.constraintCount(), before - 2);
  world.step(1.0f / 60);
  EXPECT_LT((scenes::positionOf(world, 63) - Vec3(1, -0.2f, 0)).norm(), 1e-5f);   // still on collider 1, now 0
  expectError([&] { world.setAttachmentTarget(onSecond, Vec3::Zero()); }, {"follows collider 0"});
  expectError([&] { world.removeAttachment(0); }, {"removeAttachment", "was removed"});
}

TEST(ColliderAttachment, BadInputIsRefused) {
  World world = hangingFromBox();
  AttachmentDef a;
  a.particle = 5, a.collider = 3;
  expectError([&] { world.addAttachment(a); }, {"addAttachment", "collider", "out of range", "3"});
  a.collider = 0, a.anchor = Vec3(0, NAN, 0);
  expectError([&] { world.addAttachment(a); }, {"addAttachment", "anchor.y", "finite"});
  EXPECT_EQ(world.constraintCount(), hangingFromBox().constraintCount());
}

TEST(ColliderAttachment, SnapshotContinuesBitIdentically) {
  World original = hangingFromBox();
  original.setColliderBody(0, {2, Vec3::Constant(0.02f), Vec3(1, 0, 0), Vec3(0, 1, 0)});
  for (int f = 0; f < 5; ++f) original.step(1.0f / 60);
  const std::vector<uint8_t> blob = original.saveSnapshot();
  World copy;
  copy.loadSnapshot(blob.data(), blob.size());
  // Snapshots keep colliders kinematic (ColliderBody is not saved): both continue with a kinematic box.
  original.setColliderBody(0, {});
  for (World* w : {&original, &copy}) {
    for (int f = 1; f <= 10; ++f) {
      w->setColliderPose(0, Vec3(0.01f * Real(f), 0, 0), Quat::Identity());
      w->step(1.0f / 60);
    }
  }
  EXPECT_TRUE(original.saveSnapshot() == copy.saveSnapshot());
  EXPECT_LT((scenes::positionOf(copy, 7) - Vec3(0.1f + 0.14f, -0.15f, 0)).norm(), 1e-5f);   // it followed the box
}

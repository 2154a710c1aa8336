// A small world with every kind of state the World holds: a pinned cloth with dihedral bending and tethers, a rope,
// a tet soft body with volume constraints, a Neo-Hookean soft body with a shape matching cluster, a balloon (closed
// triangle mesh with pressure), a strain-triangle cloth, three kinematic colliders, attachments (one removed, so the
// free list is not empty), skinned constraints on the rope and self-collision. driveEveryKind moves the colliders, an
// attachment target and the rope's skin per frame, so snapshot tests exercise the kinematic start poses too.
#pragma once

#include <cmath>
#include <cstdint>
#include <vector>

#include "pbd/world.h"
#include "scenes/icosphere.h"
#include "scenes/tet_cube.h"

namespace pbd::scenes {

struct EveryKind {
  uint32_t grab = 0;      ///< An attachment whose target driveEveryKind moves.
  uint32_t removed = 0;   ///< The handle of an attachment removed at build time (on the free list).
};

inline EveryKind buildEveryKind(World& world) {
  SolverSettings s;
  s.substeps = 4;
  s.iterations = 2;
  s.linearDamping = 0.05f;
  s.rigidDamping = 0.1f;
  s.ground.restitution = 0.2f;
  s.selfCollision.enabled = true;
  s.selfCollision.radius = 0.02f;
  world.setSettings(s);

  ClothDef cloth;
  cloth.columns = cloth.rows = 6;
  cloth.spacing = 0.1f;
  cloth.origin = Vec3(-0.3f, 1.2f, -0.3f);
  cloth.pinned = {0, 5};
  cloth.bendModel = BendModel::Dihedral;
  cloth.tethers = TetherMode::Euclidean;
  cloth.tetherSlack = 1.05f;
  const BodyRange clothRange = world.addCloth(cloth);

  RopeDef rope;
  rope.segments = 6;
  rope.start = Vec3(0.6f, 1.4f, 0);
  rope.end = Vec3(1.2f, 1.4f, 0);
  rope.pinned = {0};
  const BodyRange ropeRange = world.addRope(rope);
  std::vector<SkinnedConstraintDef> skin(3);  // links 4-6 of the rope, one of each backstop
  for (uint32_t k = 0; k < 3; ++k) skin[k].particle = ropeRange.firstParticle + 4 + k, skin[k].maxDistance = 0.05f;
  skin[1].backstopDistance = 0.01f;
  skin[2].backstopDistance = 0, skin[2].backstopRadius = 0.1f;
  world.addSkinnedConstraints(skin);

  SoftBodyDef volume = tetCube(1, 0.2f, Vec3(-1, 0.5f, 0));
  volume.volume = Strength{1e-6f, 0.9f};
  world.addSoftBody(volume);

  SoftBodyDef neo = tetCube(1, 0.2f, Vec3(-1, 0.9f, 0.5f));
  neo.material = SoftMaterial::NeoHookean;
  neo.youngsModulus = 2e4f;
  neo.poissonRatio = 0.35f;
  neo.edgeConstraints = false;
  neo.shapeMatching = true;
  world.addSoftBody(neo);

  const IcosphereMesh ball = icosphere(1, 0.15);
  TriangleMeshDef balloon;
  balloon.positions.assign(ball.positions.begin(), ball.positions.end());
  for (size_t k = 1; k < balloon.positions.size(); k += 3) balloon.positions[k] += 0.6f;
  balloon.triangles = ball.triangles;
  balloon.pressure = 1.2f;
  world.addTriangleMesh(balloon);

  ClothDef strain;
  strain.columns = strain.rows = 4;
  strain.spacing = 0.08f;
  strain.origin = Vec3(0.5f, 0.8f, 0.5f);
  strain.model = ClothModel::StrainTriangles;
  strain.stretch = Strength{1e-3f, 0.9f};
  strain.shear = Strength{1e-2f, 0.5f};
  world.addCloth(strain);

  ColliderDef sphere;
  sphere.position = Vec3(0, 0.7f, 0);
  sphere.radius = 0.2f;
  world.addCollider(sphere);
  ColliderDef box;
  box.shape = ColliderShape::Box;
  box.position = Vec3(-1, 0.2f, 0.2f);
  box.halfExtents = Vec3(0.3f, 0.1f, 0.4f);
  box.friction = 0.8f;
  world.addCollider(box);
  ColliderDef capsule;
  capsule.shape = ColliderShape::Capsule;
  capsule.position = Vec3(0.9f, 0.9f, 0);
  capsule.radius = 0.05f;
  capsule.halfHeight = 0.3f;
  capsule.restitution = 0.5f;
  world.addCollider(capsule);

  EveryKind kinds;
  AttachmentDef a;
  a.particle = clothRange.firstParticle + 35;  // the free corner
  a.target = Vec3(0.2f, 1.2f, 0.2f);
  a.strength = Strength{1e-4f, 0.5f};
  kinds.grab = world.addAttachment(a);
  a.particle = clothRange.firstParticle + 30;
  kinds.removed = world.addAttachment(a);
  a.particle = clothRange.firstParticle + 20;
  world.addAttachment(a);
  world.removeAttachment(kinds.removed);
  return kinds;
}

/// Frame f's kinematic input: the colliders move and turn, and the grab's target walks.
inline void driveEveryKind(World& world, const EveryKind& kinds, int f) {
  const Real t = Real(f) / 60;
  world.setColliderPose(0, Vec3(0.2f * std::sin(3 * t), 0.7f, 0), Quat(Eigen::AngleAxis<Real>(t, Vec3::UnitY())));
  world.setColliderPose(1, Vec3(-1, 0.2f + 0.1f * t, 0.2f), Quat(Eigen::AngleAxis<Real>(0.5f * t, Vec3::UnitX())));
  world.setColliderPose(2, Vec3(0.9f, 0.9f - 0.2f * t, 0), Quat(Eigen::AngleAxis<Real>(2 * t, Vec3::UnitZ())));
  world.setAttachmentTarget(kinds.grab, Vec3(0.2f, 1.2f - 0.3f * t, 0.2f));
  const Real skin[9] = {1.0f, 1.4f - 0.2f * t, 0, 1.1f, 1.4f - 0.2f * t, 0, 1.2f, 1.4f - 0.2f * t, 0};
  const Real up[9] = {0, 1, 0, 0, 1, 0, std::sin(t), std::cos(t), 0};
  world.setSkinnedTargets(0, skin, up);
}

}  // namespace pbd::scenes

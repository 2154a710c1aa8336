// One scene with every kind of constraint, for the determinism matrix and the cross-platform golden hash: a cloth
// with dihedral bending and geodesic tethers draped over a sphere, a volume soft cube and a Neo-Hookean soft cube
// falling on a box and the ground, self-collision, and a kinematic attachment.
#pragma once

#include <cstdint>

#include "pbd/world.h"
#include "scenes/tet_cube.h"

namespace pbd::scenes {

/// Which element constraints mixedScene uses. Both default on (the cross-platform golden hash used to turn them off,
/// before they computed the same bits natively and in wasm: docs/determinism.md).
struct MixedSceneKinds {
  bool dihedral = true;    ///< false: the cloth bends by skip-one distance constraints instead.
  bool neoHookean = true;  ///< false: the second soft cube is made of volume constraints too.
};

/// What mixedScene built: the attachment to drive every frame (see driveMixedScene).
struct MixedScene {
  uint32_t attachment = 0;  ///< Handle of the attachment on the cloth's middle particle.
  Vec3 target{0, 0, 0};     ///< m, its target at rest.
};

/// clothN x clothN cloth (1 m wide, y = 1, two corners pinned) and two 3x3x3-cell soft cubes (0.3 m). clothN >= 91
/// gives > 8192 particles, so that the per-particle loops (4096 per task) and the colours split across threads.
inline MixedScene mixedScene(World& world, int clothN, MixedSceneKinds kinds = {}) {
  SolverSettings s;
  s.substeps = 4;
  s.iterations = 1;
  s.selfCollision.enabled = true;
  s.selfCollision.radius = 0.3f / Real(clothN);  // below half the spacing: rest neighbours are not pairs
  world.setSettings(s);

  ClothDef c;
  c.columns = c.rows = clothN;
  c.spacing = 1.0f / Real(clothN - 1);
  c.origin = Vec3(-0.5f, 1.0f, 0);
  c.pinned = {0, uint32_t(clothN - 1)};
  c.stretch = Strength{1e-6f, 1};
  c.bend = Strength{1e-2f, 0.3f};
  c.bendModel = kinds.dihedral ? BendModel::Dihedral : BendModel::SkipOne;
  c.tethers = TetherMode::Geodesic;
  c.tetherSlack = 1.05f;
  const BodyRange cloth = world.addCloth(c);

  SoftBodyDef volume = tetCube(3, 0.3f, Vec3(0.7f, 0.25f, 0.3f));
  volume.volume = Strength{1e-7f, 1};
  world.addSoftBody(volume);
  SoftBodyDef rubber = tetCube(3, 0.3f, Vec3(-1.0f, 0, 0.3f));  // on the ground
  if (kinds.neoHookean) {
    rubber.material = SoftMaterial::NeoHookean;
    rubber.youngsModulus = 2e4f;
    rubber.poissonRatio = 0.4f;
    rubber.edgeConstraints = false;
  } else {
    rubber.volume = Strength{1e-6f, 1};
  }
  world.addSoftBody(rubber);

  ColliderDef sphere;
  sphere.position = Vec3(0, 0.76f, 0.5f);  // its top pokes through the cloth: contacts from the first step
  sphere.radius = 0.25f;
  world.addCollider(sphere);
  ColliderDef box;
  box.shape = ColliderShape::Box;
  box.position = Vec3(0.85f, 0.15f, 0.45f);  // tilted under the volume cube, touching it
  box.rotation = Quat(0.98877108f, 0, 0, 0.14943813f);  // 0.3 rad about z, as literals: no libm sin/cos in the golden
  box.halfExtents = Vec3(0.3f, 0.1f, 0.3f);
  world.addCollider(box);

  const uint32_t middle = cloth.firstParticle + uint32_t(clothN / 2) * uint32_t(clothN) + uint32_t(clothN / 2);
  AttachmentDef a;
  a.particle = middle;
  a.target = Vec3(world.positions()[3 * middle], world.positions()[3 * middle + 1], world.positions()[3 * middle + 2]);
  a.strength = Strength{1e-3f, 0.5f};
  return {world.addAttachment(a), a.target};
}

/// Frame f's attachment target: lifted and swung sideways (kinematic driving, as by a mouse).
inline void driveMixedScene(World& world, const MixedScene& scene, int frame) {
  const Real t = Real(frame) / 60;
  world.setAttachmentTarget(scene.attachment, scene.target + Vec3(0.2f * t, 0.3f * t, 0));
}

}  // namespace pbd::scenes

// Issue #5's self-folding scene: an n x n cloth, 1 m square, standing on its lower edge 2 cm above the ground, leaning
// 20 degrees from the vertical, released. It falls over and its upper part folds onto the lower part lying on the
// ground, with continuous self-collision keeping the layers apart. XPBD, 10 substeps x 1 iteration, rigid stretch
// and shear, soft bending (selfCollisionSceneSettings).
#pragma once

#include <cmath>

#include "pbd/world.h"
#include "scenes/cloth_on_bunny.h"

namespace pbd::scenes {

/// Fills `world` (empty) with the scene and returns the cloth. Its self-collision thickness is 0.45 spacing (below
/// the spacing / sqrt(2) a flat cloth allows).
inline BodyRange fallingFold(World& world, int n) {
  world.setSettings(selfCollisionSceneSettings());
  const Real lean = 20 * Real(M_PI) / 180;
  ClothDef c;
  c.columns = c.rows = n;
  c.spacing = 1.0f / Real(n - 1);
  c.origin = Vec3(-0.5f, 0.02f, 0);
  c.axisU = Vec3(1, 0, 0);
  c.axisV = Vec3(0, std::cos(lean), std::sin(lean));
  c.mass = 1;
  c.bend = Strength{1e-3f, 1};
  c.continuousSelfCollision = {true, 0.45f * c.spacing};
  return world.addCloth(c);
}

}  // namespace pbd::scenes

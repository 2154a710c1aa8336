// A cloth dropped onto a box, and how fast it still moves at 3 s: the scenes of the resting-drape tests.
#pragma once

#include <algorithm>

#include "pbd/world.h"
#include "scenes/measures.h"

namespace pbd::scenes {

/// A 1 m square cloth of n × n particles (default strengths), dropped flat and centred from `drop` m above a 0.6 m
/// box collider that stands on the ground at the origin.
inline void addClothOverBox(World& world, int n, Real drop) {
  ColliderDef box;
  box.shape = ColliderShape::Box;
  box.position = Vec3(0, 0.3f, 0);
  box.halfExtents = Vec3(0.3f, 0.3f, 0.3f);
  world.addCollider(box);
  ClothDef cloth;
  cloth.columns = cloth.rows = n;
  cloth.spacing = 1.0f / Real(n - 1);
  cloth.origin = Vec3(-0.5f, 0.6f + drop, -0.5f);
  world.addCloth(cloth);
}

/// Steps `world` 180 frames of 1/60 s and returns the largest particle speed over the last 15 (2.75–3 s), m/s.
inline Real largestSpeedAtThreeSeconds(World& world) {
  Real fastest = 0;
  for (int f = 1; f <= 180; ++f) {
    world.step(1.0f / 60);
    if (f > 165) fastest = std::max(fastest, largestSpeed(world));
  }
  return fastest;
}

}  // namespace pbd::scenes

// A self-collision scene whose contact density does not depend on its resolution (issue #5's scaling benchmark): an
// n x n sheet, 1 m wide, folded in half across its rows and lying on the ground, the upper half resting on the lower
// through continuous self-collision. Every particle of the upper layer is in contact at every resolution, so the
// self-collision cost per particle measures the algorithm alone: a draped cloth crumples more when it is finer (more
// contacts per particle), which hides how the cost scales.
#pragma once

#include <vector>

#include "pbd/world.h"
#include "scenes/cloth_on_bunny.h"

namespace pbd::scenes {

/// Fills `world` (empty) with the folded sheet: n >= 4 even, selfCollisionSceneSettings, rigid stretch, soft
/// dihedral bending around the folded rest shape, thickness 0.45 spacing. The layers start 2 thicknesses apart (the
/// fold's edges keep that at the fold) and the upper one settles onto the lower within a few frames.
inline MeshBody foldedSheet(World& world, int n) {
  world.setSettings(selfCollisionSceneSettings());
  const Real spacing = 1.0f / Real(n - 1), thickness = 0.45f * spacing, gap = 2 * thickness;
  const int half = n / 2;  // rows [0, half) lie on the ground, rows [half, n) fold back over them
  TriangleMeshDef m;
  m.positions.reserve(3 * size_t(n) * n);
  for (int r = 0; r < n; ++r) {
    const bool upper = r >= half;
    const Real along = Real(upper ? n - 1 - r : r) * spacing;
    for (int c = 0; c < n; ++c) m.positions.insert(m.positions.end(), {Real(c) * spacing - 0.5f, upper ? gap : 0, along});
  }
  for (int r = 0; r + 1 < n; ++r) {
    for (int c = 0; c + 1 < n; ++c) {
      const uint32_t a = uint32_t(r * n + c), b = a + 1, d = a + uint32_t(n), e = d + 1;
      m.triangles.insert(m.triangles.end(), {a, d, b, b, d, e});
    }
  }
  m.mass = 1;
  m.bend = Strength{1e-3f, 1};
  m.continuousSelfCollision = {true, thickness};
  return world.addTriangleMesh(m);
}

}  // namespace pbd::scenes

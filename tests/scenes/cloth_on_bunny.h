// The self-collision benchmark's scene (issue #5): an n x n cloth, 1 m square, dropped flat from 0.1 m above the
// Stanford bunny (0.5 m tall, a static triangle-mesh collider) onto the ground, with continuous self-collision on,
// so that it drapes and folds onto itself. XPBD, 10 substeps x 1 iteration, rigid stretch and shear, soft bending.
#pragma once

#include <algorithm>
#include <vector>

#include "pbd/world.h"
#include "scenes/bunny.h"

namespace pbd::scenes {

/// The bunny collider's surface thickness, m.
inline constexpr Real kBunnyThickness = 0.01f;

/// The self-collision benchmarks' solver (this scene's and folded_sheet.h's): XPBD, 10 substeps x 1 iteration,
/// linear damping 0.1.
inline SolverSettings selfCollisionSceneSettings() {
  SolverSettings s;
  s.method = Method::Xpbd;
  s.substeps = 10;
  s.iterations = 1;
  s.linearDamping = 0.1f;
  return s;
}

/// Fills `world` (empty) with the scene; `bunnyMesh` must outlive nothing (addCollider copies it). Returns the cloth.
inline BodyRange clothOnBunny(World& world, int n, const SurfaceMesh& bunnyMesh) {
  world.setSettings(selfCollisionSceneSettings());
  ColliderDef bunny;
  bunny.shape = ColliderShape::TriangleMesh;
  bunny.meshPositions = bunnyMesh.positions;
  bunny.meshTriangles = bunnyMesh.triangles;
  bunny.thickness = kBunnyThickness;
  bunny.friction = 0.4f;
  world.addCollider(bunny);
  float top = 0, cx = 0, cz = 0;
  for (size_t k = 0; k < bunnyMesh.positions.size(); k += 3) {
    top = std::max(top, bunnyMesh.positions[k + 1]);
    cx += bunnyMesh.positions[k] * 3 / bunnyMesh.positions.size();
    cz += bunnyMesh.positions[k + 2] * 3 / bunnyMesh.positions.size();
  }
  ClothDef c;
  c.columns = c.rows = n;
  c.spacing = 1.0f / Real(n - 1);
  c.origin = Vec3(cx - 0.5f, top + 0.1f, cz - 0.5f);
  c.axisU = Vec3(1, 0, 0);
  c.axisV = Vec3(0, 0, 1);
  c.mass = 1;
  c.bend = Strength{1e-3f, 1};
  // Thickness 0.45 spacing: below the spacing / sqrt(2) a flat cloth allows (checkSelfCollisionThickness).
  c.continuousSelfCollision = {true, 0.45f * c.spacing};
  return world.addCloth(c);
}

}  // namespace pbd::scenes

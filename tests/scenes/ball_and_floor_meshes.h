// Two triangle-mesh colliders for the tests: a closed icosphere "ball" and an open two-triangle floor square at
// y = 0 (2 m wide), in a world without the analytic ground, so every contact is a mesh contact.
#pragma once

#include <cstdint>
#include <vector>

#include "pbd/world.h"
#include "scenes/icosphere.h"

namespace pbd::scenes {

struct BallAndFloorMeshes {
  IcosphereMesh ball;
  std::vector<float> floorXyz = {-1, 0, -1, 1, 0, -1, 1, 0, 1, -1, 0, 1};
  std::vector<uint32_t> floorTriangles = {0, 2, 1, 0, 3, 2};
};

/// Switches the ground off and adds the ball (collider 0, radius `radius` at `ballPosition`) and the floor
/// (collider 1), both `thickness` thick. `meshes` must outlive the call only (the world copies them).
inline void addBallAndFloorMeshes(World& w, const BallAndFloorMeshes& meshes, const Vec3& ballPosition,
                                  float thickness) {
  GroundSettings ground;
  ground.enabled = false;
  w.setGround(ground);
  ColliderDef ball;
  ball.shape = ColliderShape::TriangleMesh;
  ball.meshPositions = meshes.ball.positions;
  ball.meshTriangles = meshes.ball.triangles;
  ball.position = ballPosition;
  ball.thickness = thickness;
  w.addCollider(ball);
  ColliderDef floor = ball;
  floor.meshPositions = meshes.floorXyz;
  floor.meshTriangles = meshes.floorTriangles;
  floor.position = Vec3(0, 0, 0);
  w.addCollider(floor);
}

}  // namespace pbd::scenes

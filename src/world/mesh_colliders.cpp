// Triangle-mesh colliders at the API: validation and building (World::addCollider calls buildMeshShape before it
// changes anything) and deformation (setColliderMeshVertices). The step's side is in mesh_contacts.cpp.
#include "mesh/surface_topology.h"
#include "base/checks.h"
#include "world/world_state.h"

namespace pbd {

MeshShape World::Impl::buildMeshShape(const char* fn, const ColliderDef& def) const {
  mesh::requireTriangles(fn, def.meshPositions, def.meshTriangles, "meshPositions", "meshTriangles", 1,
                         "must hold at least 1 triangle");
  MeshShape shape(def.meshPositions, def.meshTriangles);
  shape.resizeParticles(count());  // as many flags as particles (reserveContacts grows them with the particles)
  shape.insideUnknown = true;
  return shape;
}

void World::setColliderMeshVertices(uint32_t collider, std::span<const Real> positions) {
  const char* fn = "setColliderMeshVertices";
  Impl& m = *impl_;
  check::index(fn, "collider", collider, m.collision.colliders.size());
  if (m.collision.colliders[collider].mesh == kNoMesh) check::fail(fn, "collider", "is not a triangle mesh", collider);
  MeshShape& shape = m.collision.meshShapes[m.collision.colliders[collider].mesh];
  const TriangleBvh& bvh = shape.surface.bvh();
  if (positions.size() != 3 * bvh.vertices().size()) {
    check::fail(fn, "positions.size()", ("must be 3 x the mesh's " + std::to_string(bvh.vertices().size()) +
                                         " vertices").c_str(), positions.size());
  }
  mesh::requireTriangles(fn, positions, bvh.triangles(), "positions", "triangles", 1, "must hold at least 1 triangle");
  shape.surface.refit(positions);
  shape.forgetClearances();
  if (shape.closed) shape.outward = mesh::closedSurfaceVolume(positions, bvh.triangles()) < 0 ? -1 : 1;
  shape.insideUnknown = true;
}

}  // namespace pbd

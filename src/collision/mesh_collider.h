// Triangle-mesh colliders: the mesh in its local frame with its BVH and winding number, and the contact plane of a
// particle moving across one substep (continuous collision, after Müller's PBD soft-body notes).
//
// For a particle going from a (its position at the start of the substep, in the collider's frame at the substep's
// start pose) to b (its prediction, in the frame at the end pose), with thickness d:
//   1. it starts inside (closed meshes: winding number w(a) >= 1/2): the nearest surface point q_s to b, with the
//      outward normal n_s, gives C(p) = (p - q_s)·n_s - d >= 0 (it is pushed out by the shortest way);
//   2. else the segment a→b enters the surface: the first hit q_c, with the triangle's normal n_c turned towards a,
//      gives C(p) = (p - q_c)·n_c - d >= 0 (it stops on the side it came from, however fast it was);
//   3. else b is closer than d to the surface: the nearest point q_s and n_s = (b - q_s)/|b - q_s| give the same
//      C(p) = (p - q_s)·n_s - d >= 0 (resting contact).
// The plane (q, n) is fixed for the substep; the projection p += max(0, -C) n is the unilateral constraint's
// (the collider is kinematic: infinite mass).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "mesh/winding_number.h"
#include "pbd/real.h"

namespace pbd {

/// A contact plane in the collider's local frame: particles are kept on the side n points to, thickness away.
struct MeshContactPlane {
  Point3d point;   ///< q, a surface point, m (local frame).
  Point3d normal;  ///< n, unit, pointing to where the particle belongs.
};

/// The mesh of a TriangleMesh collider (CollisionState::meshShapes[Collider::mesh]).
struct MeshShape {
  mesh::SurfaceBvh surface;     ///< Local-frame triangles: BVH, closest points, segment hits, winding number.
  bool closed = false;          ///< Every edge on exactly 2 triangles, once each way: the inside is defined.
  double outward = 1;           ///< Closed meshes: +1 if the triangles wind counter-clockwise seen from outside
                                ///< (positive volume), -1 if inward; the outward normal is outward * areaNormal.
  std::vector<uint8_t> inside;  ///< Per particle (closed meshes): 1 = it ended the last substep inside the mesh.
  bool insideUnknown = true;    ///< `inside` must be recomputed from winding numbers at the next substep (new
                                ///< particles, teleported particles, a deformed mesh, a rolled-back step).
  // A cache that only skips queries sure to find nothing, so it never changes a result: the distance to the surface
  // is 1-Lipschitz, so a point within r of one known to be D away is at least D - r away.
  std::vector<Point3d> clearanceFrom;  ///< Per particle: the local point where its clearance was last learned.
  std::vector<double> clearance;       ///< Per particle: m, a lower bound of that point's distance to the surface
                                       ///< (0: nothing known). Forgotten with `inside`, and when the mesh deforms.
  /// Per particle, scratch of one pass of a substep: the plane its first query found, made for all particles in
  /// parallel before the contacts are added in particle order (World::Impl's mesh passes, mesh_contacts.cpp).
  std::vector<std::optional<MeshContactPlane>> firstPlane;

  /// Builds the BVH; positions and triangles must be valid (World::addCollider checks them).
  MeshShape(std::span<const Real> positions, std::span<const uint32_t> triangles);

  /// Whether local point q is inside (closed meshes only; always false for open ones).
  bool contains(const Point3d& q) const;

  /// The contact plane of a particle moving from a to b (local frame), or nullopt when it needs none (cases 1-3
  /// above; `startsInside` selects case 1). Also sets `clearance` to a lower bound of b's distance to the surface
  /// that the query learned (it looks kClearanceReach times as far as it needs to; 0 for a particle that starts
  /// inside).
  std::optional<MeshContactPlane> contactPlane(const Point3d& a, const Point3d& b, bool startsInside,
                                               double thickness, double& clearance) const;
  /// How much farther than a contact needs a nearest-point query looks, so that a particle moving slowly away from
  /// the surface skips the next queries: a wider search costs little in the tree.
  static constexpr double kClearanceReach = 4;

  /// contactPlane for particle i, skipped when its cached clearance shows there is nothing to find (not for a
  /// particle that starts inside), and caching what the query learns of b's distance.
  std::optional<MeshContactPlane> particleContactPlane(uint32_t i, const Point3d& a, const Point3d& b,
                                                       bool startsInside, double thickness);

  /// Room for `particles` particles' flags and clearances (new ones unknown).
  void resizeParticles(size_t particles);
  /// Every particle's clearance is unknown again (particles teleported, the mesh deformed, a step undone).
  void forgetClearances();

  /// Case 2 alone: the plane at the first point where a→b enters the surface, or nullopt if it crosses none.
  std::optional<MeshContactPlane> crossingPlane(const Point3d& a, const Point3d& b) const;

 private:
  /// The unit normal of triangle t turned towards `from` (a particle moving from `from` to `to`); if `from` lies in
  /// the triangle's plane, against the motion; if it does not move either, outward.
  Point3d normalTowards(uint32_t t, const Point3d& from, const Point3d& to, const Point3d& onSurface) const;
};

}  // namespace pbd

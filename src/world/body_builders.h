// Topology builders: turn a ClothDef or RopeDef into particles and distance constraints, without touching a world.
// World::addCloth/addRope append the result in one step, so a rejected def leaves the world unchanged.
#pragma once

#include <vector>

#include "constraints/neo_hookean.h"
#include "constraints/tet_volume.h"
#include "constraints/tether.h"
#include "pbd/bodies.h"

namespace pbd {

/// Particles and constraints of one body, with particle indices local to the body (0 = its first particle).
struct BodyBlueprint {
  std::vector<Real> positions;                     ///< xyz per particle.
  std::vector<Real> inverseMasses;                 ///< 1/kg per particle, 0 = pinned.
  std::vector<DistanceConstraintDef> constraints;  ///< i, j local; min/max lengths resolved (never -1).
  std::vector<Tether> tethers;                     ///< particle and anchor local; at most one per particle.
  std::vector<DihedralConstraintDef> dihedrals;    ///< particle indices local; rest angle -10 (= as built).
  std::vector<TetVolumeConstraint> volumes;        ///< particle indices local; rest volumes resolved.
  std::vector<NeoHookeanTet> neoHookeans;          ///< particle indices local; rest shapes and compliances resolved.
  std::vector<uint32_t> renderToParticle;          ///< Mesh bodies: per render vertex, its local particle.
  std::vector<uint32_t> surface;                   ///< Closed surface triangles (local, 3 each) of a global volume
                                                   ///< constraint; empty = none.
  Real pressure = 0;                               ///< The global volume constraint's target: pressure x rest volume.
  Strength surfaceVolume;                          ///< And its strength.
};

/// Validates `def` (throws InvalidArgument naming "addCloth: <field>") and builds the grid.
BodyBlueprint buildCloth(const ClothDef& def);
/// Validates `def` (throws InvalidArgument naming "addRope: <field>") and builds the chain.
BodyBlueprint buildRope(const RopeDef& def);
/// Validates `def` (throws InvalidArgument naming "addSoftBody: <field>") and builds edges, volumes and masses.
BodyBlueprint buildSoftBody(const SoftBodyDef& def);
/// Validates `def` (throws InvalidArgument naming "addTriangleMesh: <field>"), welds, and builds edges, hinges,
/// masses by area and the optional global volume constraint.
BodyBlueprint buildTriangleMesh(const TriangleMeshDef& def);

}  // namespace pbd

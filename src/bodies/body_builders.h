// Topology builders: turn a body's def into particles and constraints, without touching a world. World::addCloth,
// addRope, addSoftBody and addTriangleMesh append the result in one step, so a rejected def leaves the world
// unchanged.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "constraints/cosserat_rod.h"
#include "constraints/neo_hookean.h"
#include "constraints/tet_volume.h"
#include "constraints/tether.h"
#include "constraints/triangle_strain.h"
#include "pbd/bodies.h"

namespace pbd {

/// A shape matching cluster resolved for appending: members, rest offsets and matching masses (parallel arrays).
struct ShapeMatchingBlueprint {
  std::vector<uint32_t> members;  ///< Particle indices (local in a BodyBlueprint); empty = no cluster.
  std::vector<Vec3> restOffsets;  ///< q_i about the rest centre of mass (constraints/shape_matching.h).
  std::vector<Real> masses;       ///< m_i > 0 (see ShapeMatchingDef for pinned members).
  Strength strength;
};

/// Validates a cluster over `members` (indices into xyz and inverseMasses, `count` particles) and resolves its rest
/// shape. Throws InvalidArgument naming "<fn>: <arg>" (or <arg>[k] for a bad member) and the strength's fields.
ShapeMatchingBlueprint resolveShapeMatching(const char* fn, const std::string& arg, std::span<const uint32_t> members,
                                            const Real* xyz, const Real* inverseMasses, size_t count,
                                            const char* strengthName, const Strength& strength);

/// Particles and constraints of one body, with particle indices local to the body (0 = its first particle).
struct BodyBlueprint {
  std::vector<Real> positions;                     ///< xyz per particle.
  std::vector<Real> inverseMasses;                 ///< 1/kg per particle, 0 = pinned.
  std::vector<DistanceConstraintDef> constraints;  ///< i, j local; min/max lengths resolved (never -1).
  std::vector<Tether> tethers;                     ///< particle and anchor local; at most one per particle.
  std::vector<DihedralConstraintDef> dihedrals;    ///< particle indices local; rest angle -10 (= as built).
  std::vector<TetVolumeConstraint> volumes;        ///< particle indices local; rest volumes resolved.
  std::vector<NeoHookeanTet> neoHookeans;          ///< particle indices local; rest shapes and compliances resolved.
  std::vector<TriangleStrainConstraint> triangleStrains;  ///< particle indices local; rest frames and per-triangle
                                                   ///< compliances resolved (k' set when appended).
  ShapeMatchingBlueprint shapeMatching;            ///< members local; at most one cluster per body.
  std::vector<uint32_t> renderToParticle;          ///< Mesh bodies: per render vertex, its local particle.
  std::vector<uint32_t> triangles;                 ///< Cloth and mesh bodies: the render triangles (local, 3 each),
                                                   ///< for continuous self-collision; empty for other bodies.
  std::vector<uint32_t> surface;                   ///< Closed surface triangles (local, 3 each) of a surface volume
                                                   ///< constraint; empty = none.
  Real pressure = 0;                               ///< The surface volume constraint's target: pressure x rest volume.
  bool surfaceVolumeUnilateral = false;            ///< It only resists a volume below that target.
  Strength surfaceVolume;                          ///< And its strength.
};

/// Validates a ClothModel field ("<fn>: model"); true for StrainTriangles.
bool usesStrainTriangles(const char* fn, ClothModel model);
/// Adds a strain constraint per triangle (3 local indices each, in the builder's `triangles` order) with its rest
/// frame from b.positions; `warp` orients the x axis (zero = each triangle's first edge). Compliances are per unit
/// area (divided by each rest area). A degenerate rest triangle throws naming "<fn>: triangles[k]".
void addStrainTriangles(const char* fn, BodyBlueprint& b, std::span<const uint32_t> triangles, const Vec3& warp,
                        const Strength& stretch, const Strength& shear);

/// Validates `def` (throws InvalidArgument naming "addCloth: <field>") and builds the grid.
BodyBlueprint buildCloth(const ClothDef& def);
/// Validates `def` (throws InvalidArgument naming "addRope: <field>") and builds the chain.
BodyBlueprint buildRope(const RopeDef& def);
/// A rod resolved for appending: its particles and masses, and its segments (particle indices local) with their
/// frames at rest and the joints (segment indices local).
struct RodBlueprint {
  BodyBlueprint body;
  std::vector<RodSegment> segments;
  std::vector<Quat> orientations;  ///< Per segment.
  std::vector<RodJoint> joints;
};
/// Validates `def` (throws InvalidArgument naming "addRod: <field>") and builds the rod.
RodBlueprint buildRod(const RodDef& def);
/// Validates `def` (throws InvalidArgument naming "addSoftBody: <field>") and builds edges, volumes and masses.
BodyBlueprint buildSoftBody(const SoftBodyDef& def);
/// Validates `def` (throws InvalidArgument naming "addTriangleMesh: <field>"), welds, and builds edges, hinges,
/// masses by area and the optional surface volume constraint.
BodyBlueprint buildTriangleMesh(const TriangleMeshDef& def);

}  // namespace pbd

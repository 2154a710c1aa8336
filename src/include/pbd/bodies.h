// Creation settings: what a caller hands World to add constraints and bodies. Plain data, validated by World.
#pragma once

#include <cstdint>
#include <limits>
#include <vector>

#include "pbd/contact_material.h"
#include "pbd/real.h"

namespace pbd {

/// Strength of a constraint in both methods; the world's Method picks which one is used.
struct Strength {
  Real compliance = 0;  ///< XPBD: inverse stiffness (m/N for distances), >= 0; 0 = rigid.
  Real stiffness = 1;   ///< PBD: fraction of the error removed per substep, in [0,1]; 1 = rigid.
};

/// A distance constraint between particles i and j: C = |xi - xj| - clamp(|xi - xj|, minLength, maxLength).
/// With minLength == maxLength it is bilateral (C = 0, a rod of that length); otherwise unilateral:
/// it acts only while the distance is outside [minLength, maxLength] (minLength 0: a rope that only resists stretching).
struct DistanceConstraintDef {
  uint32_t i = 0;         ///< First particle index.
  uint32_t j = 0;         ///< Second particle index, != i.
  Real minLength = -1;    ///< m, >= 0; -1 = the current distance between the particles.
  Real maxLength = -1;    ///< m, >= minLength; -1 = same as minLength (bilateral).
  Strength strength;      ///< Compliance (XPBD) and stiffness (PBD).
};

/// Bending between the triangles (p0, p2, p3) and (p1, p3, p2) that share the edge p2-p3: C = φ - φ0, with φ the
/// signed angle between their normals. Robust at φ = 0 and π and on degenerate triangles (no correction there).
struct DihedralConstraintDef {
  uint32_t p0 = 0, p1 = 0;  ///< Wing vertices, one per triangle.
  uint32_t p2 = 0, p3 = 0;  ///< The shared edge.
  Real restAngle = -10;     ///< Radians in [-π, π]; -10 = the current angle.
  Strength strength;        ///< Compliance (1/(N m), per radian²) and stiffness.
};

/// Attaches a particle to a world point: C = |x - target| = 0. Move the target every frame for kinematic driving
/// (a mouse grab). Unlike a pin (inverse mass 0), the particle keeps its mass and the attachment may be compliant.
struct AttachmentDef {
  uint32_t particle = 0;  ///< Particle index.
  Vec3 target{0, 0, 0};   ///< m, world-space point the particle is pulled to (unless it follows a collider).
  Strength strength;      ///< Compliance (m/N) and stiffness.
  /// A collider index, or kNoCollider (the default): the target is then the collider's point `anchor` (its local
  /// frame, m) wherever the collider is within the substeps, and what the attachment gives the particle is booked as
  /// the collider's (colliderImpulse), so a dynamic collider (setColliderBody) is pulled back within the substep.
  uint32_t collider = 0xFFFFFFFFu;
  Vec3 anchor{0, 0, 0};   ///< m, in the collider's frame; with a collider only.
};

/// AttachmentDef::collider's "follows no collider".
inline constexpr uint32_t kNoCollider = 0xFFFFFFFFu;

/// Keeps a particle of character cloth near its skinned position s (a point of an animated mesh, set every frame with
/// World::setSkinnedTargets), as Jolt's SkinnedConstraint does: within maxDistance of s, and never behind a backstop,
/// a plane or a sphere behind the skinned surface (along minus its normal n at s), so the cloth cannot pass into the
/// body it covers. Hard limits, projected last in every iteration; maxDistance 0 makes the particle follow s exactly.
struct SkinnedConstraintDef {
  uint32_t particle = 0;      ///< Particle index (a pinned one is left alone).
  Real maxDistance = 0;       ///< m, >= 0: how far the particle may swing from s.
  Real backstopDistance = -1; ///< m, >= 0: how far behind s (along −n) the backstop's surface lies; -1 = no backstop.
  Real backstopRadius = 0;    ///< m, >= 0: 0 = the backstop is the plane through s − backstopDistance·n, normal n;
                              ///< > 0 = a sphere of this radius behind s, touching that point.
};

/// A region of space whose particles a body builder pins (inverse mass 0), in addition to the pinned indices.
/// Tested against the particles' positions as built; a region that catches no particle is allowed.
struct PinRegion {
  enum class Shape {
    Box,     ///< The axis-aligned box centre ± halfExtents (boundary included).
    Sphere,  ///< The ball of `radius` around centre (boundary included).
  };
  Shape shape = Shape::Box;
  Vec3 centre{0, 0, 0};       ///< m.
  Vec3 halfExtents{0, 0, 0};  ///< m, each >= 0 (Box only).
  Real radius = 0;            ///< m, >= 0 (Sphere only).
};

/// How a cloth resists bending.
enum class BendModel {
  SkipOne,   ///< Distance constraints between every second particle along the rows and columns (cheap, in parallel).
  Dihedral,  ///< A dihedral angle constraint on every interior edge of the triangulation (rest angle: flat).
};

/// Long-range attachments added by a body builder: each free particle is tethered to its nearest pinned particle.
enum class TetherMode {
  None,       ///< No tethers.
  Euclidean,  ///< Nearest pin by straight-line rest distance; the limit is that distance.
  Geodesic,   ///< Nearest pin along the cloth's edges (Dijkstra over stretch and shear edges); the limit is that
              ///< path length, which lets the cloth fold around corners that a straight line would cut.
};

/// How a cloth or triangle mesh resists stretching and shearing in its plane.
enum class ClothModel {
  Edges,            ///< Distance constraints on the edges (a cloth's grid edges and cell diagonals; a mesh's edges).
  StrainTriangles,  ///< Strain Based Dynamics (Müller et al. 2014): per render triangle, stretch along the two axes of
                    ///< its rest frame and the shear between them, with separate strengths and no edge constraints.
                    ///< Compliances are per unit area: α of a triangle = compliance / its rest area.
};

/// Continuous self-collision of one cloth or triangle-mesh body (its own triangles against its own vertices and
/// edges), for thin cloth that folds onto itself: every substep, each vertex's path x → p is tested against the body's
/// triangles and each edge's against its edges (continuous point–triangle and edge–edge tests, a BVH over the swept
/// triangles as broad phase), and pairs that come closer than `thickness` are pushed apart to the side they started
/// on (constraints/self_contact.h). A vertex is never tested against its own triangles, nor an edge against an edge
/// sharing a vertex. Independent of SolverSettings::selfCollision (particle–particle, all bodies), which may be on too.
struct ContinuousSelfCollision {
  bool enabled = false;      ///< Off by default (it costs a broad and narrow phase per substep).
  Real thickness = 0.005f;   ///< m, > 0 and finite: the separation kept between the cloth's layers. While enabled it
                             ///< must be < the body's shortest rest edge / √2 (spacing/√2 on a grid cloth: a vertex's
                             ///< distance to its nearest non-adjacent triangle), or the flat cloth would push itself
                             ///< apart; checked at creation, by the setter and on snapshot load (not while disabled).
};

/// Tearing of a cloth or triangle-mesh body. The body keeps its triangles; an edge of them tears when stretched past
/// (1 + strain) times its rest length at the end of a step, or when World::tearEdges names it. Where torn edges
/// separate the triangles around a vertex, the vertex splits: one particle per side, each at the same place with the
/// same velocity, the mass shared by the rest areas of their triangles (so mass and momentum are kept), and the
/// constraints follow the pieces (mesh/tear_topology.h): an edge along the opening lives on each side, bending and
/// shear across it break, tethers to a pin the piece no longer hangs from go. Open surfaces only (no pressure).
struct Tearing {
  bool enabled = false;  ///< Off by default: only a tearable body keeps its triangles and can tear.
  Real strain = std::numeric_limits<Real>::infinity();  ///< > 0: the strain (stretch / rest length) at which an edge
                                                        ///< tears; infinity = only World::tearEdges tears it.
};

/// A rectangular cloth of columns x rows particles in the plane spanned by axisU (columns) and axisV (rows).
/// Particle (c, r) sits at origin + c*spacing*axisU + r*spacing*axisV and has index first + r*columns + c.
/// Render triangles: cell (c, r) is split into (c,r)(c+1,r)(c,r+1) and (c+1,r)(c+1,r+1)(c,r+1).
/// Edges model: stretch (grid neighbours), shear (both cell diagonals), bend (skip-one neighbours along both axes).
/// StrainTriangles model: a strain constraint per render triangle (x = axisU, y = axisV), bend as in Edges. The
/// skip-one bend edges also resist stretching along the grid; BendModel::Dihedral leaves stretch to the triangles.
struct ClothDef {
  int columns = 2;                    ///< >= 2 particles along axisU.
  int rows = 2;                       ///< >= 2 particles along axisV.
  Real spacing = 0.1f;                ///< m, > 0, rest distance between grid neighbours.
  Vec3 origin{0, 0, 0};               ///< m, position of particle (0, 0).
  Vec3 axisU{1, 0, 0};                ///< Direction of the columns; normalized by the builder, must be non-zero.
  Vec3 axisV{0, 0, 1};                ///< Direction of the rows; normalized, must not be parallel to axisU.
  Real mass = 1;                      ///< kg, > 0, total mass spread evenly over the particles.
  std::vector<uint32_t> pinned;       ///< Grid indices (r*columns + c) that get inverse mass 0.
  std::vector<PinRegion> pinRegions;  ///< Particles inside any of these also get inverse mass 0.
  ClothModel model = ClothModel::Edges;  ///< Edge constraints, or strain triangles for stretch and shear.
  Strength stretch;                   ///< Edges: grid edges (m/N). StrainTriangles: stretch along axisU and axisV,
                                      ///< compliance = 1 / stretch modulus (m/N, per unit area).
  Strength shear;                     ///< Edges: cell diagonals (m/N). StrainTriangles: the angle between the axes,
                                      ///< compliance = 1 / shear modulus (m/N, per unit area).
  Strength bend{1e-4f, 0.5f};         ///< Bending (skip-one edges, or dihedral angles in 1/(N m) per rad²).
  BendModel bendModel = BendModel::SkipOne;  ///< Which bending constraints the builder adds.
  TetherMode tethers = TetherMode::None;  ///< Long-range attachments to the pinned particles (needs pins).
  Real tetherSlack = 1;               ///< >= 1: a tether allows this factor times the rest distance.
  ContactMaterial contact;            ///< Friction and restitution against colliders and the ground (see
                                      ///< contact_material.h); default: the surface's. World::setBodyMaterial changes it.
  ContinuousSelfCollision continuousSelfCollision;  ///< Off by default; World::setContinuousSelfCollision changes it.
  Tearing tearing;                    ///< Off by default (see Tearing).
};

/// A rope of `segments` links from `start` to `end` (segments + 1 particles, first particle at start).
struct RopeDef {
  int segments = 1;                   ///< >= 1.
  Vec3 start{0, 0, 0};                ///< m.
  Vec3 end{1, 0, 0};                  ///< m, != start; the rest length of a link is |end - start| / segments.
  Real mass = 1;                      ///< kg, > 0, spread evenly over the particles.
  std::vector<uint32_t> pinned;       ///< Rope particle indices (0 = start) that get inverse mass 0.
  std::vector<PinRegion> pinRegions;  ///< Particles inside any of these also get inverse mass 0.
  Strength stretch;                   ///< Links.
  Strength bend{1e-3f, 0.2f};         ///< Skip-one links; set stiffness 0 and a huge compliance for a limp rope.
  ContactMaterial contact;            ///< Friction and restitution against colliders and the ground; as ClothDef.
};

/// A Cosserat rod (Kugelstadt and Schömer 2016, "Position and Orientation Based Cosserat Rods"): a chain of particles
/// through `points` with one orientation (a quaternion) per segment, a cable, a wire or a strand of hair that resists
/// stretching, shearing, bending and twisting as its material says. Segment k joins particles k and k + 1; its frame's
/// third axis d3 points along it at rest, and each next frame is the last one carried along the chain without twist
/// (parallel transport), so the rest shape (straight or curved) is kept with no rest twist. It collides as a tube of
/// `radius` (plus contact.thickness): its particles like any particle, and its segments between them with spheres,
/// capsules, boxes and triangle meshes (with friction), so a thin bar or an edge cannot pass between two particles.
struct RodDef {
  std::vector<Real> points;            ///< xyz per particle, m, at least 2 particles; neighbours distinct.
  Real radius = 0.005f;                ///< m, > 0: the circular cross-section's radius (A = π r², I = π r⁴ / 4).
  Real density = 1000;                 ///< kg/m³, > 0: a segment weighs ρ A l, half at each of its particles.
  Real youngsModulus = 1e8f;           ///< Pa, > 0: stretch (E A) and bending (E I) stiffness.
  Real shearModulus = 4e7f;            ///< Pa, > 0: shear (G A) and twist (G J, J = π r⁴ / 2) stiffness.
  std::vector<uint32_t> pinned;        ///< Rod particle indices (0 = the first point) that get inverse mass 0.
  std::vector<uint32_t> clampedSegments;  ///< Rod segment indices whose orientation is held (as a pin holds a
                                       ///< particle; World::setSegmentOrientation moves it). A clamped end: pin its two
                                       ///< particles and clamp its segment.
  ContactMaterial contact;             ///< Friction and restitution against colliders and the ground; as ClothDef.
};

/// What a soft body's tets are made of.
enum class SoftMaterial {
  Volume,      ///< A volume constraint per tet (C = V - V0, strength `volume`); the edges keep the shape.
  NeoHookean,  ///< Stable Neo-Hookean tets (Macklin and Müller 2021) set by youngsModulus and poissonRatio.
};

/// A soft body from a tetrahedral mesh: per tet, a volume constraint or a Neo-Hookean element, and optionally a
/// distance constraint on every tet edge. Particle masses come from the density and the volumes of the tets around
/// each particle.
struct SoftBodyDef {
  std::vector<Real> positions;       ///< xyz per vertex, m.
  std::vector<uint32_t> tets;        ///< 4 vertex indices per tet, each tet with positive volume (right-handed).
  Real density = 1000;               ///< kg/m³, > 0: each vertex gets a quarter of its tets' masses.
  Real totalMass = 0;                ///< kg, >= 0; 0 = masses from density; > 0 = this mass spread evenly.
  std::vector<uint32_t> pinned;      ///< Vertex indices that get inverse mass 0.
  std::vector<PinRegion> pinRegions; ///< Vertices inside any of these also get inverse mass 0.
  bool edgeConstraints = true;       ///< Adds a distance constraint on every tet edge (strength `edges`).
  Strength edges{0, 1};              ///< Tet edges.
  SoftMaterial material = SoftMaterial::Volume;  ///< Volume constraints or Neo-Hookean elements.
  Strength volume{0, 1};             ///< Volume material: tet volumes (compliance in m⁶/J).
  bool volumeOnlyResistsCompression = false;  ///< Volume material: a tet may grow past its rest volume, not shrink.
  Real youngsModulus = 1e5f;         ///< NeoHookean, Pa, > 0 (soft rubber ~1e6, flesh ~1e4 to 1e5).
  Real poissonRatio = 0.3f;          ///< NeoHookean, in (-1, 0.5); near 0.5 = nearly incompressible.
  Real materialStiffness = 1;        ///< NeoHookean in the PBD method (which has no compliance): k in [0,1].
  bool shapeMatching = false;        ///< Adds one shape matching cluster over every vertex (see ShapeMatchingDef);
                                     ///< needs a free vertex.
  Strength shapeMatchingStrength{1e-3f, 0.5f};  ///< That cluster (compliance in s²).
  ContactMaterial contact;           ///< Friction and restitution against colliders and the ground; as ClothDef.
};

/// Cloth, a closed shell or a balloon from any triangle mesh (e.g. a three.js BufferGeometry's position and index
/// arrays). Render vertices closer than weldTolerance become one particle, so UV seams and split normals cannot
/// open; World::addTriangleMesh returns the map from render vertices to particles.
struct TriangleMeshDef {
  std::vector<Real> positions;        ///< xyz per render vertex, m.
  std::vector<uint32_t> triangles;    ///< 3 render-vertex indices per triangle, counter-clockwise seen from outside.
  Real weldTolerance = 1e-6f;         ///< m, >= 0; -1 = no welding (each render vertex its own particle).
  Real mass = 1;                      ///< kg, > 0, in total; each particle gets a third of its triangles' areas' share.
  std::vector<uint32_t> pinned;       ///< Render-vertex indices whose particles get inverse mass 0.
  std::vector<PinRegion> pinRegions;  ///< Particles inside any of these also get inverse mass 0.
  ClothModel model = ClothModel::Edges;  ///< Edge constraints, or strain triangles for stretch and shear.
  Strength stretch;                   ///< Edges: a distance constraint on every mesh edge (m/N). StrainTriangles:
                                      ///< stretch along each triangle's first edge and across it, compliance =
                                      ///< 1 / stretch modulus (m/N, per unit area).
  Strength shear;                     ///< StrainTriangles only: the angle between those axes, compliance =
                                      ///< 1 / shear modulus (m/N, per unit area).
  bool bending = true;                ///< Adds a dihedral constraint on every edge shared by exactly two triangles.
  Strength bend{1e-4f, 0.5f};         ///< Those bending constraints; the rest angle is the mesh's as given.
  TetherMode tethers = TetherMode::None;  ///< Long-range attachments to the pinned particles (needs pins).
  Real tetherSlack = 1;               ///< >= 1: a tether allows this factor times the rest distance.
  Real pressure = 0;                  ///< 0 = no volume constraint. > 0: the mesh must be closed and manifold, and
                                      ///< keeps pressure x its rest volume (1 = keeps its volume, > 1 inflates).
  Strength volume;                    ///< The surface volume constraint (compliance in m⁶/J).
  bool volumeOnlyResistsCompression = false;  ///< true: the volume may grow past pressure x rest, never shrink below.
  ContactMaterial contact;            ///< Friction and restitution against colliders and the ground; as ClothDef.
  ContinuousSelfCollision continuousSelfCollision;  ///< Off by default; as ClothDef (the welded triangles are used).
  Tearing tearing;                    ///< Off by default; as ClothDef (the welded triangles tear; needs pressure 0).
};

/// Shape matching (Müller et al. 2005) of a particle cluster: every step the cluster's rest shape is rotated and moved
/// to fit the particles best, and each particle is pulled to its place in it. Rest shape: the particles' positions
/// when the cluster is added. Matching masses: 1 / inverse mass; pinned members are treated as infinitely heavy (the
/// fitted shape is centred on them) and all weigh the heaviest free member's mass in the fitted rotation.
struct ShapeMatchingDef {
  std::vector<uint32_t> particles;  ///< World particle indices: >= 2, distinct, at least one with inverse mass > 0.
  Strength strength{1e-3f, 0.5f};   ///< Compliance in s² (each particle is tied to its goal by a spring of stiffness
                                    ///< mass / compliance), and the PBD stiffness (1 = snap to the goal shape).
};

/// Where a body's particles and distance constraints landed in the world's arrays.
struct BodyRange {
  uint32_t firstParticle = 0;
  uint32_t particleCount = 0;
  uint32_t firstConstraint = 0;   ///< Index of the first distance constraint (see World::addDistanceConstraint).
  uint32_t constraintCount = 0;   ///< Distance constraints of the body.
  uint32_t tetherCount = 0;       ///< Tethers the body added (see World::tetherCount).
  uint32_t firstDihedral = 0;     ///< Index of the body's first dihedral constraint.
  uint32_t dihedralCount = 0;     ///< Dihedral constraints the body added.
  uint32_t firstVolume = 0;       ///< Index of the body's first tet volume constraint.
  uint32_t volumeCount = 0;       ///< Tet volume constraints the body added.
  uint32_t body = 0;              ///< The body's index (World::setBodyMaterial, StepReport::body): bodies are
                                  ///< numbered in the order added, and every addParticle(s) call adds one too.
  uint32_t firstSegment = 0;      ///< A rod: index of its first segment (see World::segmentCount).
  uint32_t segmentCount = 0;      ///< A rod: its segments (particleCount - 1); 0 for every other body.
};

/// What World::removeBody removed. Particles after the body's move down by particleCount; bodies after it down by
/// one; constraints of every kind keep their order and move down past the removed ones. The runs list the removed
/// constraints' old indices as [begin, end) pairs in increasing order, so a later index k moves down by the sum of
/// end - begin over the runs that end at or before k.
struct BodyRemoval {
  uint32_t body = 0;                      ///< The removed body's index.
  uint32_t firstParticle = 0;             ///< Its first particle's index.
  uint32_t particleCount = 0;             ///< Its particles.
  std::vector<uint32_t> distanceRuns;     ///< Removed distance constraints (its own and any touching it).
  std::vector<uint32_t> dihedralRuns;     ///< Removed dihedral constraints.
  std::vector<uint32_t> volumeRuns;       ///< Removed tet volume constraints.
  std::vector<uint32_t> skinnedRuns;      ///< Removed skinned constraints (those on the body's particles).
  std::vector<uint32_t> segmentRuns;      ///< Removed rod segments (the body's own, when it is a rod).
};

/// What a tear changed (World::tearEdges, World::lastTears). New particles were inserted at the torn body's end, so
/// the particles after it moved up by particleCount (the views must be taken again). The body's own distance,
/// dihedral and tether constraints were replaced in place by their instances (see Tearing): an edit (k, n) says old
/// constraint k became n consecutive ones (0 = it broke, 2 = one on each side of the opening); every other constraint
/// kept its particles (those after the body moved up with them).
struct TearReport {
  uint32_t body = 0;                      ///< The torn body.
  uint32_t firstParticle = 0;             ///< Its first new particle (its old end).
  uint32_t particleCount = 0;             ///< New particles.
  std::vector<uint32_t> sourceParticles;  ///< Per new particle, the particle it was split from.
  std::vector<uint32_t> distanceEdits;    ///< (old index, new count) pairs, in increasing old index.
  std::vector<uint32_t> dihedralEdits;    ///< The same for dihedral constraints.
  std::vector<uint32_t> tetherEdits;      ///< The same for tethers.
};

/// A body built from a render mesh: where it landed, and which particle each render vertex follows.
struct MeshBody {
  BodyRange range;
  std::vector<uint32_t> renderToParticle;  ///< Per render vertex, its particle index in the world.
};

}  // namespace pbd

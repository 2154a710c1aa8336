// Continuous cloth self-collision (bodies.h ContinuousSelfCollision): the per-body data, built when a cloth or
// triangle-mesh body is added (or a snapshot loaded), and its checks. The stage itself is in cloth_self_collision.cpp.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "collision/normal_cone.h"
#include "mesh/triangle_bvh.h"
#include "pbd/bodies.h"
#include "pbd/task_system.h"
#include "base/checks.h"

namespace pbd {

/// Self-contacts reserved per vertex and per edge of a self-colliding body; a denser tangle keeps the first ones found
/// (step() never allocates).
inline constexpr size_t kSelfContactsPerElement = 4;

/// Candidate pairs gathered by the broad phase before the narrow phase tests them as one batch (in parallel when
/// the world has threads); the room is reserved once, when a surface first self-collides.
inline constexpr size_t kSelfCandidateBlock = 2048;

/// A candidate pair for the narrow phase, in world particle indices: a point and a triangle's corners
/// (pointTriangle), or the two ends of one edge and then of the other.
struct SelfContactCandidate {
  uint32_t particle[4];
  Real thickness;      ///< m, the surface's: the separation a contact keeps.
  bool pointTriangle;
};

/// Candidates per range of the parallel narrow phase: a few µs of work, well above the cost of handing out a range.
inline constexpr size_t kSelfCandidatesPerTask = 128;

/// The most parts the broad phase's walk is cut into to share it out across threads.
inline constexpr size_t kMaxWalkParts = 64;
/// Element pairs (point–triangle, edge–edge) the parts can hold per triangle of the surface (at least kMinWalkPairs
/// in all): a part that finds more than its share is walked again on the calling thread.
inline constexpr size_t kWalkPairsPerTriangle = 8;
inline constexpr size_t kMinWalkPairs = 16384;

/// Particle i of world xyz positions, in double (the cones' and the list's reach's precision).
inline Point3d pointAt(std::span<const Real> xyz, uint32_t i) {
  return Point3d(xyz[3 * size_t(i)], xyz[3 * size_t(i) + 1], xyz[3 * size_t(i) + 2]);
}

/// One cloth or triangle-mesh body's triangles, edges and swept-box BVH, all in body-local particle indices.
struct SelfCollidingSurface {
  uint32_t body = 0;                    ///< Index into World::Impl::bodies (its particle range).
  ContinuousSelfCollision settings;     ///< On/off and thickness (m), as set by the def or the setter.
  std::vector<uint32_t> triangles;      ///< 3 local particle indices per triangle (the render triangles).
  std::vector<uint32_t> edges;          ///< 2 local particle indices per distinct edge, lower index first, sorted.
  std::vector<uint32_t> triangleEdges;  ///< 3 per triangle: indices into `edges` (corner k to corner k+1).
  /// Per vertex, the vertex it counts as when neighbours are left out of the tests: a torn body's copies count as the
  /// vertex they were split from (TornMesh::origin), so a copy is never tested against its sibling's triangles and
  /// edges, which it starts on. Empty: every vertex is its own.
  std::vector<uint32_t> identity;
  uint32_t identityOf(uint32_t v) const { return identity.empty() ? v : identity[v]; }
  /// A triangle as the broad phase's pair test reads it: one record instead of four tables.
  struct TriangleRecord {
    uint32_t corner[3];    ///< Local particle indices (triangles[3t ..]).
    uint32_t edge[3];      ///< Indices into edges (triangleEdges[3t ..]).
    uint8_t ownedCorners;  ///< Bit k: this triangle owns corner k (is the lowest triangle having it). The broad
                           ///< phase takes a point–triangle pair from its owners' triangle pair only: once.
    uint8_t ownedEdges;    ///< Bit k: this triangle owns edge k (the same rule for edge–edge pairs).
  };
  std::vector<TriangleRecord> records;  ///< Per triangle.
  std::vector<Vec3> edgeLo, edgeHi;     ///< Per edge, this substep: the union of its ends' swept boxes.
  std::vector<Vec3> triangleLo, triangleHi;  ///< Per triangle, this substep: the union of its corners' swept boxes.
  std::vector<uint8_t> frozenInRound;     ///< Per particle, this substep's failsafe: 1 + the round that froze it, or 0.
  std::vector<uint8_t> nodeFrozen;        ///< Per BVH node, the failsafe's current round: holds a particle frozen in
                                          ///< the round before (the later rounds walk only those nodes).
  std::vector<Vec3> sweptLo, sweptHi;   ///< Per vertex, this substep: the box of its path x → p grown by half
                                        ///< the thickness, so that two elements closer than the thickness have
                                        ///< overlapping boxes (an element's box is the union of its vertices').
  // The normal-cone cull's index (world/fold_free_cull.h), built with the BVH; a triangle's "position" is its
  // place k in the BVH's node order (bvh.triangleAt(k)), where every node's triangles are one range.
  std::vector<uint32_t> edgeTriangleStart;  ///< Per edge + 1: the triangles around edge e are the positions
  std::vector<uint32_t> edgeTriangleAt;     ///< edgeTriangleAt[edgeTriangleStart[e] .. edgeTriangleStart[e + 1]).
  std::vector<uint8_t> nodeConnected;       ///< Per node of bvh: 1 when its triangles, with its bridges, are one
                                            ///< patch connected through shared edges (topology only, so built once).
  std::vector<uint32_t> leafNeighbourStart;  ///< Per node + 1: a leaf's edge-sharing leaves are leafNeighbourAt[
  std::vector<uint32_t> leafNeighbourAt;     ///< leafNeighbourStart[id] .. [id + 1]), sorted (none for inner nodes).
  std::vector<uint32_t> nodeBridgeStart;    ///< Per node + 1: node id's bridges are the positions nodeBridgeAt[
  std::vector<uint32_t> nodeBridgeAt;       ///< nodeBridgeStart[id] .. nodeBridgeStart[id + 1]): triangles outside
                                            ///< it that connect its triangles (fold_free_cull.h kMaxBridges); the
                                            ///< node's cone holds their normals too. None for an unconnected node.
  // The broad phase's walk shared out across threads (forEachSelfCandidate): sized when the BVH is built.
  struct WalkPair {
    uint32_t particle[4];  ///< Local indices: the point and the triangle's corners, or the two edges' ends.
    bool pointTriangle;    ///< Point–triangle (else edge–edge).
  };
  std::vector<TriangleBvh::NodePair> walkParts;    ///< kMaxWalkParts: the parts of the walk, in its order.
  std::vector<TriangleBvh::NodePair> walkScratch;  ///< kMaxWalkParts: splitOverlappingPairWalk's second buffer.
  std::vector<uint32_t> walkPartPairs;  ///< Per part: the element pairs it found (> its slot: it overflowed, and
                                        ///< is walked again in order).
  std::vector<WalkPair> walkPairs;      ///< The parts' element pairs, an equal slot each.
  // The candidate list (world/self_candidate_list.h): the element pairs of one walk made for every place each vertex
  // may reach, kept across the substeps of a step while no vertex leaves that reach.
  std::vector<WalkPair> listedPairs;    ///< In the walk's order; room reserved with the BVH (kListedPairsPerTriangle
                                        ///< per triangle), never grown.
  std::vector<Vec3> listAnchor;         ///< m, per vertex: its position x when the list was made.
  Real listReach = 0;                   ///< m: the list holds while every vertex's x and p are within this of its
                                        ///< anchor (kListHoldFraction of it); 0: no list (none made this step yet,
                                        ///< or the last try failed).
  bool listRefused = false;             ///< No list could be made this step (a vertex moved further than the reach
                                        ///< within a substep, or the list did not fit its room): every substep walks
                                        ///< the tree until the next step.
  std::vector<NormalCone> nodeCones;        ///< Per node of bvh, this substep: a cone holding every swept normal of
                                            ///< its triangles, unbounded where none is known or it is wider than the cull takes.
  TriangleBvh bvh;                      ///< Over `triangles`, built on the rest shape (restX) so that the tree, and
                                        ///< with it the contact order, is the same after a snapshot; refitted with
                                        ///< the swept boxes every substep. Like edges, triangleEdges and records,
                                        ///< empty until self-collision is first enabled.
};

/// Builds a surface over `count` particles at rest positions `restXyz` (local, xyz each). Validates the triangles
/// (indices < count, "<fn>: triangles[k]"); the settings are checked by check::continuousSelfCollision. The
/// edges and the BVH are built only when the settings enable it (buildSelfCollisionIndex builds them later).
SelfCollidingSurface makeSelfCollidingSurface(const char* fn, uint32_t body, std::span<const Real> restXyz,
                                              std::vector<uint32_t> triangles, const ContinuousSelfCollision& settings);

/// Fills s.edges, s.triangleEdges, s.records, s.bvh, the cull's index (buildFoldFreeIndex) and the
/// room of s.sweptLo/Hi from s.triangles and the rest positions (local xyz).
void buildSelfCollisionIndex(SelfCollidingSurface& s, std::span<const Real> restXyz);

/// s.triangleLo/Hi from s.sweptLo/Hi: each triangle's box is the union of its corners' (what the BVH is refitted with).
void fitTriangleSweptBoxes(SelfCollidingSurface& s);

/// s.sweptLo/Hi: each vertex's box of its path from x to p (world xyz; the surface's particles start at `first`),
/// grown by `pad`.
void sweepVertices(SelfCollidingSurface& s, std::span<const Real> x, std::span<const Real> p, uint32_t first,
                   Real pad);

/// From s.sweptLo/Hi: the edges' and triangles' boxes, the BVH refitted with them, and the normal cones of the
/// substep from x to p (fitNormalCones, cones wider than cosWidest unbounded).
void refitSweptTree(SelfCollidingSurface& s, std::span<const Real> x, std::span<const Real> p, uint32_t first,
                    TaskSystem& tasks, double cosWidest);

/// When `settings` enable it: thickness < (shortest rest edge of `triangles`) / √2, else throws naming
/// "<arg>.thickness" (or "thickness") and the bound. At that distance a flat grid cloth's vertex is from its nearest
/// non-adjacent triangle (the far corner of a square's diagonal), so a thicker layer would push the cloth apart at
/// rest. Unchecked while disabled, so a fine cloth keeps the default thickness until it is switched on. Triangle
/// indices must be valid (makeSelfCollidingSurface checks them).
void checkSelfCollisionThickness(const char* fn, const std::string& arg, const ContinuousSelfCollision& settings,
                                 std::span<const uint32_t> triangles, std::span<const Real> restXyz);

namespace check {

/// thickness finite and > 0 ("<fn>: <arg>.thickness").
inline void continuousSelfCollision(const char* fn, const std::string& arg, const ContinuousSelfCollision& s) {
  positive(fn, arg.empty() ? "thickness" : arg + ".thickness", s.thickness);
}

}  // namespace check
}  // namespace pbd

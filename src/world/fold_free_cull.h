// Self-collision's normal-cone cull (collision/normal_cone.h): which node pairs of a surface's BVH cannot hold a
// colliding pair because, together, they are one patch that does not fold. The broad phase asks foldFree for every
// node pair its walk reaches (cloth_self_collision.cpp).
#pragma once

#include <cstdint>
#include <span>

#include "pbd/real.h"
#include "pbd/task_system.h"

namespace pbd {

struct SelfCollidingSurface;

/// The broad phase skips the pairs inside a BVH node whose triangles form one edge-connected patch (with a few
/// bridging triangles: kMaxBridges) and whose swept normals (collision/normal_cone.h) stay within π/3 of one
/// axis. Below π/2 such a patch cannot pass through itself; the margin keeps the proximity contacts
/// of a sharp crease, whose two sides come closer than they are along the cloth, and the cone bound is loose
/// (merged, not fitted). Kept as the cosine, cos(π/3): the cones are (normal_cone.h).
inline constexpr double kSelfCullCosHalfAngle = 0.5;

/// Bridges a node may take: triangles outside it, each sharing edges with two of its components, that make its
/// triangles one edge-connected patch (world/cloth_self_collision.h, nodeBridgeAt). A median split cuts grid squares
/// in two, so most leaves of a cloth need one or two; a node that needs more is left unconnected (never culled).
inline constexpr uint32_t kMaxBridges = 8;

/// BVH nodes per range when the leaves' cones are fitted in parallel (a leaf: up to 8 triangles and 8 bridges).
inline constexpr size_t kNodesPerConeTask = 64;

/// Fills s.edgeTriangleStart / s.edgeTriangleAt, s.nodeConnected, the bridges (s.nodeBridgeStart / At) and the room of s.nodeCones from s.bvh,
/// s.triangleEdges and s.edges (all built first).
void buildFoldFreeIndex(SelfCollidingSurface& s);

/// s.nodeCones for the substep that takes the surface's particles from x to p (world xyz; the body's particles start
/// at `first`): leaves from their triangles' and bridges' swept normals (split across `tasks`), the rest merged
/// bottom-up (with their own bridges' normals). Cones wider than cosWidest (a cosine) are kept unbounded: the
/// per-substep walk culls up to π/3 (kSelfCullCosHalfAngle), the candidate list narrower (self_candidate_list.h).
void fitNormalCones(SelfCollidingSurface& s, std::span<const Real> x, std::span<const Real> p, uint32_t first,
                    TaskSystem& tasks, double cosWidest = kSelfCullCosHalfAngle);

/// Whether nodes a and b (a == b: node a alone) lie, together, in one patch connected through shared edges (their
/// triangles and their bridges) whose swept normals stay within π/3 (kSelfCullCosHalfAngle) of one axis this substep: no pair
/// of their triangles needs a test. cosWidest: fitNormalCones' (the two cones' merge must stay within it).
bool foldFree(const SelfCollidingSurface& s, int32_t a, int32_t b, double cosWidest = kSelfCullCosHalfAngle);

}  // namespace pbd

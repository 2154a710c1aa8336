// Self-collision's normal-cone cull (collision/normal_cone.h): which node pairs of a surface's BVH cannot hold a
// colliding pair because, together, they are one patch that does not fold. The broad phase asks foldFree for every
// node pair its walk reaches (cloth_self_collision.cpp).
#pragma once

#include <cstdint>
#include <span>

#include "pbd/real.h"

namespace pbd {

struct SelfCollidingSurface;

/// Fills s.edgeTriangleStart / s.edgeTriangleAt, s.nodeConnected and the room of s.nodeCones from s.bvh,
/// s.triangleEdges and s.edges (all built first).
void buildFoldFreeIndex(SelfCollidingSurface& s);

/// s.nodeCones for the substep that takes the surface's particles from x to p (world xyz; the body's particles start
/// at `first`): leaves from their triangles' swept normals, the rest merged bottom-up.
void fitNormalCones(SelfCollidingSurface& s, std::span<const Real> x, std::span<const Real> p, uint32_t first);

/// Whether nodes a and b (a == b: node a alone) are, together, one patch connected through shared edges whose swept
/// normals stay within kSelfCullHalfAngle of one axis this substep: no pair of their triangles needs a test.
bool foldFree(const SelfCollidingSurface& s, int32_t a, int32_t b);

}  // namespace pbd

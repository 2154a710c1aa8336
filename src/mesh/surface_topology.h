// Checks and measures of closed triangle surfaces, shared by the tetrahedralizer and the surface volume constraint.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>

#include "pbd/real.h"

namespace pbd::mesh {

/// The first edge (in order of its vertex pair) that keeps `triangles` from being closed and consistently oriented.
struct EdgeDefect {
  uint32_t lo, hi;                   ///< The edge's vertices, lo < hi.
  size_t count;                      ///< Triangles on it: != 2 means open (1) or non-manifold (> 2).
  uint32_t triangle, otherTriangle;  ///< The first triangle on it; with count == 2, the second one.
  uint32_t from;                     ///< count == 2: the vertex both triangles leave the edge from (same direction).
};

/// nullopt when every edge is shared by exactly 2 triangles, traversed once in each direction (what the winding
/// number needs to be 0 or 1 everywhere); otherwise the first defect. Indices are not range-checked.
std::optional<EdgeDefect> firstEdgeDefect(std::span<const uint32_t> triangles);

/// Throws pbd::InvalidArgument ("<fn>: <argument> <reason> (got ...)") unless `positions` is non-empty xyz, every
/// coordinate finite, and `triangles` holds at least `minTriangles` triangles (else `fewReason`), every index in range
/// and no triangle degenerate (a repeated vertex, or twice the area not above 1e-7 times the squared longest edge);
/// the message names the triangle as <trianglesArg>[3t..3t+2].
void requireTriangles(const char* fn, std::span<const Real> positions, std::span<const uint32_t> triangles,
                      const char* positionsArg, const char* trianglesArg, size_t minTriangles, const char* fewReason);

/// Throws pbd::InvalidArgument ("<fn>: <argument> <reason> (got ...)") unless `positions` (x, y, z per vertex) and
/// `triangles` (3 vertex indices each) form a closed, consistently oriented, 2-manifold surface:
///   - positions is non-empty, its size a multiple of 3, every coordinate finite;
///   - triangles holds at least 4 triangles, its size a multiple of 3, every index < vertex count;
///   - no triangle is degenerate: three distinct vertices and non-zero area (twice the area must exceed 1e-7 times
///     the squared longest edge, i.e. the triangle is not flat at float precision);
///   - every edge is shared by exactly 2 triangles (open or non-manifold otherwise; the message names the edge's two
///     vertex indices and the number of triangles on it), traversed once in each direction (consistent orientation);
///   - the triangles around each vertex form a single fan (no two surface sheets touching at a vertex).
/// Vertices that no triangle uses are allowed. Self-intersections are not detected.
/// `positionsArg` / `trianglesArg` are the argument names used in the messages.
void requireClosedManifold(const char* fn, std::span<const Real> positions, std::span<const uint32_t> triangles,
                           const char* positionsArg = "positions", const char* trianglesArg = "triangles");

/// Signed volume enclosed by a closed surface, by the divergence theorem: V = Σ_t (a·(b×c)) / 6 over triangles
/// (a, b, c). Positive when the triangles are oriented outward (counter-clockwise seen from outside), negative when
/// inward. Independent of the origin for closed surfaces. Accumulated in double. Does not validate its input.
double closedSurfaceVolume(std::span<const Real> positions, std::span<const uint32_t> triangles);

}  // namespace pbd::mesh

// Closed triangle surface -> tetrahedral mesh (for soft bodies): incremental Delaunay tetrahedralization of the
// surface vertices plus interior grid points, carved by the generalized winding number of the surface.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "pbd/real.h"

namespace pbd {

struct TetrahedralizeOptions {
  int resolution = 0;            ///< Interior sample grid: cells along the longest bounding-box axis (cubic cells, cell size h = longest side / resolution); 0 = no interior points; at most 256 (~17M grid nodes).
  double minQuality = 0;         ///< Drop kept tets whose quality (radius ratio 3·r_in/r_circ: 1 regular, → 0 flat; see tetQuality) is below this; in [0, 1); 0 keeps every tet with positive volume.
  double surfaceMargin = 0.5;    ///< Grid points closer to the surface than surfaceMargin·h are not inserted (they would make slivers against the surface); in [0, 2], unitless (fraction of h).
  std::vector<Real> extraPoints{}; ///< Extra points to insert (x, y, z per point, same units as the positions); points outside the surface's bounding box are ignored, others outside the surface end up in no tet.
  bool keepOutside = false;      ///< true: skip the carving, the quality filter and the manifold repair: return the whole Delaunay tetrahedralization of the convex hull of all inserted points (tests, debugging).
  std::function<bool(double fraction)> progress{};  ///< Optional; called periodically with the fraction done in [0, 1] (nondecreasing, the last call is exactly 1); returning false throws pbd::Cancelled.
};

struct TetrahedralizeResult {
  std::vector<Real> positions;         ///< x, y, z per vertex: the input surface vertices first (same indices, bit-identical), then the used interior grid points, then the used extra points.
  std::vector<uint32_t> tets;          ///< 4 vertex indices per tet; every tet has volume > 0 by pbd's convention V = (p1-p0)·((p2-p0)×(p3-p0))/6 (evaluated in Real).
  std::vector<uint32_t> surfaceTriangles;  ///< 3 indices per boundary face, counter-clockwise seen from outside. Not necessarily the input triangles: the tetrahedralization is not constrained to them. A face of exactly one tet, except the faces beside a zero-volume sliver left out inside the solid, which are not listed.
  uint32_t surfaceVertexCount = 0;     ///< Number of input surface vertices (= positions.size() / 3 of the input).
  uint32_t gridPointCount = 0;         ///< Interior grid points in `positions` (after the surface vertices).
  uint32_t extraPointCount = 0;        ///< Extra points in `positions` (after the grid points).
  std::vector<int32_t> extraPointVertex;  ///< For each options.extraPoints point: its vertex in `positions`, the vertex it was merged into (same lattice cell), or -1 (in no kept tet, or ignored).
  uint32_t delaunayTetCount = 0;       ///< Tets of the Delaunay tetrahedralization of the convex hull, before carving.
  uint32_t outsideTetCount = 0;        ///< Tets removed because their centroid is outside the surface (winding number <= 1/2).
  uint32_t droppedLowQuality = 0;      ///< Inside tets removed because their quality is below options.minQuality.
  uint32_t droppedFlat = 0;            ///< Inside tets removed because World::addSoftBody would refuse them (degenerate or inverted, tested on the output floats): slivers of cocircular or cospherical points, or flattened by the rounding to the 2^-20 lattice.
  uint32_t repairRemovedTets = 0;      ///< Inside tets removed, and outside tets added, to make the boundary a 2-manifold (kept tets touching only along an edge or at a vertex; see tetrahedralize.cpp).
  uint32_t repairAddedTets = 0;        ///< See repairRemovedTets.
  uint32_t mergedPoints = 0;           ///< Grid or extra points not inserted because an earlier point falls into the same lattice cell.
  uint32_t unusedSurfaceVertices = 0;  ///< Surface vertices in no kept tet (0 for well-shaped input; a tiny feature can lose its vertex).
};

/// Tetrahedralizes the solid bounded by a closed triangle surface.
///
/// positions: x, y, z per vertex; triangles: 3 vertex indices per triangle, consistently oriented (outward or
/// inward), forming a closed 2-manifold (several components and nested shells are fine; self-intersections are not
/// detected). Steps: interior grid points (options.resolution) that are inside the surface and at least
/// surfaceMargin·h away from it; Delaunay tetrahedralization (Bowyer–Watson, exact predicates on a 2^20 lattice of
/// the bounding box) of surface vertices + grid points + extra points; removal of tets whose centroid has winding
/// number <= 1/2; removal of flat and low-quality tets; a repair that makes the boundary a 2-manifold; boundary faces.
///
/// The tetrahedralization is not constrained to the input triangles: the surface should be tessellated about as
/// finely as the grid (edge length <~ cell size h) where it is not convex, otherwise tets can cross large triangles and
/// the volume is off (a unit cube of 12 triangles alone is fine: it is its own convex hull).
///
/// Throws pbd::InvalidArgument naming the argument ("tetrahedralize: triangles[12] is out of range [0, 40) (got
/// 57)") for: empty input, sizes not multiples of 3, non-finite coordinates, indices out of range, degenerate
/// triangles, open / non-manifold / inconsistently oriented surfaces (the edge's two vertices and its triangle
/// count are named), zero enclosed volume, two surface vertices in one lattice cell, bad options. Throws
/// pbd::Cancelled if options.progress returns false.
TetrahedralizeResult tetrahedralize(std::span<const Real> positions, std::span<const uint32_t> triangles,
                                    const TetrahedralizeOptions& options = {});

/// Tet quality: the normalized radius ratio 3·r_in / r_circ, 1 for the regular tetrahedron, 0 for a flat one
/// (r_in = 3V / total face area, r_circ = circumradius). Sign-independent of orientation. Computed in double.
double tetQuality(const Vec3& p0, const Vec3& p1, const Vec3& p2, const Vec3& p3);

}  // namespace pbd

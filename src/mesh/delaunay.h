// Incremental 3D Delaunay tetrahedralization (Bowyer 1981, Watson 1981) of integer lattice points, with exact
// predicates (exact_predicates.h), so that co-planar and co-spherical inputs (regular grids) are handled.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "mesh/exact_predicates.h"
#include "pbd/real.h"

namespace pbd::mesh {

/// Uniform quantization of float points onto the lattice [0, 2^20]^3: x -> round((x - origin) · scale), with one
/// scale for all axes (a similarity, so that spheres stay spheres and the Delaunay structure is preserved up to
/// the rounding). Depends only on the bounding box of the points it was fitted to.
struct Lattice {
  static constexpr int kBits = 20;
  double origin[3] = {0, 0, 0};
  double scale = 1;  ///< Lattice cells per unit length: 2^20 / (longest bounding-box side).

  /// The lattice of the bounding box of xyz (x, y, z triples). All coordinates must be finite.
  static Lattice fit(std::span<const Real> xyz);
  LatticePoint operator()(double x, double y, double z) const;
};

/// Counters of one run, for tests and tuning.
struct DelaunayStats {
  uint64_t walkSteps = 0;       ///< Tets visited by the visibility walks.
  uint64_t walkFallbacks = 0;   ///< Point locations that gave up walking and scanned all tets.
  uint64_t cavityGrowths = 0;   ///< Tets added to a cavity because a boundary face was not strictly visible.
};

/// A tetrahedralization with its face adjacency.
struct TetMesh {
  std::vector<std::array<uint32_t, 4>> tets;     ///< 4 point indices per tet, orient3d > 0.
  std::vector<std::array<int32_t, 4>> neighbors;  ///< neighbors[t][i]: the tet across the face opposite tets[t][i], -1 on the convex hull.
};

/// The Delaunay tetrahedralization of the convex hull of `points` (distinct, coordinates within ±kLatticeLimit).
/// Every tet has orient3d > 0 (positive volume by pbd's convention).
/// Degenerate (co-spherical) configurations get one of the valid Delaunay tetrahedralizations: every tet's
/// circumsphere has no point strictly inside.
///
/// Method: Bowyer–Watson with "ghost" tets joining each convex-hull face to a vertex at infinity, so no enclosing
/// super-tetrahedron and no removal step is needed and the hull is always complete. A ghost tet is in conflict with p
/// when p is strictly beyond its hull face, or on the face's plane and strictly inside its circumcircle (which is
/// the circumsphere of the finite tet behind the face cut by the plane). Points are inserted in BRIO order
/// (Amenta, Choi, Rote 2003: random rounds, each sorted along a Hilbert curve) and located by a stochastic
/// visibility walk (Devillers, Pion, Teillaud 2002) from the last created tet, with a scan of all tets as fallback.
///
/// onProgress, if set, is called every few hundred insertions with the fraction of points inserted (0 to 1); it
/// may throw to abort. Throws pbd::InvalidArgument if there are fewer than 4 points, all points are coplanar, or two
/// points coincide (message names both indices).
TetMesh delaunay(std::span<const LatticePoint> points, const std::function<void(double)>& onProgress = {},
                 DelaunayStats* stats = nullptr);

}  // namespace pbd::mesh

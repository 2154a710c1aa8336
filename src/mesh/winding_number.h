// Generalized winding number of a closed triangle surface (Jacobson, Kavan, Sorkine-Hornung 2013, "Robust
// inside-outside segmentation using generalized winding numbers"), evaluated hierarchically over a BVH, plus the
// distance-to-surface query the interior sampling needs (same BVH).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include <Eigen/Core>

#include "mesh/triangle_bvh.h"

namespace pbd::mesh {

using pbd::Point3d;

/// Signed solid angle (steradians, in [-2π, 2π]) of triangle (a, b, c) seen from q, by Van Oosterom & Strackee
/// (1983): with A = a - q, B = b - q, C = c - q,
///   tan(Ω/2) = A·(B×C) / (|A||B||C| + (A·B)|C| + (B·C)|A| + (C·A)|B|).
/// Positive when the triangle's right-hand normal (b-a)×(c-a) points away from q.
double solidAngle(const Point3d& a, const Point3d& b, const Point3d& c, const Point3d& q);

/// w(q) = Σ Ω_t(q) / 4π by brute force over all triangles: 1 inside an outward-oriented closed surface, 0 outside,
/// 1/2 on it (and the nesting depth for nested shells).
double windingNumberBruteForce(std::span<const Point3d> vertices, std::span<const uint32_t> triangles,
                               const Point3d& q);

/// A BVH over the triangles of a surface with exact far-field evaluation: for a node whose box does not contain q,
/// the node's triangles contribute exactly what a "cap" closing their boundary loops contributes (the patch minus the
/// cap is a closed surface with q outside its convex hull, hence winding number 0). The cap is a fan from one
/// boundary vertex over the patch's boundary edges, usually far fewer triangles than the patch (Jacobson et al.
/// 2013, section 3.2). Exact up to floating-point rounding; no far-field approximation.
class SurfaceBvh {
 public:
  /// Keeps copies of the vertices and triangles (3 indices per triangle, all in range).
  SurfaceBvh(std::vector<Point3d> vertices, std::vector<uint32_t> triangles);

  /// The generalized winding number at q.
  double windingNumber(const Point3d& q) const;

  /// min(distance from q to the surface, cap): exact point–triangle distances, pruned by box distances.
  double distanceUpTo(const Point3d& q, double cap) const { return bvh_.closestPoint(q, cap).distance; }

  /// Conservative segment test: false only if the segment [p, q] certainly does not meet the surface (every
  /// triangle is missed by more than a tolerance of 1e-9 × the surface's bounding-box diagonal). Then p and q have
  /// the same winding number, which is how the carving propagates one exact evaluation to neighbouring tets.
  bool segmentMayCross(const Point3d& p, const Point3d& q) const;

  /// The triangle hierarchy itself (closest points, segment hits).
  const TriangleBvh& bvh() const { return bvh_; }

  /// Moves the vertices (xyz per vertex, same count): the boxes are refitted; the caps depend on the connectivity
  /// only, so they stay exact. No allocation.
  void refit(std::span<const Real> xyz);

 private:
  struct Cap {
    uint32_t first = 0;  // range of cap_ (3 indices per triangle); count == kNoCap: no cap (use the triangles)
    uint32_t count = 0;
  };
  void buildCap(uint32_t node);
  double triangleSum(uint32_t first, uint32_t count, const Point3d& q) const;
  bool triangleMayCross(uint32_t t, const Point3d& p, const Point3d& q) const;

  TriangleBvh bvh_;
  std::vector<uint32_t> cap_;  // cap triangles (3 vertex indices each) of all nodes
  std::vector<Cap> caps_;      // per node of bvh_
  double tolerance_ = 0;       // segmentMayCross: 1e-9 × bounding-box diagonal
};

}  // namespace pbd::mesh

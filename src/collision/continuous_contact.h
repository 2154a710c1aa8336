// Narrow phase of continuous cloth self-collision: point–triangle and edge–edge tests over one substep, in double
// precision, every point moving linearly from its start x to its end p (Provot 1997; Bridson et al. 2002).
//
// The four points of a pair are coplanar where f(t) = ((x1 - x0) × (x2 - x0))·(x3 - x0) vanishes, a cubic in t. Its
// roots in [0, 1] are bracketed between the cubic's critical points and found by bisection (exact sign tests, no
// tolerance on the root), then each root, in time order, and the end of the substep are checked for proximity: the
// closest points of the pair at that time closer than `thickness`. The first such time gives the contact's
// barycentric weights; its normal is taken at the start of the substep (constraints/self_contact.h says why).
#pragma once

#include <optional>

#include "mesh/triangle_bvh.h"

namespace pbd {

/// A pair that needs a self-contact constraint: weights c_i (summing to 0) and the start-of-substep unit normal.
struct ContinuousContact {
  double weight[4];  ///< Point–triangle: (1, -β_a, -β_b, -β_c). Edge–edge: (1-u, u, -(1-v), -v).
  Point3d normal;    ///< Points from the triangle (second edge) towards where the point (first edge) started.
};

/// The roots of f(t) = ((x1 - x0) × (x2 - x0))·(x3 - x0) in [0, 1], x_k(t) = start_k + t (end_k - start_k), in
/// ascending order; returns how many (at most 3). A pair coplanar throughout (f ≡ 0) reports t = 0.
int coplanarityTimes(const Point3d start[4], const Point3d end[4], double times[3]);

/// Point start[0]→end[0] against the triangle start[1..3]→end[1..3]: a contact if at a coplanarity time or at the
/// end the point is closer than `thickness` to the triangle. Nothing for a degenerate triangle.
std::optional<ContinuousContact> pointTriangleContact(const Point3d start[4], const Point3d end[4], double thickness);

/// Edge start[0]start[1] against edge start[2]start[3] (and their ends): a contact if at a coplanarity time or at the
/// end the segments are closer than `thickness`. Nothing when the closest points coincide at the start (no side).
std::optional<ContinuousContact> edgeEdgeContact(const Point3d start[4], const Point3d end[4], double thickness);

/// The self-collision failsafe's test of a pair after the solve (point–triangle, or edge–edge, ordered as above):
/// whether its elements pass through each other between start and end, or end closer than `separation` and closer
/// than they started (a pair that started too close and does not approach is left alone).
bool failsafeViolation(const Point3d start[4], const Point3d end[4], bool pointTriangle, double separation);

/// Closest points of segments p0p1 and q0q1 (Ericson 5.1.9): parameters u, v in [0, 1].
void closestSegmentParameters(const Point3d& p0, const Point3d& p1, const Point3d& q0, const Point3d& q1, double& u,
                              double& v);

}  // namespace pbd

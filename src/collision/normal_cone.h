// Normal cones: the self-collision broad phase's cull for surface patches that cannot fold onto themselves
// (Volino & Magnenat-Thalmann 1994, "Efficient self-collision detection on smoothly discretized surface animations
// using geometrical shape regularity"; for continuous motion, the swept normal's Bernstein form as in Tang et al.
// 2009, "Interactive continuous collision detection between deformable models using connectivity-based culling").
//
// A connected patch whose normals all lie within an angle < π/2 of one axis is a height field over the plane normal
// to that axis, so it cannot intersect itself, whatever its boundary does in that plane (the one case left is a
// boundary that overlaps itself in projection: a helicoid, which a cloth patch cannot become; Volino's contour test
// for it is skipped, as in most cloth simulators).
//
// Over a substep the corners move linearly, x(t) = (1 - t) x0 + t x1, so a triangle's normal is quadratic in t:
//   n(t) = e1(t) × e2(t) = (1-t)² c0 + 2t(1-t) c1 + t² c2,
//   c0 = e1⁰ × e2⁰,  c1 = (e1⁰ × e2¹ + e1¹ × e2⁰) / 2,  c2 = e1¹ × e2¹,
// with e1 = b - a, e2 = c - a. The Bernstein weights are >= 0, so n(t) lies in the cone spanned by c0, c1 and c2:
// a cone holding those three directions holds the triangle's normal at every instant of the substep.
#pragma once

#include <span>

#include "mesh/triangle_bvh.h"

namespace pbd {

/// A cone is kept by its half angle's cosine: the cull only compares it with a threshold, and merging adds angles
/// through cos(θ + α) = cos θ cos α − sin θ sin α, so no acos is taken (libm's acos may round differently in
/// wasm and natively; sqrt, +, −, × and ÷ are IEEE-exact everywhere, so the cull decides the same in both builds).
struct NormalCone {
  static constexpr double kUnbounded = -2;  ///< cosHalfAngle of a set whose normals may point anywhere.
  Point3d axis = Point3d::Zero();  ///< Unit axis (zero when unbounded).
  double cosHalfAngle = kUnbounded;  ///< Every unit normal n of the set has axis·n >= this; kUnbounded: none known.
  bool bounded() const { return cosHalfAngle > kUnbounded; }
};

/// The Bernstein coefficients c0, c1, c2 above, in out[0..2] (not normalized), of the triangle whose corners move
/// from start[0..2] to end[0..2].
void sweptNormalCoefficients(const Point3d start[3], const Point3d end[3], Point3d out[3]);

/// The most normals coneOfNormals takes at once (more: unbounded): a leaf's and its bridges' coefficients fit.
inline constexpr size_t kMaxConeNormals = 64;

/// The tightest cone this kernel finds around the directions of `normals`: axis the normalized sum of the unit
/// directions, half angle the largest angle to it. Unbounded when a vector is (relatively) zero (a triangle
/// degenerate at some instant), or when the half angle's cosine is not above `cosWidest` (in [0, 1)): a cone of
/// π/2 or wider is not convex, so it would not hold the positive combinations of the directions (the normal between
/// the Bernstein coefficients), and a caller that only asks for narrower cones (the cull) saves the merges.
NormalCone coneOfNormals(std::span<const Point3d> normals, double cosWidest = 0);

/// A cone holding both cones: axis the normalized sum of the two axes, half angle the larger of angle(axis, a.axis)
/// + a's half angle and the same for b (conservative, not the smallest). Unbounded if either is, or if its half
/// angle's cosine is not above `cosWidest` (in [0, 1)): a merge never narrows, so a cone too wide for the caller
/// stays too wide in every merge above it.
NormalCone mergeNormalCones(const NormalCone& a, const NormalCone& b, double cosWidest = 0);

}  // namespace pbd

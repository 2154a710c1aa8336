// Signed distance and outward normal of the collider shapes, in the shape's local frame (stateless kernels).
//
//   sphere:  φ(q) = |q| - r,                               n = q / |q|
//   capsule: s = (0, clamp(q_y, -h, h), 0),  φ = |q - s| - r,   n = (q - s) / |q - s|
//   box:     d = |q| - e (per axis);  outside: φ = |max(d, 0)|, n = sign(q) max(d, 0) / φ
//                                     inside:  φ = max_k d_k (< 0), n = sign(q_k) e_k on that axis k
//   plane:   φ(q) = q_y,                                  n = (0, 1, 0)
// A point exactly at the centre has no defined normal: +Y is used there (+X on a capsule's axis).
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>

#include "pbd/colliders.h"

namespace pbd {

struct ShapeDistance {
  Real phi;  ///< Signed distance, m: negative inside.
  Vec3 n;    ///< Outward unit normal (local frame).
};

inline ShapeDistance sphereDistance(const Vec3& q, Real radius) {
  const Real len = q.norm();
  if (!(len > Real(1e-12))) return {-radius, Vec3(0, 1, 0)};
  return {len - radius, q / len};
}

inline ShapeDistance capsuleDistance(const Vec3& q, Real radius, Real halfHeight) {
  // On the axis segment itself the normal is radial (any direction; +X), not along the axis.
  if (q.x() == 0 && q.z() == 0 && std::abs(q.y()) <= halfHeight) return {-radius, Vec3(1, 0, 0)};
  const Vec3 axisPoint(0, std::clamp(q.y(), -halfHeight, halfHeight), 0);
  return sphereDistance(q - axisPoint, radius);
}

inline ShapeDistance boxDistance(const Vec3& q, const Vec3& halfExtents) {
  const Vec3 d = q.cwiseAbs() - halfExtents;
  const Vec3 sign(q.x() < 0 ? -1.0f : 1.0f, q.y() < 0 ? -1.0f : 1.0f, q.z() < 0 ? -1.0f : 1.0f);
  const Vec3 outside = d.cwiseMax(Real(0));
  const Real outsideLength = outside.norm();
  if (outsideLength > 0) return {outsideLength, sign.cwiseProduct(outside) / outsideLength};
  int axis = 0;
  if (d.y() > d[axis]) axis = 1;
  if (d.z() > d[axis]) axis = 2;
  Vec3 n = Vec3::Zero();
  n[axis] = sign[axis];
  return {d[axis], n};
}

inline ShapeDistance planeDistance(const Vec3& q) { return {q.y(), Vec3(0, 1, 0)}; }

/// The distance for any shape, local frame.
inline ShapeDistance shapeDistance(const ColliderDef& shape, const Vec3& q) {
  switch (shape.shape) {
    case ColliderShape::Sphere: return sphereDistance(q, shape.radius);
    case ColliderShape::Capsule: return capsuleDistance(q, shape.radius, shape.halfHeight);
    case ColliderShape::Plane: return planeDistance(q);
    case ColliderShape::Box: break;
    case ColliderShape::TriangleMesh: break;  // not a distance field: see collision/mesh_collider.h
  }
  return boxDistance(q, shape.halfExtents);
}

/// Radius of a sphere around the shape's centre that contains it (broad phase); infinite for a plane.
inline Real boundingRadius(const ColliderDef& shape) {
  switch (shape.shape) {
    case ColliderShape::Sphere: return shape.radius;
    case ColliderShape::Capsule: return shape.radius + shape.halfHeight;
    case ColliderShape::Plane: return std::numeric_limits<Real>::infinity();
    case ColliderShape::Box: break;
    case ColliderShape::TriangleMesh: break;  // its BVH's root box bounds it instead
  }
  return shape.halfExtents.norm();
}

}  // namespace pbd

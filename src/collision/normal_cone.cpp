#include "collision/normal_cone.h"

#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>

namespace pbd {

namespace {

/// The angle between unit vectors, robust to a dot product rounded past ±1.
double angleBetween(const Point3d& a, const Point3d& b) { return std::acos(std::clamp(a.dot(b), -1.0, 1.0)); }

}  // namespace

void sweptNormalCoefficients(const Point3d start[3], const Point3d end[3], Point3d out[3]) {
  const Point3d e10 = start[1] - start[0], e20 = start[2] - start[0];
  const Point3d e11 = end[1] - end[0], e21 = end[2] - end[0];
  out[0] = e10.cross(e20);
  out[1] = 0.5 * (e10.cross(e21) + e11.cross(e20));
  out[2] = e11.cross(e21);
}

NormalCone coneOfNormals(std::span<const Point3d> normals) {
  // A coefficient this small next to the largest is rounding of a triangle degenerate at some instant, whose
  // normal there has no direction.
  double largest = 0;
  for (const Point3d& n : normals) largest = std::max(largest, n.squaredNorm());
  if (!(largest > 0)) return {};
  Point3d sum = Point3d::Zero();
  for (const Point3d& n : normals) {
    if (!(n.squaredNorm() > 1e-24 * largest)) return {};
    sum += n.normalized();
  }
  const double length = sum.norm();
  if (!(length > 1e-12 * double(normals.size()))) return {};
  const Point3d axis = sum / length;
  double lowest = 1;  // the least cosine: one acos per set, not per normal
  for (const Point3d& n : normals) lowest = std::min(lowest, axis.dot(n.normalized()));
  // Only a cone narrower than a half-space is convex, i.e. holds the positive combinations of its directions.
  if (!(lowest > 0)) return {};
  return {axis, std::acos(std::min(lowest, 1.0))};
}

NormalCone mergeNormalCones(const NormalCone& a, const NormalCone& b) {
  if (a.halfAngle >= NormalCone::kNone || b.halfAngle >= NormalCone::kNone) return {};
  const Point3d sum = a.axis + b.axis;
  const double length = sum.norm();
  if (!(length > 1e-12)) return {};
  NormalCone cone{sum / length, 0};
  cone.halfAngle = std::min(NormalCone::kNone, std::max(angleBetween(cone.axis, a.axis) + a.halfAngle,
                                                        angleBetween(cone.axis, b.axis) + b.halfAngle));
  return cone;
}

}  // namespace pbd

#include "collision/normal_cone.h"

#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>

namespace pbd {

namespace {

/// sin of the angle whose cosine is c (in [-1, 1]; rounding past it is clamped).
double sinOf(double c) { return std::sqrt(std::max(0.0, 1 - c * c)); }

}  // namespace

void sweptNormalCoefficients(const Point3d start[3], const Point3d end[3], Point3d out[3]) {
  const Point3d e10 = start[1] - start[0], e20 = start[2] - start[0];
  const Point3d e11 = end[1] - end[0], e21 = end[2] - end[0];
  out[0] = e10.cross(e20);
  out[1] = 0.5 * (e10.cross(e21) + e11.cross(e20));
  out[2] = e11.cross(e21);
}

NormalCone coneOfNormals(std::span<const Point3d> normals, double cosWidest) {
  // A coefficient this small next to the largest is rounding of a triangle degenerate at some instant, whose
  // normal there has no direction.
  double largest = 0;
  for (const Point3d& n : normals) largest = std::max(largest, n.squaredNorm());
  if (!(largest > 0) || normals.size() > kMaxConeNormals) return {};
  Point3d unit[kMaxConeNormals];
  Point3d sum = Point3d::Zero();
  for (size_t k = 0; k < normals.size(); ++k) {
    const double squared = normals[k].squaredNorm();
    if (!(squared > 1e-24 * largest)) return {};
    unit[k] = normals[k] / std::sqrt(squared);
    sum += unit[k];
  }
  const double length = sum.norm();
  if (!(length > 1e-12 * double(normals.size()))) return {};
  const Point3d axis = sum / length;
  double lowest = 1;  // the least cosine to the axis
  for (size_t k = 0; k < normals.size(); ++k) lowest = std::min(lowest, axis.dot(unit[k]));
  if (!(lowest > cosWidest)) return {};
  return {axis, lowest};
}

NormalCone mergeNormalCones(const NormalCone& a, const NormalCone& b, double cosWidest) {
  if (!a.bounded() || !b.bounded()) return {};
  const Point3d sum = a.axis + b.axis;
  const double length = sum.norm();
  if (!(length > 1e-12)) return {};
  const Point3d axis = sum / length;
  // cos(θ + α) for each child: θ its axis's angle to the new one (at most π/2: the axis bisects the two) and α its
  // half angle (below π/2: cosWidest >= 0), so θ + α < π, where the cosine still orders angles.
  auto widened = [&](const NormalCone& c) {
    const double cosTheta = std::clamp(axis.dot(c.axis), -1.0, 1.0);
    return cosTheta * c.cosHalfAngle - sinOf(cosTheta) * sinOf(c.cosHalfAngle);
  };
  const double cosHalfAngle = std::min(widened(a), widened(b));
  if (!(cosHalfAngle > cosWidest)) return {};
  return {axis, cosHalfAngle};
}

}  // namespace pbd

// How a kinematic collider moves across a substep, as the contact stages see it: particle reads, the velocity of
// the collider's material point under a particle, and the change to the collider's local frame.
#pragma once

#include <cstdint>
#include <vector>

#include "collision/shape_distance.h"
#include "world/world_state.h"

namespace pbd {

inline Vec3 particleAt(const std::vector<Real>& xyz, uint32_t i) {
  return Vec3(xyz[3 * size_t(i)], xyz[3 * size_t(i) + 1], xyz[3 * size_t(i) + 2]);
}

/// Velocity of the collider's material point under p over the substep (kinematic colliders drag particles along):
/// the point is followed back from the end pose to the start pose, v = (p - p_start) / h. Exactly 0 for a collider
/// that does not move: the round trip through a rotated frame would leave ~1e-8 m of rounding, a surface motion that
/// static friction would then hold particles to.
inline Vec3 colliderVelocity(const Collider& c, const Vec3& p, Real invH) {
  if (c.subStartPosition == c.subEndPosition && c.subStartRotation.coeffs() == c.subEndRotation.coeffs()) return Vec3::Zero();
  const Vec3 q = c.subEndRotation.conjugate() * (p - c.subEndPosition);
  const Vec3 before = c.subStartPosition + c.subStartRotation * q;
  return (p - before) * invH;
}

/// World point p in the collider's frame at the substep's start pose / end pose: R⁻¹ (p - c).
inline Vec3 toLocalAtStart(const Collider& c, const Vec3& p) { return c.subStartRotation.conjugate() * (p - c.subStartPosition); }
inline Vec3 toLocalAtEnd(const Collider& c, const Vec3& p) { return c.subEndRotation.conjugate() * (p - c.subEndPosition); }

/// Signed distance of world point p to the collider at its end-of-substep pose, with the world normal.
inline ShapeDistance worldDistance(const Collider& c, const Vec3& p) {
  ShapeDistance d = shapeDistance(c.def, toLocalAtEnd(c, p));
  d.n = c.subEndRotation * d.n;
  return d;
}

}  // namespace pbd

// Skinned constraint: a particle of character cloth kept near the point s its skinned mesh puts it at (after Jolt's
// SkinnedConstraint). Two inequalities, projected as hard limits (s is kinematic: the particle alone moves):
//
//   maximum distance:  |p − s| ≤ d_max
//   backstop plane:    (p − s)·n ≥ −d_b                       (radius r = 0)
//   backstop sphere:   |p − c| ≥ r,  c = s − (d_b + r) n      (radius r > 0: a sphere behind s touching s − d_b n)
//
// n is the skinned surface's unit normal at s. Both sets contain s, so a particle can always satisfy both. The ball and
// the half-space are convex: their intersection's projection is exact (projectSkinned). The ball minus the sphere is
// not: after the push out of the sphere and the pull back into the ball, a particle still inside the sphere goes to s.
#pragma once

#include <cmath>

#include "pbd/real.h"

namespace pbd {


/// Moves p to the nearest point of the ball |p − s| ≤ maxDistance. Inside (the common case) costs no square root.
inline void clampToBall(Vec3& p, const Vec3& s, Real maxDistance) {
  const Vec3 d = p - s;
  const Real squared = d.squaredNorm();
  if (squared <= maxDistance * maxDistance) return;
  p = maxDistance > 0 ? Vec3(s + (maxDistance / std::sqrt(squared)) * d) : s;
}

/// Projects p onto the set the skinned constraint allows. `normal` is unit, or zero for "no backstop this step".
inline void projectSkinned(Vec3& p, const Vec3& s, const Vec3& normal, Real maxDistance, Real backstopDistance,
                           Real backstopRadius) {
  if (backstopDistance < 0 || normal.squaredNorm() == 0) return clampToBall(p, s, maxDistance);
  if (backstopRadius == 0) {
    // Ball ∩ half-space: the ball's projection if it is in the half-space, else the plane's if that is in the ball,
    // else the nearest point of the circle where the sphere |p − s| = d_max meets the plane.
    const Vec3 foot = s - backstopDistance * normal;  // on the plane
    const Vec3 original = p;
    clampToBall(p, s, maxDistance);
    if ((p - foot).dot(normal) >= 0) return;
    p = original - (original - foot).dot(normal) * normal;
    if ((p - s).squaredNorm() <= maxDistance * maxDistance) return;
    const Real circle = std::sqrt(std::max(Real(0), maxDistance * maxDistance - backstopDistance * backstopDistance));
    const Vec3 along = p - foot;  // in the plane
    const Real length = along.norm();
    p = length > 0 ? Vec3(foot + (circle / length) * along) : foot;
    return;
  }
  clampToBall(p, s, maxDistance);
  const Vec3 c = s - (backstopDistance + backstopRadius) * normal;
  const Vec3 e = p - c;
  if (e.squaredNorm() >= backstopRadius * backstopRadius) return;
  const Real length = e.norm();
  p = length > 0 ? Vec3(c + (backstopRadius / length) * e) : Vec3(c + backstopRadius * normal);
  clampToBall(p, s, maxDistance);
  if ((p - c).squaredNorm() < backstopRadius * backstopRadius) p = s;
}

}  // namespace pbd

// Contact of a particle with a plane n·x = offset, kept `thickness` above it (unilateral, rigid).
//
//   C(p) = n·p - offset - thickness >= 0,   ∇_p C = n
// A single particle against a static plane: Δp = -C n when C < 0, whatever its mass (w cancels).
#pragma once

#include "pbd/real.h"

namespace pbd {

/// Signed distance of p above the plane's contact surface; negative = penetrating.
inline Real planeContactValue(const Vec3& p, const Vec3& normal, Real offset, Real thickness) {
  return normal.dot(p) - offset - thickness;
}

/// Pushes p out of the plane; returns the normal correction applied (m, >= 0).
inline Real projectPlaneContact(Vec3& p, const Vec3& normal, Real offset, Real thickness) {
  const Real C = planeContactValue(p, normal, offset, thickness);
  if (C >= 0) return 0;
  p -= C * normal;
  return -C;
}

/// The ground's case (normal +Y): exact, y ends at or above the surface to the last bit, so that "nothing below
/// the ground" holds without a tolerance. Returns the correction applied (m, >= 0).
inline Real projectGroundContact(Real& y, Real surface) {
  if (y >= surface) return 0;
  const Real push = surface - y;
  y = surface;
  return push;
}

}  // namespace pbd

// Long-range attachment (a tether), Kim, Chentanez and Müller 2012, "Long Range Attachments":
// a free particle may not move further from its anchor (a pinned particle) than its rest distance to it.
//
//   C(p) = |p - a| - L <= 0  (unilateral),   ∇_p C = (p - a) / |p - a|
//   the anchor is pinned (w = 0), so the whole correction goes to p:  p <- a + (p - a) L / |p - a|  when violated.
// One tether per particle and anchors that no tether moves make every tether independent of the others.
#pragma once

#include <cmath>
#include <cstdint>

#include "pbd/real.h"

namespace pbd {

struct Tether {
  uint32_t particle;  ///< The free particle held back.
  uint32_t anchor;    ///< The pinned particle it hangs from; read, never moved.
  Real maxLength;     ///< m, the rest distance (Euclidean or along the cloth) times the slack factor.
};

/// Value of the tether constraint: > 0 = violated by that many metres.
inline Real tetherValue(const Vec3& p, const Vec3& anchor, Real maxLength) { return (p - anchor).norm() - maxLength; }

/// Pulls p back onto the sphere of radius maxLength around the anchor if it is outside; returns the correction (m).
inline Real projectTether(Vec3& p, const Vec3& anchor, Real maxLength) {
  const Vec3 delta = p - anchor;
  const Real d = std::sqrt((delta.x() * delta.x() + delta.y() * delta.y()) + delta.z() * delta.z());
  if (!(d > maxLength)) return 0;
  p = anchor + delta * (maxLength / d);
  return d - maxLength;
}

}  // namespace pbd

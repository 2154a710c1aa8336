// Attachment of a particle to a world point (a zero-length distance constraint to a point of infinite mass).
//
//   C(p) = |p - t|,   ∇_p C = (p - t) / |p - t|
// The projection moves p straight towards t; with k' = 1 or α = 0 it lands exactly on t.
#pragma once

#include "constraints/multiplier.h"
#include "pbd/real.h"

namespace pbd {

/// Projects the attachment in place; returns Δλ (0 when the particle is pinned or already on the target).
inline Real projectAttachment(Vec3& p, Real w, const Vec3& target, bool xpbd, Real kPrime, Real alphaTilde,
                              Real lambda) {
  const Vec3 delta = p - target;
  const Real C = delta.norm();
  if (w == 0 || !(C > Real(1e-12))) return 0;
  const Real dLambda = multiplierStep(C, w, xpbd, kPrime, alphaTilde, lambda);
  p += (dLambda * w / C) * delta;
  return dLambda;
}

}  // namespace pbd

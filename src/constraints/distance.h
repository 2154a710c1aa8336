// Distance constraint kernel (Müller et al. 2006, section 3.3; the min/max form is the usual unilateral extension).
//
//   d = |p1 - p2|,  C(p1, p2) = d - clamp(d, Lmin, Lmax)
//   ∇_p1 C = n = (p1 - p2) / d,   ∇_p2 C = -n
// With Lmin == Lmax == L it is the bilateral C = d - L. C is 0 (inactive) while d lies inside [Lmin, Lmax].
#pragma once

#include "constraints/multiplier.h"
#include "pbd/real.h"

namespace pbd {

/// The value and the unit gradient direction of the distance constraint. Returns false when the constraint is
/// inactive or the particles coincide (the gradient is undefined there; no correction is the safe choice).
inline bool evalDistance(const Vec3& p1, const Vec3& p2, Real minLength, Real maxLength, Real& C, Vec3& n) {
  const Vec3 delta = p1 - p2;
  const Real d = delta.norm();
  if (!(d > Real(1e-9))) return false;
  const Real target = d < minLength ? minLength : (d > maxLength ? maxLength : d);
  C = d - target;
  if (C == 0) return false;
  n = delta * (Real(1) / d);  // one division instead of three
  return true;
}

/// Projects one distance constraint in place; returns the multiplier step Δλ (0 when nothing was done).
inline Real projectDistance(Vec3& p1, Vec3& p2, Real w1, Real w2, Real minLength, Real maxLength, bool xpbd,
                            Real kPrime, Real alphaTilde, Real lambda) {
  const Real wSum = w1 + w2;
  Real C;
  Vec3 n;
  if (wSum == 0 || !evalDistance(p1, p2, minLength, maxLength, C, n)) return 0;
  const Real dLambda = multiplierStep(C, wSum, xpbd, kPrime, alphaTilde, lambda);
  p1 += (dLambda * w1) * n;
  p2 -= (dLambda * w2) * n;
  return dLambda;
}

}  // namespace pbd

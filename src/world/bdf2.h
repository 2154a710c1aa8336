// BDF2's formulas, per coordinate, written once for the prediction, the commit and the momentum guard's lever:
//   x̃ = 4/3 xⁿ − 1/3 xⁿ⁻¹ + 8/9 h vⁿ − 2/9 h vⁿ⁻¹ + 4/9 h² a
//   vⁿ⁺¹ = (3/2 xⁿ⁺¹ − 2 xⁿ + 1/2 xⁿ⁻¹) / h = 4/3 vⁿ − 1/3 vⁿ⁻¹ + 2/3 h a + 3/2 (xⁿ⁺¹ − x̃) / h
// 4/3 y − 1/3 y⁻ is computed as y + (y − y⁻)/3: the float32 constants 4/3 and 1/3 differ by 1 + 3e-8, which pushed
// every position away from the origin by 3e-8 |x| a substep, a force of 3e-8 |x| / h² (0.17 m/s² at 1 m and 40
// substeps: a pendulum's period 0.8 % long). The velocity is written through x̃, without the cancellation of three
// float32 positions, which would put ulp(x)/h of noise into v every substep.
#pragma once

#include "pbd/real.h"

namespace pbd {

/// x̃ for one coordinate; `accel` is g + w f.
inline Real bdf2Prediction(Real x, Real xPrev, Real v, Real vPrev, Real accel, Real h) {
  return x + (x - xPrev) / 3 + Real(8) / 9 * h * v - Real(2) / 9 * h * vPrev + Real(4) / 9 * h * h * accel;
}

/// vⁿ⁺¹ for one coordinate, from the position p the substep ends at and the prediction x̃ it started from.
inline Real bdf2Velocity(Real v, Real vPrev, Real accel, Real p, Real predicted, Real h, Real invH) {
  return v + (v - vPrev) / 3 + Real(2) / 3 * h * accel + Real(1.5) * (p - predicted) * invH;
}

/// The lever ℓ = x̃ − (2/3) h (4/3 v − 1/3 v⁻ + 2/3 h a), in double (a coordinate, or a vector of them):
/// vⁿ⁺¹ = (3/(2h)) (p − ℓ).
template <class V>
V bdf2Lever(const V& predicted, const V& v, const V& vPrev, const V& accel, double h) {
  return predicted - (2.0 / 3.0) * h * (v + (v - vPrev) / 3.0 + (2.0 / 3.0) * h * accel);
}

}  // namespace pbd

// The scalar step shared by every constraint kind: how far to move along the gradient.
//
// For a constraint C(p) with gradients ∇_i C and inverse masses w_i, the correction is Δp_i = Δλ w_i ∇_i C, with
//   PBD  (Müller et al. 2006, eq. 8-9):   Δλ = -k' C / Σ_i w_i |∇_i C|²,   k' = 1 - (1 - k)^(1/n) for n iterations
//   XPBD (Macklin et al. 2016, eq. 18):   Δλ = (-C - α̃ λ) / (Σ_i w_i |∇_i C|² + α̃),   α̃ = α / h²,  λ += Δλ
// The PBD form is the XPBD form with α = 0 scaled by k', which is why one function serves both.
#pragma once

#include <cmath>

#include "pbd/real.h"

namespace pbd {

/// k' = 1 - (1 - k)^(1/n): after n projections the error shrinks by exactly (1 - k), whatever n is.
inline Real correctedStiffness(Real k, int iterations) {
  if (k >= 1) return 1;
  return 1 - std::pow(1 - k, Real(1) / Real(iterations));
}

/// One constraint's multiplier in the current method. `weightedGradSq` = Σ w_i |∇_i C|² (> 0).
/// `lambda` is the XPBD multiplier accumulated this substep (ignored by PBD, which passes xpbd = false).
inline Real multiplierStep(Real C, Real weightedGradSq, bool xpbd, Real kPrime, Real alphaTilde, Real lambda) {
  if (xpbd) return (-C - alphaTilde * lambda) / (weightedGradSq + alphaTilde);
  return -kPrime * C / weightedGradSq;
}

}  // namespace pbd

// Central differences for the gradient checks of the constraint kernels.
#pragma once

#include "pbd/real.h"

namespace pbd::scenes {

/// (f(x + ε e_a) - f(x - ε e_a)) / 2ε for each axis a: the numerical gradient of a scalar function of a point.
template <class F>
Vec3 centralDifference(F f, const Vec3& x, Real eps = 1e-3f) {
  Vec3 g;
  for (int a = 0; a < 3; ++a) {
    Vec3 e = Vec3::Zero();
    e[a] = eps;
    g[a] = (f(x + e) - f(x - e)) / (2 * eps);
  }
  return g;
}

}  // namespace pbd::scenes

// How far points moved apart rather than together: the test that keeps a neighbour or candidate list while the
// particles it was built for fall or fly as a whole.
#pragma once

#include <cstddef>

#include <Eigen/Core>

namespace pbd {

/// Whether each of n points, from then(i) to now(i) (Eigen::Vector3d each, m), moved by at most `limit` (m) once the
/// points' mean move is taken away; false if a position is not finite, or limit is NaN. Why the mean: a translation
/// common to all changes no distance between two points, and two points that each moved within `limit` of the mean
/// move closed in by at most 2 × limit.
template <class Now, class Then>
bool movedApartWithin(size_t n, Now now, Then then, double limit) {
  if (n == 0) return true;
  Eigen::Vector3d shift = Eigen::Vector3d::Zero();
  for (size_t i = 0; i < n; ++i) shift += now(i) - then(i);
  shift /= double(n);
  const double limit2 = limit * limit;
  for (size_t i = 0; i < n; ++i) {
    if (!((now(i) - then(i) - shift).squaredNorm() <= limit2)) return false;
  }
  return true;
}

}  // namespace pbd

// A particle's contact with a surface as an energy, for Vertex Block Descent (Chen, Macklin et al. 2024, "Vertex
// Block Descent", §3.6, after IPC: Li et al. 2020, "Incremental Potential Contact"): the particle is kept on the
// positive side of a plane (x - q)·n >= 0, q a point of the surface moved out by the margins and n its unit outward
// normal, both fixed for the substep (the surface linearized where the contact was found):
//   s = (x - q)·n,  d = max(0, -s),  E = ½ k d²,  ∂E/∂x = -k d n,  ∂²E/∂x² = k n nᵀ (0 where d = 0)
// λ = k d is the normal force.
#pragma once

#include <Eigen/Core>

#include "math/ordered_sums.h"

namespace pbd {

/// The plane's signed distance s = (x - q)·n (m): negative inside.
inline double contactSeparation(const Eigen::Vector3d& x, const Eigen::Vector3d& q, const Eigen::Vector3d& n) {
  return orderedDot(Eigen::Vector3d(x - q), n);
}

/// E's gradient and Hessian at x (k in N/m), added to g and h where the particle is inside (d > 0). With `active`
/// the quadratic ½ k s² is added on either side (a contact the step is to hold). Returns λ = k d (N).
inline double addContactDerivatives(const Eigen::Vector3d& x, const Eigen::Vector3d& q, const Eigen::Vector3d& n,
                                    double k, bool active, Eigen::Vector3d& g, Eigen::Matrix3d& h) {
  const double s = contactSeparation(x, q, n);
  if (!(s < 0) && !active) return 0;
  g += k * s * n;
  h += k * n * n.transpose();
  return s < 0 ? -k * s : 0;
}

}  // namespace pbd

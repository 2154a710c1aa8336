// A distance constraint as an energy, for Vertex Block Descent (Chen, Macklin et al. 2024, "Vertex Block Descent",
// §3-4) and its augmented-Lagrangian form for hard constraints (Giles, Diaz, Yuksel 2025, "Augmented Vertex Block
// Descent", Eqs. 11-17):
//
//   d = x_a - x_b,  l = |d|,  n = d / l,  C = l - clamp(l, minLength, maxLength)
//   E = ½ k C² + λ C                         (soft: k = 1/α, λ = 0; hard: k the ramped penalty, λ the multiplier)
//   ∂E/∂x_a = f n,                          f = k C + λ   (the force magnitude; ∂E/∂x_b = -f n)
//   ∂²E/∂x_a² = k n nᵀ + f/l (I - n nᵀ)     (∂n/∂x_a = (I - n nᵀ)/l)
//
// The second term is the geometric stiffness. Under compression (f < 0) it is negative definite in the plane
// normal to the edge and can make a vertex's block indefinite; as in the VBD paper's mass-spring model, it is
// dropped there (f clamped to >= 0 in that term only), which leaves k n nᵀ + max(f, 0)/l (I - n nᵀ): positive
// semi-definite, exact in tension. Strictly inside [minLength, maxLength] (a slack rope) the edge adds nothing.
// A coincident pair (l below 1e-12 m) has no direction and adds nothing.
#pragma once

#include <Eigen/Core>
#include <algorithm>
#include <cmath>

#include "constraints/vertex_block.h"
#include "math/ordered_sums.h"

namespace pbd {

/// ∂E/∂x_a and the PSD block ∂²E/∂x_a² of one spring at its vertex a, added to `block`; returns the force
/// magnitude f = k C + λ (0 for a coincident pair or a slack one). xa, xb in m; k in N/m; λ in N.
inline double addSpringVertexBlock(const Eigen::Vector3d& xa, const Eigen::Vector3d& xb, double minLength,
                                   double maxLength, double k, double lambda, VertexBlock& block) {
  const Eigen::Vector3d d = xa - xb;
  const double l = std::sqrt(orderedDot(d, d));  // not Eigen's norm(): its order differs by build
  if (!(l > 1e-12)) return 0;
  const double c = l - std::clamp(l, minLength, maxLength);
  if (c == 0 && minLength < maxLength) return 0;  // slack: the energy is flat around it
  const double invL = 1 / l;
  const Eigen::Vector3d n = d * invL;
  const double f = k * c + lambda;
  for (int r = 0; r < 3; ++r) block.g[r] += f * n[r];
  // k n nᵀ + g (I - n nᵀ) = (k - g) n nᵀ + g I with g = max(f, 0)/l: six products for the symmetric outer product.
  const double g = f > 0 ? f * invL : 0, a = k - g;
  const Eigen::Vector3d an = a * n;
  block.h[0] += an[0] * n[0] + g, block.h[1] += an[0] * n[1], block.h[2] += an[0] * n[2];
  block.h[3] += an[1] * n[1] + g, block.h[4] += an[1] * n[2], block.h[5] += an[2] * n[2] + g;
  return f;
}

/// C = l - clamp(l, minLength, maxLength) of the pair, the spring's constraint value (m).
inline double springConstraint(const Eigen::Vector3d& xa, const Eigen::Vector3d& xb, double minLength,
                               double maxLength) {
  const Eigen::Vector3d d = xa - xb;
  const double l = std::sqrt(orderedDot(d, d));
  return l - std::clamp(l, minLength, maxLength);
}

}  // namespace pbd

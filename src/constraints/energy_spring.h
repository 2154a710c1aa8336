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
#include "math/wide_float.h"

namespace pbd {

/// ∂E/∂x_a and the PSD block ∂²E/∂x_a² of one spring at its vertex a, added to `block`; returns the force
/// magnitude f = k C + λ (0 for a coincident pair or a slack one). xa, xb in m; k in N/m; λ in N. In double, with λ:
/// the reference the lanes below are tested against (the vertex steps run the lanes).
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

/// The lanes' part of addSpringVertexBlockLanes after C: d = x_a - x_b, l = |d|, C, and where the lane acts.
inline void accumulateSpringLanes(const Float4 (&d)[3], Float4 l, Float4 c, Mask4 active, Float4 k, Float4 (&g)[3],
                                  Float4 (&h)[6]) {
  const Float4 zero = Float4::splat(0);
  const Float4 invL = selectOrZero(active, Float4::splat(1) / l);
  const Float4 n[3] = {d[0] * invL, d[1] * invL, d[2] * invL};
  const Float4 f = selectOrZero(active, k * c);
  for (int r = 0; r < 3; ++r) g[r] = g[r] + f * n[r];
  const Float4 gs = selectOrZero(zero < f, f * invL), a = selectOrZero(active, k - gs);
  const Float4 an[3] = {a * n[0], a * n[1], a * n[2]};
  h[0] = h[0] + (an[0] * n[0] + gs), h[1] = h[1] + an[0] * n[1], h[2] = h[2] + an[0] * n[2];
  h[3] = h[3] + (an[1] * n[1] + gs), h[4] = h[4] + an[1] * n[2], h[5] = h[5] + (an[2] * n[2] + gs);
}

/// addSpringVertexBlock for four springs at once in float (math/wide_float.h: the same bits on every vector unit),
/// each at its own vertex a, without λ: g (3) and h (6: H00 H01 H02 H11 H12 H22) are the lanes' running sums. Float
/// is enough because the positions are float: rounding a rigid spring's ends (an ulp of |x|) moves its C, and so its
/// k C and its geometric stiffness k C/l, far more than float arithmetic on the pair (an ulp of l) does. A lane adds
/// nothing where its pair is coincident (l <= 1e-12 m; a padding lane pairs a vertex with itself) or slack.
inline void addSpringVertexBlockLanes(const Float4 (&xa)[3], const Float4 (&xb)[3], Float4 minLength,
                                      Float4 maxLength, Float4 k, Float4 (&g)[3], Float4 (&h)[6]) {
  const Float4 d[3] = {xa[0] - xb[0], xa[1] - xb[1], xa[2] - xb[2]};
  const Float4 l = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
  const Float4 c = l - pmin(pmax(l, minLength), maxLength);
  const Mask4 active = (Float4::splat(1e-12f) < l) & ((c != Float4::splat(0)) | (maxLength <= minLength));
  accumulateSpringLanes(d, l, c, active, k, g, h);
}

/// addSpringVertexBlockLanes for springs of one length each (minLength = maxLength = length), with the same bits:
/// clamping l to [L, L] gives L, and such a spring is never slack.
inline void addFixedSpringVertexBlockLanes(const Float4 (&xa)[3], const Float4 (&xb)[3], Float4 length, Float4 k,
                                           Float4 (&g)[3], Float4 (&h)[6]) {
  const Float4 d[3] = {xa[0] - xb[0], xa[1] - xb[1], xa[2] - xb[2]};
  const Float4 l = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
  accumulateSpringLanes(d, l, l - length, Float4::splat(1e-12f) < l, k, g, h);
}

}  // namespace pbd

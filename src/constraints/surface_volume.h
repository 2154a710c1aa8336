// Volume and pressure of a closed triangle surface (Müller, Heidelberger, Hennix and Ratcliff 2007, "Position Based
// Dynamics": the constraint for closed meshes, with its overpressure factor k_pressure for balloons).
//
//   V = 1/6 Σ_t ((x_a - o) × (x_b - o)) · (x_c - o)   over the triangles t = (a, b, c), counter-clockwise seen from
//       outside (outward normals); o = the surface's first vertex
//   C = V - k_pressure V0    k_pressure >= 0: 1 keeps the rest volume, > 1 inflates (a balloon), < 1 deflates
//   unilateral: C = min(V - k_pressure V0, 0): the volume may grow freely but is pushed back up to k_pressure V0
//   ∇_a V = 1/6 (x_b - o) × (x_c - o),  ∇_b V = 1/6 (x_c - o) × (x_a - o),  ∇_c V = 1/6 (x_a - o) × (x_b - o),
//       summed over every triangle that holds the vertex
//   Δλ from constraints/multiplier.h,   Δx_i = Δλ w_i ∇_i V
// For a closed surface V does not depend on o, so these are V's gradients (o is held constant while differentiating,
// which gives the same partial derivatives as the paper's o = 0); measuring from a vertex keeps float precision
// when the body is far from the origin. V is also invariant under translations and rotations of a closed surface,
// so Σ_i ∇_i V = 0 and Σ_i x_i × ∇_i V = 0: the correction carries no linear or angular momentum.
// The gradient accumulates per vertex: the caller passes a scratch array of one Vec3 per surface vertex, preallocated
// (no allocation here). Compliance α in m⁶/J (the energy is ½ C² / α; C in m³).
#pragma once

#include <cstdint>
#include <span>

#include "constraints/multiplier.h"
#include "pbd/real.h"

namespace pbd {

/// A closed surface as a world stores it: slices of a surface-vertex array (particle indices) and of a triangle array
/// (3 entries per triangle, each an index into the surface's own vertex slice).
struct SurfaceVolumeConstraint {
  uint32_t firstVertex;    ///< First entry of the surface's vertices in the world's surface-vertex array.
  uint32_t vertexCount;    ///< Distinct vertices of the surface (>= 4); also the size of the gradient scratch.
  uint32_t firstTriangle;  ///< First triangle in the world's triangle array (3 local vertex indices per triangle).
  uint32_t triangleCount;  ///< >= 4; closed, consistently oriented outwards.
  Real restVolume;         ///< V0, m³ (> 0).
  Real pressure;           ///< k_pressure >= 0: target volume k_pressure V0; 1 = keep the rest volume.
  Real compliance;         ///< XPBD α, m⁶/J; 0 = exactly that volume.
  Real stiffness;          ///< PBD k in [0,1].
  Real kPrime;             ///< Corrected PBD stiffness.
  bool unilateral;         ///< true: only resists a volume below k_pressure V0.
};

/// V of the surface (vertices: particle indices; triangles: 3 local indices each into `vertices`). When `gradient` is
/// not empty (size >= vertices.size()) it receives ∇V per surface vertex.
inline Real surfaceVolume(std::span<const uint32_t> vertices, std::span<const uint32_t> triangles, const Vec3* p,
                          std::span<Vec3> gradient = {}) {
  if (vertices.empty()) return 0;
  const bool withGradient = !gradient.empty();
  if (withGradient)
    for (size_t k = 0; k < vertices.size(); ++k) gradient[k] = Vec3::Zero();
  const Vec3 o = p[vertices[0]];
  Real sixV = 0;
  for (size_t t = 0; t + 2 < triangles.size(); t += 3) {
    const uint32_t a = triangles[t], b = triangles[t + 1], c = triangles[t + 2];
    const Vec3 xa = p[vertices[a]] - o, xb = p[vertices[b]] - o, xc = p[vertices[c]] - o;
    const Vec3 ab = xa.cross(xb);
    sixV += ab.dot(xc);
    if (withGradient) {
      gradient[a] += xb.cross(xc);
      gradient[b] += xc.cross(xa);
      gradient[c] += ab;
    }
  }
  if (withGradient)
    for (size_t k = 0; k < vertices.size(); ++k) gradient[k] /= Real(6);
  return sixV / Real(6);
}

/// Projects the volume constraint of one closed surface in place; returns Δλ. `gradient` is the caller's scratch of
/// at least vertices.size() entries; p and w are indexed by particle.
inline Real projectSurfaceVolume(std::span<const uint32_t> vertices, std::span<const uint32_t> triangles,
                                std::span<Vec3> gradient, Vec3* p, const Real* w, Real restVolume, Real pressure,
                                bool unilateral, bool xpbd, Real kPrime, Real alphaTilde, Real lambda) {
  if (vertices.empty() || gradient.size() < vertices.size()) return 0;
  Real C = surfaceVolume(vertices, triangles, p, gradient) - pressure * restVolume;
  if (unilateral && C > 0) C = 0;
  if (C == 0) return 0;
  Real weighted = 0;
  for (size_t k = 0; k < vertices.size(); ++k) weighted += w[vertices[k]] * gradient[k].squaredNorm();
  if (!(weighted > Real(1e-24))) return 0;
  const Real dLambda = multiplierStep(C, weighted, xpbd, kPrime, alphaTilde, lambda);
  for (size_t k = 0; k < vertices.size(); ++k) p[vertices[k]] += (dLambda * w[vertices[k]]) * gradient[k];
  return dLambda;
}

}  // namespace pbd

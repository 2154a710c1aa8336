// Strain-triangle membrane energy, its gradient and Hessian block per vertex, for Vertex Block Descent (Chen, Macklin
// et al. 2024): the energy whose XPBD form is triangle_strain.h's three constraints (Müller et al. 2014, "Strain Based
// Dynamics"), ½ C²/α each, so k = 1/α (J) means the same material under every solver.
//
//   F = [x1 - x0, x2 - x0] Dm⁻¹ = [f0, f1],  l_b = |f_b|,  n_b = f_b / l_b
//   C_xx = l0 - 1,  C_yy = l1 - 1,  C_xy = n0·n1
//   E = ½ k_s (C_xx² + C_yy²) + ½ k_sh C_xy²
// Moving x_v by u moves f_b by a_v[b] u, with a_1 = row 0 of Dm⁻¹, a_2 = row 1, a_0 = -(a_1 + a_2). So
//   ∂E/∂x_v = a_v[0] ∂E/∂f0 + a_v[1] ∂E/∂f1
//   ∂²E/∂x_v² = a_v[0]² H00 + a_v[0] a_v[1] (H01 + H01ᵀ) + a_v[1]² H11,   H_bd = ∂²E/∂f_b∂f_d
// with P_b = I - n_b n_bᵀ, q0 = ∂C_xy/∂f0 = (n1 - C_xy n0)/l0, q1 = (n0 - C_xy n1)/l1:
//   ∂E/∂f0 = k_s C_xx n0 + k_sh C_xy q0
//   H00 = k_s (n0 n0ᵀ + C_xx P0/l0) + k_sh (q0 q0ᵀ + C_xy (3 C_xy n0 n0ᵀ - n0 n1ᵀ - n1 n0ᵀ - C_xy I)/l0²)
//   H01 = k_sh (q0 q1ᵀ + C_xy P0 P1/(l0 l1))
// (and H11 as H00 with 0 and 1 swapped). The stretch's curvature C_xx P0/l0 is negative under compression and the
// shear's is indefinite, so the exact block can be indefinite. projectToPsd makes it PSD term by term, as the spring
// kernel does (energy_spring.h): each stretch keeps k a_v[b]² (n nᵀ + max(C, 0)/l P), exact in tension, and the shear
// its Gauss-Newton part k_sh g gᵀ (g = ∂C_xy/∂x_v), dropping C_xy ∂²C_xy. Clamping the eigenvalues of the summed
// block instead (as StVK does) let one axis's compression cancel the other's stiffness: a local Newton step then
// raised the vertex's energy by orders of magnitude, and a rigid strain cloth under VBD blew up within 3 s. A
// membrane has no stiffness across its plane at rest: its blocks are singular there, and VBD's m/h² I keeps the
// vertex's solve regular. An axis collapsed to |f_b| <= 1e-6 has no direction: as in the XPBD kernel, the triangle
// then adds nothing. In double, sums of products in a fixed order (math/ordered_sums.h says why).
#pragma once

#include <Eigen/Core>
#include <algorithm>
#include <cmath>

#include "math/ordered_sums.h"

namespace pbd {

/// The deformed frame of one strain triangle in double: F's columns, their lengths and directions, and the rows a_v.
struct TriangleStrainFrame {
  Eigen::Vector3d n[2];  ///< f_b / |f_b|
  double l[2];           ///< |f_b|
  double a[3][2];        ///< per vertex, ∂f_b/∂x_v as a multiple of I

  /// False when an axis has collapsed (|f_b| <= 1e-6): no direction, no energy.
  template <class Vector, class Matrix>
  bool set(const Vector* x, const Matrix& restInverse) {
    for (int b = 0; b < 2; ++b) {
      a[1][b] = double(restInverse(0, b)), a[2][b] = double(restInverse(1, b));
      a[0][b] = -(a[1][b] + a[2][b]);
    }
    const Eigen::Vector3d e1 = (x[1] - x[0]).template cast<double>(), e2 = (x[2] - x[0]).template cast<double>();
    for (int b = 0; b < 2; ++b) {
      const Eigen::Vector3d f = e1 * a[1][b] + e2 * a[2][b];
      l[b] = std::sqrt(orderedDot(f, f));
      if (!(l[b] > 1e-6)) return false;
      n[b] = f / l[b];
    }
    return true;
  }
  double shear() const { return orderedDot(n[0], n[1]); }
};

/// E in J for the triangle x[0..2] (Vec3 or Eigen::Vector3d) with Dm⁻¹ restInverse (restTriangleFrame builds it),
/// stretch and shear stiffness k_s, k_sh = 1/α in J (>= 0). 0 for a collapsed axis.
template <class Vector, class Matrix>
double triangleStrainEnergy(const Vector* x, const Matrix& restInverse, double stretch, double shear) {
  TriangleStrainFrame t;
  if (!t.set(x, restInverse)) return 0;
  const double cxx = t.l[0] - 1, cyy = t.l[1] - 1, cxy = t.shear();
  return 0.5 * stretch * (cxx * cxx + cyy * cyy) + 0.5 * shear * cxy * cxy;
}

/// gradient = ∂E/∂x_v (N) and hessian = ∂²E/∂x_v² (N/m) for the local vertex v in 0..2 (same other arguments as
/// triangleStrainEnergy). projectToPsd: the PSD block of the top of this file; false gives the exact block. Both
/// zero for a collapsed axis. The force on the vertex is -gradient.
template <class Vector, class Matrix>
void triangleStrainVertexDerivatives(const Vector* x, const Matrix& restInverse, double stretch, double shear, int v,
                                     bool projectToPsd, Eigen::Vector3d& gradient, Eigen::Matrix3d& hessian) {
  TriangleStrainFrame t;
  gradient.setZero();
  hessian.setZero();
  if (!t.set(x, restInverse)) return;
  const double cxy = t.shear(), a0 = t.a[v][0], a1 = t.a[v][1];
  const Eigen::Matrix3d I = Eigen::Matrix3d::Identity();
  const Eigen::Vector3d q[2] = {(t.n[1] - cxy * t.n[0]) / t.l[0], (t.n[0] - cxy * t.n[1]) / t.l[1]};
  Eigen::Matrix3d P[2];
  for (int b = 0; b < 2; ++b) {
    gradient += t.a[v][b] * (stretch * (t.l[b] - 1) * t.n[b] + shear * cxy * q[b]);
    P[b] = I - t.n[b] * t.n[b].transpose();
  }
  if (projectToPsd) {  // per term: each stretch's n nᵀ + max(C, 0)/l P, the shear's Gauss-Newton part
    const Eigen::Vector3d shearGradient = a0 * q[0] + a1 * q[1];
    hessian = shear * (shearGradient * shearGradient.transpose());
    for (int b = 0; b < 2; ++b) {
      const double aw = t.a[v][b];
      hessian += (stretch * aw * aw) * (t.n[b] * t.n[b].transpose() + (std::max(t.l[b] - 1, 0.0) / t.l[b]) * P[b]);
    }
    return;
  }
  Eigen::Matrix3d H[2];
  for (int b = 0; b < 2; ++b) {
    const Eigen::Vector3d& n = t.n[b];
    const Eigen::Vector3d& o = t.n[1 - b];
    const Eigen::Matrix3d shearCurvature =
        (3 * cxy * (n * n.transpose()) - n * o.transpose() - o * n.transpose() - cxy * I) / (t.l[b] * t.l[b]);
    H[b] = stretch * (n * n.transpose() + ((t.l[b] - 1) / t.l[b]) * P[b]) +
           shear * (q[b] * q[b].transpose() + cxy * shearCurvature);
  }
  const Eigen::Matrix3d H01 =
      shear * (q[0] * q[1].transpose() + (cxy / (t.l[0] * t.l[1])) * orderedMatrixProduct(P[0], P[1]));
  hessian = (a0 * a0) * H[0] + (a0 * a1) * (H01 + H01.transpose()) + (a1 * a1) * H[1];
}

}  // namespace pbd

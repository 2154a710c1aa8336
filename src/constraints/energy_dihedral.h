// Dihedral bending energy, its gradient and Hessian block per vertex, for Vertex Block Descent (Chen, Macklin et al.
// 2024): the energy whose XPBD form is dihedral.h's constraint (α = 1/k), with the same vertices and angle.
//
//   triangles (p0, p2, p3) and (p1, p3, p2) sharing the edge p2-p3;  e = p3 - p2,  ê = e/|e|
//   n1 = (p2 - p0) × (p3 - p0),  n2 = (p3 - p1) × (p2 - p1),  u_i = n_i/|n_i|²
//   φ = atan2((n2 × n1)·e, |e| n1·n2)          (evalDihedral's signed angle, in [-π, π])
//   E = ½ k C²,  C = wrap(φ - φ0) into (-π, π]
//   ∇_v φ = c1 u1 + c2 u2 with (Bridson et al. 2003, as evalDihedral)
//     v = 0: c1 = |e|, c2 = 0        v = 2: c1 = (p0 - p3)·ê, c2 = (p1 - p3)·ê
//     v = 1: c1 = 0, c2 = |e|        v = 3: c1 = (p2 - p0)·ê, c2 = (p2 - p1)·ê
//   ∂E/∂p_v = k C ∇_v φ
//   ∂²E/∂p_v² = k (∇_v φ ∇_v φᵀ + C ∂²φ/∂p_v²)
// The curvature term is included exactly, by differentiating ∇_v φ = c1 u1 + c2 u2 once more:
//   ∂²φ/∂p_v² = u1 ∇_v c1ᵀ + c1 ∂u1/∂p_v + u2 ∇_v c2ᵀ + c2 ∂u2/∂p_v,   ∂u/∂p = (I - 2 n̂ n̂ᵀ)/|n|² ∂n/∂p
//   ∂n1/∂p: [e]× (v = 0), 0 (v = 1), -[p3 - p0]× (v = 2), [p2 - p0]× (v = 3)      ([w]× u = w × u)
//   ∂n2/∂p: 0 (v = 0), -[e]× (v = 1), [p3 - p1]× (v = 2), -[p2 - p1]× (v = 3)
//   ∇_v c for c = d·ê (d does not move with p_v): -(I - ê êᵀ) d/|e| for v = 2, +(I - ê êᵀ) d/|e| for v = 3
//   (∂ê/∂p3 = -∂ê/∂p2 = (I - ê êᵀ)/|e|); 0 for v = 0, 1, whose c is |e| or 0
// (On a wing, e.g. v = 0, this is |e|²/|n1|² (m̂ n̂1ᵀ + n̂1 m̂ᵀ), m̂ = ê × n̂1: eigenvalues ±|e|²/|n1|², 0.) On the
// edge vertices the four terms are not symmetric one by one, only their sum (a Hessian); the result is symmetrized
// to remove the rounding.
// The exact block is indefinite wherever C ≠ 0 (the angle's own Hessian is). The vertex steps take the Gauss-Newton
// block k ∇φ ∇φᵀ instead (projectToPsd): positive semi-definite and rank one, the exact block at C = 0, and what the
// XPBD solve linearizes to. Clamping the exact block's negative eigenvalues (projectSymmetricToPsd) keeps the positive
// curvature across ∇φ too, but its Jacobi sweeps were most of a dihedral cloth's VBD step, and the cloth moved alike
// under either (docs/performance.md, "Dihedral bending under VBD"). Gaia, the VBD reference
// code, keeps its blocks as they are and skips a vertex when |det H| is tiny; we prefer a PSD block so that each
// vertex step descends.
// Where a triangle has no area or the edge no length the angle is undefined: the functions return false and zeros.
// E jumps where C wraps (|φ - φ0| = π); its derivatives are those of the branch the angle is on.
// In double with sums of products in a fixed order (energy_neo_hookean.h says why), and the angle from atan2Double,
// Cephes' double-precision atan (IEEE arithmetic only): std::atan2 is rounded differently by glibc and musl, as
// dihedral.h found for atan2f (docs/determinism.md).
#pragma once

#include <cmath>

#include <Eigen/Core>

#include "math/cross_matrix.h"
#include "constraints/energy_neo_hookean.h"  // orderedDot, orderedProduct, orderedMatrixProduct
#include "pbd/real.h"

namespace pbd {

/// atan2(y, x) in double from IEEE +, -, *, / and compares only (Cephes' atan: a rational function on |t| <= 0.66
/// after reducing by π/4 or π/2; within 1 ulp of std::atan over 2e6 random arguments). Signs as std::atan2, with
/// atan2(±0, ±0) = ±0 or ±π.
inline double atan2Double(double y, double x) {
  constexpr double P[5] = {-8.750608600031904122785e-1, -1.615753718733365076637e1, -7.500855792314704667340e1,
                           -1.228866684490136173410e2, -6.485021904942025371773e1};
  constexpr double Q[5] = {2.485846490142306297962e1, 1.650270098316988542046e2, 4.328810604912902668951e2,
                           4.853903996359136964868e2, 1.945506571482613964425e2};
  constexpr double kMoreBits = 6.123233995736765886130e-17;  // π/2 - (double)(π/2)
  constexpr double kTan3PiOver8 = 2.41421356237309504880;
  constexpr double kPi = 3.14159265358979323846, kHalfPi = 1.57079632679489661923, kQuarterPi = 0.78539816339744830962;
  const double ax = std::abs(x), ay = std::abs(y);
  if (ax == 0) {  // on the y axis, or (±0, ±0)
    const double angle = ay > 0 ? kHalfPi : (std::signbit(x) ? kPi : 0);
    return std::signbit(y) ? -angle : angle;
  }
  double r = ay / ax;  // atan(r), r in [0, ∞]
  double base = 0, more = 0;
  if (r > kTan3PiOver8) {
    base = kHalfPi, more = kMoreBits, r = -1 / r;
  } else if (r > 0.66) {
    base = kQuarterPi, more = 0.5 * kMoreBits, r = (r - 1) / (r + 1);
  }
  const double z = r * r;
  const double p = (((P[0] * z + P[1]) * z + P[2]) * z + P[3]) * z + P[4];
  const double q = ((((z + Q[0]) * z + Q[1]) * z + Q[2]) * z + Q[3]) * z + Q[4];
  double angle = base + ((r * (z * p / q) + r) + more);
  if (std::signbit(x)) angle = (kPi - angle) + 2 * kMoreBits;  // π - atan(r); kPi is π rounded down by 2 kMoreBits
  return std::signbit(y) ? -angle : angle;
}

/// An angle difference wrapped into (-π, π] in double (wrapAngle's rule: both angles lie in [-π, π], so one turn
/// is enough).
inline double wrapAngleDouble(double a) {
  if (a > M_PI) a -= 2 * M_PI;
  if (a <= -M_PI) a += 2 * M_PI;
  return a;
}

/// φ in double for the vertices p[0..3] (p0, p1 the wings, p2-p3 the edge; Vec3 or Eigen::Vector3d), with ∇_v φ
/// and, when hessian is not null, ∂²φ/∂p_v² (see the top of this file). False, with zeros, where degenerate (the
/// thresholds of evalDihedral).
template <class Vector>
bool dihedralAngleDerivatives(const Vector* p, int v, double& phi, Eigen::Vector3d& gradient,
                              Eigen::Matrix3d* hessian) {
  const Eigen::Vector3d x0 = p[0].template cast<double>(), x1 = p[1].template cast<double>(),
                        x2 = p[2].template cast<double>(), x3 = p[3].template cast<double>();
  const Eigen::Vector3d e = x3 - x2;
  const double elen = std::sqrt(orderedDot(e, e));
  const Eigen::Vector3d n1 = (x2 - x0).cross(x3 - x0), n2 = (x3 - x1).cross(x2 - x1);
  const double n1sq = orderedDot(n1, n1), n2sq = orderedDot(n2, n2);
  phi = 0;
  gradient.setZero();
  if (hessian) hessian->setZero();
  if (!(elen > 1e-9 && n1sq > 1e-18 && n2sq > 1e-18)) return false;
  phi = atan2Double(orderedDot(n2.cross(n1), e), elen * orderedDot(n1, n2));
  const Eigen::Vector3d ehat = e / elen, u1 = n1 / n1sq, u2 = n2 / n2sq;
  const Eigen::Matrix3d I = Eigen::Matrix3d::Identity();
  const Eigen::Matrix3d across = I - ehat * ehat.transpose();  // (I - ê êᵀ)
  double c1 = 0, c2 = 0;
  Eigen::Vector3d dc1 = Eigen::Vector3d::Zero(), dc2 = Eigen::Vector3d::Zero();
  Eigen::Matrix3d dn1 = Eigen::Matrix3d::Zero(), dn2 = Eigen::Matrix3d::Zero();
  switch (v) {
    case 0:
      c1 = elen;
      dn1 = crossMatrix(e);
      break;
    case 1:
      c2 = elen;
      dn2 = -crossMatrix(e);
      break;
    case 2:
      c1 = orderedDot(x0 - x3, ehat), c2 = orderedDot(x1 - x3, ehat);
      dc1 = -orderedProduct(across, x0 - x3) / elen, dc2 = -orderedProduct(across, x1 - x3) / elen;
      dn1 = -crossMatrix(x3 - x0), dn2 = crossMatrix(x3 - x1);
      break;
    default:
      c1 = orderedDot(x2 - x0, ehat), c2 = orderedDot(x2 - x1, ehat);
      dc1 = orderedProduct(across, x2 - x0) / elen, dc2 = orderedProduct(across, x2 - x1) / elen;
      dn1 = crossMatrix(x2 - x0), dn2 = -crossMatrix(x2 - x1);
      break;
  }
  gradient = c1 * u1 + c2 * u2;
  if (hessian) {
    // ∂u/∂n = (I - 2 n̂ n̂ᵀ)/|n|² = I/|n|² - 2 n nᵀ/|n|⁴
    const Eigen::Matrix3d dudn1 = I / n1sq - (2 / (n1sq * n1sq)) * (n1 * n1.transpose());
    const Eigen::Matrix3d dudn2 = I / n2sq - (2 / (n2sq * n2sq)) * (n2 * n2.transpose());
    const Eigen::Matrix3d du1 = orderedMatrixProduct(dudn1, dn1), du2 = orderedMatrixProduct(dudn2, dn2);
    const Eigen::Matrix3d h = u1 * dc1.transpose() + c1 * du1 + u2 * dc2.transpose() + c2 * du2;
    *hessian = 0.5 * (h + h.transpose());
  }
  return true;
}

/// E = ½ k wrap(φ - φ0)² in J (0 where degenerate). restAngle φ0 in rad, stiffness k = 1/α in J/rad² (>= 0).
template <class Vector>
double dihedralEnergy(const Vector* p, double restAngle, double stiffness) {
  double phi;
  Eigen::Vector3d unused;
  if (!dihedralAngleDerivatives(p, 0, phi, unused, nullptr)) return 0;
  const double C = wrapAngleDouble(phi - restAngle);
  return 0.5 * stiffness * C * C;
}

/// gradient = ∂E/∂p_v (N) and hessian = ∂²E/∂p_v² (N/m) for v in 0..3 (same other arguments as dihedralEnergy).
/// projectToPsd: the Gauss-Newton block k ∇φ ∇φᵀ (see the top of this file); false gives the exact block. False,
/// with zeros, where degenerate. The force on the vertex is -gradient.
template <class Vector>
bool dihedralVertexDerivatives(const Vector* p, double restAngle, double stiffness, int v, bool projectToPsd,
                               Eigen::Vector3d& gradient, Eigen::Matrix3d& hessian) {
  double phi;
  Eigen::Vector3d g;
  Eigen::Matrix3d h;
  if (!dihedralAngleDerivatives(p, v, phi, g, projectToPsd ? nullptr : &h)) {
    gradient.setZero();
    hessian.setZero();
    return false;
  }
  const double C = wrapAngleDouble(phi - restAngle);
  gradient = stiffness * C * g;
  if (projectToPsd) hessian = stiffness * (g * g.transpose());
  else hessian = stiffness * (g * g.transpose() + C * h);
  return true;
}

}  // namespace pbd

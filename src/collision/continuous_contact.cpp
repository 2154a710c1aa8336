#include "collision/continuous_contact.h"

#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>

namespace pbd {
namespace {

/// Points of a pair at time t of the substep.
void pointsAt(const Point3d start[4], const Point3d end[4], double t, Point3d out[4]) {
  for (int k = 0; k < 4; ++k) out[k] = start[k] + t * (end[k] - start[k]);
}

/// f(t) = c0 + c1 t + c2 t² + c3 t³ by Horner.
double cubicAt(const double c[4], double t) { return ((c[3] * t + c[2]) * t + c[1]) * t + c[0]; }

/// Barycentric weights of a point q of triangle (a, b, c) (q on its plane): Cramer's rule on the edge vectors.
void barycentric(const Point3d& a, const Point3d& b, const Point3d& c, const Point3d& q, double beta[3]) {
  const Point3d e0 = b - a, e1 = c - a, d = q - a;
  const double d00 = e0.dot(e0), d01 = e0.dot(e1), d11 = e1.dot(e1), d20 = d.dot(e0), d21 = d.dot(e1);
  const double det = d00 * d11 - d01 * d01;
  beta[1] = (d11 * d20 - d01 * d21) / det;
  beta[2] = (d00 * d21 - d01 * d20) / det;
  beta[0] = 1 - beta[1] - beta[2];
}

/// A bound on how much the distance between the hulls of corners A = [0, split) and B = [split, 4) can shrink over the
/// substep: with fixed convex weights α, β the gap vector Σα_k x_k(t) − Σβ_l x_l(t) changes by
/// t Σα_kβ_l (d_k − d_l), d = end − start, so by at most max |d_k − d_l|. Relative motion, not absolute: a cloth
/// falling as a whole moves far in a substep while its neighbouring elements hardly move against each other.
double largestRelativeMove(const Point3d start[4], const Point3d end[4], int split) {
  double largest = 0;
  for (int k = 0; k < split; ++k) {
    for (int l = split; l < 4; ++l) {
      largest = std::max(largest, ((end[k] - start[k]) - (end[l] - start[l])).squaredNorm());
    }
  }
  return std::sqrt(largest);
}

}  // namespace

int coplanarityTimes(const Point3d start[4], const Point3d end[4], double times[3]) {
  // With E_k = start_k - start_0 and D_k its change over the substep, f(t) = ((E1 + t D1) × (E2 + t D2))·(E3 + t D3).
  const Point3d E1 = start[1] - start[0], E2 = start[2] - start[0], E3 = start[3] - start[0];
  const Point3d D1 = end[1] - end[0] - E1, D2 = end[2] - end[0] - E2, D3 = end[3] - end[0] - E3;
  const Point3d a = E1.cross(E2), b = E1.cross(D2) + D1.cross(E2), c = D1.cross(D2);
  const double coeff[4] = {a.dot(E3), a.dot(D3) + b.dot(E3), b.dot(D3) + c.dot(E3), c.dot(D3)};
  // Monotone pieces of [0, 1]: split at the roots of f'(t) = c1 + 2 c2 t + 3 c3 t² inside it.
  double cuts[4] = {0, 1, 1, 1};
  int cutCount = 1;
  const double qa = 3 * coeff[3], qb = 2 * coeff[2], qc = coeff[1];
  if (qa != 0) {
    const double disc = qb * qb - 4 * qa * qc;
    if (disc >= 0) {
      const double r = std::sqrt(disc), t0 = (-qb - r) / (2 * qa), t1 = (-qb + r) / (2 * qa);
      for (double t : {std::min(t0, t1), std::max(t0, t1)}) {
        if (t > 0 && t < 1) cuts[cutCount++] = t;
      }
    }
  } else if (qb != 0) {
    const double t = -qc / qb;
    if (t > 0 && t < 1) cuts[cutCount++] = t;
  }
  cuts[cutCount++] = 1;
  int found = 0;
  for (int k = 0; k + 1 < cutCount && found < 3; ++k) {
    double lo = cuts[k], hi = cuts[k + 1];
    double flo = cubicAt(coeff, lo);
    const double fhi = cubicAt(coeff, hi);
    if (flo == 0) {
      times[found++] = lo;
      continue;
    }
    if (k + 2 == cutCount && fhi == 0) {  // a root exactly at t = 1
      times[found++] = hi;
      continue;
    }
    if ((flo < 0) == (fhi < 0)) continue;
    for (int it = 0; it < 48; ++it) {  // f is monotone here: bisection keeps the bracket (to 2^-48 of the substep)
      const double mid = 0.5 * (lo + hi), fmid = cubicAt(coeff, mid);
      if ((fmid < 0) == (flo < 0)) lo = mid, flo = fmid;
      else hi = mid;
    }
    times[found++] = hi;
  }
  return found;
}

/// Visits the configurations where the pair can first touch: each coplanarity time in order, then the end of the
/// substep. `touch(x)` returns the contact at positions x, or nullopt to go on (also where x is degenerate).
template <class Touch>
std::optional<ContinuousContact> firstTouch(const Point3d start[4], const Point3d end[4], Touch touch) {
  double times[4];
  const int count = coplanarityTimes(start, end, times);
  times[count] = 1;
  for (int k = 0; k <= count; ++k) {
    Point3d x[4];
    pointsAt(start, end, times[k], x);
    if (std::optional<ContinuousContact> contact = touch(x)) return contact;
  }
  return std::nullopt;
}

std::optional<ContinuousContact> pointTriangleContact(const Point3d start[4], const Point3d end[4], double thickness) {
  const Point3d areaNormal = (start[2] - start[1]).cross(start[3] - start[1]);
  const double area = areaNormal.norm();
  if (!(area > 0)) return std::nullopt;
  // The side the point started on (in the plane: the side it moves away from relative to the triangle).
  Point3d n = areaNormal / area;
  const double side = n.dot(start[0] - start[1]);
  if (side < 0 || (side == 0 && n.dot((end[0] - start[0]) - (end[1] - start[1])) > 0)) n = -n;
  // Cheap exact cull: a pair farther apart at the start than the thickness plus how much their distance can shrink
  // (largestRelativeMove) cannot touch (most candidates of a calm cloth).
  const double gap0 = (start[0] - closestPointOnTriangle(start[1], start[2], start[3], start[0])).norm();
  if (gap0 - largestRelativeMove(start, end, 1) >= thickness) return std::nullopt;
  return firstTouch(start, end, [&](const Point3d x[4]) -> std::optional<ContinuousContact> {
    const Point3d q = closestPointOnTriangle(x[1], x[2], x[3], x[0]);
    if (!((x[0] - q).squaredNorm() < thickness * thickness)) return std::nullopt;
    double beta[3];
    barycentric(x[1], x[2], x[3], q, beta);
    if (!(std::isfinite(beta[0]) && std::isfinite(beta[1]) && std::isfinite(beta[2]))) return std::nullopt;
    return ContinuousContact{{1, -beta[0], -beta[1], -beta[2]}, n};
  });
}

namespace {

/// The distance between a pair's elements (point–triangle, or edge–edge) at positions q.
double pairDistance(const Point3d q[4], bool pointTriangle) {
  if (pointTriangle) return (q[0] - closestPointOnTriangle(q[1], q[2], q[3], q[0])).norm();
  double u = 0, v = 0;
  closestSegmentParameters(q[0], q[1], q[2], q[3], u, v);
  return ((q[0] + u * (q[1] - q[0])) - (q[2] + v * (q[3] - q[2]))).norm();
}

}  // namespace

bool failsafeViolation(const Point3d start[4], const Point3d end[4], bool pointTriangle, double separation) {
  const double first = pairDistance(start, pointTriangle);
  // The gap cannot shrink by more than the largest relative move: most pairs end here.
  if (first - largestRelativeMove(start, end, pointTriangle ? 1 : 2) >= separation) return false;
  const double last = pairDistance(end, pointTriangle);
  if (last < separation && last < first) return true;
  const double touching = 1e-6 * separation;  // coplanar and inside, to the bisection's precision
  return pointTriangle ? pointTriangleContact(start, end, touching).has_value()
                       : edgeEdgeContact(start, end, touching).has_value();
}

void closestSegmentParameters(const Point3d& p0, const Point3d& p1, const Point3d& q0, const Point3d& q1, double& u,
                              double& v) {
  const Point3d d1 = p1 - p0, d2 = q1 - q0, r = p0 - q0;
  const double a = d1.dot(d1), e = d2.dot(d2), f = d2.dot(r);
  if (a <= 0 && e <= 0) {
    u = v = 0;
    return;
  }
  if (a <= 0) {
    u = 0;
    v = std::clamp(f / e, 0.0, 1.0);
    return;
  }
  const double c = d1.dot(r);
  if (e <= 0) {
    v = 0;
    u = std::clamp(-c / a, 0.0, 1.0);
    return;
  }
  const double b = d1.dot(d2), denom = a * e - b * b;
  u = denom > 0 ? std::clamp((b * f - c * e) / denom, 0.0, 1.0) : 0.0;  // parallel: any u, take 0
  v = (b * u + f) / e;
  if (v < 0) v = 0, u = std::clamp(-c / a, 0.0, 1.0);
  else if (v > 1) v = 1, u = std::clamp((b - c) / a, 0.0, 1.0);
}

std::optional<ContinuousContact> edgeEdgeContact(const Point3d start[4], const Point3d end[4], double thickness) {
  double u0 = 0, v0 = 0;  // the same cull as for a point and a triangle
  closestSegmentParameters(start[0], start[1], start[2], start[3], u0, v0);
  const double gap0 = ((start[0] + u0 * (start[1] - start[0])) - (start[2] + v0 * (start[3] - start[2]))).norm();
  if (gap0 - largestRelativeMove(start, end, 2) >= thickness) return std::nullopt;
  return firstTouch(start, end, [&](const Point3d x[4]) -> std::optional<ContinuousContact> {
    double u = 0, v = 0;
    closestSegmentParameters(x[0], x[1], x[2], x[3], u, v);
    const Point3d gap = (x[0] + u * (x[1] - x[0])) - (x[2] + v * (x[3] - x[2]));
    if (!(gap.squaredNorm() < thickness * thickness)) return std::nullopt;
    // The normal: from the second edge to the first at the start, at the same edge parameters.
    const Point3d startGap = (start[0] + u * (start[1] - start[0])) - (start[2] + v * (start[3] - start[2]));
    const double length = startGap.norm();
    if (!(length > 0)) return std::nullopt;
    return ContinuousContact{{1 - u, u, -(1 - v), -v}, startGap / length};
  });
}

}  // namespace pbd

#include "mesh/winding_number.h"

#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

namespace pbd::mesh {

double solidAngle(const Point3d& a, const Point3d& b, const Point3d& c, const Point3d& q) {
  const Point3d A = a - q, B = b - q, C = c - q;
  const double la = A.norm(), lb = B.norm(), lc = C.norm();
  const double num = A.dot(B.cross(C));
  const double den = la * lb * lc + A.dot(B) * lc + B.dot(C) * la + C.dot(A) * lb;
  return 2 * std::atan2(num, den);
}

double windingNumberBruteForce(std::span<const Point3d> vertices, std::span<const uint32_t> triangles,
                               const Point3d& q) {
  double sum = 0;
  for (size_t t = 0; t + 2 < triangles.size(); t += 3)
    sum += solidAngle(vertices[triangles[t]], vertices[triangles[t + 1]], vertices[triangles[t + 2]], q);
  return sum / (4 * std::numbers::pi);
}

namespace {
constexpr uint32_t kLeafSize = 8;
constexpr uint32_t kNoCap = std::numeric_limits<uint32_t>::max();

/// Squared distance from q to the box [lo, hi] (0 inside).
double boxDistanceSq(const Point3d& lo, const Point3d& hi, const Point3d& q) {
  return (lo - q).cwiseMax(q - hi).cwiseMax(0.0).squaredNorm();
}
}  // namespace

SurfaceBvh::SurfaceBvh(std::vector<Point3d> vertices, std::vector<uint32_t> triangles)
    : v_(std::move(vertices)), f_(std::move(triangles)) {
  const uint32_t n = uint32_t(f_.size() / 3);
  tri_.resize(n);
  for (uint32_t t = 0; t < n; ++t) tri_[t] = t;
  nodes_.reserve(2 * n / kLeafSize + 2);
  if (n > 0) {
    build(0, n);
    tolerance_ = 1e-9 * (nodes_[0].hi - nodes_[0].lo).norm();
  }
}

int32_t SurfaceBvh::build(uint32_t first, uint32_t count) {
  const int32_t id = int32_t(nodes_.size());
  nodes_.push_back({});
  Point3d lo = Point3d::Constant(std::numeric_limits<double>::infinity()), hi = -lo;
  Point3d clo = lo, chi = hi;  // box of the centroids: chooses the split axis
  for (uint32_t k = first; k < first + count; ++k) {
    const uint32_t t = tri_[k];
    Point3d c = Point3d::Zero();
    for (int j = 0; j < 3; ++j) {
      const Point3d& p = v_[f_[3 * t + j]];
      lo = lo.cwiseMin(p);
      hi = hi.cwiseMax(p);
      c += p / 3;
    }
    clo = clo.cwiseMin(c);
    chi = chi.cwiseMax(c);
  }
  Node node;
  node.lo = lo;
  node.hi = hi;
  node.first = first;
  node.count = count;
  if (count > kLeafSize) {
    // Median split along the longest axis of the centroid box.
    int axis = 0;
    (chi - clo).maxCoeff(&axis);
    auto centroid = [&](uint32_t t) { return v_[f_[3 * t]][axis] + v_[f_[3 * t + 1]][axis] + v_[f_[3 * t + 2]][axis]; };
    const uint32_t half = count / 2;
    std::nth_element(tri_.begin() + first, tri_.begin() + first + half, tri_.begin() + first + count,
                     [&](uint32_t a, uint32_t b) { return centroid(a) < centroid(b) || (centroid(a) == centroid(b) && a < b); });
    node.left = build(first, half);
    node.right = build(first + half, count - half);
    buildCap(node);
  } else {
    node.capCount = kNoCap;
  }
  nodes_[id] = node;
  return id;
}

void SurfaceBvh::buildCap(Node& node) {
  // Boundary of the patch as a 1-chain: each undirected edge with its net number of traversals (a→b minus b→a).
  std::vector<std::pair<uint64_t, int>> edges;
  edges.reserve(3 * node.count);
  for (uint32_t k = node.first; k < node.first + node.count; ++k) {
    const uint32_t* t = &f_[3 * tri_[k]];
    for (int j = 0; j < 3; ++j) {
      const uint32_t a = t[j], b = t[(j + 1) % 3];
      edges.push_back({(uint64_t(std::min(a, b)) << 32) | std::max(a, b), a < b ? 1 : -1});
    }
  }
  std::sort(edges.begin(), edges.end());
  node.capFirst = uint32_t(cap_.size());
  uint32_t capTriangles = 0;
  uint32_t apex = kNoCap;
  for (size_t i = 0; i < edges.size();) {
    size_t j = i;
    int net = 0;
    for (; j < edges.size() && edges[j].first == edges[i].first; ++j) net += edges[j].second;
    const uint32_t lo = uint32_t(edges[i].first >> 32), hi = uint32_t(edges[i].first);
    for (int m = 0; m < std::abs(net); ++m) {
      const uint32_t a = net > 0 ? lo : hi, b = net > 0 ? hi : lo;  // the boundary edge a→b
      if (apex == kNoCap) apex = a;
      if (a == apex || b == apex) continue;  // a flat fan triangle contributes nothing
      cap_.insert(cap_.end(), {apex, a, b});
      ++capTriangles;
    }
    i = j;
  }
  if (capTriangles >= node.count) {  // no cheaper than the triangles themselves
    cap_.resize(node.capFirst);
    node.capCount = kNoCap;
  } else {
    node.capCount = capTriangles;
  }
}

double SurfaceBvh::triangleSum(uint32_t first, uint32_t count, const Point3d& q) const {
  double sum = 0;
  for (uint32_t k = first; k < first + count; ++k) {
    const uint32_t* t = &f_[3 * tri_[k]];
    sum += solidAngle(v_[t[0]], v_[t[1]], v_[t[2]], q);
  }
  return sum;
}

double SurfaceBvh::windingNumber(const Point3d& q) const {
  if (nodes_.empty()) return 0;
  double sum = 0;
  int32_t stack[128];
  int top = 0;
  stack[top++] = 0;
  while (top > 0) {
    const Node& n = nodes_[stack[--top]];
    const bool outside = (q.array() < n.lo.array()).any() || (q.array() > n.hi.array()).any();
    if (outside && n.capCount != kNoCap) {
      // Patch ≡ its cap for q outside the box (the cap's vertices are patch vertices, inside the box).
      for (uint32_t k = 0; k < n.capCount; ++k) {
        const uint32_t* t = &cap_[n.capFirst + 3 * k];
        sum += solidAngle(v_[t[0]], v_[t[1]], v_[t[2]], q);
      }
    } else if (n.left < 0) {
      sum += triangleSum(n.first, n.count, q);
    } else {
      stack[top++] = n.left;
      stack[top++] = n.right;
    }
  }
  return sum / (4 * std::numbers::pi);
}

double SurfaceBvh::distanceToTriangle(uint32_t t, const Point3d& p) const {
  // Closest point on a triangle by Voronoi regions (Ericson, Real-Time Collision Detection, 5.1.5).
  const Point3d& a = v_[f_[3 * t]];
  const Point3d& b = v_[f_[3 * t + 1]];
  const Point3d& c = v_[f_[3 * t + 2]];
  const Point3d ab = b - a, ac = c - a, ap = p - a;
  const double d1 = ab.dot(ap), d2 = ac.dot(ap);
  if (d1 <= 0 && d2 <= 0) return ap.norm();
  const Point3d bp = p - b;
  const double d3 = ab.dot(bp), d4 = ac.dot(bp);
  if (d3 >= 0 && d4 <= d3) return bp.norm();
  const double vc = d1 * d4 - d3 * d2;
  if (vc <= 0 && d1 >= 0 && d3 <= 0) return (p - (a + ab * (d1 / (d1 - d3)))).norm();
  const Point3d cp = p - c;
  const double d5 = ab.dot(cp), d6 = ac.dot(cp);
  if (d6 >= 0 && d5 <= d6) return cp.norm();
  const double vb = d5 * d2 - d1 * d6;
  if (vb <= 0 && d2 >= 0 && d6 <= 0) return (p - (a + ac * (d2 / (d2 - d6)))).norm();
  const double va = d3 * d6 - d5 * d4;
  if (va <= 0 && (d4 - d3) >= 0 && (d5 - d6) >= 0)
    return (p - (b + (c - b) * ((d4 - d3) / ((d4 - d3) + (d5 - d6))))).norm();
  const double denom = 1 / (va + vb + vc);
  return (p - (a + ab * (vb * denom) + ac * (vc * denom))).norm();
}

double SurfaceBvh::distanceUpTo(const Point3d& q, double cap) const {
  double best = cap;
  if (nodes_.empty()) return best;
  int32_t stack[128];
  int top = 0;
  stack[top++] = 0;
  while (top > 0) {
    const Node& n = nodes_[stack[--top]];
    if (boxDistanceSq(n.lo, n.hi, q) >= best * best) continue;
    if (n.left < 0) {
      for (uint32_t k = n.first; k < n.first + n.count; ++k) best = std::min(best, distanceToTriangle(tri_[k], q));
    } else {
      // Visit the nearer child first (pushed last) so that it tightens `best` before the other is tested.
      const double dl = boxDistanceSq(nodes_[n.left].lo, nodes_[n.left].hi, q);
      const double dr = boxDistanceSq(nodes_[n.right].lo, nodes_[n.right].hi, q);
      stack[top++] = dl < dr ? n.right : n.left;
      stack[top++] = dl < dr ? n.left : n.right;
    }
  }
  return best;
}

bool SurfaceBvh::triangleMayCross(uint32_t t, const Point3d& p, const Point3d& q) const {
  const Point3d& a = v_[f_[3 * t]];
  const Point3d& b = v_[f_[3 * t + 1]];
  const Point3d& c = v_[f_[3 * t + 2]];
  const double eps = tolerance_;
  const Point3d n = (b - a).cross(c - a).normalized();
  const double dp = n.dot(p - a), dq = n.dot(q - a);  // signed distances to the plane
  if ((dp > eps && dq > eps) || (dp < -eps && dq < -eps)) return false;
  const Point3d slo = p.cwiseMin(q), shi = p.cwiseMax(q);
  const Point3d tlo = a.cwiseMin(b).cwiseMin(c), thi = a.cwiseMax(b).cwiseMax(c);
  if (((slo.array() - eps) > thi.array()).any() || ((shi.array() + eps) < tlo.array()).any()) return false;
  if (std::abs(dp - dq) <= 2 * eps) return true;  // (nearly) in the plane: boxes overlap, assume the worst
  const double s = std::clamp(dp / (dp - dq), 0.0, 1.0);
  const Point3d x = p + s * (q - p);
  // x inside the triangle up to eps: its distance to each edge line, positive inside.
  const Point3d* corner[3] = {&a, &b, &c};
  for (int k = 0; k < 3; ++k) {
    const Point3d& u = *corner[k];
    const Point3d& w = *corner[(k + 1) % 3];
    const Point3d e = w - u;
    if (e.cross(x - u).dot(n) < -eps * e.norm()) return false;
  }
  return true;
}

bool SurfaceBvh::segmentMayCross(const Point3d& p, const Point3d& q) const {
  if (nodes_.empty()) return false;
  const Point3d slo = p.cwiseMin(q).array() - tolerance_, shi = p.cwiseMax(q).array() + tolerance_;
  int32_t stack[128];
  int top = 0;
  stack[top++] = 0;
  while (top > 0) {
    const Node& n = nodes_[stack[--top]];
    if ((slo.array() > n.hi.array()).any() || (shi.array() < n.lo.array()).any()) continue;
    if (n.left < 0) {
      for (uint32_t k = n.first; k < n.first + n.count; ++k)
        if (triangleMayCross(tri_[k], p, q)) return true;
    } else {
      stack[top++] = n.left;
      stack[top++] = n.right;
    }
  }
  return false;
}

}  // namespace pbd::mesh

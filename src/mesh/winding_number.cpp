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
constexpr uint32_t kNoCap = std::numeric_limits<uint32_t>::max();
}  // namespace

SurfaceBvh::SurfaceBvh(std::vector<Point3d> vertices, std::vector<uint32_t> triangles)
    : bvh_(std::move(vertices), std::move(triangles)) {
  const auto& nodes = bvh_.nodes();
  caps_.resize(nodes.size());
  for (uint32_t k = 0; k < nodes.size(); ++k) {
    if (nodes[k].left < 0) caps_[k].count = kNoCap;
    else buildCap(k);
  }
  if (!nodes.empty()) tolerance_ = 1e-9 * (nodes[0].hi - nodes[0].lo).norm();
}

void SurfaceBvh::refit(std::span<const Real> xyz) {
  bvh_.refit(xyz);
  const auto& nodes = bvh_.nodes();
  if (!nodes.empty()) tolerance_ = 1e-9 * (nodes[0].hi - nodes[0].lo).norm();
}

void SurfaceBvh::buildCap(uint32_t id) {
  const TriangleBvh::Node& node = bvh_.nodes()[id];
  Cap& cap = caps_[id];
  // Boundary of the patch as a 1-chain: each undirected edge with its net number of traversals (a→b minus b→a).
  std::vector<std::pair<uint64_t, int>> edges;
  edges.reserve(3 * node.count);
  for (uint32_t k = node.first; k < node.first + node.count; ++k) {
    const uint32_t* t = bvh_.triangle(bvh_.triangleAt(k));
    for (int j = 0; j < 3; ++j) {
      const uint32_t a = t[j], b = t[(j + 1) % 3];
      edges.push_back({(uint64_t(std::min(a, b)) << 32) | std::max(a, b), a < b ? 1 : -1});
    }
  }
  std::sort(edges.begin(), edges.end());
  cap.first = uint32_t(cap_.size());
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
    cap_.resize(cap.first);
    cap.count = kNoCap;
  } else {
    cap.count = capTriangles;
  }
}

double SurfaceBvh::triangleSum(uint32_t first, uint32_t count, const Point3d& q) const {
  double sum = 0;
  for (uint32_t k = first; k < first + count; ++k) {
    const uint32_t* t = bvh_.triangle(bvh_.triangleAt(k));
    sum += solidAngle(bvh_.vertex(t[0]), bvh_.vertex(t[1]), bvh_.vertex(t[2]), q);
  }
  return sum;
}

double SurfaceBvh::windingNumber(const Point3d& q) const {
  const auto& nodes = bvh_.nodes();
  if (nodes.empty()) return 0;
  double sum = 0;
  int32_t stack[128];
  int top = 0;
  stack[top++] = 0;
  while (top > 0) {
    const int32_t id = stack[--top];
    const TriangleBvh::Node& n = nodes[id];
    const Cap& cap = caps_[id];
    const bool outside = (q.array() < n.lo.array()).any() || (q.array() > n.hi.array()).any();
    if (outside && cap.count != kNoCap) {
      // Patch ≡ its cap for q outside the box (the cap's vertices are patch vertices, inside the box).
      for (uint32_t k = 0; k < cap.count; ++k) {
        const uint32_t* t = &cap_[cap.first + 3 * k];
        sum += solidAngle(bvh_.vertex(t[0]), bvh_.vertex(t[1]), bvh_.vertex(t[2]), q);
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

bool SurfaceBvh::triangleMayCross(uint32_t t, const Point3d& p, const Point3d& q) const {
  const uint32_t* f = bvh_.triangle(t);
  const Point3d& a = bvh_.vertex(f[0]);
  const Point3d& b = bvh_.vertex(f[1]);
  const Point3d& c = bvh_.vertex(f[2]);
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
  const auto& nodes = bvh_.nodes();
  if (nodes.empty()) return false;
  const Point3d slo = p.cwiseMin(q).array() - tolerance_, shi = p.cwiseMax(q).array() + tolerance_;
  int32_t stack[128];
  int top = 0;
  stack[top++] = 0;
  while (top > 0) {
    const TriangleBvh::Node& n = nodes[stack[--top]];
    if ((slo.array() > n.hi.array()).any() || (shi.array() < n.lo.array()).any()) continue;
    if (n.left < 0) {
      for (uint32_t k = n.first; k < n.first + n.count; ++k)
        if (triangleMayCross(bvh_.triangleAt(k), p, q)) return true;
    } else {
      stack[top++] = n.left;
      stack[top++] = n.right;
    }
  }
  return false;
}

}  // namespace pbd::mesh

#include "mesh/triangle_bvh.h"

#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>

namespace pbd {

namespace {

/// Squared distance from q to the box [lo, hi] (0 inside).
double boxDistanceSq(const Point3d& lo, const Point3d& hi, const Point3d& q) {
  return (lo - q).cwiseMax(q - hi).cwiseMax(0.0).squaredNorm();
}

/// Whether a + t d meets the box [lo - pad, hi + pad] for some t in [0, tMax] (slab test, per axis so that an axis
/// with d = 0 never multiplies 0 by infinity).
bool segmentMeetsBox(const Point3d& a, const Point3d& d, double tMax, const Point3d& lo, const Point3d& hi, double pad) {
  double t0 = 0, t1 = tMax;
  for (int k = 0; k < 3; ++k) {
    const double l = lo[k] - pad, h = hi[k] + pad;
    if (d[k] == 0) {
      if (a[k] < l || a[k] > h) return false;
      continue;
    }
    double u = (l - a[k]) / d[k], w = (h - a[k]) / d[k];
    if (u > w) std::swap(u, w);
    t0 = std::max(t0, u);
    t1 = std::min(t1, w);
    if (t0 > t1) return false;
  }
  return true;
}

}  // namespace

Point3d closestPointOnTriangle(const Point3d& a, const Point3d& b, const Point3d& c, const Point3d& p) {
  const Point3d ab = b - a, ac = c - a, ap = p - a;
  const double d1 = ab.dot(ap), d2 = ac.dot(ap);
  if (d1 <= 0 && d2 <= 0) return a;
  const Point3d bp = p - b;
  const double d3 = ab.dot(bp), d4 = ac.dot(bp);
  if (d3 >= 0 && d4 <= d3) return b;
  const double vc = d1 * d4 - d3 * d2;
  if (vc <= 0 && d1 >= 0 && d3 <= 0) return a + ab * (d1 / (d1 - d3));
  const Point3d cp = p - c;
  const double d5 = ab.dot(cp), d6 = ac.dot(cp);
  if (d6 >= 0 && d5 <= d6) return c;
  const double vb = d5 * d2 - d1 * d6;
  if (vb <= 0 && d2 >= 0 && d6 <= 0) return a + ac * (d2 / (d2 - d6));
  const double va = d3 * d6 - d5 * d4;
  if (va <= 0 && (d4 - d3) >= 0 && (d5 - d6) >= 0) return b + (c - b) * ((d4 - d3) / ((d4 - d3) + (d5 - d6)));
  const double denom = 1 / (va + vb + vc);
  return a + ab * (vb * denom) + ac * (vc * denom);
}

double segmentTriangle(const Point3d& a, const Point3d& b, const Point3d& c, const Point3d& p, const Point3d& q) {
  constexpr double kEdge = 1e-9;
  const Point3d e1 = b - a, e2 = c - a, d = q - p;
  const Point3d P = d.cross(e2);
  const double det = e1.dot(P);
  if (!(std::abs(det) > 1e-12 * d.norm() * e1.cross(e2).norm())) return -1;  // parallel (or a zero-length segment)
  const double inv = 1 / det;
  const Point3d T = p - a;
  const double u = T.dot(P) * inv;
  if (u < -kEdge || u > 1 + kEdge) return -1;
  const Point3d Q = T.cross(e1);
  const double v = d.dot(Q) * inv;
  if (v < -kEdge || u + v > 1 + kEdge) return -1;
  const double s = e2.dot(Q) * inv;
  return s >= 0 && s <= 1 ? s : -1;
}

TriangleBvh::TriangleBvh(std::vector<Point3d> vertices, std::vector<uint32_t> triangles)
    : v_(std::move(vertices)), f_(std::move(triangles)) {
  const uint32_t n = triangleCount();
  order_.resize(n);
  for (uint32_t t = 0; t < n; ++t) order_[t] = t;
  nodes_.reserve(2 * n / kLeafSize + 2);
  if (n > 0) build(0, n);
  boxLo_.resize(n);
  boxHi_.resize(n);
  packedTriangleBoxes_.resize(n);
  packedNodeBoxes_.resize(nodes_.size());
  fitTriangleBoxes();
}

void TriangleBvh::fitTriangleBoxes() {
  for (uint32_t k = 0; k < order_.size(); ++k) {
    const uint32_t* f = triangle(order_[k]);
    boxLo_[k] = v_[f[0]].cwiseMin(v_[f[1]]).cwiseMin(v_[f[2]]);
    boxHi_[k] = v_[f[0]].cwiseMax(v_[f[1]]).cwiseMax(v_[f[2]]);
  }
}

Point3d TriangleBvh::areaNormal(uint32_t t) const {
  const uint32_t* f = triangle(t);
  return (v_[f[1]] - v_[f[0]]).cross(v_[f[2]] - v_[f[0]]);
}

void TriangleBvh::fitLeaf(Node& node) const {
  Point3d lo = Point3d::Constant(std::numeric_limits<double>::infinity()), hi = -lo;
  for (uint32_t k = node.first; k < node.first + node.count; ++k) {
    for (int j = 0; j < 3; ++j) {
      const Point3d& p = v_[f_[3 * size_t(order_[k]) + j]];
      lo = lo.cwiseMin(p);
      hi = hi.cwiseMax(p);
    }
  }
  node.lo = lo;
  node.hi = hi;
}

int32_t TriangleBvh::build(uint32_t first, uint32_t count) {
  const int32_t id = int32_t(nodes_.size());
  nodes_.push_back({});
  Node node;
  node.first = first;
  node.count = count;
  fitLeaf(node);
  if (count > kLeafSize) {
    // Median split along the longest axis of the centroid box.
    Point3d clo = Point3d::Constant(std::numeric_limits<double>::infinity()), chi = -clo;
    for (uint32_t k = first; k < first + count; ++k) {
      const uint32_t* f = triangle(order_[k]);
      const Point3d c = v_[f[0]] / 3 + v_[f[1]] / 3 + v_[f[2]] / 3;
      clo = clo.cwiseMin(c);
      chi = chi.cwiseMax(c);
    }
    int axis = 0;
    (chi - clo).maxCoeff(&axis);
    auto centroid = [&](uint32_t t) { return v_[f_[3 * t]][axis] + v_[f_[3 * t + 1]][axis] + v_[f_[3 * t + 2]][axis]; };
    const uint32_t half = count / 2;
    std::nth_element(order_.begin() + first, order_.begin() + first + half, order_.begin() + first + count,
                     [&](uint32_t a, uint32_t b) { return centroid(a) < centroid(b) || (centroid(a) == centroid(b) && a < b); });
    node.left = build(first, half);
    node.right = build(first + half, count - half);
  }
  nodes_[id] = node;
  return id;
}

void TriangleBvh::refit(std::span<const Real> xyz) {
  for (size_t i = 0; i < v_.size(); ++i) v_[i] = Point3d(xyz[3 * i], xyz[3 * i + 1], xyz[3 * i + 2]);
  fitTriangleBoxes();
  // Children have larger ids than their parent: one backward sweep sees every child before its parent.
  for (size_t k = nodes_.size(); k-- > 0;) {
    Node& n = nodes_[k];
    if (n.left < 0) {
      fitLeaf(n);
    } else {
      n.lo = nodes_[n.left].lo.cwiseMin(nodes_[n.right].lo);
      n.hi = nodes_[n.left].hi.cwiseMax(nodes_[n.right].hi);
    }
  }
}

void TriangleBvh::refitTriangleBoxes(std::span<const Vec3> lo, std::span<const Vec3> hi) {
  for (uint32_t k = 0; k < order_.size(); ++k) {
    const Vec3& l = lo[order_[k]];
    const Vec3& h = hi[order_[k]];
    packedTriangleBoxes_[k] = {{l.x(), l.y(), l.z(), 0}, {h.x(), h.y(), h.z(), 0}};
  }
  // Children before parents, as in refit(). pmin/pmax are Eigen's cwiseMin/cwiseMax (b < a ? b : a), lane by lane.
  auto merge = [](PackedBox& into, const PackedBox& box) {
    pmin(Float4::load(into.lo), Float4::load(box.lo)).store(into.lo);
    pmax(Float4::load(into.hi), Float4::load(box.hi)).store(into.hi);
  };
  for (size_t k = nodes_.size(); k-- > 0;) {
    const Node& n = nodes_[k];
    PackedBox& box = packedNodeBoxes_[k];
    if (n.left < 0) {
      box = packedTriangleBoxes_[n.first];
      for (uint32_t j = n.first + 1; j < n.first + n.count; ++j) merge(box, packedTriangleBoxes_[j]);
    } else {
      box = packedNodeBoxes_[size_t(n.left)];
      merge(box, packedNodeBoxes_[size_t(n.right)]);
    }
  }
}

TriangleBvh::Closest TriangleBvh::closestPoint(const Point3d& q, double cap) const {
  Closest best{cap, q, kNone};
  if (nodes_.empty()) return best;
  int32_t stack[128];
  int top = 0;
  stack[top++] = 0;
  while (top > 0) {
    const Node& n = nodes_[stack[--top]];
    // `>` not `>=`: a box at exactly the best distance may hold an equally near triangle of lower index.
    if (boxDistanceSq(n.lo, n.hi, q) > best.distance * best.distance) continue;
    if (n.left < 0) {
      for (uint32_t k = n.first; k < n.first + n.count; ++k) {
        if (boxDistanceSq(boxLo_[k], boxHi_[k], q) > best.distance * best.distance) continue;
        const uint32_t t = order_[k];
        const uint32_t* f = triangle(t);
        const Point3d x = closestPointOnTriangle(v_[f[0]], v_[f[1]], v_[f[2]], q);
        const double d = (q - x).norm();
        if (d < best.distance || (d == best.distance && t < best.triangle)) best = {d, x, t};
      }
    } else {
      // Visit the nearer child first (pushed last) so that it tightens the bound before the other is tested.
      const double dl = boxDistanceSq(nodes_[n.left].lo, nodes_[n.left].hi, q);
      const double dr = boxDistanceSq(nodes_[n.right].lo, nodes_[n.right].hi, q);
      stack[top++] = dl < dr ? n.right : n.left;
      stack[top++] = dl < dr ? n.left : n.right;
    }
  }
  return best;
}

TriangleBvh::Hit TriangleBvh::firstHit(const Point3d& a, const Point3d& b) const {
  Hit best{2, a, kNone};
  if (nodes_.empty()) return best;
  const Point3d d = b - a;
  // Hits may lie outside a triangle by the edge tolerance (1e-9 of its size): pad the boxes by more than that.
  const double pad = 1e-8 * (nodes_[0].hi - nodes_[0].lo).norm();
  const Point3d segLo = a.cwiseMin(b).array() - pad, segHi = a.cwiseMax(b).array() + pad;
  int32_t stack[128];
  int top = 0;
  stack[top++] = 0;
  while (top > 0) {
    const Node& n = nodes_[stack[--top]];
    if (!segmentMeetsBox(a, d, std::min(best.s, 1.0), n.lo, n.hi, pad)) continue;
    if (n.left >= 0) {
      stack[top++] = n.right;
      stack[top++] = n.left;
      continue;
    }
    for (uint32_t k = n.first; k < n.first + n.count; ++k) {
      if ((segLo.array() > boxHi_[k].array()).any() || (segHi.array() < boxLo_[k].array()).any()) continue;
      const uint32_t t = order_[k];
      const uint32_t* f = triangle(t);
      const double s = segmentTriangle(v_[f[0]], v_[f[1]], v_[f[2]], a, b);
      if (s >= 0 && (s < best.s || (s == best.s && t < best.triangle))) best = {s, a + s * d, t};
    }
  }
  if (best.triangle == kNone) best.s = -1;
  return best;
}

}  // namespace pbd

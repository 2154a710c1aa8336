// A bounding volume hierarchy over the triangles of a surface, in double precision: built once (median split along
// the longest axis of the centroid box, ties broken by triangle index, so the tree depends on the input only),
// refitted when the vertices move. Shared by the generalized winding number (mesh/winding_number.h, which adds its
// far-field caps per node) and the triangle-mesh colliders (collision/mesh_collider.h).
//
// Queries (both return exactly what a brute-force loop over all triangles returns, ties to the lowest index):
//   closestPoint(q, cap): the nearest surface point to q closer than cap (Ericson's Voronoi-region kernel);
//   firstHit(a, b): the first point where the segment a→b meets a triangle (Möller–Trumbore, inclusive edges).
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <span>
#include <vector>

#include <Eigen/Core>

#include "math/wide_float.h"
#include "pbd/real.h"

namespace pbd {

using Point3d = Eigen::Vector3d;

/// The nearest point of a triangle (a, b, c) to p, by Voronoi regions (Ericson, Real-Time Collision Detection 5.1.5).
Point3d closestPointOnTriangle(const Point3d& a, const Point3d& b, const Point3d& c, const Point3d& p);

/// Where the segment p→q meets triangle (a, b, c): returns s in [0, 1] with the point p + s (q - p), or a negative
/// value for no hit. Möller–Trumbore: with e1 = b - a, e2 = c - a, d = q - p, P = d × e2, det = e1·P,
///   u = (p - a)·P / det, v = d·((p - a) × e1) / det, s = e2·((p - a) × e1) / det;
/// a hit needs u, v >= -ε, u + v <= 1 + ε (ε = 1e-9: a segment through a shared edge hits both triangles rather
/// than slipping between them) and 0 <= s <= 1. A segment parallel to the plane (|det| tiny) does not hit.
double segmentTriangle(const Point3d& a, const Point3d& b, const Point3d& c, const Point3d& p, const Point3d& q);

/// Whether the boxes [l0, h0] and [l1, h1] overlap (touching counts), for any Eigen 3-vectors.
template <class V>
bool boxesOverlap(const V& l0, const V& h0, const V& l1, const V& h1) {
  return !((l0.array() > h1.array()).any() || (h0.array() < l1.array()).any());
}

class TriangleBvh {
 public:
  static constexpr uint32_t kNone = std::numeric_limits<uint32_t>::max();
  static constexpr uint32_t kLeafSize = 8;  ///< Triangles per leaf at most.
  /// forEachOverlappingPair's stack: a node pair pushes at most 3 and the walk goes at most 2 x depth deep (the
  /// median split keeps the depth at log2(triangles / kLeafSize) + 1 <= 29 for 2^32 triangles).
  static constexpr int kPairStack = 256;

  struct Node {
    Point3d lo = Point3d::Zero(), hi = Point3d::Zero();  ///< Bounding box of the node's triangles.
    uint32_t first = 0;  ///< The node's triangles are triangleAt(first .. first + count - 1).
    uint32_t count = 0;
    int32_t left = -1;   ///< Children (-1: leaf). Children always have larger ids than their parent.
    int32_t right = -1;
  };

  struct Closest {
    double distance;   ///< |q - point|, or the cap when nothing is closer.
    Point3d point;     ///< Nearest surface point (valid when triangle != kNone).
    uint32_t triangle; ///< Its triangle, kNone when no triangle is closer than the cap.
  };

  struct Hit {
    double s;          ///< Segment parameter in [0, 1] of the first hit.
    Point3d point;     ///< a + s (b - a).
    uint32_t triangle; ///< kNone: no hit.
  };

  TriangleBvh() = default;
  /// Keeps the vertices and triangles (3 indices per triangle, all in range; the caller validates).
  TriangleBvh(std::vector<Point3d> vertices, std::vector<uint32_t> triangles);

  /// New positions for the same vertices (xyz per vertex, as many as before): every box is recomputed bottom-up,
  /// the tree's shape is kept. No allocation.
  void refit(std::span<const Real> xyz);

  /// Self-collision's refit: the triangles' boxes are given (`lo`, `hi`: one per triangle, by triangle index; the
  /// caller's swept and padded boxes), and the nodes' boxes follow. Same tree, no allocation. These boxes are
  /// forEachOverlappingPair's alone: the vertices, the nodes' lo/hi and what closestPoint and firstHit test are kept.
  void refitTriangleBoxes(std::span<const Vec3> lo, std::span<const Vec3> hi);

  /// Calls visit(a, b) once for every unordered pair of distinct triangles whose boxes overlap (self-collision's
  /// broad phase: one walk of the tree against itself instead of one query per element), in a fixed order. The
  /// boxes are refitTriangleBoxes' (which must have been called).
  template <class Visit>
  void forEachOverlappingPair(Visit visit) const {
    forEachOverlappingPair(visit, [](int32_t, int32_t) { return false; });
  }

  /// The same, except that no pair is visited between the triangles of nodes a and b (a == b: inside node a) when
  /// skip(a, b) is true for them, asked of every node pair the walk reaches with overlapping boxes (the normal-cone
  /// cull).
  template <class Visit, class Skip>
  void forEachOverlappingPair(Visit visit, Skip skip) const {
    if (!nodes_.empty()) forEachOverlappingPairBelow({0, 0}, visit, skip);
  }

  /// Two nodes whose triangles are paired (a == b: a node's triangles with each other).
  struct NodePair {
    int32_t a, b;
  };

  /// The part of the walk below `start`: what forEachOverlappingPair visits there, in the same order.
  template <class Visit, class Skip>
  void forEachOverlappingPairBelow(NodePair start, Visit visit, Skip skip) const {
    NodePair stack[kPairStack];
    int top = 0;
    stack[top++] = start;
    const PackedBox* box = packedTriangleBoxes_.data();
    // The triangle pairs of two leaves (of one leaf with itself: each pair once). Between two leaves, only the
    // triangles that reach into the other leaf's box are paired: neighbouring leaves overlap at their borders only.
    auto leafPairs = [&](const Node& a, const Node& b) {
      if (&a == &b) {
        for (uint32_t i = a.first; i < a.first + a.count; ++i) {
          for (uint32_t j = i + 1; j < a.first + a.count; ++j) {
            if (packedOverlap(box[i], box[j])) visit(order_[i], order_[j]);
          }
        }
        return;
      }
      const PackedBox& aBox = packedNodeBoxes_[size_t(&a - nodes_.data())];
      const PackedBox& bBox = packedNodeBoxes_[size_t(&b - nodes_.data())];
      uint32_t reaching[kLeafSize];
      uint32_t m = 0;
      for (uint32_t j = b.first; j < b.first + b.count; ++j) {
        if (packedOverlap(box[j], aBox)) reaching[m++] = j;
      }
      if (m == 0) return;
      for (uint32_t i = a.first; i < a.first + a.count; ++i) {
        if (!packedOverlap(box[i], bBox)) continue;
        for (uint32_t q = 0; q < m; ++q) {
          const uint32_t j = reaching[q];
          if (packedOverlap(box[i], box[j])) visit(order_[i], order_[j]);
        }
      }
    };
    while (top > 0) {
      const NodePair pair = stack[--top];
      const Node& a = nodes_[pair.a];
      const Node& b = nodes_[pair.b];
      if (pair.a != pair.b && !packedOverlap(packedNodeBoxes_[size_t(pair.a)], packedNodeBoxes_[size_t(pair.b)])) continue;
      if (skip(pair.a, pair.b)) continue;
      if (a.left < 0 && b.left < 0) {
        leafPairs(a, b);
      } else {
        NodePair next[3];
        const int n = splitPair(pair, next);
        for (int k = n; k-- > 0;) stack[top++] = next[k];  // popped in next's order
      }
    }
  }

  /// Cuts the walk into parts to share out: up to `room` node pairs at `out` (returns how many), in walk order, such
  /// that forEachOverlappingPairBelow over each, one after another, visits what forEachOverlappingPair visits, in
  /// the same order. The walk is expanded breadth-first, a level at a time in order, until at least `wanted` pairs
  /// wait or none splits; `scratch` needs room too. skip is asked as the walk asks it (so it must not change).
  template <class Skip>
  size_t splitOverlappingPairWalk(Skip skip, size_t wanted, NodePair* out, NodePair* scratch, size_t room) const {
    if (nodes_.empty() || room == 0) return 0;
    size_t count = 1;
    out[0] = {0, 0};
    while (count < wanted) {
      size_t next = 0;
      bool split = false;
      for (size_t k = 0; k < count; ++k) {
        const NodePair pair = out[k];
        const Node& a = nodes_[pair.a];
        const Node& b = nodes_[pair.b];
        // Room for this pair's children and one slot for each pair still to come: else keep the rest as they are.
        if ((a.left < 0 && b.left < 0) || next + 3 + (count - k - 1) > room) {
          scratch[next++] = pair;
          continue;
        }
        if (pair.a != pair.b && !packedOverlap(packedNodeBoxes_[size_t(pair.a)], packedNodeBoxes_[size_t(pair.b)])) continue;
        if (skip(pair.a, pair.b)) continue;
        next += size_t(splitPair(pair, scratch + next));
        split = true;
      }
      std::copy(scratch, scratch + next, out);
      count = next;
      if (!split || count == 0) break;
    }
    return count;
  }

  Closest closestPoint(const Point3d& q, double cap) const;
  Hit firstHit(const Point3d& a, const Point3d& b) const;

  const std::vector<Node>& nodes() const { return nodes_; }
  uint32_t triangleAt(uint32_t k) const { return order_[k]; }  ///< The k-th triangle in node order.
  const uint32_t* triangle(uint32_t t) const { return &f_[3 * size_t(t)]; }
  const Point3d& vertex(uint32_t i) const { return v_[i]; }
  const std::vector<Point3d>& vertices() const { return v_; }
  const std::vector<uint32_t>& triangles() const { return f_; }
  uint32_t triangleCount() const { return uint32_t(f_.size() / 3); }
  /// (b - a) × (c - a) of triangle t, not normalized.
  Point3d areaNormal(uint32_t t) const;

 private:
  /// A float box as two 4-lane rows, lane 3 zero in both, so that one compare per side tests all three axes.
  struct alignas(16) PackedBox {
    float lo[4];
    float hi[4];
  };
  /// The node pairs the walk goes on with below `pair` (not two leaves), in the order it visits them: a node against
  /// itself gives each child against itself and then the two children; two nodes split the bigger one (a leaf never
  /// splits). Returns how many (2 or 3).
  int splitPair(NodePair pair, NodePair* out) const {
    const Node& a = nodes_[pair.a];
    const Node& b = nodes_[pair.b];
    if (pair.a == pair.b) {
      out[0] = {a.left, a.left}, out[1] = {a.right, a.right}, out[2] = {a.left, a.right};
      return 3;
    }
    const bool splitA = b.left < 0 || (a.left >= 0 && a.count >= b.count);
    const Node& split = splitA ? a : b;
    const int32_t other = splitA ? pair.b : pair.a;
    out[0] = {split.left, other}, out[1] = {split.right, other};
    return 2;
  }
  /// Whether two packed boxes overlap (touching counts), as boxesOverlap.
  static bool packedOverlap(const PackedBox& a, const PackedBox& b) {
    return all((Float4::load(a.lo) <= Float4::load(b.hi)) & (Float4::load(b.lo) <= Float4::load(a.hi)));
  }

  int32_t build(uint32_t first, uint32_t count);
  void fitLeaf(Node& node) const;
  void fitTriangleBoxes();

  std::vector<Point3d> v_;
  std::vector<uint32_t> f_;      // 3 vertex indices per triangle
  std::vector<uint32_t> order_;  // triangle indices, permuted so that each node's triangles are contiguous
  std::vector<Node> nodes_;      // preorder: node 0 is the root
  std::vector<Point3d> boxLo_, boxHi_;  // box of triangleAt(k)'s vertices, by k: a cheap test before the exact one
  std::vector<PackedBox> packedTriangleBoxes_;  // refitTriangleBoxes' boxes of triangleAt(k), by k
  std::vector<PackedBox> packedNodeBoxes_;      // and of the nodes, by node id
};

}  // namespace pbd

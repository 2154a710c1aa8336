#include "world/fold_free_cull.h"

#include <algorithm>

#include "world/cloth_self_collision.h"

namespace pbd {

namespace {

Point3d pointAt(std::span<const Real> xyz, uint32_t i) {
  return Point3d(xyz[3 * size_t(i)], xyz[3 * size_t(i) + 1], xyz[3 * size_t(i) + 2]);
}

/// Whether some triangle of node a shares an edge with one of node b (disjoint nodes). Walks the smaller node.
bool nodesShareEdge(const SelfCollidingSurface& s, const TriangleBvh::Node& a, const TriangleBvh::Node& b) {
  const TriangleBvh::Node& walked = a.count <= b.count ? a : b;
  const TriangleBvh::Node& other = a.count <= b.count ? b : a;
  for (uint32_t k = walked.first; k < walked.first + walked.count; ++k) {
    for (int j = 0; j < 3; ++j) {
      const uint32_t e = s.triangleEdges[3 * size_t(s.bvh.triangleAt(k)) + j];
      for (uint32_t i = s.edgeTriangleStart[e]; i < s.edgeTriangleStart[e + 1]; ++i) {
        const uint32_t at = s.edgeTriangleAt[i];
        if (at >= other.first && at < other.first + other.count) return true;
      }
    }
  }
  return false;
}

}  // namespace

void buildFoldFreeIndex(SelfCollidingSurface& s) {
  const TriangleBvh& bvh = s.bvh;
  const uint32_t count = bvh.triangleCount();
  const size_t edgeCount = s.edges.size() / 2;
  s.edgeTriangleStart.assign(edgeCount + 1, 0);
  s.edgeTriangleAt.resize(3 * size_t(count));
  for (uint32_t e : s.triangleEdges) ++s.edgeTriangleStart[e + 1];
  for (size_t e = 0; e < edgeCount; ++e) s.edgeTriangleStart[e + 1] += s.edgeTriangleStart[e];
  std::vector<uint32_t> fill(s.edgeTriangleStart.begin(), s.edgeTriangleStart.end() - 1);
  for (uint32_t k = 0; k < count; ++k) {
    for (int j = 0; j < 3; ++j) s.edgeTriangleAt[fill[s.triangleEdges[3 * size_t(bvh.triangleAt(k)) + j]]++] = k;
  }
  // A union-find over each node's own triangles: O(triangles x depth) in all.
  std::vector<uint32_t> parent(count);
  auto root = [&](uint32_t k) {
    while (parent[k] != k) k = parent[k] = parent[parent[k]];
    return k;
  };
  s.nodeConnected.assign(bvh.nodes().size(), 0);
  for (size_t id = 0; id < bvh.nodes().size(); ++id) {
    const TriangleBvh::Node& node = bvh.nodes()[id];
    const uint32_t end = node.first + node.count;
    for (uint32_t k = node.first; k < end; ++k) parent[k] = k;
    uint32_t components = node.count;
    for (uint32_t k = node.first; k < end; ++k) {
      for (int j = 0; j < 3; ++j) {
        const uint32_t e = s.triangleEdges[3 * size_t(bvh.triangleAt(k)) + j];
        for (uint32_t i = s.edgeTriangleStart[e]; i < s.edgeTriangleStart[e + 1]; ++i) {
          const uint32_t at = s.edgeTriangleAt[i];
          if (at < node.first || at >= end) continue;
          const uint32_t ra = root(k), rb = root(at);
          if (ra != rb) parent[std::max(ra, rb)] = std::min(ra, rb), --components;
        }
      }
    }
    s.nodeConnected[id] = components == 1;
  }
  s.nodeCones.assign(bvh.nodes().size(), NormalCone{});
}

void fitNormalCones(SelfCollidingSurface& s, std::span<const Real> x, std::span<const Real> p, uint32_t first) {
  const std::vector<TriangleBvh::Node>& nodes = s.bvh.nodes();
  for (size_t id = nodes.size(); id-- > 0;) {  // children have larger ids than their parent
    const TriangleBvh::Node& node = nodes[id];
    if (node.left >= 0) {
      s.nodeCones[id] = mergeNormalCones(s.nodeCones[node.left], s.nodeCones[node.right]);
      continue;
    }
    Point3d normals[3 * TriangleBvh::kLeafSize];
    for (uint32_t k = 0; k < node.count; ++k) {
      const uint32_t* f = s.bvh.triangle(s.bvh.triangleAt(node.first + k));
      Point3d start[3], end[3];
      for (int j = 0; j < 3; ++j) start[j] = pointAt(x, first + f[j]), end[j] = pointAt(p, first + f[j]);
      sweptNormalCoefficients(start, end, &normals[3 * k]);
    }
    s.nodeCones[id] = coneOfNormals(std::span<const Point3d>(normals, 3 * size_t(node.count)));
  }
}

bool foldFree(const SelfCollidingSurface& s, int32_t a, int32_t b) {
  if (!s.nodeConnected[a] || !s.nodeConnected[b]) return false;
  if (a == b) return s.nodeCones[a].halfAngle < kSelfCullHalfAngle;
  if (mergeNormalCones(s.nodeCones[a], s.nodeCones[b]).halfAngle >= kSelfCullHalfAngle) return false;
  return nodesShareEdge(s, s.bvh.nodes()[a], s.bvh.nodes()[b]);
}

}  // namespace pbd

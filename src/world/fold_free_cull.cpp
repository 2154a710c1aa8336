#include "world/fold_free_cull.h"

#include <algorithm>
#include <limits>

#include "world/cloth_self_collision.h"

namespace pbd {

namespace {

/// "No node's patch": patchOf's initial value.
constexpr uint32_t kNoPatch = std::numeric_limits<uint32_t>::max();

/// visit(at) for every triangle position sharing an edge with the triangle at position k (k itself excluded), until
/// visit returns true; returns whether one did.
template <class Visit>
bool anyEdgeNeighbour(const SelfCollidingSurface& s, uint32_t k, Visit visit) {
  for (int j = 0; j < 3; ++j) {
    const uint32_t e = s.triangleEdges[3 * size_t(s.bvh.triangleAt(k)) + j];
    for (uint32_t i = s.edgeTriangleStart[e]; i < s.edgeTriangleStart[e + 1]; ++i) {
      if (s.edgeTriangleAt[i] != k && visit(s.edgeTriangleAt[i])) return true;
    }
  }
  return false;
}

/// visit(at) for every triangle position sharing an edge with the triangle at position k (k itself excluded).
template <class Visit>
void forEachEdgeNeighbour(const SelfCollidingSurface& s, uint32_t k, Visit visit) {
  anyEdgeNeighbour(s, k, [&](uint32_t at) {
    visit(at);
    return false;
  });
}

/// Whether some triangle of node a shares an edge with one of node b (disjoint nodes): two leaves look it up, other
/// nodes walk the smaller node's triangles.
bool nodesShareEdge(const SelfCollidingSurface& s, int32_t aId, int32_t bId) {
  const TriangleBvh::Node& a = s.bvh.nodes()[size_t(aId)];
  const TriangleBvh::Node& b = s.bvh.nodes()[size_t(bId)];
  if (a.left < 0 && b.left < 0) {
    const uint32_t* begin = s.leafNeighbourAt.data() + s.leafNeighbourStart[size_t(aId)];
    const uint32_t* end = s.leafNeighbourAt.data() + s.leafNeighbourStart[size_t(aId) + 1];
    return std::find(begin, end, uint32_t(bId)) != end;
  }
  const TriangleBvh::Node& walked = a.count <= b.count ? a : b;
  const TriangleBvh::Node& other = a.count <= b.count ? b : a;
  for (uint32_t k = walked.first; k < walked.first + walked.count; ++k) {
    if (anyEdgeNeighbour(s, k, [&](uint32_t at) { return at >= other.first && at < other.first + other.count; })) {
      return true;
    }
  }
  return false;
}

/// shortestBridge's scratch, by triangle position: reused across nodes (a stamp per search, so nothing is cleared).
struct BridgeSearch {
  explicit BridgeSearch(uint32_t count) : stamp(count, 0), from(count), previous(count), depth(count) {}
  std::vector<uint32_t> stamp;     ///< == current: reached by this search.
  std::vector<uint32_t> from;      ///< The component (union-find root) the search reached it from.
  std::vector<uint32_t> previous;  ///< The chain's triangle before it, kNoPatch at a component's edge.
  std::vector<uint32_t> depth;     ///< Triangles on the chain up to and including it.
  std::vector<uint32_t> queue;
  uint32_t current = 0;
};

/// The shortest chain (at most `room` triangles) of triangles outside `patch` that joins two of its components,
/// triangles in search order; empty when there is none that short. The patch is node `node`'s triangles and its
/// bridges so far (from s.nodeBridgeAt[s.nodeBridgeStart[node]] on); root(k): k's component.
template <class Root>
std::vector<uint32_t> shortestBridge(const SelfCollidingSurface& s, size_t node, const std::vector<uint32_t>& patchOf,
                                     Root& root, uint32_t room, BridgeSearch& q) {
  if (room == 0) return {};
  const uint32_t patch = uint32_t(node);
  ++q.current;
  q.queue.clear();
  auto chainTo = [&](uint32_t at, std::vector<uint32_t>& chain) {
    for (; at != kNoPatch; at = q.previous[at]) chain.push_back(at);
  };
  auto reach = [&](uint32_t at, uint32_t component, uint32_t previous, uint32_t depth) {
    q.stamp[at] = q.current, q.from[at] = component, q.previous[at] = previous, q.depth[at] = depth;
    q.queue.push_back(at);
  };
  const TriangleBvh::Node& n = s.bvh.nodes()[node];
  const size_t bridges = s.nodeBridgeAt.size() - s.nodeBridgeStart[node];
  for (size_t m = 0; m < n.count + bridges; ++m) {  // every outside edge neighbour of the patch, at depth 1
    const uint32_t k = m < n.count ? n.first + uint32_t(m) : s.nodeBridgeAt[s.nodeBridgeStart[node] + (m - n.count)];
    const uint32_t component = root(k);
    std::vector<uint32_t> found;
    forEachEdgeNeighbour(s, k, [&](uint32_t at) {
      if (!found.empty() || patchOf[at] == patch) return;
      if (q.stamp[at] != q.current) reach(at, component, kNoPatch, 1);
      else if (q.from[at] != component) found.push_back(at);  // one triangle touching two components
    });
    if (!found.empty()) return found;
  }
  for (size_t head = 0; head < q.queue.size(); ++head) {
    const uint32_t at = q.queue[head];
    std::vector<uint32_t> chain;
    forEachEdgeNeighbour(s, at, [&](uint32_t n) {
      if (!chain.empty() || patchOf[n] == patch) return;
      if (q.stamp[n] != q.current) {
        if (q.depth[at] < room) reach(n, q.from[at], at, q.depth[at] + 1);
      } else if (q.from[n] != q.from[at] && q.depth[at] + q.depth[n] <= room) {
        chainTo(at, chain);
        chainTo(n, chain);
      }
    });
    if (!chain.empty()) return chain;
  }
  return {};
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
  // Per node, a union-find over its triangles' positions (O(triangles x depth) in all), then bridges.
  std::vector<uint32_t> parent(count);
  std::vector<uint32_t> patchOf(count, kNoPatch);  // the node whose patch (triangles + bridges) holds a position
  auto root = [&](uint32_t k) {
    while (parent[k] != k) k = parent[k] = parent[parent[k]];
    return k;
  };
  // Unites k with every edge neighbour in the current patch; returns how many components that merged.
  auto unite = [&](uint32_t k, uint32_t patch) {
    uint32_t merged = 0;
    forEachEdgeNeighbour(s, k, [&](uint32_t at) {
      if (patchOf[at] != patch) return;
      const uint32_t ra = root(k), rb = root(at);
      if (ra != rb) parent[std::max(ra, rb)] = std::min(ra, rb), ++merged;
    });
    return merged;
  };
  BridgeSearch search(count);
  const size_t nodeCount = bvh.nodes().size();
  s.nodeConnected.assign(nodeCount, 0);
  s.nodeBridgeStart.assign(nodeCount + 1, 0);
  s.nodeBridgeAt.clear();
  for (size_t id = 0; id < nodeCount; ++id) {
    const TriangleBvh::Node& node = bvh.nodes()[id];
    const uint32_t end = node.first + node.count, patch = uint32_t(id);
    for (uint32_t k = node.first; k < end; ++k) parent[k] = k, patchOf[k] = patch;
    uint32_t components = node.count;
    for (uint32_t k = node.first; k < end; ++k) components -= unite(k, patch);
    // Bridges: the shortest chains of triangles outside the node that join two of its components through shared
    // edges (a breadth-first search grown from every component at once; where two searches meet, or one reaches
    // another component, the two half-chains are the bridge), until it is one patch or kMaxBridges would not do.
    while (components > 1) {
      const uint32_t room = kMaxBridges - (uint32_t(s.nodeBridgeAt.size()) - s.nodeBridgeStart[id]);
      const std::vector<uint32_t> chain = shortestBridge(s, id, patchOf, root, room, search);
      if (chain.empty()) break;
      for (uint32_t at : chain) {
        parent[at] = at, patchOf[at] = patch;
        components += 1 - unite(at, patch);
        s.nodeBridgeAt.push_back(at);
      }
    }
    s.nodeConnected[id] = components == 1;
    if (components > 1) s.nodeBridgeAt.resize(s.nodeBridgeStart[id]);  // bridges that do not connect are no use
    s.nodeBridgeStart[id + 1] = uint32_t(s.nodeBridgeAt.size());
  }
  s.nodeCones.assign(bvh.nodes().size(), NormalCone{});
  // Each leaf's edge-sharing leaves: the cull asks about leaf pairs most.
  std::vector<uint32_t> leafOf(count);
  for (size_t id = 0; id < nodeCount; ++id) {
    const TriangleBvh::Node& node = bvh.nodes()[id];
    if (node.left < 0) std::fill_n(leafOf.begin() + node.first, node.count, uint32_t(id));
  }
  s.leafNeighbourStart.assign(nodeCount + 1, 0);
  s.leafNeighbourAt.clear();
  for (size_t id = 0; id < nodeCount; ++id) {
    const TriangleBvh::Node& node = bvh.nodes()[id];
    const size_t begin = s.leafNeighbourAt.size();
    for (uint32_t k = node.first; node.left < 0 && k < node.first + node.count; ++k) {
      forEachEdgeNeighbour(s, k, [&](uint32_t at) {
        if (leafOf[at] != id) s.leafNeighbourAt.push_back(leafOf[at]);
      });
    }
    std::sort(s.leafNeighbourAt.begin() + std::ptrdiff_t(begin), s.leafNeighbourAt.end());
    s.leafNeighbourAt.erase(std::unique(s.leafNeighbourAt.begin() + std::ptrdiff_t(begin), s.leafNeighbourAt.end()),
                            s.leafNeighbourAt.end());
    s.leafNeighbourStart[id + 1] = uint32_t(s.leafNeighbourAt.size());
  }
}

void fitNormalCones(SelfCollidingSurface& s, std::span<const Real> x, std::span<const Real> p, uint32_t first,
                    TaskSystem& tasks, double cosWidest) {
  const std::vector<TriangleBvh::Node>& nodes = s.bvh.nodes();
  static_assert(3 * (TriangleBvh::kLeafSize + kMaxBridges) <= kMaxConeNormals, "a leaf and its bridges fit one cone");
  // The swept normals of node id's bridges, then of `extra` more triangles from `position` on, into one cone.
  auto coneOf = [&](size_t id, uint32_t position, uint32_t extra) {
    Point3d normals[3 * (TriangleBvh::kLeafSize + kMaxBridges)];
    uint32_t normalCount = 0;
    auto addSweptNormals = [&](uint32_t at) {
      const uint32_t* f = s.bvh.triangle(s.bvh.triangleAt(at));
      Point3d start[3], end[3];
      for (int j = 0; j < 3; ++j) start[j] = pointAt(x, first + f[j]), end[j] = pointAt(p, first + f[j]);
      sweptNormalCoefficients(start, end, &normals[normalCount]);
      normalCount += 3;
    };
    for (uint32_t b = s.nodeBridgeStart[id]; b < s.nodeBridgeStart[id + 1]; ++b) addSweptNormals(s.nodeBridgeAt[b]);
    for (uint32_t k = position; k < position + extra; ++k) addSweptNormals(k);
    return coneOfNormals(std::span<const Point3d>(normals, normalCount), cosWidest);
  };
  // Leaves from their own triangles and bridges: independent of each other, so split across threads (most of the
  // work; the same cones for any split). Then the inner nodes bottom-up (children have larger ids than their
  // parent), each from its children's cones, widened by its own bridges' normals.
  auto leaves = [&](size_t begin, size_t end) {
    for (size_t id = begin; id < end; ++id) {
      if (nodes[id].left < 0) s.nodeCones[id] = coneOf(id, nodes[id].first, nodes[id].count);
    }
  };
  tasks.parallelFor(nodes.size(), kNodesPerConeTask, leaves);
  for (size_t id = nodes.size(); id-- > 0;) {
    const TriangleBvh::Node& node = nodes[id];
    if (node.left < 0) continue;
    const NormalCone children = mergeNormalCones(s.nodeCones[node.left], s.nodeCones[node.right], cosWidest);
    if (s.nodeBridgeStart[id] == s.nodeBridgeStart[id + 1] || !children.bounded()) {
      s.nodeCones[id] = children;
      continue;
    }
    s.nodeCones[id] = mergeNormalCones(children, coneOf(id, 0, 0), cosWidest);
  }
}

bool foldFree(const SelfCollidingSurface& s, int32_t a, int32_t b, double cosWidest) {
  if (!s.nodeConnected[a] || !s.nodeConnected[b]) return false;
  if (a == b) return s.nodeCones[a].bounded();  // the cones are only kept below the cull's angle
  if (!mergeNormalCones(s.nodeCones[a], s.nodeCones[b], cosWidest).bounded()) return false;
  return nodesShareEdge(s, a, b);
}

}  // namespace pbd

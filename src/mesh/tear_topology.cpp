#include "mesh/tear_topology.h"

#include <algorithm>
#include <numeric>
#include <tuple>

namespace pbd::mesh {
namespace {

constexpr uint32_t kNone = ~0u;

/// Every triangle side as (lower vertex, higher vertex, 3 t + k), sorted: equal sides are neighbours in the list.
std::vector<std::array<uint32_t, 3>> sortedSides(const std::vector<uint32_t>& corners) {
  std::vector<std::array<uint32_t, 3>> sides(corners.size());
  for (size_t c = 0; c < corners.size(); ++c) {
    const uint32_t a = corners[c], b = corners[c - c % 3 + (c + 1) % 3];
    sides[c] = {std::min(a, b), std::max(a, b), uint32_t(c)};
  }
  std::sort(sides.begin(), sides.end());
  return sides;
}

/// Per vertex (count of them), the corners (3 t + k) on it, in increasing order (compressed rows).
void cornersByVertex(const std::vector<uint32_t>& vertexOfCorner, size_t count, std::vector<uint32_t>& first,
                     std::vector<uint32_t>& corners) {
  first.assign(count + 1, 0);
  for (uint32_t v : vertexOfCorner) ++first[v + 1];
  std::partial_sum(first.begin(), first.end(), first.begin());
  corners.resize(vertexOfCorner.size());
  std::vector<uint32_t> at(first.begin(), first.end() - 1);
  for (size_t c = 0; c < vertexOfCorner.size(); ++c) corners[at[vertexOfCorner[c]]++] = uint32_t(c);
}

}  // namespace

size_t markTorn(TornMesh& mesh, std::span<const uint32_t> pairs) {
  const auto sides = sortedSides(mesh.triangles);
  std::vector<std::pair<size_t, size_t>> found;  // per pair, its run in `sides`
  for (size_t k = 0; 2 * k + 1 < pairs.size(); ++k) {
    const uint32_t a = std::min(pairs[2 * k], pairs[2 * k + 1]), b = std::max(pairs[2 * k], pairs[2 * k + 1]);
    const auto lo = std::lower_bound(sides.begin(), sides.end(), std::array<uint32_t, 3>{a, b, 0});
    const auto hi = std::upper_bound(sides.begin(), sides.end(), std::array<uint32_t, 3>{a, b, kNone});
    if (lo == hi || a == b) return k;
    found.push_back({size_t(lo - sides.begin()), size_t(hi - sides.begin())});
  }
  for (auto [lo, hi] : found) {
    for (size_t s = lo; s < hi; ++s) mesh.tornSides[sides[s][2] / 3] |= uint8_t(1u << (sides[s][2] % 3));
  }
  return found.size();
}

std::vector<uint32_t> splitVertices(TornMesh& mesh) {
  std::vector<uint32_t> first, corners;
  const uint32_t count = uint32_t(mesh.origin.size());
  cornersByVertex(mesh.triangles, count, first, corners);
  std::vector<uint32_t> sources, parent, untorn;  // per corner of v: union-find parent; its untorn neighbours
  auto find = [&](uint32_t a) {
    while (parent[a] != a) a = parent[a] = parent[parent[a]];
    return a;
  };
  for (uint32_t v = 0; v < count; ++v) {
    const uint32_t n = first[v + 1] - first[v];
    if (n < 2) continue;
    const uint32_t* fan = corners.data() + first[v];
    // Each corner's two sides touch v: side k (to the next corner) and side k + 2 (from the previous one). Two
    // triangles join when both hold an untorn side from v to the same vertex.
    untorn.assign(2 * size_t(n), kNone);
    for (uint32_t a = 0; a < n; ++a) {
      const uint32_t t = fan[a] / 3, k = fan[a] % 3;
      if (!(mesh.tornSides[t] >> k & 1)) untorn[2 * a] = mesh.triangles[3 * t + (k + 1) % 3];
      if (!(mesh.tornSides[t] >> ((k + 2) % 3) & 1)) untorn[2 * a + 1] = mesh.triangles[3 * t + (k + 2) % 3];
    }
    parent.resize(n);
    std::iota(parent.begin(), parent.end(), 0u);
    for (uint32_t a = 0; a < n; ++a) {
      for (uint32_t b = a + 1; b < n; ++b) {
        const bool joined = [&] {
          for (int s = 0; s < 2; ++s)
            for (int r = 0; r < 2; ++r)
              if (untorn[2 * a + s] != kNone && untorn[2 * a + s] == untorn[2 * b + r]) return true;
          return false;
        }();
        if (joined) parent[std::max(find(a), find(b))] = std::min(find(a), find(b));
      }
    }
    // The fan of corner 0 (the lowest triangle) keeps v; the others, in order of their lowest triangle, get new ones.
    std::vector<uint32_t> copyOfRoot(n, kNone);
    for (uint32_t a = 0; a < n; ++a) {
      const uint32_t root = find(a);
      if (copyOfRoot[root] == kNone) {
        copyOfRoot[root] = root == 0 ? v : uint32_t(mesh.origin.size());
        if (root != 0) mesh.origin.push_back(mesh.origin[v]), sources.push_back(v);
      }
      mesh.triangles[fan[a]] = copyOfRoot[root];
    }
  }
  return sources;
}

TearPatches::TearPatches(const TornMesh& mesh, std::span<const uint32_t> sources)
    : mesh_(mesh), sources_(sources), firstNew_(uint32_t(mesh.origin.size() - sources.size())) {
  const size_t triangles = mesh.triangles.size() / 3;
  std::vector<uint32_t> originOfCorner(mesh.triangles.size());
  for (size_t c = 0; c < mesh.triangles.size(); ++c) originOfCorner[c] = mesh.origin[mesh.triangles[c]];
  cornersByVertex(originOfCorner, mesh.origin.size(), originFirst_, originTriangles_);
  for (uint32_t& c : originTriangles_) c /= 3;
  // The untorn mesh's neighbours: sides with the same two origins (a side shared by more than two triangles joins
  // them in a ring, which keeps them connected).
  untornNeighbour_.assign(mesh.triangles.size(), kNone);
  const auto sides = sortedSides(originOfCorner);
  for (size_t s = 0; s < sides.size();) {
    size_t e = s + 1;
    while (e < sides.size() && sides[e][0] == sides[s][0] && sides[e][1] == sides[s][1]) ++e;
    if (e - s > 1) {
      for (size_t r = s; r < e; ++r) untornNeighbour_[sides[r][2]] = sides[r + 1 < e ? r + 1 : s][2] / 3;
    }
    s = e;
  }
  visitMark_.assign(triangles, 0);
  root_.assign(triangles, 0);
}

void TearPatches::limitTo(std::span<const uint32_t> changed) {
  const size_t n = mesh_.origin.size();
  std::vector<uint32_t> first, corners;
  cornersByVertex(mesh_.triangles, n, first, corners);
  near_.assign(n, 0);
  std::vector<uint32_t> layer, next;
  for (uint32_t t : changed)
    for (int k = 0; k < 3; ++k)
      if (!near_[corner(t, k)]) near_[corner(t, k)] = 1, layer.push_back(corner(t, k));
  // Breadth-first along the triangles' edges (a vertex's neighbours are the corners of its triangles).
  for (uint32_t step = 0; step < kMaxSteps + 2 && !layer.empty(); ++step) {
    next.clear();
    for (uint32_t v : layer)
      for (uint32_t c = first[v]; c < first[v + 1]; ++c)
        for (int k = 0; k < 3; ++k) {
          const uint32_t u = corner(corners[c] / 3, k);
          if (!near_[u]) near_[u] = 1, next.push_back(u);
        }
    layer.swap(next);
  }
}

uint32_t TearPatches::find(uint32_t t) {
  while (root_[t] != t) t = root_[t] = root_[root_[t]];
  return t;
}

size_t TearPatches::instances(std::span<const uint32_t> p, std::vector<std::array<uint32_t, 4>>& out) {
  const auto asIs = [&] {
    std::array<uint32_t, 4> same{};
    std::copy(p.begin(), p.end(), same.begin());
    out.push_back(same);
    return size_t(1);
  };
  if (!near_.empty() && !near_[p[0]]) return asIs();  // nothing changed within its reach
  const uint32_t o0 = mesh_.origin[p[0]];
  if (originFirst_[o0] == originFirst_[o0 + 1]) return asIs();  // on no triangle
  // The patch: breadth-first through the untorn mesh from the triangles on p[0]'s origin, layer by layer, until
  // every p[m]'s origin is a corner of a visited triangle.
  ++mark_;
  patch_.clear(), layer_.clear();
  for (uint32_t k = originFirst_[o0]; k < originFirst_[o0 + 1]; ++k) {
    const uint32_t t = originTriangles_[k];
    if (visitMark_[t] != mark_) visitMark_[t] = mark_, layer_.push_back(t);
  }
  uint32_t reached = 0;  // bit m: p[m]'s origin is a corner of the patch
  const uint32_t all = (1u << p.size()) - 1;
  for (uint32_t step = 0;; ++step) {
    for (uint32_t t : layer_) {
      patch_.push_back(t);
      for (int k = 0; k < 3; ++k)
        for (size_t m = 0; m < p.size(); ++m)
          if (mesh_.origin[corner(t, k)] == mesh_.origin[p[m]]) reached |= 1u << m;
    }
    if (reached == all) break;
    if (step == kMaxSteps) return asIs();
    next_.clear();
    for (uint32_t t : layer_) {
      for (int k = 0; k < 3; ++k) {
        const uint32_t u = untornNeighbour_[3 * size_t(t) + k];
        if (u != kNone && visitMark_[u] != mark_) visitMark_[u] = mark_, next_.push_back(u);
      }
    }
    layer_.swap(next_);
  }
  // Its pieces: triangles of the patch joined through sides that are untorn on both and still share both vertices.
  std::sort(patch_.begin(), patch_.end());
  for (uint32_t t : patch_) root_[t] = t;
  for (uint32_t t : patch_) {
    for (int k = 0; k < 3; ++k) {
      const uint32_t u = untornNeighbour_[3 * size_t(t) + k];
      if (u == kNone || visitMark_[u] != mark_ || (mesh_.tornSides[t] >> k & 1)) continue;
      const uint32_t a = corner(t, k), b = corner(t, (k + 1) % 3);
      for (int r = 0; r < 3; ++r) {
        const uint32_t c = corner(u, r), d = corner(u, (r + 1) % 3);
        if (((c == a && d == b) || (c == b && d == a)) && !(mesh_.tornSides[u] >> r & 1)) {
          const uint32_t x = find(t), y = find(u);
          root_[std::max(x, y)] = std::min(x, y);
        }
      }
    }
  }
  // One instance per piece (in order of its lowest triangle) that holds, for each m, p[m] or a vertex split from it.
  const size_t before = out.size();
  for (uint32_t piece : patch_) {
    if (find(piece) != piece) continue;
    std::array<uint32_t, 4> instance{};
    uint32_t found = 0;
    for (uint32_t t : patch_) {
      if (find(t) != piece) continue;
      for (int k = 0; k < 3; ++k) {
        const uint32_t v = corner(t, k);
        for (size_t m = 0; m < p.size(); ++m)
          if (!(found >> m & 1) && lineage(v) == p[m]) instance[m] = v, found |= 1u << m;
      }
    }
    if (found == all && std::find(out.begin() + ptrdiff_t(before), out.end(), instance) == out.end())
      out.push_back(instance);
  }
  return out.size() - before;
}

uint32_t TearPatches::triangleOf(std::span<const uint32_t, 3> p) const {
  std::array<uint32_t, 3> want{p[0], p[1], p[2]};
  std::sort(want.begin(), want.end());
  const uint32_t o0 = mesh_.origin[p[0]];
  for (uint32_t k = originFirst_[o0]; k < originFirst_[o0 + 1]; ++k) {
    const uint32_t t = originTriangles_[k];
    std::array<uint32_t, 3> have{lineage(corner(t, 0)), lineage(corner(t, 1)), lineage(corner(t, 2))};
    std::sort(have.begin(), have.end());
    if (have == want) return t;
  }
  return kNone;
}

std::vector<uint32_t> TearPatches::pieces() const {
  std::vector<uint32_t> piece(mesh_.origin.size());
  std::iota(piece.begin(), piece.end(), 0u);
  auto find = [&](uint32_t a) {
    while (piece[a] != a) a = piece[a] = piece[piece[a]];
    return a;
  };
  for (size_t t = 0; 3 * t < mesh_.triangles.size(); ++t) {
    for (int k = 1; k < 3; ++k) {
      const uint32_t x = find(corner(uint32_t(t), 0)), y = find(corner(uint32_t(t), k));
      piece[std::max(x, y)] = std::min(x, y);
    }
  }
  for (uint32_t& v : piece) v = find(v);
  return piece;
}

}  // namespace pbd::mesh

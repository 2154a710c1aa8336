#include "mesh/surface_topology.h"

#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <sstream>
#include <string>
#include <vector>

#include "pbd/errors.h"
#include "base/checks.h"

namespace pbd::mesh {

namespace {

[[noreturn]] void reject(const std::string& message) { throw InvalidArgument(message); }

Eigen::Vector3d vertex(std::span<const Real> positions, uint32_t i) {
  return {positions[3 * i], positions[3 * i + 1], positions[3 * i + 2]};
}

std::string triangleName(const char* trianglesArg, size_t t) {
  std::ostringstream s;
  s << trianglesArg << '[' << 3 * t << ".." << 3 * t + 2 << ']';
  return s.str();
}

}  // namespace

std::optional<EdgeDefect> firstEdgeDefect(std::span<const uint32_t> triangles) {
  struct Edge {
    uint64_t key;  // (min << 32) | max
    uint32_t from, triangle;
  };
  const size_t nt = triangles.size() / 3;
  std::vector<Edge> edges;
  edges.reserve(3 * nt);
  for (size_t t = 0; t < nt; ++t) {
    for (int j = 0; j < 3; ++j) {
      const uint32_t a = triangles[3 * t + j], b = triangles[3 * t + (j + 1) % 3];
      edges.push_back({(uint64_t(std::min(a, b)) << 32) | std::max(a, b), a, uint32_t(t)});
    }
  }
  std::sort(edges.begin(), edges.end(), [](const Edge& x, const Edge& y) {
    return x.key < y.key || (x.key == y.key && x.triangle < y.triangle);
  });
  for (size_t i = 0; i < edges.size();) {
    size_t j = i;
    while (j < edges.size() && edges[j].key == edges[i].key) ++j;
    const uint32_t lo = uint32_t(edges[i].key >> 32), hi = uint32_t(edges[i].key);
    const size_t count = j - i;
    if (count != 2) return EdgeDefect{lo, hi, count, edges[i].triangle, edges[i].triangle, edges[i].from};
    if (edges[i].from == edges[i + 1].from) return EdgeDefect{lo, hi, 2, edges[i].triangle, edges[i + 1].triangle, edges[i].from};
    i = j;
  }
  return std::nullopt;
}

void requireTriangles(const char* fn, std::span<const Real> positions, std::span<const uint32_t> triangles,
                      const char* positionsArg, const char* trianglesArg, size_t minTriangles, const char* fewReason) {
  const std::string P = positionsArg, T = trianglesArg;
  if (positions.empty()) check::fail(fn, P, "must not be empty", "0 values");
  if (positions.size() % 3 != 0) check::fail(fn, P + ".size()", "must be a multiple of 3", positions.size());
  if (positions.size() / 3 > UINT32_MAX) check::fail(fn, P + ".size()", "is too large", positions.size());
  // Names are built only when a check fails: a per-frame caller (setColliderMeshVertices) allocates nothing here.
  for (size_t i = 0; i < positions.size(); ++i) {
    if (!std::isfinite(positions[i])) check::finite(fn, P + '[' + std::to_string(i) + ']', positions[i]);
  }
  if (triangles.size() % 3 != 0) check::fail(fn, T + ".size()", "must be a multiple of 3", triangles.size());
  if (triangles.size() < 3 * minTriangles) check::fail(fn, T, fewReason, std::to_string(triangles.size() / 3) + " triangles");
  const uint32_t nv = uint32_t(positions.size() / 3);
  for (size_t i = 0; i < triangles.size(); ++i) {
    if (triangles[i] >= nv) check::index(fn, T + '[' + std::to_string(i) + ']', triangles[i], nv);
  }
  const size_t nt = triangles.size() / 3;
  for (size_t t = 0; t < nt; ++t) {
    const uint32_t* f = &triangles[3 * t];
    auto got = [&] {
      std::ostringstream s;
      s << "vertices " << f[0] << ", " << f[1] << ", " << f[2];
      return s.str();
    };
    if (f[0] == f[1] || f[1] == f[2] || f[2] == f[0]) check::fail(fn, triangleName(T.c_str(), t), "repeats a vertex", got());
    const Eigen::Vector3d a = vertex(positions, f[0]), b = vertex(positions, f[1]), c = vertex(positions, f[2]);
    const double twiceArea = (b - a).cross(c - a).norm();
    const double longest = std::max({(b - a).squaredNorm(), (c - b).squaredNorm(), (a - c).squaredNorm()});
    if (!(twiceArea > 1e-7 * longest)) check::fail(fn, triangleName(T.c_str(), t), "is degenerate (zero area)", got());
  }
}

void requireClosedManifold(const char* fn, std::span<const Real> positions, std::span<const uint32_t> triangles,
                           const char* positionsArg, const char* trianglesArg) {
  const std::string T = trianglesArg;
  requireTriangles(fn, positions, triangles, positionsArg, trianglesArg, 4,
                   "must hold at least 4 triangles to enclose a volume");
  const uint32_t nv = uint32_t(positions.size() / 3);
  const size_t nt = triangles.size() / 3;

  if (const std::optional<EdgeDefect> e = firstEdgeDefect(triangles)) {
    std::ostringstream s;
    if (e->count != 2) {
      s << fn << ": " << T << " is not a closed manifold surface: edge (" << e->lo << ", " << e->hi << ") is shared by "
        << e->count << (e->count == 1 ? " triangle" : " triangles") << " (first: triangle " << e->triangle
        << "), every edge must be shared by exactly 2 (got " << e->count << ')';
    } else {
      s << fn << ": " << T << " are inconsistently oriented: edge (" << e->lo << ", " << e->hi << ") runs "
        << e->from << "->" << (e->from == e->lo ? e->hi : e->lo) << " in both triangle " << e->triangle
        << " and triangle " << e->otherTriangle << " (got the same direction twice)";
    }
    reject(s.str());
  }

  // Vertex fans: around vertex v, the corner of triangle (v, b, c) is followed by the corner whose triangle
  // continues across edge v–c, i.e. the one starting with v→c. One cycle through all corners = one fan.
  std::vector<uint32_t> start(nv + 1, 0);
  for (uint32_t i : triangles) ++start[i + 1];
  for (uint32_t v = 0; v < nv; ++v) start[v + 1] += start[v];
  std::vector<uint32_t> out(triangles.size()), in(triangles.size()), fill(start.begin(), start.end() - 1);
  for (size_t t = 0; t < nt; ++t) {
    for (int j = 0; j < 3; ++j) {
      const uint32_t v = triangles[3 * t + j];
      out[fill[v]] = triangles[3 * t + (j + 1) % 3];
      in[fill[v]] = triangles[3 * t + (j + 2) % 3];
      ++fill[v];
    }
  }
  std::vector<char> seen;
  for (uint32_t v = 0; v < nv; ++v) {
    const uint32_t b = start[v], e = start[v + 1];
    if (b == e) continue;
    seen.assign(e - b, 0);
    uint32_t k = 0, visited = 0;
    while (!seen[k]) {
      seen[k] = 1;
      ++visited;
      uint32_t next = 0;
      while (out[b + next] != in[b + k]) ++next;  // exists: the edge v–in is shared by exactly two triangles
      k = next;
    }
    if (visited != e - b) {
      std::ostringstream s;
      s << fn << ": " << T << " is not a manifold surface: the " << (e - b) << " triangles at vertex " << v
        << " form more than one fan (got a fan of " << visited << ')';
      reject(s.str());
    }
  }
}

double closedSurfaceVolume(std::span<const Real> positions, std::span<const uint32_t> triangles) {
  if (triangles.size() < 3) return 0;
  // Relative to one surface vertex rather than the origin: same value, less cancellation far from the origin.
  const Eigen::Vector3d r = vertex(positions, triangles[0]);
  double sixV = 0;
  for (size_t t = 0; t + 2 < triangles.size(); t += 3) {
    const Eigen::Vector3d a = vertex(positions, triangles[t]) - r, b = vertex(positions, triangles[t + 1]) - r,
                          c = vertex(positions, triangles[t + 2]) - r;
    sixV += a.dot(b.cross(c));
  }
  return sixV / 6;
}

}  // namespace pbd::mesh

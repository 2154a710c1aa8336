// pbd::tetrahedralize: validation, interior sampling, Delaunay (delaunay.h), carving by winding number
// (winding_number.h), quality filter, sliver removal (what addSoftBody refuses), manifold repair, compaction and
// boundary extraction.
#include "pbd/tetrahedralize.h"

#include <Eigen/Geometry>
#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <string>
#include <tuple>

#include "constraints/neo_hookean.h"
#include "constraints/tet_volume.h"
#include "mesh/delaunay.h"
#include "mesh/mesh_checks.h"
#include "mesh/surface_topology.h"
#include "mesh/winding_number.h"
#include "pbd/errors.h"
#include "base/checks.h"

namespace pbd {

namespace {

constexpr const char* kTetrahedralize = "tetrahedralize";
constexpr int kMaxResolution = 256;
// Vertex slots of the face opposite slot i, counter-clockwise seen from outside a positive tet.
constexpr int kFace[4][3] = {{1, 2, 3}, {0, 3, 2}, {0, 1, 3}, {0, 2, 1}};

/// Forwards fractions to the user's callback: clamped to [0, 1], never decreasing, Cancelled on false.
class Progress {
 public:
  explicit Progress(const std::function<bool(double)>& callback) : callback_(callback) {}
  void operator()(double fraction) {
    if (!callback_) return;
    last_ = std::clamp(std::max(fraction, last_), 0.0, 1.0);
    if (!callback_(last_)) throw Cancelled("tetrahedralize: cancelled by the progress callback");
  }

 private:
  const std::function<bool(double)>& callback_;
  double last_ = 0;
};

void validateOptions(const TetrahedralizeOptions& o) {
  if (o.resolution < 0 || o.resolution > kMaxResolution)
    check::fail(kTetrahedralize, "options.resolution", "must be in [0, 256]", o.resolution);
  if (!(o.minQuality >= 0 && o.minQuality < 1)) check::fail(kTetrahedralize, "options.minQuality", "must be in [0, 1)", o.minQuality);
  if (!(o.surfaceMargin >= 0 && o.surfaceMargin <= 2))
    check::fail(kTetrahedralize, "options.surfaceMargin", "must be in [0, 2]", o.surfaceMargin);
  if (o.extraPoints.size() % 3 != 0)
    check::fail(kTetrahedralize, "options.extraPoints.size()", "must be a multiple of 3", o.extraPoints.size());
  for (size_t i = 0; i < o.extraPoints.size(); ++i)
    check::finite(kTetrahedralize, "options.extraPoints[" + std::to_string(i) + "]", o.extraPoints[i]);
}

Eigen::Vector3d at(const std::vector<Real>& xyz, size_t i) { return {xyz[3 * i], xyz[3 * i + 1], xyz[3 * i + 2]}; }

/// Grid points strictly inside the surface and more than margin·h from it, appended to xyz as floats.
///
/// Classifying ~resolution³ nodes by winding number one by one would dominate the run time, so: a node whose
/// distance to the surface is at least 0.6·h is "clear"; two clear neighbours (h apart) are joined by a segment that
/// stays within h/2 of one of them, hence never meets the surface, so they are on the same side. Each connected set
/// of clear nodes needs one winding-number evaluation; the remaining nodes (near the surface) get their own.
void sampleGrid(const mesh::SurfaceBvh& bvh, const Eigen::Vector3d& lo, const Eigen::Vector3d& hi, int resolution,
                double margin, std::vector<Real>& xyz, Progress& progress, double f0, double f1) {
  const Eigen::Vector3d extent = hi - lo, center = (lo + hi) / 2;
  const double h = extent.maxCoeff() / resolution;
  int m[3];
  Eigen::Vector3d origin;
  for (int a = 0; a < 3; ++a) {
    m[a] = std::max(1, int(std::ceil(extent[a] / h - 1e-9)));  // cells along axis a, centred on the box
    origin[a] = center[a] - m[a] * h / 2;
  }
  const int nx = m[0] + 1, ny = m[1] + 1, nz = m[2] + 1;
  const size_t count = size_t(nx) * ny * nz;
  auto node = [&](int i, int j, int k) -> Eigen::Vector3d { return origin + Eigen::Vector3d(i * h, j * h, k * h); };
  enum : uint8_t { kRejected, kClear, kNear, kInside, kOutside };
  std::vector<uint8_t> state(count, kRejected);
  const double clearDistance = 0.6 * h, minDistance = margin * h;
  for (int k = 0; k < nz; ++k) {
    for (int j = 0; j < ny; ++j) {
      for (int i = 0; i < nx; ++i) {
        const Eigen::Vector3d q = node(i, j, k);
        if ((q.array() <= lo.array()).any() || (q.array() >= hi.array()).any()) continue;  // not inside the box
        const double d = bvh.distanceUpTo(q, std::max(clearDistance, minDistance));
        if (d <= minDistance) continue;
        state[(size_t(k) * ny + j) * nx + i] = d >= clearDistance ? kClear : kNear;
      }
    }
    progress(f0 + (f1 - f0) * 0.8 * (k + 1) / nz);
  }
  std::vector<size_t> queue;
  for (size_t s = 0; s < count; ++s) {
    if (state[s] != kClear && state[s] != kNear) continue;
    const int i = int(s % nx), j = int((s / nx) % ny), k = int(s / (size_t(nx) * ny));
    const uint8_t side = bvh.windingNumber(node(i, j, k)) > 0.5 ? kInside : kOutside;
    const bool flood = state[s] == kClear;
    state[s] = side;
    if (!flood) continue;
    queue.assign(1, s);
    while (!queue.empty()) {
      const size_t c = queue.back();
      queue.pop_back();
      const int ci = int(c % nx), cj = int((c / nx) % ny), ck = int(c / (size_t(nx) * ny));
      const int nb[6][3] = {{ci - 1, cj, ck}, {ci + 1, cj, ck}, {ci, cj - 1, ck},
                            {ci, cj + 1, ck}, {ci, cj, ck - 1}, {ci, cj, ck + 1}};
      for (const auto& b : nb) {
        if (b[0] < 0 || b[1] < 0 || b[2] < 0 || b[0] >= nx || b[1] >= ny || b[2] >= nz) continue;
        const size_t t = (size_t(b[2]) * ny + b[1]) * nx + b[0];
        if (state[t] != kClear) continue;
        state[t] = side;
        queue.push_back(t);
      }
    }
  }
  for (size_t s = 0; s < count; ++s) {
    if (state[s] != kInside) continue;
    const Eigen::Vector3d q = node(int(s % nx), int((s / nx) % ny), int(s / (size_t(nx) * ny)));
    xyz.insert(xyz.end(), {Real(q.x()), Real(q.y()), Real(q.z())});
  }
  progress(f1);
}

Vec3 vec(const std::vector<Real>& xyz, uint32_t i) { return Vec3(xyz[3 * i], xyz[3 * i + 1], xyz[3 * i + 2]); }

/// Carving: a tet is inside iff the winding number at its centroid is > 1/2. One exact evaluation per region; the
/// result spreads to the neighbours across every face whose centroid-to-centroid segment certainly misses the
/// surface (then both centroids have the same winding number).
std::vector<char> insideTets(const mesh::TetMesh& m, const std::vector<Eigen::Vector3d>& centroid,
                             const mesh::SurfaceBvh& bvh, Progress& progress, double f0, double f1) {
  const size_t n = m.tets.size();
  std::vector<int8_t> side(n, -1);
  std::vector<uint32_t> queue;
  size_t classified = 0;
  for (size_t seed = 0; seed < n; ++seed) {
    if (side[seed] >= 0) continue;
    side[seed] = bvh.windingNumber(centroid[seed]) > 0.5;
    queue.assign(1, uint32_t(seed));
    while (!queue.empty()) {
      const uint32_t t = queue.back();
      queue.pop_back();
      if ((++classified & 1023) == 0) progress(f0 + (f1 - f0) * double(classified) / double(n));
      for (const int32_t u : m.neighbors[t]) {
        if (u < 0 || side[u] >= 0 || bvh.segmentMayCross(centroid[t], centroid[u])) continue;
        side[u] = side[t];
        queue.push_back(uint32_t(u));
      }
    }
  }
  progress(f1);
  return std::vector<char>(side.begin(), side.end());
}

struct RepairCounts {
  uint32_t removed = 0, added = 0;
};

/// Makes the boundary of the kept tets a 2-manifold by moving whole groups of tets in or out of the kept set.
///
/// Carving a Delaunay tetrahedralization by centroids can leave kept tets that touch only along an edge or at a
/// vertex (thin features, surface triangles missing from the tetrahedralization). With the convex hull's outside
/// counted as one more "not kept" cell, the boundary is a closed 2-manifold iff
///   - around every edge, the cyclic ring of tets switches between kept and not kept at most twice, and
///   - around every vertex, the kept tets of its star are face-connected, and so are the others.
/// Each violation is fixed by keeping only the largest group (by volume) of the kept side, or by adding all but the
/// largest group of the other side, whichever moves less volume; tets that are not `allowed` (flat, poor) and the
/// hull's outside cannot be added. After kAddRounds rounds only removals are made, so the loop terminates.
class ManifoldRepair {
 public:
  ManifoldRepair(const mesh::TetMesh& m, uint32_t vertexCount, const std::vector<double>& volume,
                 const std::vector<char>& allowed, std::vector<char>& kept)
      : m_(m), volume_(volume), allowed_(allowed), kept_(kept), stamp_(m.tets.size(), 0), local_(m.tets.size(), 0) {
    starBegin_.assign(vertexCount + 1, 0);
    for (const auto& t : m.tets)
      for (uint32_t v : t) ++starBegin_[v + 1];
    for (uint32_t v = 0; v < vertexCount; ++v) starBegin_[v + 1] += starBegin_[v];
    star_.resize(starBegin_.back());
    std::vector<uint32_t> fill(starBegin_.begin(), starBegin_.end() - 1);
    for (uint32_t t = 0; t < m.tets.size(); ++t)
      for (uint32_t v : m.tets[t]) star_[fill[v]++] = t;
  }

  RepairCounts run() {
    std::vector<std::pair<uint64_t, uint32_t>> edges;  // (edge key, a tet containing it)
    std::vector<uint32_t> vertices;
    for (int round = 0;; ++round) {
      const bool removeOnly = round >= kAddRounds;
      edges.clear();
      vertices.clear();
      for (uint32_t t = 0; t < m_.tets.size(); ++t) {
        if (!kept_[t]) continue;
        for (int i = 0; i < 4; ++i) {
          const int32_t u = m_.neighbors[t][i];
          if (u >= 0 && kept_[u]) continue;
          for (int j = 0; j < 3; ++j) {
            const uint32_t a = m_.tets[t][kFace[i][j]], b = m_.tets[t][kFace[i][(j + 1) % 3]];
            edges.push_back({(uint64_t(std::min(a, b)) << 32) | std::max(a, b), t});
            vertices.push_back(a);
          }
        }
      }
      std::sort(edges.begin(), edges.end());
      edges.erase(std::unique(edges.begin(), edges.end(), [](auto& x, auto& y) { return x.first == y.first; }),
                  edges.end());
      std::sort(vertices.begin(), vertices.end());
      vertices.erase(std::unique(vertices.begin(), vertices.end()), vertices.end());
      bool changed = false;
      for (const auto& [key, t] : edges) changed |= fixEdge(uint32_t(key >> 32), uint32_t(key), t, removeOnly);
      for (const uint32_t v : vertices) changed |= fixVertex(v, removeOnly);
      if (!changed) return counts_;
    }
  }

 private:
  static constexpr int kAddRounds = 8;
  static constexpr double kInfinite = std::numeric_limits<double>::infinity();

  int slotOf(uint32_t t, uint32_t v) const {
    int s = 0;
    while (m_.tets[t][s] != v) ++s;
    return s;
  }
  /// The vertex of t that is none of a, b, x.
  uint32_t otherVertex(uint32_t t, uint32_t a, uint32_t b, uint32_t x) const {
    for (uint32_t v : m_.tets[t])
      if (v != a && v != b && v != x) return v;
    return x;
  }
  bool isKept(int32_t t) const { return t >= 0 && kept_[t]; }

  /// Groups are lists of tets (-1: the hull's outside); at least one side has two or more groups. Either remove
  /// kept tets: all groups but the largest, or the only group entirely; or add tets: all groups of the other side but
  /// the largest, or its only group. The cheaper by volume wins; adding the outside or a forbidden tet is impossible.
  void resolve(const std::vector<std::vector<int32_t>>& in, const std::vector<std::vector<int32_t>>& out,
               bool removeOnly) {
    auto cost = [&](const std::vector<int32_t>& g, bool adding) {
      double c = 0;
      for (const int32_t t : g) c += (adding && (t < 0 || !allowed_[t])) ? kInfinite : volume_[t];
      return c;
    };
    // Cost of moving every group but the most expensive one (or the only one); `spared` gets that group's index.
    auto moveCost = [&](const std::vector<std::vector<int32_t>>& groups, bool adding, size_t& spared) {
      if (groups.empty()) return kInfinite;
      double total = 0, best = -1;
      for (size_t g = 0; g < groups.size(); ++g) {
        const double c = cost(groups[g], adding);
        total += c;
        if (c > best) best = c, spared = g;
      }
      if (groups.size() == 1) {
        spared = groups.size();  // move it all
        return total;
      }
      if (best == kInfinite) {  // spare the infinite one; any other infinite group makes it impossible
        double rest = 0;
        for (size_t g = 0; g < groups.size(); ++g)
          if (g != spared) rest += cost(groups[g], adding);
        return rest;
      }
      return total - best;
    };
    size_t spareIn = 0, spareOut = 0;
    const double removeCost = moveCost(in, false, spareIn);
    const double addCost = removeOnly ? kInfinite : moveCost(out, true, spareOut);
    if (addCost < removeCost) {
      for (size_t g = 0; g < out.size(); ++g)
        if (g != spareOut)
          for (const int32_t t : out[g]) kept_[t] = 1, ++counts_.added;
    } else {
      for (size_t g = 0; g < in.size(); ++g)
        if (g != spareIn)
          for (const int32_t t : in[g]) kept_[t] = 0, ++counts_.removed;
    }
  }

  bool fixEdge(uint32_t a, uint32_t b, uint32_t t0, bool removeOnly) {
    // The ring of tets around edge ab: leave each tet through its other face containing ab.
    const uint32_t x0 = otherVertex(t0, a, b, a), y0 = otherVertex(t0, a, b, x0);
    ring_.clear();
    bool open = false;
    for (uint32_t t = t0, x = x0;;) {
      ring_.push_back(int32_t(t));
      const int32_t u = m_.neighbors[t][slotOf(t, x)];
      if (u < 0) {
        open = true;
        break;
      }
      if (uint32_t(u) == t0) break;
      x = otherVertex(t, a, b, x);
      t = uint32_t(u);
    }
    if (open) {  // the edge is on the hull: go the other way too, and close the ring with the outside
      back_.clear();
      for (uint32_t t = t0, x = y0;;) {
        const int32_t u = m_.neighbors[t][slotOf(t, x)];
        if (u < 0) break;
        back_.push_back(u);
        x = otherVertex(t, a, b, x);
        t = uint32_t(u);
      }
      ring_.insert(ring_.begin(), back_.rbegin(), back_.rend());
      ring_.push_back(-1);
    }
    const size_t n = ring_.size();
    size_t start = n;  // a position where the kept status changes
    int switches = 0;
    for (size_t k = 0; k < n; ++k) {
      if (isKept(ring_[k]) != isKept(ring_[(k + 1) % n])) {
        ++switches;
        if (start == n) start = (k + 1) % n;
      }
    }
    if (switches <= 2) return false;
    std::vector<std::vector<int32_t>> in, out;
    for (size_t k = 0; k < n; ++k) {
      const int32_t t = ring_[(start + k) % n];
      auto& side = isKept(t) ? in : out;
      if (k == 0 || isKept(t) != isKept(ring_[(start + k - 1) % n])) side.emplace_back();
      side.back().push_back(t);
    }
    resolve(in, out, removeOnly);
    return true;
  }

  bool fixVertex(uint32_t v, bool removeOnly) {
    // Face-connected components of the star's kept and non-kept tets; -1 stands for the hull's outside.
    ++epoch_;
    const uint32_t b = starBegin_[v], e = starBegin_[v + 1];
    for (uint32_t k = b; k < e; ++k) stamp_[star_[k]] = epoch_, local_[star_[k]] = k - b;
    component_.assign(e - b, -1);
    int outsideComponent = -1;
    std::vector<std::vector<int32_t>> in, out;
    for (uint32_t k = b; k < e; ++k) {
      if (component_[k - b] >= 0) continue;
      const bool keptSide = isKept(int32_t(star_[k]));
      auto& groups = keptSide ? in : out;
      const int id = int(groups.size());
      groups.emplace_back();
      bool touchesOutside = false;
      stack_.assign(1, star_[k]);
      component_[k - b] = id;
      while (!stack_.empty()) {
        const uint32_t t = stack_.back();
        stack_.pop_back();
        groups[id].push_back(int32_t(t));
        const int sv = slotOf(t, v);
        for (int j = 0; j < 4; ++j) {
          if (j == sv) continue;  // the only face without v
          const int32_t u = m_.neighbors[t][j];
          if (u < 0) {
            touchesOutside = true;
            continue;
          }
          if (isKept(u) != keptSide || stamp_[u] != epoch_ || component_[local_[u]] >= 0) continue;
          component_[local_[u]] = id;
          stack_.push_back(uint32_t(u));
        }
      }
      if (!keptSide && touchesOutside) {  // all such groups meet in the outside: merge them
        if (outsideComponent < 0) {
          outsideComponent = id;
          groups[id].push_back(-1);
        } else {
          groups[outsideComponent].insert(groups[outsideComponent].end(), groups[id].begin(), groups[id].end());
          groups.pop_back();
        }
      }
    }
    // A hull vertex whose star is all kept still touches the outside.
    bool hullVertex = false;
    for (uint32_t k = b; k < e && !hullVertex; ++k) {
      const uint32_t t = star_[k];
      const int sv = slotOf(t, v);
      for (int j = 0; j < 4; ++j)
        if (j != sv && m_.neighbors[t][j] < 0) hullVertex = true;
    }
    if (hullVertex && outsideComponent < 0) out.push_back({-1});
    if (in.size() <= 1 && out.size() <= 1) return false;
    resolve(in, out, removeOnly);
    return true;
  }

  const mesh::TetMesh& m_;
  const std::vector<double>& volume_;
  const std::vector<char>& allowed_;
  std::vector<char>& kept_;
  std::vector<uint32_t> starBegin_, star_;
  std::vector<uint32_t> stamp_, local_;
  uint32_t epoch_ = 0;
  std::vector<int> component_;
  std::vector<uint32_t> stack_;
  std::vector<int32_t> ring_, back_;
  RepairCounts counts_;
};

RepairCounts repairManifold(const mesh::TetMesh& m, uint32_t vertexCount, const std::vector<double>& volume,
                            const std::vector<char>& allowed, std::vector<char>& kept) {
  return ManifoldRepair(m, vertexCount, volume, allowed, kept).run();
}

/// Would World::addSoftBody refuse this tet at rest? check::tetShapeDefect is its test for every tet (degenerate:
/// |V| <= 1e-6 · longest edge³, or inverted); neoHookeanRestShape is its extra test for Neo-Hookean elements, implied
/// by the first (|det| = 6|V|) up to rounding, and checked anyway so that either material accepts the output.
bool refusedBySoftBody(const Vec3& p0, const Vec3& p1, const Vec3& p2, const Vec3& p3) {
  Real volume;
  if (check::tetShapeDefect(p0, p1, p2, p3, volume)) return true;
  const Vec3 X[4] = {p0, p1, p2, p3};
  Mat3 restInverse;
  return !neoHookeanRestShape(X, restInverse, volume);
}

/// Slivers (tets that addSoftBody refuses, `refused`) are never output; this decides what becomes of the kept ones.
///
/// Delaunay tetrahedralizations of cocircular or cospherical points (a torus's flat trapezoid quads, the rings of a
/// solid of revolution, cube corners of the grid) contain slivers: four nearly coplanar vertices, two faces on one
/// side of their plane and two on the other, volume ~0 once the lattice positions are rounded back to floats.
///   - Peeled: a kept sliver next to a tet that is not kept (or the hull's outside), or reached from one through other
///     kept slivers, leaves the kept set. The boundary of a set of tets is closed whatever the set (every edge is
///     left by as many boundary faces as enter it), so removing it keeps the surface closed; it now runs over the
///     sliver's other two faces, which lie on the same quad (within the sliver's thickness). The manifold repair
///     fixes what that does at edges and vertices, as for any removed tet.
///   - Ghost: a kept sliver enclosed by kept tets stays in the kept set (for the repair and the boundary) and is only
///     left out of the output. Its faces on either side coincide geometrically, so the tets around it still fill the
///     solid: what remains is a crack of zero width between two triangulations of one flat polygon (e.g. the disc of
///     a torus's meridian circle, triangulated one way from above and another from below), not a hole. Taking it
///     out of the kept set instead would make a zero-volume cavity whose faces meet the surface at surface vertices,
///     and the repair would cut whole vertex stars away to make that a manifold (most of a torus's volume).
/// A ghost's faces are faces of one output tet but not boundary faces. Returns the number of tets peeled.
uint32_t peelSlivers(const mesh::TetMesh& m, const std::vector<char>& refused, std::vector<char>& kept) {
  std::vector<uint32_t> queue;
  for (uint32_t t = 0; t < m.tets.size(); ++t) {
    if (!kept[t] || !refused[t]) continue;
    for (const int32_t u : m.neighbors[t]) {
      if (u >= 0 && kept[u]) continue;
      kept[t] = 0;
      queue.push_back(t);
      break;
    }
  }
  uint32_t peeled = 0;
  while (!queue.empty()) {
    const uint32_t t = queue.back();
    queue.pop_back();
    ++peeled;
    for (const int32_t u : m.neighbors[t]) {
      if (u < 0 || !kept[u] || !refused[u]) continue;
      kept[u] = 0;
      queue.push_back(uint32_t(u));
    }
  }
  return peeled;
}

}  // namespace

double tetQuality(const Vec3& p0, const Vec3& p1, const Vec3& p2, const Vec3& p3) {
  const Eigen::Vector3d o = p0.cast<double>();
  const Eigen::Vector3d a = p1.cast<double>() - o, b = p2.cast<double>() - o, c = p3.cast<double>() - o;
  const double sixV = std::abs(a.dot(b.cross(c)));
  if (sixV == 0) return 0;
  // Total face area A; inradius r_in = 3V / A.
  const double area = (a.cross(b).norm() + b.cross(c).norm() + c.cross(a).norm() + (b - a).cross(c - a).norm()) / 2;
  // Circumcentre relative to p0: (|a|²(b×c) + |b|²(c×a) + |c|²(a×b)) / (2 a·(b×c)), so r_circ = |num| / (2·6V).
  const Eigen::Vector3d num = a.squaredNorm() * b.cross(c) + b.squaredNorm() * c.cross(a) + c.squaredNorm() * a.cross(b);
  // 3 r_in / r_circ = 3 (3V/A) (12V / |num|) = 108 V² / (A |num|) = 3 (6V)² / (A |num|).
  return 3 * sixV * sixV / (area * num.norm());
}

TetrahedralizeResult tetrahedralize(std::span<const Real> positions, std::span<const uint32_t> triangles,
                                    const TetrahedralizeOptions& options) {
  validateOptions(options);
  mesh::requireClosedManifold(kTetrahedralize, positions, triangles);
  Progress progress(options.progress);
  progress(0);

  const uint32_t nSurface = uint32_t(positions.size() / 3);
  std::vector<Eigen::Vector3d> vertices(nSurface);
  Eigen::Vector3d lo = Eigen::Vector3d::Constant(std::numeric_limits<double>::infinity()), hi = -lo;
  for (uint32_t i = 0; i < nSurface; ++i) {
    vertices[i] = {positions[3 * i], positions[3 * i + 1], positions[3 * i + 2]};
    lo = lo.cwiseMin(vertices[i]);
    hi = hi.cwiseMax(vertices[i]);
  }
  // Zero enclosed volume (e.g. a flat surface covered twice) cannot be tetrahedralized.
  const double surfaceVolume = mesh::closedSurfaceVolume(positions, triangles);
  const double diagonal = (hi - lo).norm();
  if (!(std::abs(surfaceVolume) > 1e-10 * diagonal * diagonal * diagonal))
    check::fail(kTetrahedralize, "triangles", "enclose no volume", surfaceVolume);
  std::vector<uint32_t> outward(triangles.begin(), triangles.end());
  if (surfaceVolume < 0)  // inward-facing surface: flip it so that the winding number is +1 inside
    for (size_t t = 0; t < outward.size(); t += 3) std::swap(outward[t + 1], outward[t + 2]);
  const mesh::SurfaceBvh bvh(vertices, outward);

  // All points: surface vertices, grid points, extra points (floats, as they will be output).
  std::vector<Real> xyz(positions.begin(), positions.end());
  if (options.resolution > 0) sampleGrid(bvh, lo, hi, options.resolution, options.surfaceMargin, xyz, progress, 0, 0.15);
  const uint32_t nGrid = uint32_t(xyz.size() / 3 - nSurface);
  // Extra points outside the surface's bounding box cannot be inside it: skip them (they would only coarsen the
  // lattice). extraSource[k]: the extra point behind combined point nSurface + nGrid + k.
  std::vector<uint32_t> extraSource;
  for (uint32_t e = 0; 3 * e < options.extraPoints.size(); ++e) {
    const Eigen::Vector3d p(options.extraPoints[3 * e], options.extraPoints[3 * e + 1], options.extraPoints[3 * e + 2]);
    if ((p.array() < lo.array()).any() || (p.array() > hi.array()).any()) continue;
    extraSource.push_back(e);
    xyz.insert(xyz.end(), options.extraPoints.begin() + 3 * e, options.extraPoints.begin() + 3 * e + 3);
  }
  const uint32_t nAll = uint32_t(xyz.size() / 3);
  progress(0.15);

  // Quantize; points in one lattice cell are merged into the first (surface vertices must not share a cell).
  const mesh::Lattice lattice = mesh::Lattice::fit(xyz);
  std::vector<mesh::LatticePoint> q(nAll);
  for (uint32_t i = 0; i < nAll; ++i) q[i] = lattice(xyz[3 * i], xyz[3 * i + 1], xyz[3 * i + 2]);
  std::vector<uint32_t> byCell(nAll);
  for (uint32_t i = 0; i < nAll; ++i) byCell[i] = i;
  std::sort(byCell.begin(), byCell.end(), [&](uint32_t a, uint32_t b) {
    return std::tie(q[a].x, q[a].y, q[a].z, a) < std::tie(q[b].x, q[b].y, q[b].z, b);
  });
  std::vector<uint32_t> representative(nAll);
  TetrahedralizeResult r;
  for (uint32_t k = 0; k < nAll; ++k) {
    const uint32_t i = byCell[k];
    if (k > 0 && q[i] == q[byCell[k - 1]]) {
      representative[i] = representative[byCell[k - 1]];
      if (i < nSurface) {
        std::ostringstream s;
        s << kTetrahedralize << ": positions: vertices " << representative[i] << " and " << i
          << " coincide after rounding to the 2^-20 lattice of the bounding box (got (" << xyz[3 * i] << ", "
          << xyz[3 * i + 1] << ", " << xyz[3 * i + 2] << "))";
        throw InvalidArgument(s.str());
      }
      ++r.mergedPoints;
    } else {
      representative[i] = i;
    }
  }
  std::vector<uint32_t> unique;  // delaunay() index -> point index
  for (uint32_t i = 0; i < nAll; ++i)
    if (representative[i] == i) unique.push_back(i);
  std::vector<mesh::LatticePoint> uq(unique.size());
  for (size_t k = 0; k < unique.size(); ++k) uq[k] = q[unique[k]];

  mesh::TetMesh dt;
  try {
    dt = mesh::delaunay(uq, [&](double f) { progress(0.15 + 0.6 * f); });
  } catch (const InvalidArgument& e) {  // only "all coplanar" can happen here: a solid thinner than the lattice
    throw InvalidArgument(std::string(kTetrahedralize) + ": positions are too flat for the 2^-20 lattice of the bounding box (" +
                          e.what() + ")");
  }
  const size_t nTets = dt.tets.size();
  r.delaunayTetCount = uint32_t(nTets);
  auto point = [&](uint32_t u) { return at(xyz, unique[u]); };

  std::vector<char> kept(nTets, 1);
  if (!options.keepOutside) {
    std::vector<Eigen::Vector3d> centroid(nTets);
    for (size_t t = 0; t < nTets; ++t) {
      const auto& v = dt.tets[t];
      centroid[t] = (point(v[0]) + point(v[1]) + point(v[2]) + point(v[3])) / 4;
    }
    kept = insideTets(dt, centroid, bvh, progress, 0.75, 0.9);
    r.outsideTetCount = uint32_t(std::count(kept.begin(), kept.end(), 0));
  }
  progress(0.9);

  // Tets that addSoftBody would refuse (slivers: flat relative to their size on the float positions) and poor tets
  // may never be added; the kept slivers are peeled or become ghosts (peelSlivers).
  std::vector<char> allowed(nTets, 1), refused(nTets, 0);
  std::vector<double> volume(nTets);
  for (size_t t = 0; t < nTets; ++t) {
    const auto& v = dt.tets[t];
    const Vec3 p0 = vec(xyz, unique[v[0]]), p1 = vec(xyz, unique[v[1]]), p2 = vec(xyz, unique[v[2]]),
               p3 = vec(xyz, unique[v[3]]);
    volume[t] = std::abs((point(v[1]) - point(v[0])).dot((point(v[2]) - point(v[0])).cross(point(v[3]) - point(v[0])))) / 6;
    if (refusedBySoftBody(p0, p1, p2, p3)) {
      allowed[t] = 0;
      refused[t] = 1;
      if (kept[t]) ++r.droppedFlat;
    } else if (!options.keepOutside && options.minQuality > 0 && tetQuality(p0, p1, p2, p3) < options.minQuality) {
      allowed[t] = 0;
      if (kept[t]) ++r.droppedLowQuality;
      kept[t] = 0;
    }
  }
  peelSlivers(dt, refused, kept);
  if (!options.keepOutside) {
    // The repair can expose a ghost (remove a tet next to it): peel again and repair again. Each round peels at
    // least one refused tet, which is never added back (not allowed), so this ends.
    do {
      const RepairCounts repaired = repairManifold(dt, uint32_t(uq.size()), volume, allowed, kept);
      r.repairRemovedTets += repaired.removed;
      r.repairAddedTets += repaired.added;
    } while (peelSlivers(dt, refused, kept) > 0);
  }
  // The output: kept tets that are not ghosts.
  std::vector<char> output(nTets);
  for (size_t t = 0; t < nTets; ++t) output[t] = kept[t] && !refused[t];
  progress(0.95);

  // Output vertices: every surface vertex at its own index, then the grid and extra points that are used.
  std::vector<char> used(nAll, 0);
  for (size_t t = 0; t < nTets; ++t)
    if (output[t])
      for (uint32_t v : dt.tets[t]) used[unique[v]] = 1;
  std::vector<int32_t> newIndex(nAll, -1);
  for (uint32_t i = 0; i < nSurface; ++i) newIndex[i] = int32_t(i);
  r.positions.assign(xyz.begin(), xyz.begin() + 3 * size_t(nSurface));
  for (uint32_t i = nSurface; i < nAll; ++i) {
    if (!used[i]) continue;
    newIndex[i] = int32_t(r.positions.size() / 3);
    r.positions.insert(r.positions.end(), {xyz[3 * i], xyz[3 * i + 1], xyz[3 * i + 2]});
    ++(i < nSurface + nGrid ? r.gridPointCount : r.extraPointCount);
  }
  r.surfaceVertexCount = nSurface;
  for (uint32_t i = 0; i < nSurface; ++i) r.unusedSurfaceVertices += !used[i];
  r.extraPointVertex.assign(options.extraPoints.size() / 3, -1);
  for (uint32_t k = 0; k < extraSource.size(); ++k)
    r.extraPointVertex[extraSource[k]] = newIndex[representative[nSurface + nGrid + k]];

  // Tets, and the boundary: faces whose neighbour is missing or not kept, outward as in the tet. A ghost counts as
  // kept here, so the faces next to it are not boundary faces (see peelSlivers).
  for (size_t t = 0; t < nTets; ++t) {
    if (!output[t]) continue;
    const auto& v = dt.tets[t];
    for (int j = 0; j < 4; ++j) r.tets.push_back(uint32_t(newIndex[unique[v[j]]]));
    for (int i = 0; i < 4; ++i) {
      const int32_t u = dt.neighbors[t][i];
      if (u >= 0 && kept[u]) continue;
      for (int j = 0; j < 3; ++j) r.surfaceTriangles.push_back(uint32_t(newIndex[unique[v[kFace[i][j]]]]));
    }
  }
  // The final check: every returned tet passes addSoftBody's test, on the very floats it will be given.
  for (size_t t = 0; t < r.tets.size(); t += 4) {
    if (refusedBySoftBody(vec(r.positions, r.tets[t]), vec(r.positions, r.tets[t + 1]),
                          vec(r.positions, r.tets[t + 2]), vec(r.positions, r.tets[t + 3])))
      throw std::logic_error("tetrahedralize: an output tet fails addSoftBody's test");
  }
  progress(1.0);
  return r;
}

}  // namespace pbd

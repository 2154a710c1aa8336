// Binding by a uniform grid over the tets' bounding boxes: each render vertex searches the cells around it in
// growing shells until no unvisited cell can hold a nearer tet. Binding runs once, so it works in double: the
// barycentrics then reproduce the vertex to float precision even for vertices far outside their tet.
#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <string>

#include <Eigen/Dense>

#include "mesh/embedding_search.h"
#include "mesh/mesh_checks.h"
#include "mesh/triangle_bvh.h"
#include "pbd/embedding.h"
#include "pbd/errors.h"

namespace pbd {
namespace {

using V3 = Eigen::Vector3d;
using Index3 = std::array<int64_t, 3>;

constexpr const char* kBind = "bindToTets";
constexpr const char* kApply = "applyEmbedding";

// A tet with |det [x1-x0, x2-x0, x3-x0]| below this fraction of |x1-x0| |x2-x0| |x3-x0| is flat to float
// precision: rounding the corners to float alone moves its volume by about 1e-7 of that product, and its
// barycentrics would amplify the noise in the positions by the inverse.
constexpr double kFlatness = 1e-6;

V3 point(std::span<const float> p, size_t i) { return V3(p[3 * i], p[3 * i + 1], p[3 * i + 2]); }

// The tets in double, with what each query needs precomputed.
struct Tets {
  std::vector<V3> nodes;
  std::vector<uint32_t> corners;         // 4 per tet
  std::vector<Eigen::Matrix3d> inverse;  // per tet, inverse of [x1-x0, x2-x0, x3-x0]
  V3 lo = V3::Constant(std::numeric_limits<double>::max()), hi = -lo;  // bounds of all tets

  size_t count() const { return inverse.size(); }
  const V3& corner(size_t t, int k) const { return nodes[corners[4 * t + k]]; }

  std::array<double, 4> barycentric(size_t t, const V3& p) const {
    const V3 b = inverse[t] * (p - corner(t, 0));
    return {1 - b.sum(), b[0], b[1], b[2]};
  }

  // Distance from p to the solid tet, given p's barycentrics: 0 inside; otherwise the nearest point lies on a
  // face p is outside of (negative weight of the opposite corner).
  double distance(size_t t, const V3& p, const std::array<double, 4>& b) const {
    double best = std::numeric_limits<double>::max();
    for (int k = 0; k < 4; ++k) {
      if (b[k] >= 0) continue;
      const V3 q = closestPointOnTriangle(corner(t, (k + 1) % 4), corner(t, (k + 2) % 4), corner(t, (k + 3) % 4), p);
      best = std::min(best, (p - q).norm());
    }
    return best == std::numeric_limits<double>::max() ? 0 : best;
  }
};

Tets prepare(std::span<const float> positions, std::span<const uint32_t> tets) {
  check::positions(kBind, "tetPositions", positions);
  const size_t nodes = positions.size() / 3;
  check::elements(kBind, "tets", tets, 4, nodes);
  if (tets.empty()) check::fail(kBind, "tets.size()", "must be > 0", 0);
  Tets m;
  m.corners.assign(tets.begin(), tets.end());
  m.nodes.reserve(nodes);
  for (size_t i = 0; i < nodes; ++i) m.nodes.push_back(point(positions, i));
  m.inverse.reserve(tets.size() / 4);
  for (size_t t = 0; t < tets.size() / 4; ++t) {
    Eigen::Matrix3d edges;
    for (int k = 0; k < 3; ++k) edges.col(k) = m.corner(t, k + 1) - m.corner(t, 0);
    const double det = edges.determinant();
    if (!(std::abs(det) > kFlatness * edges.col(0).norm() * edges.col(1).norm() * edges.col(2).norm())) {
      check::fail(kBind, "tets[" + std::to_string(4 * t) + ".." + std::to_string(4 * t + 3) + "]",
                  "has zero volume", det / 6);
    }
    m.inverse.push_back(edges.inverse());
    for (int k = 0; k < 4; ++k) {
      m.lo = m.lo.cwiseMin(m.corner(t, k));
      m.hi = m.hi.cwiseMax(m.corner(t, k));
    }
  }
  return m;
}

// Cells of equal size h over the tets' bounds; cell c lists (in tet order) every tet whose box overlaps it.
class TetGrid {
 public:
  explicit TetGrid(const Tets& m) : lo_(m.lo), hi_(m.hi) {
    const V3 extent = m.hi - m.lo;  // > 0 on every axis: no tet is flat
    h_ = std::cbrt(extent.prod() / double(m.count()));  // about one cell per tet...
    for (;;) {
      // Clamped in double first: a very elongated mesh can ask for more than 2^63 cells on its long axis.
      for (int a = 0; a < 3; ++a) dims_[a] = int64_t(std::clamp(std::ceil(extent[a] / h_), 1.0, 0x1p62));
      // ...unless the mesh is flat or thin, where rounding up the short axes would multiply the cells.
      if (double(dims_[0]) * double(dims_[1]) * double(dims_[2]) <= 4.0 * double(m.count()) + 64) break;
      h_ *= 1.25;
    }
    start_.assign(size_t(dims_[0] * dims_[1] * dims_[2]) + 1, 0);
    // Counting pass, prefix sums, filling pass: a compact CSR list, filled in tet order.
    for (int pass = 0; pass < 2; ++pass) {
      if (pass == 1) {
        for (size_t c = 1; c < start_.size(); ++c) start_[c] += start_[c - 1];
        list_.resize(start_.back());
      }
      for (size_t t = 0; t < m.count(); ++t) {
        V3 tlo = m.corner(t, 0), thi = tlo;
        for (int k = 1; k < 4; ++k) {
          tlo = tlo.cwiseMin(m.corner(t, k));
          thi = thi.cwiseMax(m.corner(t, k));
        }
        const Index3 a = cellOf(tlo), b = cellOf(thi);
        for (int64_t z = a[2]; z <= b[2]; ++z) {
          for (int64_t y = a[1]; y <= b[1]; ++y) {
            for (int64_t x = a[0]; x <= b[0]; ++x) {
              const size_t c = flat({x, y, z});
              if (pass == 0) {
                ++start_[c + 1];
              } else {
                list_[start_[c]++] = uint32_t(t);
              }
            }
          }
        }
      }
    }
    // The filling pass advanced every start to the next cell's; shift back.
    for (size_t c = start_.size() - 1; c > 0; --c) start_[c] = start_[c - 1];
    start_[0] = 0;
  }

  /// The cell holding p, clamped into the grid.
  Index3 cellOf(const V3& p) const {
    Index3 c;
    for (int a = 0; a < 3; ++a) {
      const double f = std::floor((p[a] - lo_[a]) / h_);
      c[a] = f <= 0 ? 0 : f >= double(dims_[a] - 1) ? dims_[a] - 1 : int64_t(f);
    }
    return c;
  }

  const Index3& dims() const { return dims_; }
  size_t flat(const Index3& c) const { return size_t((c[2] * dims_[1] + c[1]) * dims_[0] + c[0]); }
  std::span<const uint32_t> tetsIn(const Index3& c) const {
    const size_t f = flat(c);
    return {list_.data() + start_[f], start_[f + 1] - start_[f]};
  }

  /// A lower bound on the distance from p to any tet listed only in cells outside the box of cells center +- r, or
  /// +infinity when that box covers the grid. Such a tet lies beyond one of the box's faces that is not on the grid's
  /// boundary, and within the tets' bounds: the bound is the least distance from p to those bounds cut at such a face.
  /// In 3D, not along the face's axis alone, so that a point far outside stops at the shells that hold its nearest
  /// tet instead of walking the whole grid.
  double unvisitedDistance(const V3& p, const Index3& center, int64_t r) const {
    // Squared distance from p to the box [a, b] along axis k.
    auto gap2 = [&](int k, double a, double b) {
      const double d = std::max({0.0, a - p[k], p[k] - b});
      return d * d;
    };
    double outside2[3];  // per axis, the squared distance from p to the tets' bounds along it
    for (int k = 0; k < 3; ++k) outside2[k] = gap2(k, lo_[k], hi_[k]);
    double bound = std::numeric_limits<double>::infinity();
    auto slab = [&](int a, double from, double to) {  // beyond a face: the tets' bounds, axis a in [from, to]
      bound = std::min(bound, std::sqrt(gap2(a, from, to) + outside2[(a + 1) % 3] + outside2[(a + 2) % 3]));
    };
    for (int a = 0; a < 3; ++a) {
      if (center[a] - r > 0) slab(a, lo_[a], lo_[a] + double(center[a] - r) * h_);
      if (center[a] + r < dims_[a] - 1) slab(a, lo_[a] + double(center[a] + r + 1) * h_, hi_[a]);
    }
    return bound;
  }

 private:
  V3 lo_, hi_;  // the tets' bounds: every tet lies within them, whatever cell clamping put it in
  double h_;
  Index3 dims_;
  std::vector<size_t> start_;  // per cell, its first entry in list_; one more entry at the end
  std::vector<uint32_t> list_;
};

// The binding candidate order: nearer first, then deeper inside (larger smallest weight), then lower index.
struct Candidate {
  double distance = std::numeric_limits<double>::infinity();
  double depth = -std::numeric_limits<double>::infinity();
  uint32_t tet = std::numeric_limits<uint32_t>::max();
  std::array<double, 4> bary{};

  bool betterThan(const Candidate& o) const {
    if (distance != o.distance) return distance < o.distance;
    if (depth != o.depth) return depth > o.depth;
    return tet < o.tet;
  }
};

// Calls f(cell) for every cell of the grid at Chebyshev distance exactly r from center.
template <class F>
void forShell(const Index3& center, int64_t r, const Index3& dims, F&& f) {
  const auto lo = [&](int a) { return std::max<int64_t>(0, center[a] - r); };
  const auto hi = [&](int a) { return std::min<int64_t>(dims[a] - 1, center[a] + r); };
  for (int64_t z = lo(2); z <= hi(2); ++z) {
    for (int64_t y = lo(1); y <= hi(1); ++y) {
      if (std::abs(z - center[2]) == r || std::abs(y - center[1]) == r) {
        for (int64_t x = lo(0); x <= hi(0); ++x) f(Index3{x, y, z});  // on a z or y face of the shell
      } else {
        if (center[0] - r >= 0) f(Index3{center[0] - r, y, z});
        if (center[0] + r < dims[0]) f(Index3{center[0] + r, y, z});  // r > 0 here: the two are distinct
      }
    }
  }
}

}  // namespace

TetEmbedding bindToTets(std::span<const float> tetPositions, std::span<const uint32_t> tets,
                        std::span<const float> renderPositions) {
  BindStats stats;
  return bindToTets(tetPositions, tets, renderPositions, stats);
}

TetEmbedding bindToTets(std::span<const float> tetPositions, std::span<const uint32_t> tets,
                        std::span<const float> renderPositions, BindStats& stats) {
  stats = BindStats{};
  const Tets m = prepare(tetPositions, tets);
  check::positions(kBind, "renderPositions", renderPositions);
  const size_t n = renderPositions.size() / 3;
  if (n >= std::numeric_limits<uint32_t>::max()) check::fail(kBind, "renderPositions.size() / 3", "is too large", n);
  const TetGrid grid(m);

  TetEmbedding e;
  e.tet.resize(n);
  e.bary.resize(4 * n);
  std::vector<uint32_t> seenBy(m.count(), 0);  // per tet, the last query (vertex + 1) that evaluated it
  for (size_t v = 0; v < n; ++v) {
    const V3 p = point(renderPositions, v);
    const Index3 center = grid.cellOf(p);
    Candidate best;
    for (int64_t r = 0;; ++r) {
      forShell(center, r, grid.dims(), [&](const Index3& cell) {
        for (uint32_t t : grid.tetsIn(cell)) {
          if (seenBy[t] == v + 1) continue;
          seenBy[t] = uint32_t(v + 1);
          ++stats.tetsEvaluated;
          Candidate c;
          c.tet = t;
          c.bary = m.barycentric(t, p);
          c.depth = *std::min_element(c.bary.begin(), c.bary.end());
          c.distance = c.depth >= 0 ? 0 : m.distance(t, p, c.bary);
          if (c.betterThan(best)) best = c;
        }
      });
      // Every tet containing p overlaps p's own cell, so a containing tet found in shell 0 cannot be beaten.
      const double unvisited = grid.unvisitedDistance(p, center, r);
      if (best.depth >= 0 || best.distance < unvisited || unvisited == std::numeric_limits<double>::infinity()) {
        break;
      }
    }
    e.tet[v] = best.tet;
    for (int k = 0; k < 4; ++k) {
      // A finite vertex can still be so far from a small tet that its weights do not fit a float (they would be
      // +-inf, and applyEmbedding would write NaN): refused rather than returned.
      if (!(std::abs(best.bary[k]) <= double(std::numeric_limits<float>::max()))) {
        check::fail(kBind, "renderPositions[" + std::to_string(3 * v) + ".." + std::to_string(3 * v + 2) + "]",
                    "is too far from the tet mesh (its weights overflow float)", best.bary[k]);
      }
      e.bary[4 * v + k] = float(best.bary[k]);
    }
  }
  return e;
}

void applyEmbedding(const TetEmbedding& embedding, std::span<const uint32_t> tets, const float* simPositions,
                    float* renderPositionsOut) {
  const size_t n = embedding.tet.size();
  if (embedding.bary.size() != 4 * n) {
    const std::string reason = "must be 4 * embedding.tet.size() = " + std::to_string(4 * n);
    check::fail(kApply, "embedding.bary.size()", reason.c_str(), embedding.bary.size());
  }
  if (n == 0) return;
  if (!simPositions || !renderPositionsOut) {
    check::fail(kApply, "simPositions / renderPositionsOut", "must not be null", 0);
  }
  // One max-reduction (vectorizable) instead of a check per vertex in the main loop.
  const size_t tetCount = tets.size() / 4;
  uint32_t largest = 0;
  for (uint32_t t : embedding.tet) largest = std::max(largest, t);
  if (largest >= tetCount) {
    const size_t v = size_t(std::find_if(embedding.tet.begin(), embedding.tet.end(),
                                         [&](uint32_t t) { return t >= tetCount; }) - embedding.tet.begin());
    check::index(kApply, "embedding.tet[" + std::to_string(v) + "]", embedding.tet[v], tetCount);
  }

  const uint32_t* __restrict tet = embedding.tet.data();
  const float* __restrict bary = embedding.bary.data();
  const uint32_t* __restrict corners = tets.data();
  const float* __restrict x = simPositions;
  float* __restrict out = renderPositionsOut;
  for (size_t v = 0; v < n; ++v) {
    const uint32_t* c = corners + 4 * size_t(tet[v]);
    const float* w = bary + 4 * v;
    const float *x0 = x + 3 * size_t(c[0]), *x1 = x + 3 * size_t(c[1]), *x2 = x + 3 * size_t(c[2]),
                *x3 = x + 3 * size_t(c[3]);
    for (int a = 0; a < 3; ++a) out[3 * v + a] = w[0] * x0[a] + w[1] * x1[a] + w[2] * x2[a] + w[3] * x3[a];
  }
}

}  // namespace pbd

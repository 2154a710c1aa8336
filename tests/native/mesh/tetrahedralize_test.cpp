// The Delaunay core on degenerate lattice point sets, and pbd::tetrahedralize on closed surfaces (cube, spheres,
// the Stanford bunny): positive tets, volume, Delaunay property before carving, closed manifold boundary, progress
// and cancellation, and bad input rejected with the argument named. Slivers: surfaces full of cocircular and
// cospherical vertices (tori, cylinders, UV spheres, subdivided boxes, a lathe) give tets that addSoftBody accepts.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <fstream>
#include <map>
#include <numbers>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "constraints/tet_volume.h"
#include "mesh/delaunay.h"
#include "mesh/exact_predicates.h"
#include "mesh/mesh_checks.h"
#include "mesh/surface_topology.h"
#include "mesh/winding_number.h"
#include "pbd/errors.h"
#include "pbd/mesh_io.h"
#include "pbd/tetrahedralize.h"
#include "pbd/world.h"
#include "scenes/icosphere.h"
#include "scenes/revolution_meshes.h"

using namespace pbd;
using mesh::LatticePoint;

namespace {

// Faces opposite each slot, counter-clockwise seen from outside a positive tet (independent of the library's copy).
constexpr int kFace[4][3] = {{1, 2, 3}, {0, 3, 2}, {0, 1, 3}, {0, 2, 1}};

struct Surface {
  std::vector<Real> positions;
  std::vector<uint32_t> triangles;
};

Eigen::Vector3d vertex(const std::vector<Real>& xyz, uint32_t i) {
  return {xyz[3 * i], xyz[3 * i + 1], xyz[3 * i + 2]};
}

/// Orients every triangle away from `centre` (valid for surfaces star-shaped around it).
void orientOutward(Surface& s, const Eigen::Vector3d& centre) {
  for (size_t t = 0; t < s.triangles.size(); t += 3) {
    const Eigen::Vector3d a = vertex(s.positions, s.triangles[t]), b = vertex(s.positions, s.triangles[t + 1]),
                          c = vertex(s.positions, s.triangles[t + 2]);
    if ((b - a).cross(c - a).dot((a + b + c) / 3 - centre) < 0) std::swap(s.triangles[t + 1], s.triangles[t + 2]);
  }
}

Surface cube(Eigen::Vector3d origin = Eigen::Vector3d::Zero(), double side = 1) {
  Surface s;
  for (int i = 0; i < 8; ++i)
    for (int a = 0; a < 3; ++a) s.positions.push_back(Real(origin[a] + side * ((i >> a) & 1)));
  // Each face: the 4 corners with one coordinate fixed, split along a diagonal.
  for (int axis = 0; axis < 3; ++axis) {
    for (int value = 0; value < 2; ++value) {
      std::vector<uint32_t> c;
      for (uint32_t i = 0; i < 8; ++i)
        if (((i >> axis) & 1) == uint32_t(value)) c.push_back(i);  // c[0], c[1], c[3], c[2] go around the face
      s.triangles.insert(s.triangles.end(), {c[0], c[1], c[3], c[0], c[3], c[2]});
    }
  }
  orientOutward(s, origin + Eigen::Vector3d::Constant(side / 2));
  return s;
}

/// Unit icosphere (tests/scenes/icosphere.h).
Surface icosphere(int subdivisions, double radius = 1) {
  const scenes::IcosphereMesh m = scenes::icosphere(subdivisions, radius);
  return Surface{std::vector<Real>(m.positions.begin(), m.positions.end()), m.triangles};
}

/// Latitude–longitude sphere: two poles, `stacks - 1` rings of `slices` vertices.
Surface uvSphere(int stacks, int slices, double radius = 1) {
  Surface s;
  auto push = [&](double x, double y, double z) {
    s.positions.push_back(Real(x));
    s.positions.push_back(Real(y));
    s.positions.push_back(Real(z));
  };
  push(0, 0, radius);
  for (int i = 1; i < stacks; ++i) {
    const double th = std::numbers::pi * i / stacks;
    for (int j = 0; j < slices; ++j) {
      const double ph = 2 * std::numbers::pi * j / slices;
      push(radius * std::sin(th) * std::cos(ph), radius * std::sin(th) * std::sin(ph), radius * std::cos(th));
    }
  }
  push(0, 0, -radius);
  const uint32_t south = uint32_t(s.positions.size() / 3 - 1);
  auto ring = [&](int i, int j) { return uint32_t(1 + (i - 1) * slices + (j % slices)); };
  for (int j = 0; j < slices; ++j) {
    s.triangles.insert(s.triangles.end(), {0, ring(1, j), ring(1, j + 1)});
    s.triangles.insert(s.triangles.end(), {south, ring(stacks - 1, j + 1), ring(stacks - 1, j)});
    for (int i = 1; i + 1 < stacks; ++i) {
      s.triangles.insert(s.triangles.end(), {ring(i, j), ring(i + 1, j), ring(i + 1, j + 1)});
      s.triangles.insert(s.triangles.end(), {ring(i, j), ring(i + 1, j + 1), ring(i, j + 1)});
    }
  }
  orientOutward(s, Eigen::Vector3d::Zero());
  return s;
}

Vec3 vec(const std::vector<Real>& xyz, uint32_t i) { return Vec3(xyz[3 * i], xyz[3 * i + 1], xyz[3 * i + 2]); }

double tetMeshVolume(const TetrahedralizeResult& r) {
  double v = 0;
  for (size_t t = 0; t < r.tets.size(); t += 4) {
    const Eigen::Vector3d p0 = vertex(r.positions, r.tets[t]);
    v += (vertex(r.positions, r.tets[t + 1]) - p0)
             .dot((vertex(r.positions, r.tets[t + 2]) - p0).cross(vertex(r.positions, r.tets[t + 3]) - p0)) / 6;
  }
  return v;
}

/// The checks every carved result must pass.
void expectValidTetMesh(const TetrahedralizeResult& r, const Surface& s, double volumeTolerance = 0.03) {
  const uint32_t n = uint32_t(r.positions.size() / 3);
  ASSERT_EQ(r.tets.size() % 4, 0u);
  ASSERT_GT(r.tets.size(), 0u);
  EXPECT_EQ(r.surfaceVertexCount, s.positions.size() / 3);
  EXPECT_EQ(n, r.surfaceVertexCount + r.gridPointCount + r.extraPointCount);
  // Surface vertices first, bit-identical.
  ASSERT_GE(r.positions.size(), s.positions.size());
  EXPECT_TRUE(std::equal(s.positions.begin(), s.positions.end(), r.positions.begin()));
  std::vector<int> uses(n, 0);
  int nonPositive = 0;
  for (size_t t = 0; t < r.tets.size(); t += 4) {
    for (int j = 0; j < 4; ++j) {
      ASSERT_LT(r.tets[t + j], n);
      ++uses[r.tets[t + j]];
    }
    nonPositive += !(tetVolume(vec(r.positions, r.tets[t]), vec(r.positions, r.tets[t + 1]),
                               vec(r.positions, r.tets[t + 2]), vec(r.positions, r.tets[t + 3])) > 0);
  }
  EXPECT_EQ(nonPositive, 0) << "tets without positive volume";
  int unused = 0;
  for (uint32_t i = 0; i < n; ++i) unused += uses[i] == 0;
  EXPECT_EQ(unused, 0) << "vertices in no tet (surface vertices included)";
  EXPECT_EQ(r.unusedSurfaceVertices, 0u);
  const double surfaceVolume = mesh::closedSurfaceVolume(s.positions, s.triangles);
  const double volume = tetMeshVolume(r);
  EXPECT_NEAR(volume, surfaceVolume, volumeTolerance * surfaceVolume);
  // The boundary: a closed, consistently oriented manifold that encloses exactly the tets (so it faces outward).
  EXPECT_NO_THROW(mesh::requireClosedManifold("boundary", r.positions, r.surfaceTriangles));
  EXPECT_NEAR(mesh::closedSurfaceVolume(r.positions, r.surfaceTriangles), volume, 1e-6 * volume);
}

// ---- Delaunay checks on lattice points (exact) ----

/// Number of (tet, point) pairs with the point strictly inside the tet's circumsphere, by the exact predicate.
/// Candidates come from an x-sorted list and the circumsphere computed in long double plus a margin.
size_t delaunayViolations(std::span<const LatticePoint> p, const std::vector<std::array<uint32_t, 4>>& tets) {
  std::vector<uint32_t> byX(p.size());
  for (uint32_t i = 0; i < p.size(); ++i) byX[i] = i;
  std::sort(byX.begin(), byX.end(), [&](uint32_t a, uint32_t b) { return p[a].x < p[b].x; });
  size_t bad = 0;
  for (const auto& t : tets) {
    using LD = long double;
    const LatticePoint &a = p[t[0]], &b = p[t[1]], &c = p[t[2]], &d = p[t[3]];
    const LD bx = b.x - a.x, by = b.y - a.y, bz = b.z - a.z, cx = c.x - a.x, cy = c.y - a.y, cz = c.z - a.z;
    const LD dx = d.x - a.x, dy = d.y - a.y, dz = d.z - a.z;
    const LD lb = bx * bx + by * by + bz * bz, lc = cx * cx + cy * cy + cz * cz, ld = dx * dx + dy * dy + dz * dz;
    const LD det = bx * (cy * dz - cz * dy) + by * (cz * dx - cx * dz) + bz * (cx * dy - cy * dx);
    const LD ox = (lb * (cy * dz - cz * dy) + lc * (dy * bz - dz * by) + ld * (by * cz - bz * cy)) / (2 * det);
    const LD oy = (lb * (cz * dx - cx * dz) + lc * (dz * bx - dx * bz) + ld * (bz * cx - bx * cz)) / (2 * det);
    const LD oz = (lb * (cx * dy - cy * dx) + lc * (dx * by - dy * bx) + ld * (bx * cy - by * cx)) / (2 * det);
    const LD r = std::sqrt(ox * ox + oy * oy + oz * oz) * (1 + 1e-9L) + 2;
    const LD cxw = a.x + ox, cyw = a.y + oy, czw = a.z + oz;
    auto lo = std::lower_bound(byX.begin(), byX.end(), cxw - r, [&](uint32_t i, LD v) { return LD(p[i].x) < v; });
    for (auto it = lo; it != byX.end() && LD(p[*it].x) <= cxw + r; ++it) {
      const LatticePoint& e = p[*it];
      if (std::abs(LD(e.y) - cyw) > r || std::abs(LD(e.z) - czw) > r) continue;
      bad += mesh::insphere(a, b, c, d, e) > 0;
    }
  }
  return bad;
}

/// The tets triangulate the convex hull of the points: positive, neighbours consistent, every free face has all
/// points on its inner side (so the union is convex and holds every point), and Σ tet volumes equals the volume
/// enclosed by the free faces (no overlaps). All in exact integer arithmetic. Returns 6 × the hull volume.
__int128 expectTriangulatesTheHull(std::span<const LatticePoint> p, const mesh::TetMesh& m) {
  auto det = [](const LatticePoint& a, const LatticePoint& b, const LatticePoint& c) {
    return __int128(a.x) * (__int128(b.y) * c.z - __int128(b.z) * c.y) +
           __int128(a.y) * (__int128(b.z) * c.x - __int128(b.x) * c.z) +
           __int128(a.z) * (__int128(b.x) * c.y - __int128(b.y) * c.x);
  };
  auto sub = [](const LatticePoint& a, const LatticePoint& b) { return LatticePoint{a.x - b.x, a.y - b.y, a.z - b.z}; };
  __int128 sixVolume = 0, sixEnclosed = 0;
  size_t notPositive = 0, badNeighbour = 0, notConvex = 0;
  std::vector<char> used(p.size(), 0);
  for (size_t t = 0; t < m.tets.size(); ++t) {
    const auto& v = m.tets[t];
    for (uint32_t i : v) used[i] = 1;
    notPositive += mesh::orient3d(p[v[0]], p[v[1]], p[v[2]], p[v[3]]) <= 0;
    sixVolume += det(sub(p[v[1]], p[v[0]]), sub(p[v[2]], p[v[0]]), sub(p[v[3]], p[v[0]]));
    for (int i = 0; i < 4; ++i) {
      const int32_t u = m.neighbors[t][i];
      std::array<uint32_t, 3> f = {v[kFace[i][0]], v[kFace[i][1]], v[kFace[i][2]]};
      if (u >= 0) {
        // u must point back and share exactly this face.
        const auto& w = m.tets[u];
        int back = 0, shared = 0;
        for (int j = 0; j < 4; ++j) {
          back += m.neighbors[u][j] == int32_t(t);
          shared += std::count(f.begin(), f.end(), w[j]) > 0;
        }
        badNeighbour += back != 1 || shared != 3;
        continue;
      }
      sixEnclosed += det(p[f[0]], p[f[1]], p[f[2]]);
      for (const LatticePoint& q : p) notConvex += mesh::orient3d(p[f[0]], p[f[1]], p[f[2]], q) > 0;
    }
  }
  EXPECT_EQ(notPositive, 0u);
  EXPECT_EQ(badNeighbour, 0u);
  EXPECT_EQ(notConvex, 0u) << "a point lies beyond a hull face";
  EXPECT_TRUE(sixVolume == sixEnclosed) << "tets overlap or leave gaps";
  EXPECT_EQ(std::count(used.begin(), used.end(), 0), 0) << "points in no tet";
  return sixVolume;
}

std::vector<LatticePoint> latticeSphere(int64_t r, LatticePoint c = {0, 0, 0}) {
  std::vector<LatticePoint> s;
  for (int64_t x = -r; x <= r; ++x)
    for (int64_t y = -r; y <= r; ++y)
      for (int64_t z = -r; z <= r; ++z)
        if (x * x + y * y + z * z == r * r) s.push_back({c.x + x, c.y + y, c.z + z});
  return s;
}

std::vector<LatticePoint> latticeBlock(int n, int64_t spacing = 1, LatticePoint o = {0, 0, 0}) {
  std::vector<LatticePoint> s;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      for (int k = 0; k < n; ++k) s.push_back({o.x + i * spacing, o.y + j * spacing, o.z + k * spacing});
  return s;
}

/// The Delaunay tets of a carved-or-not result, in lattice coordinates of its own positions.
std::vector<LatticePoint> quantize(const std::vector<Real>& xyz) {
  const mesh::Lattice l = mesh::Lattice::fit(xyz);
  std::vector<LatticePoint> q(xyz.size() / 3);
  for (size_t i = 0; i < q.size(); ++i) q[i] = l(xyz[3 * i], xyz[3 * i + 1], xyz[3 * i + 2]);
  return q;
}

std::vector<std::array<uint32_t, 4>> tetArrays(const std::vector<uint32_t>& tets) {
  std::vector<std::array<uint32_t, 4>> a(tets.size() / 4);
  for (size_t t = 0; t < a.size(); ++t) a[t] = {tets[4 * t], tets[4 * t + 1], tets[4 * t + 2], tets[4 * t + 3]};
  return a;
}

/// keepOutside: the full Delaunay tetrahedralization; its tets must be Delaunay w.r.t. every output point.
void expectDelaunayBeforeCarving(const Surface& s, int resolution) {
  TetrahedralizeOptions o;
  o.resolution = resolution;
  o.keepOutside = true;
  const TetrahedralizeResult r = tetrahedralize(s.positions, s.triangles, o);
  // Flat tets (positive on the lattice, not in float) are the only ones missing.
  EXPECT_EQ(r.tets.size() / 4 + r.droppedFlat, r.delaunayTetCount);
  // The positions hold every surface vertex and every grid point, so their bounding box, hence the lattice, is the
  // one tetrahedralize used.
  const std::vector<LatticePoint> q = quantize(r.positions);
  const auto tets = tetArrays(r.tets);
  size_t notPositive = 0;
  for (const auto& t : tets) notPositive += mesh::orient3d(q[t[0]], q[t[1]], q[t[2]], q[t[3]]) <= 0;
  EXPECT_EQ(notPositive, 0u);
  EXPECT_EQ(delaunayViolations(q, tets), 0u) << "resolution " << resolution;
}

std::string readFile(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

}  // namespace

// ---------------------------------------------------------------------------------------------------------------
// The Delaunay core on degenerate point sets.

TEST(Delaunay, LatticeCubesAreValidDelaunayTetrahedralizationsOfTheCube) {
  for (int n = 2; n <= 7; ++n) {
    std::vector<LatticePoint> p = latticeBlock(n, 3, {-7, 100, 5});
    for (int shuffle = 0; shuffle < 3; ++shuffle) {
      std::mt19937 rng(n * 10 + shuffle);
      std::shuffle(p.begin(), p.end(), rng);
      mesh::DelaunayStats stats;
      const mesh::TetMesh m = mesh::delaunay(p, {}, &stats);
      const __int128 sixV = expectTriangulatesTheHull(p, m);
      EXPECT_TRUE(sixV == __int128(6) * 27 * (n - 1) * (n - 1) * (n - 1)) << "n " << n;
      EXPECT_EQ(delaunayViolations(p, m.tets), 0u) << "n " << n;
      EXPECT_EQ(stats.cavityGrowths, 0u);  // with exact predicates the strict cavity is always star-shaped
    }
  }
}

TEST(Delaunay, PointsOnIntegerSpheresFromPythagoreanQuadruples) {
  // x² + y² + z² = r² has many integer solutions for these radii (e.g. 9² = 1² + 4² + 8² = 4² + 4² + 7²
  // = 3² + 6² + 6² ...): large sets of exactly co-spherical points, and many co-planar / co-circular subsets.
  for (int64_t r : {3, 7, 9, 15}) {
    std::vector<LatticePoint> p = latticeSphere(r, {r * 100, -3, 17});
    const size_t onSphere = p.size();
    p.push_back({r * 100, -3, 17});  // and the centre
    const mesh::TetMesh m = mesh::delaunay(p);
    expectTriangulatesTheHull(p, m);
    EXPECT_EQ(delaunayViolations(p, m.tets), 0u) << "r " << r;
    // Four non-coplanar sphere points have the sphere itself as circumsphere, which holds the centre strictly:
    // so every Delaunay tet must have the centre as a vertex.
    for (const auto& t : m.tets) EXPECT_TRUE(std::find(t.begin(), t.end(), onSphere) != t.end());
  }
}

TEST(Delaunay, RandomMixturesOfLatticeSphereAndRandomPoints) {
  for (uint32_t seed = 1; seed <= 6; ++seed) {
    std::mt19937_64 rng(seed);
    std::vector<LatticePoint> p = latticeBlock(5, 4, {0, 0, 0});
    for (const LatticePoint& q : latticeSphere(9, {8, 8, 8})) p.push_back(q);
    std::uniform_int_distribution<int64_t> coord(-10, 26);
    for (int i = 0; i < 150; ++i) p.push_back({coord(rng), coord(rng), coord(rng)});
    std::sort(p.begin(), p.end(), [](auto& a, auto& b) { return std::tie(a.x, a.y, a.z) < std::tie(b.x, b.y, b.z); });
    p.erase(std::unique(p.begin(), p.end()), p.end());
    std::shuffle(p.begin(), p.end(), rng);
    const mesh::TetMesh m = mesh::delaunay(p);
    expectTriangulatesTheHull(p, m);
    EXPECT_EQ(delaunayViolations(p, m.tets), 0u) << "seed " << seed;
  }
}

TEST(Delaunay, ManyRandomPointsOverTheWholeLattice) {
  std::mt19937_64 rng(99);
  std::uniform_int_distribution<int64_t> coord(0, int64_t(1) << 20);
  std::vector<LatticePoint> p(5000);
  for (LatticePoint& q : p) q = {coord(rng), coord(rng), coord(rng)};
  mesh::DelaunayStats stats;
  const mesh::TetMesh m = mesh::delaunay(p, {}, &stats);
  expectTriangulatesTheHull(p, m);
  EXPECT_EQ(delaunayViolations(p, m.tets), 0u);
  EXPECT_LT(stats.walkSteps, 40 * p.size()) << "the walk should be short with the BRIO/Hilbert order";
  EXPECT_EQ(stats.walkFallbacks, 0u);
}

TEST(Delaunay, RejectsDuplicatesCoplanarAndTooFewPoints) {
  auto message = [](const std::vector<LatticePoint>& p) {
    try {
      mesh::delaunay(p);
    } catch (const InvalidArgument& e) {
      return std::string(e.what());
    }
    return std::string("no exception");
  };
  EXPECT_NE(message({{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 0, 0}, {0, 0, 1}}).find("points[1] and points[3] coincide"),
            std::string::npos);
  EXPECT_NE(message({{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 1, 0}, {5, 7, 0}}).find("coplanar"), std::string::npos);
  EXPECT_NE(message({{0, 0, 0}, {1, 0, 0}, {2, 0, 0}, {3, 0, 0}}).find("coplanar"), std::string::npos);
  EXPECT_NE(message({{0, 0, 0}, {1, 0, 0}, {0, 1, 0}}).find("at least 4"), std::string::npos);
  EXPECT_NE(message({{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 3 << 20}}).find("points[3]"), std::string::npos);
}

// ---------------------------------------------------------------------------------------------------------------
// Surfaces.

TEST(Tetrahedralize, SurfaceVolumeByTheDivergenceTheorem) {
  EXPECT_NEAR(mesh::closedSurfaceVolume(cube().positions, cube().triangles), 1.0, 1e-12);
  const Surface far = cube({1000, -2000, 500}, 2);
  EXPECT_NEAR(mesh::closedSurfaceVolume(far.positions, far.triangles), 8.0, 1e-6);
  const Surface s = icosphere(4);
  EXPECT_NEAR(mesh::closedSurfaceVolume(s.positions, s.triangles), 4.0 / 3 * std::numbers::pi, 0.01);
  Surface inward = s;
  for (size_t t = 0; t < inward.triangles.size(); t += 3) std::swap(inward.triangles[t], inward.triangles[t + 1]);
  EXPECT_NEAR(mesh::closedSurfaceVolume(inward.positions, inward.triangles),
              -mesh::closedSurfaceVolume(s.positions, s.triangles), 1e-12);
  EXPECT_NO_THROW(mesh::requireClosedManifold("test", s.positions, s.triangles));
  EXPECT_NO_THROW(mesh::requireClosedManifold("test", far.positions, far.triangles));
}

TEST(Tetrahedralize, WindingNumberIsOneInsideZeroOutsideAndTheBvhMatchesBruteForce) {
  const Surface s = icosphere(3);
  std::vector<Eigen::Vector3d> v;
  for (size_t i = 0; i < s.positions.size(); i += 3) v.push_back(vertex(s.positions, uint32_t(i / 3)));
  const mesh::SurfaceBvh bvh(v, s.triangles);
  std::mt19937 rng(4);
  std::uniform_real_distribution<double> u(-1.5, 1.5);
  for (int i = 0; i < 300; ++i) {
    const Eigen::Vector3d q(u(rng), u(rng), u(rng));
    const double brute = mesh::windingNumberBruteForce(v, s.triangles, q);
    EXPECT_NEAR(bvh.windingNumber(q), brute, 1e-9);
    if (q.norm() < 0.95) {
      EXPECT_NEAR(brute, 1, 1e-9);
    } else if (q.norm() > 1.05) {
      EXPECT_NEAR(brute, 0, 1e-9);
    }
  }
  EXPECT_NEAR(mesh::solidAngle({1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {0, 0, 0}), 4 * std::numbers::pi / 8, 1e-12);
}

TEST(Tetrahedralize, UnitCube) {
  const Surface s = cube();
  for (int res : {0, 1, 8}) {
    const TetrahedralizeResult r = tetrahedralize(s.positions, s.triangles, {.resolution = res});
    SCOPED_TRACE("resolution " + std::to_string(res));
    expectValidTetMesh(r, s, 1e-6);  // a convex polyhedron is filled exactly
    if (res == 0) {
      EXPECT_EQ(r.positions.size(), 24u);
    } else if (res == 8) {
      EXPECT_EQ(r.gridPointCount, 7u * 7 * 7);  // nodes on the faces are on the surface: skipped
    }
    expectDelaunayBeforeCarving(s, res);
  }
}

TEST(Tetrahedralize, IcosphereAndUvSphereAtTwoResolutions) {
  struct Case {
    const char* name;
    Surface s;
    int res;
  };
  const Case cases[] = {{"icosphere(2)", icosphere(2), 0},  {"icosphere(3)", icosphere(3), 8},
                        {"icosphere(3)", icosphere(3), 16}, {"uvSphere(12, 24)", uvSphere(12, 24), 8},
                        {"uvSphere(12, 24)", uvSphere(12, 24), 16}};
  for (const Case& c : cases) {
    SCOPED_TRACE(std::string(c.name) + " resolution " + std::to_string(c.res));
    const TetrahedralizeResult r = tetrahedralize(c.s.positions, c.s.triangles, {.resolution = c.res});
    expectValidTetMesh(r, c.s);
    if (c.res > 0) {
      // Grid points fill the ball: about (4/3)π (res/2)³ of them, fewer for the margin to the surface.
      const double ballNodes = 4.0 / 3 * std::numbers::pi * std::pow(c.res / 2.0, 3);
      EXPECT_GT(r.gridPointCount, 0.3 * ballNodes);
      EXPECT_LT(r.gridPointCount, 1.0 * ballNodes);
    }
    expectDelaunayBeforeCarving(c.s, c.res);
  }
}

TEST(Tetrahedralize, InwardFacingSurfaceGivesTheSameTets) {
  const Surface s = icosphere(2);
  Surface inward = s;
  for (size_t t = 0; t < inward.triangles.size(); t += 3) std::swap(inward.triangles[t + 1], inward.triangles[t + 2]);
  const TetrahedralizeResult a = tetrahedralize(s.positions, s.triangles, {.resolution = 6});
  const TetrahedralizeResult b = tetrahedralize(inward.positions, inward.triangles, {.resolution = 6});
  EXPECT_EQ(a.tets, b.tets);
  EXPECT_EQ(a.positions, b.positions);
}

TEST(Tetrahedralize, TwoSeparateSpheresAreBothFilledAndTheGapIsRemoved) {
  Surface s = icosphere(3);
  const uint32_t n = uint32_t(s.positions.size() / 3);
  const Surface small = icosphere(3, 0.6);
  for (size_t i = 0; i < small.positions.size(); ++i) s.positions.push_back(small.positions[i] + (i % 3 == 0 ? 2.5f : 0));
  for (uint32_t i : small.triangles) s.triangles.push_back(i + n);
  const TetrahedralizeResult r = tetrahedralize(s.positions, s.triangles, {.resolution = 12});
  expectValidTetMesh(r, s);
  EXPECT_GT(r.outsideTetCount, 0u);  // the convex hull's tets between the two spheres were removed
}

TEST(Tetrahedralize, ExtraPointsInsideAreUsedOutsideDroppedDuplicatesMerged) {
  const Surface s = icosphere(2);
  TetrahedralizeOptions o;
  o.extraPoints = {0.1f, 0.2f, -0.1f,   // inside
                   3, 3, 3,             // outside the surface
                   s.positions[3], s.positions[4], s.positions[5],  // = surface vertex 1
                   -0.3f, 0, 0.2f,      // inside
                   0.9f, 0.9f, 0.9f};   // inside the bounding box, outside the sphere
  const TetrahedralizeResult r = tetrahedralize(s.positions, s.triangles, o);
  expectValidTetMesh(r, s);
  ASSERT_EQ(r.extraPointVertex.size(), 5u);
  EXPECT_EQ(r.mergedPoints, 1u);
  EXPECT_EQ(r.extraPointCount, 2u);
  EXPECT_EQ(r.extraPointVertex[1], -1);
  EXPECT_EQ(r.extraPointVertex[4], -1);
  EXPECT_EQ(r.extraPointVertex[2], 1);
  for (int e : {0, 3}) {
    ASSERT_GE(r.extraPointVertex[e], int(r.surfaceVertexCount));
    for (int a = 0; a < 3; ++a) EXPECT_EQ(r.positions[3 * r.extraPointVertex[e] + a], o.extraPoints[3 * e + a]);
  }
}

TEST(Tetrahedralize, QualityIsOneForTheRegularTetAndZeroForAFlatOne) {
  const double s = 1 / std::sqrt(2.0);
  const Vec3 a(1, 0, Real(-s)), b(-1, 0, Real(-s)), c(0, 1, Real(s)), d(0, -1, Real(s));
  EXPECT_NEAR(tetQuality(a, b, c, d), 1, 1e-6);
  EXPECT_NEAR(tetQuality(b, a, c, d), 1, 1e-6);  // orientation does not matter
  EXPECT_NEAR(tetQuality(a * 7 + Vec3(1, 2, 3), b * 7 + Vec3(1, 2, 3), c * 7 + Vec3(1, 2, 3), d * 7 + Vec3(1, 2, 3)),
              1, 1e-5);
  EXPECT_EQ(tetQuality(Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0), Vec3(1, 1, 0)), 0);
  // Right-corner tet: r_in = 1/(3+√3), R = √3/2 → 3 r_in / R = 2√3 / (3 + √3) ≈ 0.732.
  EXPECT_NEAR(tetQuality(Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0), Vec3(0, 0, 1)),
              2 * std::sqrt(3.0) / (3 + std::sqrt(3.0)), 1e-6);
  // A sliver: four points near a square's corners, barely lifted.
  EXPECT_LT(tetQuality(Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0), Vec3(1, 1, 0.01f)), 0.05);
}

TEST(Tetrahedralize, QualityThresholdDropsPoorTetsAndCountsThem) {
  const Surface s = icosphere(3);
  const TetrahedralizeResult all = tetrahedralize(s.positions, s.triangles, {.resolution = 8});
  double worst = 1;
  for (size_t t = 0; t < all.tets.size(); t += 4)
    worst = std::min(worst, tetQuality(vec(all.positions, all.tets[t]), vec(all.positions, all.tets[t + 1]),
                                       vec(all.positions, all.tets[t + 2]), vec(all.positions, all.tets[t + 3])));
  const double threshold = 0.15;
  ASSERT_LT(worst, threshold) << "the test needs some poor tets to drop";
  const TetrahedralizeResult r = tetrahedralize(s.positions, s.triangles, {.resolution = 8, .minQuality = threshold});
  EXPECT_GT(r.droppedLowQuality, 0u);
  for (size_t t = 0; t < r.tets.size(); t += 4)
    EXPECT_GE(tetQuality(vec(r.positions, r.tets[t]), vec(r.positions, r.tets[t + 1]), vec(r.positions, r.tets[t + 2]),
                         vec(r.positions, r.tets[t + 3])),
              threshold);
  // Kept = inside - dropped - repair removals + repair additions.
  EXPECT_EQ(r.tets.size() / 4 + r.droppedLowQuality + r.droppedFlat + r.repairRemovedTets - r.repairAddedTets,
            r.delaunayTetCount - r.outsideTetCount);
  EXPECT_NO_THROW(mesh::requireClosedManifold("boundary", r.positions, r.surfaceTriangles));
  EXPECT_NEAR(mesh::closedSurfaceVolume(r.positions, r.surfaceTriangles), tetMeshVolume(r), 1e-6);
}

TEST(Tetrahedralize, ProgressIsNondecreasingAndEndsAtOne) {
  const Surface s = icosphere(3);
  std::vector<double> seen;
  TetrahedralizeOptions o;
  o.resolution = 16;
  o.progress = [&](double f) {
    seen.push_back(f);
    return true;
  };
  tetrahedralize(s.positions, s.triangles, o);
  ASSERT_GE(seen.size(), 5u);
  EXPECT_EQ(seen.front(), 0.0);
  EXPECT_EQ(seen.back(), 1.0);
  EXPECT_EQ(std::count(seen.begin(), seen.end(), 1.0), 1);
  for (size_t i = 1; i < seen.size(); ++i) EXPECT_GE(seen[i], seen[i - 1]);
  for (double f : seen) EXPECT_TRUE(f >= 0 && f <= 1);
}

TEST(Tetrahedralize, ProgressReturningFalseThrowsCancelled) {
  const Surface s = icosphere(3);
  for (double stopAt : {0.0, 0.3, 0.8, 1.0}) {
    int calls = 0;
    TetrahedralizeOptions o;
    o.resolution = 16;
    o.progress = [&](double f) {
      ++calls;
      return f < stopAt;
    };
    EXPECT_THROW(tetrahedralize(s.positions, s.triangles, o), Cancelled) << "stop at " << stopAt;
    EXPECT_GE(calls, 1);
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Bad input.

namespace {
void expectRejected(std::span<const Real> positions, std::span<const uint32_t> triangles,
                    const TetrahedralizeOptions& o, std::initializer_list<const char*> fragments) {
  try {
    tetrahedralize(positions, triangles, o);
    ADD_FAILURE() << "no exception; expected one mentioning " << *fragments.begin();
  } catch (const InvalidArgument& e) {
    const std::string m = e.what();
    EXPECT_EQ(m.rfind("tetrahedralize: ", 0), 0u) << m;
    for (const char* f : fragments) EXPECT_NE(m.find(f), std::string::npos) << "'" << f << "' not in: " << m;
  }
}
void expectRejected(const Surface& s, std::initializer_list<const char*> fragments) {
  expectRejected(s.positions, s.triangles, {}, fragments);
}
}  // namespace

TEST(TetrahedralizeBadInput, EmptyAndMalformedArrays) {
  const Surface c = cube();
  expectRejected({}, {}, {}, {"positions", "must not be empty"});
  expectRejected(c.positions, {}, {}, {"triangles", "at least 4 triangles"});
  std::vector<Real> ten(c.positions.begin(), c.positions.begin() + 10);
  expectRejected(ten, c.triangles, {}, {"positions.size()", "multiple of 3", "got 10"});
  std::vector<uint32_t> partial = c.triangles;
  partial.pop_back();
  expectRejected(c.positions, partial, {}, {"triangles.size()", "multiple of 3", "got 35"});
}

TEST(TetrahedralizeBadInput, NonFiniteCoordinatesAndIndicesOutOfRange) {
  Surface s = cube();
  s.positions[4] = std::numeric_limits<Real>::quiet_NaN();
  expectRejected(s, {"positions[4]", "finite"});
  s = cube();
  s.positions[21] = std::numeric_limits<Real>::infinity();
  expectRejected(s, {"positions[21]", "finite"});
  s = cube();
  s.triangles[12] = 57;
  expectRejected(s, {"triangles[12] is out of range [0, 8) (got 57)"});
}

TEST(TetrahedralizeBadInput, DegenerateTriangles) {
  Surface s = cube();
  s.triangles[7] = s.triangles[6];  // triangle 2 repeats a vertex
  expectRejected(s, {"triangles[6..8]", "repeats a vertex"});
  s = cube();
  // Vertex 8 in the middle of edge 0–1: triangle (0, 8, 1) has zero area.
  s.positions.insert(s.positions.end(), {0.5f, 0, 0});
  s.triangles.insert(s.triangles.end(), {0, 8, 1});
  expectRejected(s, {"triangles[36..38]", "zero area", "0, 8, 1"});
}

TEST(TetrahedralizeBadInput, OpenNonManifoldAndInconsistentSurfaces) {
  Surface s = cube();
  const std::array<uint32_t, 3> removed = {s.triangles[33], s.triangles[34], s.triangles[35]};
  s.triangles.resize(33);  // a hole: the last triangle's edges are on one triangle only
  {
    // The first open edge in (min, max) order, as the message reports it.
    std::vector<std::pair<uint32_t, uint32_t>> e;
    for (int j = 0; j < 3; ++j) e.push_back(std::minmax(removed[j], removed[(j + 1) % 3]));
    std::sort(e.begin(), e.end());
    const std::string edge = "edge (" + std::to_string(e[0].first) + ", " + std::to_string(e[0].second) + ")";
    expectRejected(s, {"triangles", edge.c_str(), "shared by 1 triangle", "closed manifold"});
  }
  s = cube();
  s.positions.insert(s.positions.end(), {0.5f, -1, 0});  // vertex 8: a fin on edge 0–1
  s.triangles.insert(s.triangles.end(), {0, 1, 8});
  expectRejected(s, {"triangles", "edge (0, 1)", "shared by 3 triangles"});
  s = cube();
  std::swap(s.triangles[4], s.triangles[5]);  // flip triangle 1
  expectRejected(s, {"triangles", "inconsistently oriented", "edge ("});
  // Two tetrahedra sharing only vertex 0: every edge is fine but the vertex is not a manifold point.
  Surface bowtie;
  bowtie.positions = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, -1, 0, 0, 0, -1, 0, 0, 0, -1};
  bowtie.triangles = {0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3};  // the tet (0, 1, 2, 3), outward
  for (size_t k = 0; k < 12; ++k) bowtie.triangles.push_back(bowtie.triangles[k] ? bowtie.triangles[k] + 3 : 0);
  // The mirrored tet (0, 4, 5, 6) is mirrored in all three axes, which reverses orientation: flip it back.
  for (size_t t = 12; t < 24; t += 3) std::swap(bowtie.triangles[t + 1], bowtie.triangles[t + 2]);
  ASSERT_GT(mesh::closedSurfaceVolume(bowtie.positions, bowtie.triangles), 0);
  expectRejected(bowtie, {"triangles", "vertex 0", "more than one fan"});
}

TEST(TetrahedralizeBadInput, ZeroVolumeAndCoincidentVertices) {
  // A "tetrahedron" whose 4 vertices are coplanar (a square): closed and manifold, but encloses nothing.
  Surface flat;
  flat.positions = {0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0};
  flat.triangles = {0, 1, 2, 0, 2, 3, 0, 3, 1, 1, 3, 2};
  expectRejected(flat, {"triangles", "enclose no volume"});
  // Two cubes, the second's vertex 0 (index 8) exactly on the first's vertex 7.
  Surface s = cube();
  const Surface other = cube({1, 1, 1});
  for (uint32_t i : other.triangles) s.triangles.push_back(i + 8);
  s.positions.insert(s.positions.end(), other.positions.begin(), other.positions.end());
  expectRejected(s, {"positions", "vertices 7 and 8 coincide"});
}

TEST(TetrahedralizeBadInput, Options) {
  const Surface s = cube();
  expectRejected(s.positions, s.triangles, {.resolution = -1}, {"options.resolution", "[0, 256]", "got -1"});
  expectRejected(s.positions, s.triangles, {.resolution = 257}, {"options.resolution", "got 257"});
  expectRejected(s.positions, s.triangles, {.minQuality = -0.1}, {"options.minQuality", "[0, 1)"});
  expectRejected(s.positions, s.triangles, {.minQuality = 1}, {"options.minQuality", "got 1"});
  expectRejected(s.positions, s.triangles, {.minQuality = std::nan("")}, {"options.minQuality"});
  expectRejected(s.positions, s.triangles, {.surfaceMargin = -1}, {"options.surfaceMargin", "[0, 2]"});
  expectRejected(s.positions, s.triangles, {.surfaceMargin = INFINITY}, {"options.surfaceMargin"});
  TetrahedralizeOptions o;
  o.extraPoints = {0.5f, 0.5f, 0.5f, 1};
  expectRejected(s.positions, s.triangles, o, {"options.extraPoints.size()", "multiple of 3", "got 4"});
  o.extraPoints = {0.5f, std::numeric_limits<Real>::quiet_NaN(), 0.5f};
  expectRejected(s.positions, s.triangles, o, {"options.extraPoints[1]", "finite"});
}

// ---------------------------------------------------------------------------------------------------------------
// The Stanford bunny (1839 vertices, 3674 triangles), written by tests/data/write-bunny-obj.mjs.

TEST(TetrahedralizeBunny, TwoResolutions) {
  const std::string path = std::string(PBD_TEST_DATA_DIR) + "/bunny.obj";
  const std::string text = readFile(path);
  ASSERT_FALSE(text.empty()) << "cannot read " << path;
  const SurfaceMesh m = readObj(text);
  ASSERT_EQ(m.positions.size(), 3u * 1839);
  ASSERT_EQ(m.triangles.size(), 3u * 3674);
  const Surface s{m.positions, m.triangles};
  for (int res : {10, 20}) {
    SCOPED_TRACE("resolution " + std::to_string(res));
    const auto t0 = std::chrono::steady_clock::now();
    const TetrahedralizeResult r = tetrahedralize(s.positions, s.triangles, {.resolution = res});
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    std::cout << "[ bunny    ] resolution " << res << ": " << r.positions.size() / 3 << " vertices ("
              << r.gridPointCount << " grid), " << r.tets.size() / 4 << " tets, " << r.surfaceTriangles.size() / 3
              << " boundary triangles, repair -" << r.repairRemovedTets << "/+" << r.repairAddedTets << ", " << ms
              << " ms\n";
    expectValidTetMesh(r, s);
    EXPECT_GT(r.gridPointCount, 0u);
    expectDelaunayBeforeCarving(s, res);
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Slivers. Four vertices on one circle (a lathe's flat trapezoid quads, its rings, a box's squares) are coplanar and
// cospherical: the Delaunay tetrahedralization has flat or nearly flat tets there, which addSoftBody refuses
// ("tets[9] is degenerate (volume)") once the lattice positions are rounded back to floats. Every result must build
// a soft body, with the surface closed and the volume kept.

namespace {

/// addSoftBody's message for the result's tets ("" when accepted).
std::string softBodyError(const TetrahedralizeResult& r, SoftMaterial material) {
  World world;
  SoftBodyDef def;
  def.positions = r.positions;
  def.tets = r.tets;
  def.material = material;
  try {
    world.addSoftBody(def);
  } catch (const InvalidArgument& e) {
    return e.what();
  }
  return "";
}

/// expectValidTetMesh, both soft body materials, and the faces of exactly one tet: the surface triangles are among
/// them, and the others (faces next to a sliver left out inside the solid) form closed surfaces of zero volume.
void expectSimulable(const TetrahedralizeResult& r, const Surface& s) {
  expectValidTetMesh(r, s);
  EXPECT_EQ(softBodyError(r, SoftMaterial::Volume), "");
  EXPECT_EQ(softBodyError(r, SoftMaterial::NeoHookean), "");
  std::map<std::array<uint32_t, 3>, std::array<uint32_t, 4>> faces;  // sorted face -> (uses, oriented face)
  for (size_t t = 0; t < r.tets.size(); t += 4) {
    for (int i = 0; i < 4; ++i) {
      const std::array<uint32_t, 3> f = {r.tets[t + kFace[i][0]], r.tets[t + kFace[i][1]], r.tets[t + kFace[i][2]]};
      std::array<uint32_t, 3> key = f;
      std::sort(key.begin(), key.end());
      auto& entry = faces[key];
      entry = {entry[0] + 1, f[0], f[1], f[2]};
    }
  }
  size_t surfaceFacesOfOneTet = 0;
  for (size_t t = 0; t < r.surfaceTriangles.size(); t += 3) {
    std::array<uint32_t, 3> key = {r.surfaceTriangles[t], r.surfaceTriangles[t + 1], r.surfaceTriangles[t + 2]};
    std::sort(key.begin(), key.end());
    const auto it = faces.find(key);
    if (it == faces.end() || it->second[0] != 1) continue;
    ++surfaceFacesOfOneTet;
    faces.erase(it);
  }
  EXPECT_EQ(surfaceFacesOfOneTet, r.surfaceTriangles.size() / 3) << "surface triangles that are not a face of one tet";
  std::vector<uint32_t> cracks;
  for (const auto& [key, entry] : faces)
    if (entry[0] == 1) cracks.insert(cracks.end(), {entry[1], entry[2], entry[3]});
  std::map<std::pair<uint32_t, uint32_t>, int> balance;
  for (size_t t = 0; t < cracks.size(); t += 3) {
    for (int k = 0; k < 3; ++k) {
      const uint32_t a = cracks[t + k], b = cracks[t + (k + 1) % 3];
      balance[{std::min(a, b), std::max(a, b)}] += a < b ? 1 : -1;
    }
  }
  int open = 0;
  for (const auto& [edge, b] : balance) open += b != 0;
  EXPECT_EQ(open, 0) << "the faces next to left-out slivers do not close up";
  const double volume = tetMeshVolume(r);
  EXPECT_LE(std::abs(mesh::closedSurfaceVolume(r.positions, cracks)), 1e-6 * volume);
}

struct SliverCase {
  std::string name;
  scenes::ClosedSurface mesh;
};

/// Runs every case at each resolution; returns the slivers dropped in all (r.droppedFlat).
uint32_t expectAllSimulable(const std::vector<SliverCase>& cases, std::initializer_list<int> resolutions) {
  uint32_t dropped = 0;
  for (const SliverCase& c : cases) {
    const Surface s{c.mesh.positions, c.mesh.triangles};
    for (const int res : resolutions) {
      SCOPED_TRACE(c.name + " resolution " + std::to_string(res));
      const TetrahedralizeResult r = tetrahedralize(s.positions, s.triangles, {.resolution = res});
      expectSimulable(r, s);
      dropped += r.droppedFlat;
    }
  }
  return dropped;
}

}  // namespace

TEST(TetrahedralizeSlivers, ToriOfRevolutionAtSeveralSegmentCountsAndResolutions) {
  const int shapes[][2] = {{12, 8}, {16, 8}, {16, 12}, {24, 12}, {24, 16}, {32, 8}, {32, 16}, {48, 12}};
  uint32_t dropped = 0;
  for (const auto& [segments, rings] : shapes) {
    const scenes::ClosedSurface m = scenes::torus(segments, rings, 1, 0.4);
    const Surface s{m.positions, m.triangles};
    for (const int res : {0, 8, 16}) {
      SCOPED_TRACE("torus(" + std::to_string(segments) + ", " + std::to_string(rings) + ") resolution " +
                   std::to_string(res));
      const TetrahedralizeResult r = tetrahedralize(s.positions, s.triangles, {.resolution = res});
      expectSimulable(r, s);
      dropped += r.droppedFlat;
      // The hole stays open: every tet's centroid is at least as far from the axis as the inner equator's chords.
      const double inner = (1 - 0.4) * std::cos(std::numbers::pi / segments) - 1e-4;
      double nearest = 1e9;
      for (size_t t = 0; t < r.tets.size(); t += 4) {
        Eigen::Vector3d c = Eigen::Vector3d::Zero();
        for (int k = 0; k < 4; ++k) c += vertex(r.positions, r.tets[t + k]) / 4;
        nearest = std::min(nearest, std::hypot(c.x(), c.y()));
      }
      EXPECT_GT(nearest, inner);
    }
  }
  EXPECT_GT(dropped, 0u) << "no slivers: the cases test nothing";
}

TEST(TetrahedralizeSlivers, ToriWithATenthOfAMillimetreOfJitter) {
  std::vector<SliverCase> cases;
  for (const uint32_t seed : {1u, 2u, 3u}) {
    for (const int segments : {16, 32}) {
      scenes::ClosedSurface m = scenes::torus(segments, 12, 0.12, 0.05);  // 24 cm across: 0.1 mm is ~1/8 of an edge
      scenes::jitter(m, 1e-4, seed);
      cases.push_back({"jittered torus(" + std::to_string(segments) + ", 12) seed " + std::to_string(seed), m});
    }
  }
  expectAllSimulable(cases, {0, 8, 16});
}

TEST(TetrahedralizeSlivers, CylindersUvSpheresAndALathe) {
  std::vector<SliverCase> cases;
  for (const int segments : {12, 24, 32}) {
    cases.push_back({"cylinder(" + std::to_string(segments) + ", 6, 3)", scenes::cylinder(segments, 6, 3)});
    cases.push_back({"latLongSphere(" + std::to_string(segments) + ")", scenes::latLongSphere(segments, segments / 2)});
  }
  for (const int segments : {16, 32})
    cases.push_back({"vase(" + std::to_string(segments) + ", 12)", scenes::vase(segments, 12)});
  EXPECT_GT(expectAllSimulable(cases, {0, 8, 16}), 0u) << "no slivers: the cases test nothing";
}

TEST(TetrahedralizeSlivers, SubdividedBoxes) {
  std::vector<SliverCase> cases;
  for (const int n : {2, 4, 8}) cases.push_back({"box " + std::to_string(n) + "^3", scenes::subdividedBox(n, n, n)});
  cases.push_back({"box 3x5x7 of 0.6x1x1.4", scenes::subdividedBox(3, 5, 7, 0.6, 1, 1.4)});
  expectAllSimulable(cases, {0, 8, 16});
}

TEST(TetrahedralizeSlivers, KeepOutsideReturnsOnlyTetsThatAddSoftBodyAccepts) {
  const scenes::ClosedSurface m = scenes::torus(24, 12);
  const TetrahedralizeResult r = tetrahedralize(m.positions, m.triangles, {.resolution = 8, .keepOutside = true});
  ASSERT_GT(r.tets.size(), 0u);
  int refused = 0;
  for (size_t t = 0; t < r.tets.size(); t += 4) {
    Real volume;
    const Vec3 p0 = vec(r.positions, r.tets[t]), p1 = vec(r.positions, r.tets[t + 1]),
               p2 = vec(r.positions, r.tets[t + 2]), p3 = vec(r.positions, r.tets[t + 3]);
    refused += check::tetShapeDefect(p0, p1, p2, p3, volume) != nullptr;
  }
  EXPECT_EQ(refused, 0);
}

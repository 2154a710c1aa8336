// Hilbert-curve vertex reordering of body defs (issue #8): the curve kernel, the maps, that a reordered body is the
// same body (mass, centre of mass, rest volume, pins, a drop onto the ground), bad input, and the locality it buys.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <set>
#include <vector>

#include "math/hilbert.h"
#include "native/expect_error.h"
#include "pbd/particle_order.h"
#include "pbd/world.h"
#include "scenes/icosphere.h"
#include "scenes/shuffle.h"
#include "scenes/tet_cube.h"

using namespace pbd;

namespace {

/// Mean |i - j| over every tet edge: how far apart in memory the particles one constraint reads are.
double meanEdgeSpan(const std::vector<uint32_t>& tets) {
  double sum = 0;
  size_t count = 0;
  for (size_t t = 0; t < tets.size(); t += 4)
    for (int a = 0; a < 4; ++a)
      for (int b = a + 1; b < 4; ++b, ++count) sum += std::abs(double(tets[t + a]) - double(tets[t + b]));
  return sum / double(count);
}

/// The median of |i - j| over every tet edge: the span of a typical constraint, blind to the few long jumps.
double medianEdgeSpan(const std::vector<uint32_t>& tets) {
  std::vector<uint32_t> spans;
  for (size_t t = 0; t < tets.size(); t += 4)
    for (int a = 0; a < 4; ++a)
      for (int b = a + 1; b < 4; ++b) spans.push_back(tets[t + a] > tets[t + b] ? tets[t + a] - tets[t + b] : tets[t + b] - tets[t + a]);
  std::nth_element(spans.begin(), spans.begin() + spans.size() / 2, spans.end());
  return spans[spans.size() / 2];
}

bool isPermutation(const std::vector<uint32_t>& map) {
  std::vector<char> seen(map.size(), 0);
  for (uint32_t v : map) {
    if (v >= map.size() || seen[v]) return false;
    seen[v] = 1;
  }
  return true;
}

/// Σ m x / Σ m over the particles [first, first + count), in double.
Eigen::Vector3d centreOfMass(const World& w, uint32_t first, uint32_t count) {
  Eigen::Vector3d sum = Eigen::Vector3d::Zero();
  double mass = 0;
  for (uint32_t i = first; i < first + count; ++i) {
    const double m = 1.0 / w.inverseMasses()[i];
    sum += m * Eigen::Vector3d(w.positions()[3 * i], w.positions()[3 * i + 1], w.positions()[3 * i + 2]);
    mass += m;
  }
  return sum / mass;
}

}  // namespace

TEST(ParticleOrderHilbert, ConsecutiveIndicesAreFaceNeighboursAndCoverTheGrid) {
  for (int bits = 1; bits <= 4; ++bits) {
    const uint32_t side = 1u << bits;
    std::vector<std::array<int, 3>> cellAt(size_t(side) * side * side, {-1, -1, -1});
    for (uint32_t x = 0; x < side; ++x)
      for (uint32_t y = 0; y < side; ++y)
        for (uint32_t z = 0; z < side; ++z) {
          const uint64_t h = hilbertIndex3(x, y, z, bits);
          ASSERT_LT(h, cellAt.size()) << "bits " << bits;
          ASSERT_EQ(cellAt[h][0], -1) << "index " << h << " given twice, bits " << bits;  // a bijection
          cellAt[h] = {int(x), int(y), int(z)};
        }
    for (size_t h = 1; h < cellAt.size(); ++h) {
      int manhattan = 0;
      for (int a = 0; a < 3; ++a) manhattan += std::abs(cellAt[h][a] - cellAt[h - 1][a]);
      ASSERT_EQ(manhattan, 1) << "indices " << h - 1 << " and " << h << " are not face neighbours, bits " << bits;
    }
  }
}

TEST(ParticleOrder, LocalityOrderIsADeterministicPermutationWithTiesByOldIndex) {
  const SoftBodyDef cube = scenes::shuffledVertices(scenes::tetCube(5, 1, Vec3::Zero()), 3);
  const std::vector<uint32_t> map = localityOrder(cube.positions.data(), cube.positions.size() / 3);
  EXPECT_TRUE(isPermutation(map));
  EXPECT_EQ(map, localityOrder(cube.positions.data(), cube.positions.size() / 3));
  // Coincident vertices share a cell: they keep their relative order.
  const std::vector<Real> same(15, 0.25f);
  EXPECT_EQ(localityOrder(same.data(), 5), (std::vector<uint32_t>{0, 1, 2, 3, 4}));
  EXPECT_TRUE(localityOrder(nullptr, 0).empty());
  // The order is along the curve: consecutive vertices of a unit-spaced grid are one grid step apart (the 6^3 grid
  // is not a power-of-two block, so the curve may leave it and come back: allow a few jumps, never most).
  std::vector<uint32_t> vertexAt(map.size());
  for (size_t v = 0; v < map.size(); ++v) vertexAt[map[v]] = uint32_t(v);
  int neighbours = 0;
  for (size_t r = 1; r < map.size(); ++r) {
    double d = 0;
    for (int a = 0; a < 3; ++a) d += std::abs(cube.positions[3 * vertexAt[r] + a] - cube.positions[3 * vertexAt[r - 1] + a]);
    if (std::abs(d - 0.2) < 1e-4) ++neighbours;
  }
  EXPECT_GT(neighbours, int(0.8 * double(map.size() - 1)));
}

TEST(ParticleOrder, SoftBodyMapIsAPermutationAndTetsAndPinsFollowTheirVertices) {
  SoftBodyDef original = scenes::shuffledVertices(scenes::tetCube(4, 0.4f, Vec3(0, 1, 0)), 7);
  original.pinned = {3, 17, 17, 60};  // duplicates are the builder's business: kept entry by entry
  SoftBodyDef def = original;
  const std::vector<uint32_t> map = reorderSoftBody(def);
  const size_t n = original.positions.size() / 3;
  ASSERT_EQ(map.size(), n);
  EXPECT_TRUE(isPermutation(map));
  ASSERT_EQ(def.positions.size(), original.positions.size());
  for (size_t v = 0; v < n; ++v)
    for (int a = 0; a < 3; ++a) ASSERT_EQ(def.positions[3 * map[v] + a], original.positions[3 * v + a]) << v;
  ASSERT_EQ(def.pinned.size(), original.pinned.size());
  for (size_t k = 0; k < def.pinned.size(); ++k) EXPECT_EQ(def.pinned[k], map[original.pinned[k]]);
  // The same tets, corners in the same order (orientation kept), sorted by their smallest vertex.
  std::multiset<std::array<uint32_t, 4>> expected, got;
  for (size_t t = 0; t < original.tets.size(); t += 4) {
    expected.insert({map[original.tets[t]], map[original.tets[t + 1]], map[original.tets[t + 2]], map[original.tets[t + 3]]});
    got.insert({def.tets[t], def.tets[t + 1], def.tets[t + 2], def.tets[t + 3]});
  }
  EXPECT_EQ(got, expected);
  // Sorted by smallest vertex, then dealt from 8 chunks: in every full row of 8, stream c's tet comes before stream
  // c + 1's in sorted order, and each stream's next row comes after it. And consecutive tets rarely share a vertex.
  const size_t count = def.tets.size() / 4, streams = 8, rows = (count + streams - 1) / streams;
  auto smallest = [&](size_t t) { return *std::min_element(def.tets.begin() + 4 * t, def.tets.begin() + 4 * t + 4); };
  for (size_t p = 0; p + streams < streams * (rows - 1); ++p) {
    EXPECT_LE(smallest(p), smallest(p + streams)) << "tet " << p;
    if (p % streams != streams - 1) {
      EXPECT_LE(smallest(p), smallest(p + 1)) << "tet " << p;
    }
  }
  size_t sharing = 0;
  for (size_t t = 1; t < count; ++t)
    for (int a = 0; a < 4; ++a)
      if (std::count(def.tets.begin() + 4 * (t - 1), def.tets.begin() + 4 * t, def.tets[4 * t + a])) { ++sharing; break; }
  EXPECT_LT(sharing, count / 4);
  // Reordering an ordered def again changes nothing: the Hilbert order of the same positions is the identity.
  SoftBodyDef again = def;
  const std::vector<uint32_t> identity = reorderSoftBody(again);
  for (size_t v = 0; v < n; ++v) EXPECT_EQ(identity[v], v);
  EXPECT_EQ(again.tets, def.tets);
}

/// The largest distance between the centres of mass of `original` and `reordered` over 120 frames of a drop onto a
/// frictionless ground (10 substeps x `iterations`), checking on the way what both must obey.
double dropGap(const SoftBodyDef& original, const SoftBodyDef& reordered, int iterations) {
  World a, b;
  SolverSettings s;
  s.substeps = 10;
  s.iterations = iterations;
  s.ground.friction = 0;  // no horizontal force at all: the centre of mass may only move vertically
  a.setSettings(s);
  b.setSettings(s);
  const uint32_t n = a.addSoftBody(original).particleCount;
  b.addSoftBody(reordered);
  const double h0 = 0.8, h = 1.0 / 600;  // centre of mass at start; substep
  double worst = 0;
  for (int f = 1; f <= 120; ++f) {
    a.step(1.0f / 60);
    b.step(1.0f / 60);
    const Eigen::Vector3d ca = centreOfMass(a, 0, n), cb = centreOfMass(b, 0, n);
    worst = std::max(worst, (ca - cb).norm());
    // Free flight until the bottom face (0.2 m below the centre) nears the ground: implicit Euler's sum,
    // y = h0 - g h^2 k (k + 1) / 2 after k substeps, in both orders alike up to float rounding: v = (p - x) / h
    // turns a position's rounding (ulp(0.8 m) = 6e-8 m) into 4e-5 m/s per substep, which adds up to ~5e-5 m here.
    const double k = 10.0 * f, y = h0 - 9.81 * h * h * k * (k + 1) / 2;
    if (y > 0.21) {
      EXPECT_NEAR(ca.y(), y, 1e-4) << "frame " << f;
      EXPECT_LT((ca - cb).norm(), 1e-4) << "frame " << f;
    }
    EXPECT_LT(std::hypot(cb.x(), cb.z()), 2e-3) << "frame " << f;  // starts at x = z = 0, no friction
  }
  EXPECT_NEAR(centreOfMass(b, 0, n).y(), 0.2, 2e-3);  // at rest on the ground: half the cube's edge
  return worst;
}

TEST(ParticleOrder, ReorderedSoftBodyIsTheSameBodyAndFallsTheSame) {
  const SoftBodyDef original = scenes::shuffledVertices(scenes::tetCube(4, 0.4f, Vec3(-0.2f, 0.6f, -0.2f)), 11);
  SoftBodyDef def = original;
  const std::vector<uint32_t> map = reorderSoftBody(def);
  World a, b;
  const BodyRange ra = a.addSoftBody(original), rb = b.addSoftBody(def);
  ASSERT_EQ(ra.particleCount, rb.particleCount);
  EXPECT_EQ(ra.volumeCount, rb.volumeCount);
  EXPECT_EQ(ra.constraintCount, rb.constraintCount);
  // Masses per vertex (a quarter of the tets' masses around it: 1000 kg/m³ x 0.064 m³ in total).
  double massA = 0, massB = 0;
  for (uint32_t v = 0; v < ra.particleCount; ++v) {
    const Real wa = a.inverseMasses()[v], wb = b.inverseMasses()[map[v]];
    EXPECT_NEAR(wb, wa, 1e-6f * wa) << "vertex " << v;
    massA += 1.0 / wa, massB += 1.0 / wb;
  }
  EXPECT_NEAR(massA, 64.0, 1e-3);
  EXPECT_NEAR(massB, massA, 1e-6 * massA);
  EXPECT_LT((centreOfMass(b, 0, rb.particleCount) - centreOfMass(a, 0, ra.particleCount)).norm(), 1e-6);
  EXPECT_NEAR(scenes::meshVolume(b, def, 0), 0.064, 1e-6);
  EXPECT_NEAR(scenes::meshVolume(b, def, 0), scenes::meshVolume(a, original, 0), 1e-9);
  // The drop: identical in free flight; through the impact the projection order differs, and Gauss-Seidel's
  // unconverged answer depends on the order, so the gap must shrink as the iterations converge both to the same
  // solution (measured: see the printed line; a 0.4 m cube).
  const double coarse = dropGap(original, def, 2), fine = dropGap(original, def, 10);
  std::printf("centre of mass gap over the drop: %.2f mm at 2 iterations, %.2f mm at 10\n", 1e3 * coarse, 1e3 * fine);
  EXPECT_LT(fine, 1e-2);  // 2.5% of the cube's edge (measured: 2.6 mm native, 4.1 mm as wasm)
  EXPECT_LT(fine, 0.5 * coarse);
}

TEST(ParticleOrder, PinnedVerticesOfAReorderedBodyStayPut) {
  SoftBodyDef original = scenes::shuffledVertices(scenes::tetCube(3, 0.3f, Vec3(0, 1, 0)), 5);
  // Pin the top face (y = 1.3) by index: find its vertices in the shuffled numbering.
  for (size_t v = 0; v < original.positions.size() / 3; ++v)
    if (std::abs(original.positions[3 * v + 1] - 1.3f) < 1e-5f) original.pinned.push_back(uint32_t(v));
  ASSERT_EQ(original.pinned.size(), 16u);
  SoftBodyDef def = original;
  const std::vector<uint32_t> map = reorderSoftBody(def);
  World w;
  w.addSoftBody(def);
  for (int f = 0; f < 60; ++f) w.step(1.0f / 60);
  for (uint32_t v : original.pinned) {
    EXPECT_EQ(w.inverseMasses()[map[v]], 0);
    for (int a = 0; a < 3; ++a) EXPECT_EQ(w.positions()[3 * map[v] + a], original.positions[3 * v + a]);
  }
  // Everything else hangs below its start.
  for (size_t v = 0; v < original.positions.size() / 3; ++v) {
    if (std::find(original.pinned.begin(), original.pinned.end(), v) != original.pinned.end()) continue;
    EXPECT_GT(w.inverseMasses()[map[v]], 0);
    EXPECT_LT(w.positions()[3 * map[v] + 1], original.positions[3 * v + 1] + 1e-6f);
  }
}

TEST(ParticleOrder, TriangleMeshMapLinesTheRenderVerticesUp) {
  const scenes::IcosphereMesh sphere = scenes::icosphere(2, 0.3);
  TriangleMeshDef original;
  original.positions = sphere.positions;
  original.triangles = sphere.triangles;
  for (size_t v = 0; v < original.positions.size() / 3; ++v) original.positions[3 * v + 1] += 1;
  original.pressure = 1;
  original.pinned = {0};
  TriangleMeshDef def = original;
  const std::vector<uint32_t> map = reorderTriangleMesh(def);
  EXPECT_TRUE(isPermutation(map));
  std::multiset<std::array<uint32_t, 3>> expected, got;
  for (size_t t = 0; t < original.triangles.size(); t += 3) {
    expected.insert({map[original.triangles[t]], map[original.triangles[t + 1]], map[original.triangles[t + 2]]});
    got.insert({def.triangles[t], def.triangles[t + 1], def.triangles[t + 2]});
  }
  EXPECT_EQ(got, expected);  // winding kept: the balloon still encloses a positive volume (checked by pressure > 0)
  World a, b;
  const MeshBody ma = a.addTriangleMesh(original), mb = b.addTriangleMesh(def);
  // A float sum over 320 triangles in another order: n·ε ≈ 2e-5 relative at worst.
  EXPECT_NEAR(b.surfaceRestVolume(0), a.surfaceRestVolume(0), 2e-5 * a.surfaceRestVolume(0));
  EXPECT_GT(b.surfaceRestVolume(0), 0);
  for (int f = 0; f < 30; ++f) a.step(1.0f / 60), b.step(1.0f / 60);
  // Old render vertex v: particle ma.renderToParticle[v] in a, mb.renderToParticle[map[v]] in b. Pinned: exact.
  const uint32_t pa = ma.renderToParticle[0], pb = mb.renderToParticle[map[0]];
  for (int k = 0; k < 3; ++k) EXPECT_EQ(b.positions()[3 * pb + k], a.positions()[3 * pa + k]);
  double worst = 0;
  for (size_t v = 0; v < ma.renderToParticle.size(); ++v) {
    const uint32_t i = ma.renderToParticle[v], j = mb.renderToParticle[map[v]];
    for (int k = 0; k < 3; ++k) worst = std::max(worst, double(std::abs(a.positions()[3 * i + k] - b.positions()[3 * j + k])));
  }
  EXPECT_LT(worst, 0.02);  // the same hanging balloon (radius 0.3 m), projected in another order
}

TEST(ParticleOrder, BadInputThrowsNamingTheArgumentAndLeavesTheDefUnchanged) {
  const SoftBodyDef good = scenes::tetCube(2, 1, Vec3::Zero());
  auto rejects = [](SoftBodyDef def, std::initializer_list<const char*> fragments) {
    const SoftBodyDef before = def;
    expectError([&] { reorderSoftBody(def); }, fragments);
    ASSERT_EQ(def.positions.size(), before.positions.size());  // bitwise: a NaN compares unequal to itself
    if (!def.positions.empty()) {  // memcmp's pointers must not be null, even for 0 bytes
      EXPECT_EQ(std::memcmp(def.positions.data(), before.positions.data(), def.positions.size() * sizeof(Real)), 0);
    }
    EXPECT_EQ(def.tets, before.tets);
    EXPECT_EQ(def.pinned, before.pinned);
  };
  SoftBodyDef bad = good;
  bad.tets[13] = 27;
  rejects(bad, {"reorderSoftBody: tets[13] is out of range", "got 27"});
  bad = good;
  bad.pinned = {1, 99};
  rejects(bad, {"reorderSoftBody: pinned[1] is out of range"});
  bad = good;
  bad.positions[7] = std::nanf("");
  rejects(bad, {"reorderSoftBody: positions[7] must be finite"});
  bad = good;
  bad.positions.push_back(1);
  rejects(bad, {"reorderSoftBody: positions length must be a positive multiple of 3"});
  bad = good;
  bad.tets.pop_back();
  rejects(bad, {"reorderSoftBody: tets length must be a positive multiple of 4"});
  bad = good;
  bad.tets.clear();
  rejects(bad, {"reorderSoftBody: tets"});
  bad = good;
  bad.positions.clear();
  rejects(bad, {"reorderSoftBody: positions"});

  TriangleMeshDef mesh;
  mesh.positions = {0, 0, 0, 1, 0, 0, 0, 1, 0};
  mesh.triangles = {0, 1, 3};
  const TriangleMeshDef before = mesh;
  expectError([&] { reorderTriangleMesh(mesh); }, {"reorderTriangleMesh: triangles[2] is out of range"});
  EXPECT_EQ(mesh.positions, before.positions);
  EXPECT_EQ(mesh.triangles, before.triangles);
  const TriangleMeshDef unchanged = mesh;
  mesh.triangles = {0, 1, 2, 0};
  expectError([&] { reorderTriangleMesh(mesh); }, {"reorderTriangleMesh: triangles length must be a positive multiple of 3"});
  mesh.triangles = {0, 1, 2};
  mesh.positions[4] = INFINITY;
  expectError([&] { reorderTriangleMesh(mesh); }, {"reorderTriangleMesh: positions[4] must be finite"});
  EXPECT_EQ(mesh.triangles, (std::vector<uint32_t>{0, 1, 2}));
  mesh.positions[4] = 0;
  mesh.pinned = {3};
  expectError([&] { reorderTriangleMesh(mesh); }, {"reorderTriangleMesh: pinned[0] is out of range"});
  EXPECT_EQ(mesh.positions, unchanged.positions);
  EXPECT_EQ(mesh.pinned, (std::vector<uint32_t>{3}));

  const std::vector<Real> xyz = {0, 0, 0, NAN, 0, 0};
  expectError([&] { localityOrder(xyz.data(), 2); }, {"localityOrder: xyz[3] must be finite"});
  expectError([&] { localityOrder(nullptr, 2); }, {"localityOrder: xyz must not be null"});
}

TEST(ParticleOrder, ReorderingAShuffledCubeBringsTetEdgesCloseInMemory) {
  const SoftBodyDef grid = scenes::tetCube(10, 1, Vec3::Zero());  // 1331 vertices, 6000 tets
  SoftBodyDef def = scenes::shuffledVertices(grid, 42);
  const double shuffledSpan = meanEdgeSpan(def.tets), shuffledMedian = medianEdgeSpan(def.tets);
  reorderSoftBody(def);
  const double orderedSpan = meanEdgeSpan(def.tets), orderedMedian = medianEdgeSpan(def.tets);
  std::printf("tet edges |i - j|: mean / median: lexicographic grid %.1f / %.0f, shuffled %.1f / %.0f, "
              "Hilbert %.1f / %.0f\n", meanEdgeSpan(grid.tets), medianEdgeSpan(grid.tets), shuffledSpan,
              shuffledMedian, orderedSpan, orderedMedian);
  // Random labels: E|i - j| = n/3 (n = 1331). Any order of an m^3 grid has edges spanning ~m^2 (a plane of the
  // grid lies between their ends), so the mean cannot drop below ~m^2 / 2; the median shows the typical edge.
  EXPECT_GT(shuffledSpan, 400);
  EXPECT_LT(orderedSpan, shuffledSpan / 5);
  EXPECT_LT(orderedSpan, 1.1 * meanEdgeSpan(grid.tets));  // as good as the builder's own row-by-row numbering
  EXPECT_LT(orderedMedian, shuffledMedian / 20);
}

// Self-collision's normal-cone cull (collision/normal_cone.h, world/fold_free_cull.h, issue #5): the cone of a
// triangle's swept normal holds its normal at every instant of the substep; a merged cone holds both; the broad
// phase's walk with the cull still reaches every triangle pair whose elements the narrow phase finds in contact
// (a sheet folding over itself, a sheet rolled into touching layers whose normals agree), and it skips the inside
// of a flat sheet entirely.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <random>
#include <set>
#include <utility>
#include <vector>

#include "collision/continuous_contact.h"
#include "collision/normal_cone.h"
#include "world/cloth_self_collision.h"
#include "world/fold_free_cull.h"
#include "pbd/task_system.h"

using namespace pbd;

namespace {

double angle(const Point3d& a, const Point3d& b) {
  return std::acos(std::clamp(a.normalized().dot(b.normalized()), -1.0, 1.0));
}

/// A grid of columns (along x) by rows (along z) vertices, spacing h, in the xz plane; each square split along one
/// diagonal.
struct Sheet {
  std::vector<Real> rest;
  std::vector<uint32_t> triangles;
};

Sheet sheet(int columns, int rows, double h) {
  Sheet s;
  for (int j = 0; j < rows; ++j) {
    for (int i = 0; i < columns; ++i) s.rest.insert(s.rest.end(), {Real(i * h), 0, Real(j * h)});
  }
  for (int j = 0; j + 1 < rows; ++j) {
    for (int i = 0; i + 1 < columns; ++i) {
      const uint32_t a = uint32_t(j * columns + i), b = a + 1, c = a + uint32_t(columns), d = c + 1;
      s.triangles.insert(s.triangles.end(), {a, c, b, b, c, d});
    }
  }
  return s;
}

using Pairs = std::set<std::pair<uint32_t, uint32_t>>;

std::pair<uint32_t, uint32_t> ordered(uint32_t a, uint32_t b) { return {std::min(a, b), std::max(a, b)}; }

/// The boxes and cones of the broad phase for the motion x → p.
void sweep(SelfCollidingSurface& s, const std::vector<Real>& x, const std::vector<Real>& p) {
  const Real pad = s.settings.thickness / 2;
  for (size_t i = 0; i < s.sweptLo.size(); ++i) {
    const Vec3 a(x[3 * i], x[3 * i + 1], x[3 * i + 2]), b(p[3 * i], p[3 * i + 1], p[3 * i + 2]);
    s.sweptLo[i] = a.cwiseMin(b).array() - pad;
    s.sweptHi[i] = a.cwiseMax(b).array() + pad;
  }
  fitTriangleSweptBoxes(s);
  s.bvh.refitTriangleBoxes(s.triangleLo, s.triangleHi);
  SerialTaskSystem serial;
  fitNormalCones(s, x, p, 0, serial);
}

/// The triangle pairs the broad phase's walk visits for the motion x → p, with or without the cull.
Pairs walked(SelfCollidingSurface& s, const std::vector<Real>& x, const std::vector<Real>& p, bool cull) {
  sweep(s, x, p);
  Pairs pairs;
  s.bvh.forEachOverlappingPair([&](uint32_t a, uint32_t b) { pairs.insert(ordered(a, b)); },
                               [&](int32_t a, int32_t b) { return cull && foldFree(s, a, b); });
  return pairs;
}

Point3d pointAt(const std::vector<Real>& xyz, uint32_t i) {
  return Point3d(xyz[3 * i], xyz[3 * i + 1], xyz[3 * i + 2]);
}

/// The owner-triangle pairs of every point–triangle and edge–edge pair (sharing no vertex) that the narrow phase
/// finds in contact over x → p: brute force over all elements.
Pairs contactingOwners(const SelfCollidingSurface& s, const std::vector<Real>& x, const std::vector<Real>& p) {
  Pairs owners;
  auto test = [&](const uint32_t (&v)[4], bool pointTriangle) {
    Point3d start[4], end[4];
    for (int k = 0; k < 4; ++k) start[k] = pointAt(x, v[k]), end[k] = pointAt(p, v[k]);
    return pointTriangle ? pointTriangleContact(start, end, s.settings.thickness).has_value()
                         : edgeEdgeContact(start, end, s.settings.thickness).has_value();
  };
  // Who owns each vertex and edge, read back from the records' bits.
  std::vector<uint32_t> vertexOwner(s.sweptLo.size(), TriangleBvh::kNone), edgeOwner(s.edges.size() / 2, TriangleBvh::kNone);
  for (uint32_t t = 0; t < s.records.size(); ++t) {
    for (int k = 0; k < 3; ++k) {
      if (s.records[t].ownedCorners >> k & 1) vertexOwner[s.records[t].corner[k]] = t;
      if (s.records[t].ownedEdges >> k & 1) edgeOwner[s.records[t].edge[k]] = t;
    }
  }
  const uint32_t triangles = uint32_t(s.triangles.size() / 3);
  for (uint32_t v = 0; v < vertexOwner.size(); ++v) {
    for (uint32_t t = 0; t < triangles; ++t) {
      const uint32_t* f = &s.triangles[3 * size_t(t)];
      if (f[0] == v || f[1] == v || f[2] == v) continue;
      if (test({v, f[0], f[1], f[2]}, true)) owners.insert(ordered(vertexOwner[v], t));
    }
  }
  const uint32_t edges = uint32_t(s.edges.size() / 2);
  for (uint32_t e = 0; e < edges; ++e) {
    for (uint32_t g = e + 1; g < edges; ++g) {
      const uint32_t* a = &s.edges[2 * size_t(e)];
      const uint32_t* b = &s.edges[2 * size_t(g)];
      if (a[0] == b[0] || a[0] == b[1] || a[1] == b[0] || a[1] == b[1]) continue;
      if (test({a[0], a[1], b[0], b[1]}, false)) owners.insert(ordered(edgeOwner[e], edgeOwner[g]));
    }
  }
  return owners;
}

SelfCollidingSurface surfaceOf(const Sheet& sheet, Real thickness) {
  return makeSelfCollidingSurface("test", 0, sheet.rest, sheet.triangles, {true, thickness});
}

}  // namespace

TEST(NormalCone, HoldsTheSweptNormalAtEveryInstant) {
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> u(-1, 1);
  int bounded = 0;
  for (int trial = 0; trial < 2000; ++trial) {
    const double motion = trial < 1000 ? 0.3 : 1.0;  // small moves keep a cone; large ones often lose it
    Point3d start[3], end[3];
    for (int k = 0; k < 3; ++k) {
      start[k] = Point3d(u(rng), u(rng), u(rng));
      end[k] = start[k] + motion * Point3d(u(rng), u(rng), u(rng));
    }
    Point3d coefficients[3];
    sweptNormalCoefficients(start, end, coefficients);
    const NormalCone cone = coneOfNormals(coefficients);
    if (!cone.bounded()) continue;
    ++bounded;
    for (int i = 0; i <= 100; ++i) {
      const double t = i / 100.0;
      Point3d c[3];
      for (int k = 0; k < 3; ++k) c[k] = (1 - t) * start[k] + t * end[k];
      const Point3d normal = (c[1] - c[0]).cross(c[2] - c[0]);
      ASSERT_GT(normal.norm(), 0) << "a cone was given to a triangle that degenerates at t = " << t;
      EXPECT_LE(angle(cone.axis, normal), std::acos(cone.cosHalfAngle) + 1e-9) << "trial " << trial << ", t = " << t;
    }
  }
  EXPECT_GT(bounded, 1000) << "most of these motions keep a cone";
}

TEST(NormalCone, MergedConeHoldsBothCones) {
  std::mt19937 rng(9);
  std::uniform_real_distribution<double> u(-1, 1);
  int bounded = 0;
  for (int trial = 0; trial < 500; ++trial) {
    NormalCone cones[2];
    double halfAngle[2];
    for (int k = 0; k < 2; ++k) {
      halfAngle[k] = 0.75 * (u(rng) + 1);  // up to 1.5 rad, below π/2
      cones[k] = {Point3d(u(rng), u(rng), u(rng)).normalized(), std::cos(halfAngle[k])};
    }
    const NormalCone merged = mergeNormalCones(cones[0], cones[1]);
    if (!merged.bounded()) continue;
    ++bounded;
    for (int k = 0; k < 2; ++k) {
      const NormalCone& c = cones[k];
      // The rim of the child cone: its axis tilted by its half angle, all the way round.
      const Point3d side = c.axis.unitOrthogonal(), other = c.axis.cross(side);
      for (int r = 0; r < 16; ++r) {
        const double phi = 2 * std::numbers::pi * r / 16;
        const Point3d rim = std::cos(halfAngle[k]) * c.axis +
                            std::sin(halfAngle[k]) * (std::cos(phi) * side + std::sin(phi) * other);
        EXPECT_LE(angle(merged.axis, rim), std::acos(merged.cosHalfAngle) + 1e-9);
      }
    }
  }
  EXPECT_GT(bounded, 100);
  EXPECT_FALSE(mergeNormalCones(NormalCone{}, {Point3d::UnitZ(), 0.9}).bounded())
      << "a set without a cone makes any union without one";
  EXPECT_FALSE(mergeNormalCones({Point3d::UnitZ(), 0.9}, {Point3d::UnitX(), 0.9}, 0.5).bounded())
      << "a union wider than the caller's widest is unbounded";
}

TEST(FoldFreeCull, AFlatSheetHasNoPairToTestInside) {
  const Sheet flat = sheet(24, 24, 0.01);
  SelfCollidingSurface s = surfaceOf(flat, 0.006f);
  std::vector<Real> moved = flat.rest;  // a drift in its own plane, and a gentle bulge
  for (size_t i = 0; i < moved.size(); i += 3) moved[i] += 0.002f, moved[i + 1] += 0.01f * std::sin(3 * moved[i]);
  EXPECT_GT(walked(s, flat.rest, moved, false).size(), 1000u) << "neighbours' padded boxes overlap";
  EXPECT_EQ(walked(s, flat.rest, moved, true).size(), 0u);
}

// Half the sheet swings over the other half (straight paths from flat to folded), ending a third of the thickness
// above it: the contacts between the halves are all still reached.
TEST(FoldFreeCull, ASheetFoldingOntoItselfKeepsEveryContactPair) {
  const Sheet flat = sheet(16, 12, 0.01);
  const Real thickness = 0.006f;
  SelfCollidingSurface s = surfaceOf(flat, thickness);
  std::vector<Real> folded = flat.rest;
  const Real line = 7.5f * 0.01f;
  for (size_t i = 0; i < folded.size(); i += 3) {
    if (folded[i] <= line) continue;
    folded[i] = 2 * line - folded[i];
    folded[i + 1] = thickness / 3;
  }
  const Pairs needed = contactingOwners(s, flat.rest, folded);
  const Pairs culled = walked(s, flat.rest, folded, true);
  ASSERT_GT(needed.size(), 100u);
  for (const auto& pair : needed) EXPECT_TRUE(culled.count(pair)) << "triangles " << pair.first << ", " << pair.second;
  EXPECT_LT(culled.size(), walked(s, flat.rest, folded, false).size()) << "the still half is culled inside";
  // The still half is flat: every leaf of it is culled inside, even where the median split cut its grid squares in
  // two (its bridges; without them most leaves were unconnected, and walked inside).
  auto still = [&](uint32_t t) {
    for (int k = 0; k < 3; ++k) if (flat.rest[3 * size_t(flat.triangles[3 * size_t(t) + k])] > line) return false;
    return true;
  };
  size_t stillLeaves = 0;
  for (size_t id = 0; id < s.bvh.nodes().size(); ++id) {
    const TriangleBvh::Node& node = s.bvh.nodes()[id];
    bool allStill = node.left < 0;
    for (uint32_t k = node.first; allStill && k < node.first + node.count; ++k) allStill = still(s.bvh.triangleAt(k));
    if (!allStill) continue;
    ++stillLeaves;
    EXPECT_TRUE(foldFree(s, int32_t(id), int32_t(id))) << "leaf " << id;
  }
  EXPECT_GT(stillLeaves, 10u);
}

// Every node of a grid sheet's tree is one edge-connected patch with its bridges, whichever diagonal the squares
// are split along and whatever the size; each bridge lies outside its node and shares an edge with it.
TEST(FoldFreeCull, EveryNodeOfAGridSheetIsConnectedThroughItsBridges) {
  for (const auto& [columns, rows] : {std::pair{16, 12}, {31, 31}, {32, 32}, {9, 40}}) {
    for (const bool flip : {false, true}) {
      Sheet grid = sheet(columns, rows, 0.01);
      if (flip) {  // split every square along its other diagonal
        for (size_t t = 0; t < grid.triangles.size(); t += 6) {
          const uint32_t a = grid.triangles[t], c = grid.triangles[t + 1], b = grid.triangles[t + 2];
          const uint32_t d = grid.triangles[t + 5];
          const uint32_t flipped[6] = {a, c, d, a, d, b};
          std::copy(flipped, flipped + 6, grid.triangles.begin() + ptrdiff_t(t));
        }
      }
      const SelfCollidingSurface s = surfaceOf(grid, 0.006f);
      const auto& nodes = s.bvh.nodes();
      size_t bridged = 0;
      for (size_t id = 0; id < nodes.size(); ++id) {
        SCOPED_TRACE(testing::Message() << columns << "x" << rows << (flip ? " flipped" : "") << ", node " << id);
        EXPECT_TRUE(s.nodeConnected[id]);
        ASSERT_LE(s.nodeBridgeStart[id + 1] - s.nodeBridgeStart[id], kMaxBridges);
        bridged += s.nodeBridgeStart[id + 1] > s.nodeBridgeStart[id];
        for (uint32_t b = s.nodeBridgeStart[id]; b < s.nodeBridgeStart[id + 1]; ++b) {
          const uint32_t at = s.nodeBridgeAt[b];
          EXPECT_TRUE(at < nodes[id].first || at >= nodes[id].first + nodes[id].count) << "bridge " << at;
        }
      }
      EXPECT_GT(bridged, 0u) << "the median split cuts squares: some node needs a bridge";
    }
  }
}

// A strip rolled into a spiral whose turns lie half a thickness apart: touching layers, one turn apart along the
// cloth, have the same normals, so only the connectivity condition keeps their pairs.
TEST(FoldFreeCull, TouchingLayersWithAgreeingNormalsAreNotCulled) {
  const Sheet strip = sheet(40, 8, 0.01);
  const Real thickness = 0.006f;
  SelfCollidingSurface s = surfaceOf(strip, thickness);
  std::vector<Real> rolled = strip.rest;
  const double radius = 0.04, gap = thickness / 2;
  for (size_t i = 0; i < rolled.size(); i += 3) {
    const double arc = rolled[i];                      // along the strip
    const double theta = arc / radius;                 // about 1.5 turns for 0.39 m
    const double r = radius + gap * theta / (2 * std::numbers::pi);
    rolled[i] = Real(r * std::cos(theta));
    rolled[i + 1] = Real(r * std::sin(theta));
  }
  const Pairs needed = contactingOwners(s, rolled, rolled);
  const Pairs culled = walked(s, rolled, rolled, true);
  ASSERT_GT(needed.size(), 100u);
  for (const auto& pair : needed) EXPECT_TRUE(culled.count(pair)) << "triangles " << pair.first << ", " << pair.second;
  EXPECT_LT(culled.size(), walked(s, rolled, rolled, false).size()) << "each turn is culled inside";
}

/// A 48 x 40 sheet crumpled by waves in two directions, steep enough that some patches lose their cone.
std::vector<Real> crumpledSheet(const Sheet& flat) {
  std::vector<Real> crumpled = flat.rest;
  for (size_t i = 0; i < crumpled.size(); i += 3) {
    crumpled[i + 1] = 0.03f * std::sin(40 * crumpled[i]) * std::cos(25 * crumpled[i + 2]);
  }
  return crumpled;
}

// The broad phase shares its walk out across threads by cutting it into parts (splitOverlappingPairWalk) and
// walking each from its node pair: one part after another, they must visit exactly the pairs of the whole walk, in
// its order (the contacts, and so the results, follow that order), for any number of parts asked for, with the
// cull's skips and without.
TEST(FoldFreeCull, TheWalkCutIntoPartsVisitsTheSamePairsInTheSameOrder) {
  const Sheet flat = sheet(48, 40, 0.01);
  SelfCollidingSurface s = surfaceOf(flat, 0.006f);
  sweep(s, flat.rest, crumpledSheet(flat));
  using Sequence = std::vector<std::pair<uint32_t, uint32_t>>;
  for (bool cull : {false, true}) {
    auto skip = [&](int32_t a, int32_t b) { return cull && foldFree(s, a, b); };
    Sequence whole;
    s.bvh.forEachOverlappingPair([&](uint32_t a, uint32_t b) { whole.push_back({a, b}); }, skip);
    ASSERT_GT(whole.size(), 300u) << "the premise: a walk with many pairs";
    for (size_t wanted : {1, 2, 7, 16, 64, 500}) {
      TriangleBvh::NodePair parts[kMaxWalkParts], scratch[kMaxWalkParts];
      const size_t n = s.bvh.splitOverlappingPairWalk(skip, wanted, parts, scratch, kMaxWalkParts);
      ASSERT_LE(n, kMaxWalkParts);
      if (wanted > 1) {
        EXPECT_GE(n, std::min<size_t>(wanted, 8)) << "cull " << cull << ", " << wanted << " wanted";
      }
      Sequence joined;
      for (size_t k = 0; k < n; ++k) {
        s.bvh.forEachOverlappingPairBelow(parts[k], [&](uint32_t a, uint32_t b) { joined.push_back({a, b}); }, skip);
      }
      EXPECT_EQ(joined, whole) << "cull " << cull << ", " << wanted << " parts wanted, " << n << " made";
    }
  }
}

// The leaves' cones are fitted in parallel ranges of nodes, the inner nodes after them: every cone must come out the
// same, bit for bit, on any number of threads (the cull's decisions, and so the contacts, depend on them).
TEST(FoldFreeCull, TheConesAreTheSameOnAnyNumberOfThreads) {
  const Sheet flat = sheet(48, 40, 0.01);
  SelfCollidingSurface s = surfaceOf(flat, 0.006f);
  const std::vector<Real> crumpled = crumpledSheet(flat);
  auto cones = [&](TaskSystem& tasks) {
    fitNormalCones(s, flat.rest, crumpled, 0, tasks);
    return s.nodeCones;
  };
  SerialTaskSystem serial;
  const std::vector<NormalCone> reference = cones(serial);
  ASSERT_GT(reference.size(), 4 * kNodesPerConeTask) << "the premise: several ranges of nodes";
  size_t bounded = 0;
  for (const NormalCone& c : reference) bounded += c.bounded();
  EXPECT_GT(bounded, reference.size() / 4) << "the premise: many patches keep a cone";
  EXPECT_LT(bounded, reference.size()) << "the premise: some lose it";
  for (unsigned workers : {1u, 3u}) {
    ThreadPool pool(workers);
    for (int run = 0; run < 5; ++run) {
      const std::vector<NormalCone> got = cones(pool);
      for (size_t k = 0; k < reference.size(); ++k) {
        ASSERT_EQ(got[k].cosHalfAngle, reference[k].cosHalfAngle) << workers + 1 << " threads, node " << k;
        ASSERT_EQ(got[k].axis, reference[k].axis) << workers + 1 << " threads, node " << k;
      }
    }
  }
}

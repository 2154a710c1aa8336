// Continuous self-collision's candidate list (world/self_candidate_list.h): its reach keeps every triangle's normal
// within the angle its cull allows for; while every vertex stays within the reach, filtering the list gives exactly
// the element pairs whose boxes overlap (a triangle soup, where the cull has nothing to take) and every pair the
// narrow phase finds in contact (a rolled strip, where it does), also with every vertex moved by a common shift; a
// vertex out of reach of the others ends the list; a resting fold walks its tree once per step instead of twice per
// substep, a thrown one too, and a spun one falls back to the walk.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <limits>
#include <cmath>
#include <numbers>
#include <random>
#include <set>
#include <vector>

#include "collision/continuous_contact.h"
#include "pbd/task_system.h"
#include "pbd/world.h"
#include "scenes/folded_sheet.h"
#include "world/cloth_self_collision.h"
#include "world/self_candidate_list.h"
#include "native/long_scene.h"

using namespace pbd;

namespace {

/// An element pair as the list gives it: a point and a triangle's corners, or two edges' ends (the two edges in
/// ascending order, so that either order of the walk gives one key).
using PairKey = std::array<uint32_t, 5>;

PairKey keyOf(uint32_t a, uint32_t b, uint32_t c, uint32_t d, bool pointTriangle) {
  if (pointTriangle) return {1, a, b, c, d};
  const std::array<uint32_t, 2> e{std::min(a, b), std::max(a, b)}, f{std::min(c, d), std::max(c, d)};
  return e < f ? PairKey{0, e[0], e[1], f[0], f[1]} : PairKey{0, f[0], f[1], e[0], e[1]};
}

Vec3 positionAt(const std::vector<Real>& xyz, uint32_t i) { return Vec3(xyz[3 * i], xyz[3 * i + 1], xyz[3 * i + 2]); }

/// The listed pairs the substep x → p keeps (the swept boxes grown by half the thickness, as the broad phase does);
/// fails the test if one comes twice.
std::set<PairKey> listedCandidates(SelfCollidingSurface& s, const std::vector<Real>& x, const std::vector<Real>& p) {
  sweepVertices(s, x, p, 0, s.settings.thickness / 2);
  std::set<PairKey> keys;
  forEachListedCandidate(s, [&](uint32_t a, uint32_t b, uint32_t c, uint32_t d, bool pointTriangle) {
    EXPECT_TRUE(keys.insert(keyOf(a, b, c, d, pointTriangle)).second) << "listed twice";
  });
  return keys;
}

/// visit(key, q) for every point–triangle and edge–edge pair of s sharing no vertex (brute force), q its 4 vertices.
template <class Visit>
void forEveryElementPair(const SelfCollidingSurface& s, Visit visit) {
  const uint32_t vertices = uint32_t(s.sweptLo.size());
  for (uint32_t v = 0; v < vertices; ++v) {
    for (const SelfCollidingSurface::TriangleRecord& r : s.records) {
      const uint32_t* f = r.corner;
      if (f[0] == v || f[1] == v || f[2] == v) continue;
      const uint32_t q[4] = {v, f[0], f[1], f[2]};
      visit(keyOf(v, f[0], f[1], f[2], true), q, true);
    }
  }
  const uint32_t edges = uint32_t(s.edges.size() / 2);
  for (uint32_t e = 0; e < edges; ++e) {
    for (uint32_t g = e + 1; g < edges; ++g) {
      const uint32_t *a = &s.edges[2 * size_t(e)], *b = &s.edges[2 * size_t(g)];
      if (a[0] == b[0] || a[0] == b[1] || a[1] == b[0] || a[1] == b[1]) continue;
      const uint32_t q[4] = {a[0], a[1], b[0], b[1]};
      visit(keyOf(a[0], a[1], b[0], b[1], false), q, false);
    }
  }
}

/// Whether the boxes in s.sweptLo / sweptHi of pair q overlap, computed here as the broad phase defines them: a
/// triangle's box the union of its corners', an edge's the union of its ends'.
bool pairBoxesOverlap(const SelfCollidingSurface& s, const uint32_t* q, bool pointTriangle) {
  const Vec3 *lo = s.sweptLo.data(), *hi = s.sweptHi.data();
  if (pointTriangle) {
    return boxesOverlap(lo[q[0]], hi[q[0]], Vec3(lo[q[1]].cwiseMin(lo[q[2]]).cwiseMin(lo[q[3]])),
                        Vec3(hi[q[1]].cwiseMax(hi[q[2]]).cwiseMax(hi[q[3]])));
  }
  return boxesOverlap(Vec3(lo[q[0]].cwiseMin(lo[q[1]])), Vec3(hi[q[0]].cwiseMax(hi[q[1]])),
                      Vec3(lo[q[2]].cwiseMin(lo[q[3]])), Vec3(hi[q[2]].cwiseMax(hi[q[3]])));
}

/// positions moved by a random vector of length up to `reach` each, from `anchor`, then all by `shift`.
std::vector<Real> within(const std::vector<Real>& anchor, double reach, std::mt19937& rng,
                         const Vec3& shift = Vec3::Zero()) {
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<Real> moved = anchor;
  for (size_t i = 0; i < moved.size(); i += 3) {
    Vec3 d;
    do d = Vec3(Real(u(rng)), Real(u(rng)), Real(u(rng))); while (d.norm() > 1);
    for (int k = 0; k < 3; ++k) moved[i + k] += Real(reach) * d[k] + shift[k];
  }
  return moved;
}

double normalAngle(const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& a2, const Vec3& b2, const Vec3& c2) {
  const Eigen::Vector3d n = (b - a).cast<double>().cross((c - a).cast<double>());
  const Eigen::Vector3d m = (b2 - a2).cast<double>().cross((c2 - a2).cast<double>());
  return std::acos(std::clamp(n.normalized().dot(m.normalized()), -1.0, 1.0));
}

}  // namespace

// ε = sin θ |N| / (L + sqrt(L² + 4 sin θ |N|)): for a right triangle with legs l, |N| = l², L = 2l. Then random
// triangles, down to slivers, with every corner moved by up to ε: the normal turns by at most θ = 10°, and by more
// than a third of it for the worst of the moves tried (the reach is not needlessly small).
TEST(SelfCandidateList, TheReachKeepsEveryTrianglesNormalWithinTenDegrees) {
  const double theta = std::asin(kListTurnSin), l = 0.02;
  {
    const std::vector<Real> rest{0, 0, 0, Real(l), 0, 0, 0, 0, Real(l)};
    const SelfCollidingSurface s = makeSelfCollidingSurface("test", 0, rest, {0, 1, 2}, {true, 0.001f});
    const double expected = kListTurnSin * l * l / (2 * l + std::sqrt(4 * l * l + 4 * kListTurnSin * l * l));
    EXPECT_NEAR(listReachOf(s, rest, 0, 1), expected, 1e-6 * expected);
    EXPECT_FLOAT_EQ(listReachOf(s, rest, 0, 1e-4f), 1e-4f) << "at most the pad";
    const std::vector<Real> flat{0, 0, 0, Real(l), 0, 0, Real(2 * l), 0, 0};
    EXPECT_EQ(listReachOf(s, flat, 0, 1), 0) << "a degenerate triangle: no list";
    std::vector<Real> broken = rest;
    broken[4] = std::numeric_limits<Real>::quiet_NaN();
    EXPECT_EQ(listReachOf(s, broken, 0, 1), 0) << "a non-finite corner: no list";
  }
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> u(-1, 1);
  double worst = 0;
  for (int trial = 0; trial < 400; ++trial) {
    std::vector<Real> rest(9);
    for (Real& c : rest) c = Real(0.03 * u(rng));
    if (trial % 4 == 0) rest[7] = Real(1e-3 * u(rng)), rest[8] = rest[2] + Real(0.02);  // slimmer triangles too
    const SelfCollidingSurface s = makeSelfCollidingSurface("test", 0, rest, {0, 1, 2}, {true, 0.001f});
    const double reach = listReachOf(s, rest, 0, 1);
    if (!(reach > 0)) continue;
    for (int move = 0; move < 50; ++move) {
      std::vector<Real> moved = rest;
      for (size_t i = 0; i < 9; i += 3) {  // the worst moves are the longest: on the sphere of radius ε
        const Vec3 d = Vec3(Real(u(rng)), Real(u(rng)), Real(u(rng))).normalized() * Real(reach);
        for (int k = 0; k < 3; ++k) moved[i + k] += d[k];
      }
      const double turn = normalAngle(positionAt(rest, 0), positionAt(rest, 1), positionAt(rest, 2),
                                      positionAt(moved, 0), positionAt(moved, 1), positionAt(moved, 2));
      EXPECT_LE(turn, theta * (1 + 1e-3)) << "trial " << trial;
      worst = std::max(worst, turn);
    }
  }
  EXPECT_GT(worst, theta / 3);
}

// A soup of 60 separate triangles in a 10 cm box (no two share an edge, so the cull takes nothing): the list made
// for one substep, filtered with the boxes of any later one whose vertices stay within the reach of their anchors
// moved all together (up to 40 cm along each axis: the reach is counted from the vertices' mean displacement), gives
// exactly the pairs a brute-force loop finds with overlapping boxes, each once. Each vertex moves by up to half the
// reach, so its move less the mean stays within it. A vertex moved out of reach of the others ends the list.
TEST(SelfCandidateList, WithinTheReachTheListGivesExactlyThePairsWhoseBoxesOverlap) {
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> u(0, 1);
  std::vector<Real> rest;
  std::vector<uint32_t> triangles;
  for (uint32_t t = 0; t < 60; ++t) {
    const Vec3 centre(Real(0.1 * u(rng)), Real(0.1 * u(rng)), Real(0.1 * u(rng)));
    for (int k = 0; k < 3; ++k) {
      const Vec3 corner = centre + Vec3(Real(0.02 * u(rng)), Real(0.02 * u(rng)), Real(0.02 * u(rng)));
      rest.insert(rest.end(), {corner.x(), corner.y(), corner.z()});
      triangles.push_back(3 * t + uint32_t(k));
    }
  }
  SelfCollidingSurface s = makeSelfCollidingSurface("test", 0, rest, triangles, {true, 0.004f});
  SerialTaskSystem serial;
  const Real pad = s.settings.thickness / 2;
  std::vector<Real> p0 = rest;
  p0[0] += Real(1e-5);
  ASSERT_TRUE(makeCandidateList(s, rest, p0, 0, pad, serial));
  ASSERT_GT(s.listReach, 0);
  size_t overlapping = 0;
  for (int trial = 0; trial < 20; ++trial) {
    const double r = 0.95 * double(kListHoldFraction) * double(s.listReach) / 2;
    // The same shift for x and p: a translation moves every box alike, so the same boxes overlap.
    const Vec3 shift = trial % 2 ? Vec3::Zero() : Vec3(Real(0.4 * u(rng)), Real(-0.4 * u(rng)), Real(0.4 * u(rng)));
    const std::vector<Real> x = within(rest, r, rng, shift), p = within(rest, r, rng, shift);
    ASSERT_TRUE(listHolds(s, x, p, 0));
    const std::set<PairKey> listed = listedCandidates(s, x, p);
    std::set<PairKey> expected;
    forEveryElementPair(s, [&](const PairKey& key, const uint32_t* q, bool pointTriangle) {
      if (pairBoxesOverlap(s, q, pointTriangle)) expected.insert(key);
    });
    EXPECT_EQ(listed, expected) << "trial " << trial;
    overlapping += expected.size();
  }
  EXPECT_GT(overlapping, 20u * 50) << "the soup is dense enough to have pairs";
  std::vector<Real> away = rest;
  away[3 * 17 + 1] += Real(1.01) * s.listReach;
  EXPECT_FALSE(listHolds(s, away, away, 0));
  EXPECT_FALSE(listHolds(s, rest, away, 0)) << "p counts too";
  EXPECT_TRUE(listHolds(s, rest, rest, 0));
  std::vector<Real> thrown = rest;  // the whole soup 1 m away: nothing moved apart
  for (size_t k = 0; k < thrown.size(); k += 3) thrown[k] += 1;
  EXPECT_TRUE(listHolds(s, rest, thrown, 0));
}

// A strip rolled into a spiral whose turns lie half a thickness apart (the cull keeps only the pairs across turns):
// every point–triangle and edge–edge pair the narrow phase finds in contact over a substep whose vertices stay
// within the reach of where the list was made, less their mean displacement, is listed: in place, and with x and p
// shifted by different translations (the substep's paths then sweep 5 cm, far past the reach and the thickness).
TEST(SelfCandidateList, EveryContactOfARolledStripIsListedWhileItHolds) {
  const int columns = 40, rows = 8;
  const double h = 0.01, radius = 0.04;
  const Real thickness = 0.006f;
  std::vector<Real> rolled;
  std::vector<uint32_t> triangles;
  for (int j = 0; j < rows; ++j) {
    for (int i = 0; i < columns; ++i) {
      const double arc = i * h, angle = arc / radius;
      const double r = radius + (thickness / 2) * angle / (2 * std::numbers::pi);
      rolled.insert(rolled.end(), {Real(r * std::cos(angle)), Real(r * std::sin(angle)), Real(j * h)});
    }
  }
  for (int j = 0; j + 1 < rows; ++j) {
    for (int i = 0; i + 1 < columns; ++i) {
      const uint32_t a = uint32_t(j * columns + i), b = a + 1, c = a + uint32_t(columns), d = c + 1;
      triangles.insert(triangles.end(), {a, c, b, b, c, d});
    }
  }
  SelfCollidingSurface s = makeSelfCollidingSurface("test", 0, rolled, triangles, {true, thickness});
  SerialTaskSystem serial;
  ASSERT_TRUE(makeCandidateList(s, rolled, rolled, 0, thickness / 2, serial));
  std::mt19937 rng(7);
  size_t contacts = 0;
  for (int trial = 0; trial < 4; ++trial) {
    const double r = double(kListHoldFraction) * double(s.listReach) / 2;
    const Vec3 shiftX = trial < 2 ? Vec3::Zero() : Vec3(0.1f, 0.2f, -0.3f);
    const Vec3 shiftP = trial < 2 ? Vec3::Zero() : Vec3(0.13f, 0.16f, -0.3f);
    const std::vector<Real> x = within(rolled, r, rng, shiftX), p = within(rolled, r, rng, shiftP);
    ASSERT_TRUE(listHolds(s, x, p, 0));
    const std::set<PairKey> listed = listedCandidates(s, x, p);
    forEveryElementPair(s, [&](const PairKey& key, const uint32_t* q, bool pointTriangle) {
      Point3d start[4], end[4];
      for (int k = 0; k < 4; ++k)
        start[k] = positionAt(x, q[k]).cast<double>(), end[k] = positionAt(p, q[k]).cast<double>();
      const bool contact = pointTriangle ? pointTriangleContact(start, end, thickness).has_value()
                                         : edgeEdgeContact(start, end, thickness).has_value();
      if (!contact) return;
      ++contacts;
      EXPECT_TRUE(listed.count(key)) << "trial " << trial << ": " << key[1] << " " << key[2] << " " << key[3] << " "
                                     << key[4] << (pointTriangle ? " (point-triangle)" : " (edge-edge)");
    });
    size_t overlapping = 0;  // without the cull
    forEveryElementPair(s, [&](const PairKey&, const uint32_t* q, bool pointTriangle) {
      overlapping += pairBoxesOverlap(s, q, pointTriangle);
    });
    EXPECT_LT(listed.size(), overlapping) << "the cull still takes pairs inside the turns";
  }
  EXPECT_GT(contacts, 4u * 100);
}

// The scaling benchmark's sheet folded over itself (16²), once its upper layer has settled on the lower one: every
// step makes one list and walks no tree. While the upper layer falls onto the lower one, lists are made again within
// a step. Thrown at 5 m/s (8 mm a substep, past any reach of its 6.7 cm triangles) it keeps one list a step: the
// reach is counted from the mean displacement. Spun at 10 rad/s (up to 8 mm a substep, every vertex its own way),
// every substep walks, twice.
TEST(SelfCandidateList, AFoldAtRestWalksItsTreeOncePerStep) {
  PBD_LONG_SCENE();
  World world;
  const MeshBody sheet = scenes::foldedSheet(world, 16);
  uint32_t mostLists = 0;
  for (int f = 0; f < 10; ++f) {
    world.step(1.0f / 60);
    mostLists = std::max(mostLists, world.lastStepReport().selfCandidateLists);
  }
  EXPECT_GT(mostLists, 1u) << "a falling layer leaves the list's reach within a step";
  for (int f = 0; f < 240; ++f) world.step(1.0f / 60);
  for (int f = 0; f < 30; ++f) {
    world.step(1.0f / 60);
    const StepReport& report = world.lastStepReport();
    EXPECT_EQ(report.selfCandidateLists, 1u) << "frame " << f;
    EXPECT_EQ(report.selfTreeWalks, 0u) << "frame " << f;
    EXPECT_GT(report.selfCandidates, 0u) << "the layers are in contact";
  }
  const std::vector<uint8_t> resting = world.saveSnapshot();
  for (uint32_t k = 0; k < sheet.range.particleCount; ++k) world.setVelocity(sheet.range.firstParticle + k, Vec3(5, 0, 0));
  world.step(1.0f / 60);
  EXPECT_EQ(world.lastStepReport().selfCandidateLists, 1u) << "thrown";
  EXPECT_EQ(world.lastStepReport().selfTreeWalks, 0u) << "thrown";
  EXPECT_GT(world.lastStepReport().selfCandidates, 0u) << "thrown: the layers are still in contact";
  world.loadSnapshot(resting.data(), resting.size());
  Vec3 centre = Vec3::Zero();
  const Real* x = world.positions() + 3 * size_t(sheet.range.firstParticle);
  for (uint32_t k = 0; k < sheet.range.particleCount; ++k) centre += Vec3(x[3 * k], x[3 * k + 1], x[3 * k + 2]);
  centre /= Real(sheet.range.particleCount);
  for (uint32_t k = 0; k < sheet.range.particleCount; ++k) {
    const Vec3 arm = Vec3(x[3 * k], x[3 * k + 1], x[3 * k + 2]) - centre;
    world.setVelocity(sheet.range.firstParticle + k, Vec3(0, 10, 0).cross(arm));
  }
  world.step(1.0f / 60);
  EXPECT_EQ(world.lastStepReport().selfCandidateLists, 0u) << "spun";
  EXPECT_EQ(world.lastStepReport().selfTreeWalks, 2u * uint32_t(world.settings().substeps)) << "spun";
}

// The list is made anew at every step's start, so what a step computes depends only on the world's state: a resting
// fold saved mid-rest and loaded into another world, and the same fold on 2 threads, run the same bits as the
// original while their lists hold (one list a step, no walk).
TEST(SelfCandidateList, ARestingFoldContinuesBitIdenticallyFromASnapshotAndOnTwoThreads) {
  PBD_LONG_SCENE();
  ThreadPool pool(1);
  World world, threaded(&pool);
  scenes::foldedSheet(world, 16);
  scenes::foldedSheet(threaded, 16);
  for (int f = 0; f < 250; ++f) world.step(1.0f / 60), threaded.step(1.0f / 60);
  const std::vector<uint8_t> blob = world.saveSnapshot();
  World loaded;
  loaded.loadSnapshot(blob.data(), blob.size());
  for (int f = 0; f < 30; ++f) {
    for (World* w : {&world, &threaded, &loaded}) {
      w->step(1.0f / 60);
      EXPECT_EQ(w->lastStepReport().selfCandidateLists, 1u);
      EXPECT_EQ(w->lastStepReport().selfTreeWalks, 0u);
    }
  }
  const size_t bytes = 3 * size_t(world.particleCount()) * sizeof(Real);
  EXPECT_EQ(0, std::memcmp(world.positions(), loaded.positions(), bytes));
  EXPECT_EQ(0, std::memcmp(world.positions(), threaded.positions(), bytes));
  EXPECT_EQ(0, std::memcmp(world.velocities(), loaded.velocities(), bytes));
  EXPECT_EQ(0, std::memcmp(world.velocities(), threaded.velocities(), bytes));
}

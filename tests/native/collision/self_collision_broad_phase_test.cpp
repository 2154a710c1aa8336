// Continuous self-collision's broad phase and its bookkeeping (issue #5): the BVH's pair walk lists exactly the
// overlapping triangle pairs a brute-force loop lists; a tangle denser than the contact room reserved is reported
// in the step report, not dropped silently; the report counts the narrow phase's pairs and contacts; the step timings
// partition the step and see the self-collision stages; the scaling benchmark's folded sheet keeps its layers apart.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <set>
#include <utility>
#include <vector>

#include "mesh/triangle_bvh.h"
#include "pbd/world.h"
#include "scenes/folded_sheet.h"
#include "scenes/free_space.h"

using namespace pbd;

namespace {

/// Triangle f's box as the self-collision stage makes it: the union of its corners' boxes.
void triangleBox(const std::vector<Vec3>& lo, const std::vector<Vec3>& hi, const uint32_t* f, Vec3& tlo, Vec3& thi) {
  tlo = lo[f[0]].cwiseMin(lo[f[1]]).cwiseMin(lo[f[2]]);
  thi = hi[f[0]].cwiseMax(hi[f[1]]).cwiseMax(hi[f[2]]);
}

}  // namespace

TEST(TriangleBvhPairs, OverlappingPairsEqualBruteForceOnceEach) {
  std::mt19937 rng(11);
  std::uniform_real_distribution<Real> u(-1, 1);
  for (int trial = 0; trial < 4; ++trial) {
    const uint32_t count = 50 + 150 * trial;
    std::vector<Vec3> lo, hi;  // each vertex's path from p to q, grown by a pad
    std::vector<uint32_t> tris;
    std::vector<Point3d> rest;
    for (uint32_t t = 0; t < count; ++t) {
      const Vec3 c(u(rng), u(rng), u(rng));
      for (int k = 0; k < 3; ++k) {
        const Vec3 p = c + 0.3f * Vec3(u(rng), u(rng), u(rng)), q = p + 0.05f * Vec3(u(rng), u(rng), u(rng));
        lo.push_back(p.cwiseMin(q).array() - 0.02f);
        hi.push_back(p.cwiseMax(q).array() + 0.02f);
        rest.emplace_back(p.x(), p.y(), p.z());
        tris.push_back(3 * t + k);
      }
    }
    TriangleBvh bvh(rest, tris);
    std::vector<Vec3> triangleLo(count), triangleHi(count);
    for (uint32_t t = 0; t < count; ++t) triangleBox(lo, hi, &tris[3 * size_t(t)], triangleLo[t], triangleHi[t]);
    bvh.refitTriangleBoxes(triangleLo, triangleHi);
    std::vector<std::pair<uint32_t, uint32_t>> walked;
    bvh.forEachOverlappingPair([&](uint32_t a, uint32_t b) { walked.push_back({std::min(a, b), std::max(a, b)}); });
    std::set<std::pair<uint32_t, uint32_t>> unique(walked.begin(), walked.end());
    EXPECT_EQ(unique.size(), walked.size()) << "a pair was visited twice";
    std::set<std::pair<uint32_t, uint32_t>> brute;
    for (uint32_t a = 0; a < count; ++a) {
      Vec3 la, ha;
      triangleBox(lo, hi, &tris[3 * size_t(a)], la, ha);
      for (uint32_t b = a + 1; b < count; ++b) {
        Vec3 lb, hb;
        triangleBox(lo, hi, &tris[3 * size_t(b)], lb, hb);
        if (!((la.array() > hb.array()).any() || (ha.array() < lb.array()).any())) brute.insert({a, b});
      }
    }
    EXPECT_GT(brute.size(), size_t(count) / 4) << "the soup should be dense enough to test something";
    EXPECT_EQ(unique, brute);
  }
}

namespace {

/// `layers` copies of one large triangle stacked 1 mm apart, in one mesh body with continuous self-collision:
/// every vertex is within the thickness of every other layer's triangle.
struct StackedTriangles {
  World world;
  explicit StackedTriangles(int layers, bool selfCollision = true) {
    SolverSettings s = scenes::freeSpace();
    s.substeps = 1;
    world.setSettings(s);
    TriangleMeshDef def;
    def.mass = 1;
    def.bending = false;
    def.continuousSelfCollision = {selfCollision, 0.05f};
    for (int l = 0; l < layers; ++l) {
      const Real y = 0.001f * Real(l);
      def.positions.insert(def.positions.end(), {0, y, 0, 1, y, 0, 0, y, 1});
      const uint32_t b = uint32_t(3 * l);
      def.triangles.insert(def.triangles.end(), {b, b + 1, b + 2});
    }
    world.addTriangleMesh(def);
  }
};

}  // namespace

TEST(SelfContactRoom, ATangleDenserThanTheRoomIsReportedAndTheRestKept) {
  // 12 layers: each vertex touches 11 triangles and each edge 11 x 2 edges, far more than 4 contacts per element.
  StackedTriangles stack(12);
  stack.world.step(1.0f / 60);
  const StepReport& r = stack.world.lastStepReport();
  EXPECT_GT(r.droppedSelfContacts, 0u);
  const uint32_t kept = stack.world.continuousSelfContactCount();
  EXPECT_EQ(kept, 4u * (12 * 3 + 12 * 3)) << "the room (4 per vertex and per edge) should be full";
  EXPECT_FALSE(r.rolledBack);
  for (uint32_t i = 0; i < 3 * stack.world.particleCount(); ++i) ASSERT_TRUE(std::isfinite(stack.world.positions()[i]));
  // A sparse stack fits: nothing dropped, and the counter starts from 0 again.
  StackedTriangles sparse(2);
  sparse.world.step(1.0f / 60);
  EXPECT_GT(sparse.world.continuousSelfContactCount(), 0u);
  EXPECT_EQ(sparse.world.lastStepReport().droppedSelfContacts, 0u);
}

TEST(SelfContactReport, CountsTheNarrowPhasesPairsAndEveryContactFound) {
  // One substep: every contact found is either kept or dropped, and each came from one candidate.
  StackedTriangles stack(12);
  stack.world.step(1.0f / 60);
  const StepReport& r = stack.world.lastStepReport();
  EXPECT_EQ(r.selfContactsFound, stack.world.continuousSelfContactCount() + r.droppedSelfContacts);
  // Every vertex against the 11 other layers' triangles, and every edge against their 33 edges, each pair once.
  EXPECT_EQ(r.selfCandidates, 12u * 3 * 11 + 12u * 3 * 11 * 3 / 2);
  // The next step counts afresh; a flat sheet has no pair to test at all (the normal-cone cull).
  stack.world.step(1.0f / 60);
  EXPECT_EQ(stack.world.lastStepReport().selfCandidates, r.selfCandidates);
  World flat;
  ClothDef c;
  c.columns = c.rows = 16;
  c.spacing = 0.02f;
  c.continuousSelfCollision = {true, 0.008f};
  flat.addCloth(c);
  for (int frame = 0; frame < 30; ++frame) flat.step(1.0f / 60);
  EXPECT_EQ(flat.lastStepReport().selfCandidates, 0u);
  EXPECT_EQ(flat.lastStepReport().selfContactsFound, 0u);
}

TEST(FoldedSheet, TheUpperLayerRestsOnTheLowerOneInContact) {
  // The scaling benchmark's claim: its contact density is set by construction. The upper half settles onto the lower
  // one and stays on it, at least half a thickness above its mirror particle, with contacts at every frame.
  constexpr int n = 16;
  World world;
  const MeshBody sheet = scenes::foldedSheet(world, n);
  const Real thickness = world.continuousSelfCollision(sheet.range.body).thickness;
  const Real* x = world.positions();
  for (int frame = 0; frame < 60; ++frame) {
    world.step(1.0f / 60);
    if (frame < 15) continue;  // settling
    EXPECT_GT(world.lastStepReport().selfContactsFound, uint32_t(n * n / 2)) << "frame " << frame;
    for (int r = n / 2; r < n; ++r) {
      for (int col = 0; col < n; ++col) {
        const uint32_t upper = sheet.renderToParticle[r * n + col], lower = sheet.renderToParticle[(n - 1 - r) * n + col];
        ASSERT_GT(x[3 * upper + 1] - x[3 * lower + 1], 0.5f * thickness) << "frame " << frame << " row " << r;
      }
    }
  }
  // Resting, not hovering: the middle of the upper layer came down from its start (2 thicknesses up).
  const uint32_t middle = sheet.renderToParticle[(3 * n / 4) * n + n / 2];
  EXPECT_LT(x[3 * middle + 1], 1.5f * thickness);
}

TEST(StepTimings, StagesPartitionTheStepAndSeeSelfCollision) {
  StackedTriangles stack(6);
  stack.world.step(1.0f / 60);
  EXPECT_EQ(stack.world.lastStepTimings().totalMs, 0.0) << "off by default";
  stack.world.setStepTimings(true);
  for (int frame = 0; frame < 3; ++frame) stack.world.step(1.0f / 60);
  const StepTimings& t = stack.world.lastStepTimings();
  EXPECT_GT(t.totalMs, 0.0);
  EXPECT_NEAR(t.stagesMs(), t.totalMs, 1e-3 + 1e-3 * t.totalMs) << "the stages should add up to the step";
  EXPECT_GT(t.broadPhaseMs, 0.0);
  EXPECT_GT(t.narrowPhaseMs, 0.0);
  EXPECT_GT(t.solveMs, 0.0);
  // Without self-collision the self-collision stages take no time at all (no clock lap lands in them).
  StackedTriangles plain(6, false);
  plain.world.setStepTimings(true);
  plain.world.step(1.0f / 60);
  EXPECT_EQ(plain.world.lastStepTimings().narrowPhaseMs, 0.0);
  EXPECT_GT(plain.world.lastStepTimings().totalMs, 0.0);
  // Timings change nothing: the same scene with them off ends bit-identical.
  StackedTriangles quiet(6);
  quiet.world.step(1.0f / 60);
  for (int frame = 0; frame < 3; ++frame) quiet.world.step(1.0f / 60);
  EXPECT_TRUE(std::equal(quiet.world.positions(), quiet.world.positions() + 3 * quiet.world.particleCount(),
                         stack.world.positions()));
}

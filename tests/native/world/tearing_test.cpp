// Tearing (pbd/bodies.h Tearing, World::tearEdges): mass and momentum are the same just before and after a split,
// the torn pieces fall apart and nothing joins them again, no constraint dangles, a torn world round-trips through a
// snapshot bit for bit, a cloth pulled past its strain tears by itself, and bad input changes nothing.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "native/expect_error.h"
#include "native/world_internals.h"
#include "pbd/world.h"

using namespace pbd;

namespace {

constexpr uint32_t kColumns = 9, kRows = 9;

/// A hanging cloth pinned along its top row (row 0, at y = 2), tearable.
BodyRange hangingCloth(World& world, ClothModel model = ClothModel::Edges, BendModel bend = BendModel::SkipOne,
                       Real strain = std::numeric_limits<Real>::infinity(), TetherMode tethers = TetherMode::None) {
  ClothDef def;
  def.columns = kColumns, def.rows = kRows;
  def.spacing = 0.1f;
  def.origin = Vec3(0, 2, 0);
  def.axisU = Vec3(1, 0, 0), def.axisV = Vec3(0, -1, 0);
  def.mass = 1;
  for (uint32_t c = 0; c < kColumns; ++c) def.pinned.push_back(c);
  def.model = model;
  def.bendModel = bend;
  def.tethers = tethers;
  def.stretch = {1e-6f, 1};
  def.tearing.enabled = true;
  def.tearing.strain = strain;
  return world.addCloth(def);
}

/// The edges of row r from the left border to the right one (pairs of world indices).
std::vector<uint32_t> cutAcross(const BodyRange& cloth, uint32_t r) {
  std::vector<uint32_t> e;
  for (uint32_t c = 0; c + 1 < kColumns; ++c)
    e.insert(e.end(), {cloth.firstParticle + r * kColumns + c, cloth.firstParticle + r * kColumns + c + 1});
  return e;
}

struct Totals {
  double mass = 0;
  Eigen::Vector3d momentum = Eigen::Vector3d::Zero(), moment = Eigen::Vector3d::Zero();  // Σ m v, Σ m x
};

Totals totals(const World& world) {
  Totals t;
  for (uint32_t i = 0; i < world.particleCount(); ++i) {
    const double w = world.inverseMasses()[i];
    if (w == 0) continue;
    const double m = 1 / w;
    t.mass += m;
    for (int a = 0; a < 3; ++a) {
      t.momentum[a] += m * world.velocities()[3 * i + a];
      t.moment[a] += m * world.positions()[3 * i + a];
    }
  }
  return t;
}

/// Per particle of the body, its piece: particles on one of the body's triangles share one.
std::vector<uint32_t> pieces(const World& world, uint32_t body, uint32_t first, uint32_t count) {
  std::vector<uint32_t> piece(count);
  for (uint32_t i = 0; i < count; ++i) piece[i] = i;
  auto find = [&](uint32_t a) {
    while (piece[a] != a) a = piece[a] = piece[piece[a]];
    return a;
  };
  const std::vector<uint32_t> t = world.bodyTriangles(body);
  for (size_t k = 0; k < t.size(); k += 3)
    for (int c = 1; c < 3; ++c) piece[std::max(find(t[k] - first), find(t[k + c] - first))] = std::min(find(t[k] - first), find(t[k + c] - first));
  for (uint32_t& p : piece) p = find(p);
  return piece;
}

/// Every constraint's particles exist, and every distance constraint of the body stays within one piece.
void expectNothingDangles(const World& world, const BodyRange& cloth) {
  const WorldImpl& m = WorldInternals::of(world);
  const uint32_t n = world.particleCount();
  const uint32_t first = cloth.firstParticle, count = m.particles.bodies[cloth.body].end - first;
  const std::vector<uint32_t> piece = pieces(world, cloth.body, first, count);
  for (const DistanceConstraint& c : m.constraints.distances) {
    ASSERT_LT(c.i, n);
    ASSERT_LT(c.j, n);
    EXPECT_EQ(piece[c.i - first], piece[c.j - first]) << c.i << " " << c.j;
  }
  for (const DihedralConstraint& d : m.constraints.dihedrals) {
    EXPECT_EQ(piece[d.p0 - first], piece[d.p1 - first]);
    EXPECT_EQ(piece[d.p2 - first], piece[d.p3 - first]);
    EXPECT_EQ(piece[d.p0 - first], piece[d.p2 - first]);
  }
  for (const TriangleStrainConstraint& t : m.constraints.triangleStrains) {
    EXPECT_EQ(piece[t.p[0] - first], piece[t.p[1] - first]);
    EXPECT_EQ(piece[t.p[0] - first], piece[t.p[2] - first]);
  }
  for (const Tether& t : m.constraints.tethers) EXPECT_EQ(piece[t.particle - first], piece[t.anchor - first]);
  for (uint32_t i = 0; i < 3 * n; ++i) ASSERT_TRUE(std::isfinite(world.positions()[i]));
}

/// Lowest y of the particles above row `r`'s copies and highest y of those below, by piece of the top-left corner.
double gapBetweenPieces(const World& world, const BodyRange& cloth) {
  const WorldImpl& m = WorldInternals::of(world);
  const uint32_t first = cloth.firstParticle, count = m.particles.bodies[cloth.body].end - first;
  const std::vector<uint32_t> piece = pieces(world, cloth.body, first, count);
  double lowestTop = 1e9, highestBottom = -1e9;
  for (uint32_t i = 0; i < count; ++i) {
    const double y = world.positions()[3 * (first + i) + 1];
    if (piece[i] == piece[0]) lowestTop = std::min(lowestTop, y);
    else highestBottom = std::max(highestBottom, y);
  }
  return lowestTop - highestBottom;
}

}  // namespace

TEST(Tearing, MassMomentumAndCentreOfMassAreKeptAtTheSplit) {
  for (ClothModel model : {ClothModel::Edges, ClothModel::StrainTriangles}) {
    World world;
    const BodyRange cloth = hangingCloth(world, model);
    for (int k = 0; k < 20; ++k) world.step(1.0f / 60);
    for (uint32_t i = 0; i < world.particleCount(); ++i)  // a swirl, so every particle moves its own way
      world.setVelocity(i, Vec3(0.3f * std::sin(Real(i)), 0.2f * std::cos(Real(3 * i)), 0.1f * Real(i % 7)));
    const Totals before = totals(world);
    const TearReport report = world.tearEdges(cloth.body, cutAcross(cloth, 4));
    EXPECT_EQ(report.particleCount, kColumns);  // every particle of row 4 splits in two
    EXPECT_EQ(world.particleCount(), kColumns * kRows + kColumns);
    const Totals after = totals(world);
    EXPECT_NEAR(after.mass, before.mass, 1e-6 * before.mass);
    EXPECT_LT((after.momentum - before.momentum).norm(), 1e-6 * before.mass);
    EXPECT_LT((after.moment - before.moment).norm(), 1e-6 * before.mass);
    expectNothingDangles(world, cloth);
  }
}

TEST(Tearing, TornPiecesFallApartAndNeverJoin) {
  for (BendModel bend : {BendModel::SkipOne, BendModel::Dihedral}) {
    World world;
    const BodyRange cloth = hangingCloth(world, ClothModel::Edges, bend, std::numeric_limits<Real>::infinity(),
                                         TetherMode::Geodesic);
    for (int k = 0; k < 30; ++k) world.step(1.0f / 60);
    world.tearEdges(cloth.body, cutAcross(cloth, 5));
    expectNothingDangles(world, cloth);
    EXPECT_LT(std::abs(gapBetweenPieces(world, cloth)), 0.05);  // they start together
    for (int k = 0; k < 60; ++k) world.step(1.0f / 60);
    // One second later the lower piece has fallen freely, about g t² / 2 = 4.9 m (to the ground at y = 0).
    EXPECT_GT(gapBetweenPieces(world, cloth), 1.0);
    expectNothingDangles(world, cloth);
  }
}

TEST(Tearing, AClothPulledPastItsStrainTearsByItself) {
  World world;
  const BodyRange cloth = hangingCloth(world, ClothModel::Edges, BendModel::SkipOne, 0.5f);
  // Pull the bottom row down ever faster with stiff attachments: the cloth stretches until edges tear.
  std::vector<uint32_t> grips;
  for (uint32_t c = 0; c < kColumns; ++c) {
    AttachmentDef a;
    a.particle = cloth.firstParticle + (kRows - 1) * kColumns + c;
    a.target = Vec3(0.1f * Real(c), 2 - 0.8f, 0);
    grips.push_back(world.addAttachment(a));
  }
  const Totals start = totals(world);
  uint32_t tearSteps = 0;
  for (int k = 0; k < 120 && tearSteps < 50; ++k) {
    for (uint32_t c = 0; c < kColumns; ++c)
      world.setAttachmentTarget(grips[c], Vec3(0.1f * Real(c), 2 - 0.8f - 0.02f * Real(k), 0));
    world.step(1.0f / 60);
    if (world.lastTears().empty()) continue;
    ++tearSteps;
    EXPECT_EQ(world.lastTears()[0].body, cloth.body);
  }
  EXPECT_GT(tearSteps, 0u);
  EXPECT_GT(world.particleCount(), kColumns * kRows);
  EXPECT_NEAR(totals(world).mass, start.mass, 1e-5 * start.mass);
  expectNothingDangles(world, cloth);
}

TEST(Tearing, RemovingTheLastTearableBodyLeavesNoStaleReport) {
  World world;
  const BodyRange cloth = hangingCloth(world, ClothModel::Edges, BendModel::SkipOne, 0.5f);
  AttachmentDef a;
  a.particle = cloth.firstParticle + kRows * kColumns - 1;
  a.target = Vec3(3, -3, 0);   // far below and aside: a corner pulled hard tears within a few steps
  world.addAttachment(a);
  for (int k = 0; k < 120 && world.lastTears().empty(); ++k) world.step(1.0f / 60);
  ASSERT_FALSE(world.lastTears().empty());
  // The report is the last step's: removing the last tearable body keeps it until the next step, which clears it.
  world.removeBody(cloth.body);
  EXPECT_FALSE(world.lastTears().empty());
  world.step(1.0f / 60);
  EXPECT_TRUE(world.lastTears().empty());
}

TEST(Tearing, ATornWorldRoundTripsThroughASnapshotBitForBit) {
  World a;
  const BodyRange cloth = hangingCloth(a, ClothModel::Edges, BendModel::Dihedral, 0.6f, TetherMode::Euclidean);
  for (int k = 0; k < 10; ++k) a.step(1.0f / 60);
  std::vector<uint32_t> cut = cutAcross(cloth, 3);
  cut.resize(8);  // half way across: a slit with a tip
  a.tearEdges(cloth.body, cut);
  const std::vector<uint8_t> blob = a.saveSnapshot();
  World b;
  b.loadSnapshot(blob.data(), blob.size());
  EXPECT_EQ(b.saveSnapshot(), blob);
  EXPECT_EQ(b.bodyTriangles(cloth.body), a.bodyTriangles(cloth.body));
  for (int k = 0; k < 30; ++k) {
    a.step(1.0f / 60), b.step(1.0f / 60);
    ASSERT_EQ(a.particleCount(), b.particleCount());
  }
  EXPECT_EQ(0, std::memcmp(a.positions(), b.positions(), sizeof(Real) * 3 * a.particleCount()));
  EXPECT_EQ(a.saveSnapshot(), b.saveSnapshot());
}

TEST(Tearing, BodiesAfterTheTornOneMoveUp) {
  World world;
  const BodyRange cloth = hangingCloth(world);
  RopeDef rope;
  rope.segments = 4;
  rope.start = Vec3(3, 2, 0), rope.end = Vec3(3, 1, 0);
  rope.pinned = {0};
  const BodyRange r = world.addRope(rope);
  const Vec3 before(world.positions()[3 * (r.firstParticle + 2)], world.positions()[3 * (r.firstParticle + 2) + 1],
                    world.positions()[3 * (r.firstParticle + 2) + 2]);
  const TearReport report = world.tearEdges(cloth.body, cutAcross(cloth, 2));
  EXPECT_EQ(report.firstParticle, r.firstParticle);
  const uint32_t moved = r.firstParticle + report.particleCount + 2;
  EXPECT_EQ(Vec3(world.positions()[3 * moved], world.positions()[3 * moved + 1], world.positions()[3 * moved + 2]), before);
  // The rope's links moved with its particles, and it still hangs from its pin.
  for (int k = 0; k < 60; ++k) world.step(1.0f / 60);
  EXPECT_EQ(world.inverseMasses()[r.firstParticle + report.particleCount], 0);
  EXPECT_NEAR(world.positions()[3 * (r.firstParticle + report.particleCount + 4) + 1], 1.0, 0.05);
  // Removing the torn cloth, and then tearing nothing else, works.
  world.removeBody(cloth.body);
  EXPECT_EQ(world.particleCount(), 5u);
}

TEST(Tearing, BadInputChangesNothing) {
  World world;
  const BodyRange cloth = hangingCloth(world);
  RopeDef rope;
  const BodyRange r = world.addRope(rope);
  const std::vector<uint8_t> before = world.saveSnapshot();
  const uint32_t f = cloth.firstParticle;
  expectError([&] { world.tearEdges(r.body, std::vector<uint32_t>{r.firstParticle, r.firstParticle + 1}); },
              {"tearEdges: body", "not tearable"});
  expectError([&] { world.tearEdges(7, std::vector<uint32_t>{0, 1}); }, {"tearEdges: body"});
  expectError([&] { world.tearEdges(cloth.body, std::vector<uint32_t>{f}); }, {"tearEdges: edges", "even"});
  expectError([&] { world.tearEdges(cloth.body, std::vector<uint32_t>{f, f + 1, f, f + 30}); },
              {"tearEdges: edges[2]", "no edge"});
  expectError([&] { world.tearEdges(cloth.body, std::vector<uint32_t>{f, r.firstParticle}); },
              {"tearEdges: edges[1]", "not a particle of the body"});
  expectError([&] { world.bodyTriangles(r.body); }, {"bodyTriangles: body", "not tearable"});
  EXPECT_EQ(world.saveSnapshot(), before);
  ClothDef bad;
  bad.tearing.enabled = true;
  bad.tearing.strain = 0;
  expectError([&] { world.addCloth(bad); }, {"addCloth: tearing.strain"});
  bad.tearing.strain = std::nanf("");
  expectError([&] { world.addCloth(bad); }, {"addCloth: tearing.strain"});
  EXPECT_EQ(world.saveSnapshot(), before);
}

TEST(Tearing, ContinuousSelfCollisionKeepsWorkingOnTheTornCloth) {
  // A cloth folding onto itself with continuous self-collision, cut across while it falls: its copies start on top of
  // each other, and the self-collision must neither blow up nor hold the pieces together.
  World world;
  ClothDef def;
  def.columns = 12, def.rows = 12;
  def.spacing = 0.05f;
  def.origin = Vec3(0, 1, 0);
  def.pinned = {0, 11};
  def.continuousSelfCollision.enabled = true;
  def.continuousSelfCollision.thickness = 0.01f;
  def.tearing.enabled = true;
  const BodyRange cloth = world.addCloth(def);
  for (int k = 0; k < 20; ++k) world.step(1.0f / 60);
  std::vector<uint32_t> cut;
  for (uint32_t c = 0; c + 1 < 12; ++c) cut.insert(cut.end(), {cloth.firstParticle + 6 * 12 + c, cloth.firstParticle + 6 * 12 + c + 1});
  const TearReport report = world.tearEdges(cloth.body, cut);
  EXPECT_EQ(report.particleCount, 12u);
  EXPECT_TRUE(world.continuousSelfCollision(cloth.body).enabled);
  for (int k = 0; k < 90; ++k) {
    world.step(1.0f / 60);
    ASSERT_FALSE(world.lastStepReport().rolledBack) << "step " << k;
  }
  expectNothingDangles(world, cloth);
  // The loose half fell to the ground (y = 0, the cloth 5 cm thick at most) while the pinned half hangs.
  double highestLoose = -1e9, highestHung = -1e9;
  const std::vector<uint32_t> piece = pieces(world, cloth.body, cloth.firstParticle, 12 * 12 + 12);
  for (uint32_t i = 0; i < 12 * 12 + 12; ++i) {
    const double y = world.positions()[3 * (cloth.firstParticle + i) + 1];
    double& highest = piece[i] == piece[0] ? highestHung : highestLoose;
    highest = std::max(highest, y);
  }
  EXPECT_LT(highestLoose, 0.1);
  EXPECT_GT(highestHung, 0.9);
}

TEST(Tearing, AStepThatToreStillReportsItsImpulseOnTheColliders) {
  // A cloth dropped onto a sphere tears over it; the step that tore gave the sphere an impulse, and colliderImpulse
  // must still say so after the rebuild (a coupled engine reads it after the step).
  World world;
  ColliderDef sphere;
  sphere.position = Vec3(0.45f, 0.5f, 0.45f);
  sphere.radius = 0.2f;
  world.addCollider(sphere);
  ClothDef def;
  def.columns = 10, def.rows = 10;
  def.spacing = 0.1f;
  def.origin = Vec3(0, 0.75f, 0);
  for (uint32_t c : {0u, 9u, 90u, 99u}) def.pinned.push_back(c);
  def.tearing.enabled = true;
  def.tearing.strain = 0.05f;
  world.addCloth(def);
  bool tore = false;
  for (int k = 0; k < 120 && !tore; ++k) {
    world.setColliderPose(0, Vec3(0.45f, 0.5f + 0.01f * Real(k), 0.45f), Quat::Identity());
    world.step(1.0f / 60);
    tore = !world.lastTears().empty();
  }
  ASSERT_TRUE(tore);
  EXPECT_LT(world.colliderImpulse(0).linear.y(), 0);  // the cloth pushed the rising sphere down
}

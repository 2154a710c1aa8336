// Tet volume constraints and soft bodies from tet meshes: gradients, momentum, a soft cube that lands, comes to
// rest and keeps its volume, and bad meshes rejected with the tet named.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <vector>
#include <random>

#include "constraints/tet_volume.h"
#include "pbd/errors.h"
#include "pbd/world.h"
#include "scenes/finite_difference.h"
#include "scenes/tet_cube.h"

using namespace pbd;

TEST(TetVolumeKernel, GradientsMatchFiniteDifferencesAndCarryNoMomentum) {
  std::mt19937 rng(12);
  std::uniform_real_distribution<Real> u(-1, 1);
  for (int trial = 0; trial < 50; ++trial) {
    Vec3 p[4];
    for (Vec3& q : p) q = Vec3(u(rng), u(rng), u(rng));
    Vec3 grad[4];
    tetVolumeGradients(p[0], p[1], p[2], p[3], grad);
    for (int k = 0; k < 4; ++k) {
      const Vec3 fd = scenes::centralDifference(
          [&](const Vec3& y) {
            Vec3 q[4] = {p[0], p[1], p[2], p[3]};
            q[k] = y;
            return tetVolume(q[0], q[1], q[2], q[3]);
          },
          p[k]);
      EXPECT_LT((fd - grad[k]).norm(), 1e-3f) << "trial " << trial << " vertex " << k;
    }
    // A correction along the gradients: Σ m Δp = 0 and Σ m p × Δp = 0 for any masses.
    const Real w[4] = {1, 0.5f, 2, 1.5f};
    Vec3 q[4] = {p[0], p[1], p[2], p[3]};
    Vec3* ptr[4] = {&q[0], &q[1], &q[2], &q[3]};
    projectTetVolume(ptr, w, std::abs(tetVolume(p[0], p[1], p[2], p[3])) + 0.05f, false, true, 1, 0, 0);
    Vec3 linear = Vec3::Zero(), angular = Vec3::Zero();
    for (int k = 0; k < 4; ++k) {
      linear += (q[k] - p[k]) / w[k];
      angular += p[k].cross(q[k] - p[k]) / w[k];
    }
    EXPECT_LT(linear.norm(), 1e-5f);
    EXPECT_LT(angular.norm(), 1e-5f);
  }
}

namespace {

struct DisjointTets {
  std::vector<Real> xyz, w;             // 4 particles per tet, at random; every 7th pinned
  std::vector<TetVolumeConstraint> cs;  // particles and rest volumes set; strengths the caller's
};

/// `tets` tets on particles of their own, scattered (tet t on the particles 4 ((7 t) mod tets) ..: 7 is prime to
/// every count the tests use), so a batch gathers from across the array.
DisjointTets disjointTets(std::mt19937& rng, size_t tets) {
  std::uniform_real_distribution<Real> u(-1, 1);
  DisjointTets d{std::vector<Real>(3 * 4 * tets), std::vector<Real>(4 * tets), std::vector<TetVolumeConstraint>(tets)};
  for (Real& c : d.xyz) c = u(rng);
  for (size_t i = 0; i < d.w.size(); ++i) d.w[i] = i % 7 == 0 ? 0 : 0.5f + u(rng) * 0.4f;
  for (size_t t = 0; t < tets; ++t) {
    for (int k = 0; k < 4; ++k) d.cs[t].p[k] = uint32_t(4 * ((t * 7) % tets) + k);
    d.cs[t].restVolume = 0.05f + 0.02f * Real(t);
  }
  return d;
}

}  // namespace

// The SIMD path projects four tets of one colour at once, on padded positions; it must give every tet the bits the
// one-by-one kernel gives and keep the inverse masses.
TEST(TetVolumeKernel, BatchedProjectionGivesTheSameBitsAsOneByOne) {
  std::mt19937 rng(7);
  // Two batches of four, then a short last batch of 1 to 3 tets (its lanes repeat its last tet), or none; particles
  // disjoint.
  for (size_t tets : {size_t(9), size_t(10), size_t(11), size_t(12)}) {
    auto [xyz, w, cs] = disjointTets(rng, tets);
    std::vector<uint32_t> order(tets);
    for (size_t t = 0; t < tets; ++t) {
      cs[t].compliance = t % 3 == 0 ? 0 : 1e-6f;
      cs[t].stiffness = cs[t].kPrime = 0.8f;
      cs[t].unilateral = t % 4 == 1;
      order[t] = uint32_t(tets - 1 - t);
    }
    for (bool xpbd : {true, false}) {
      std::vector<Real> batchXyz = xyz, oneXyz = xyz, batchLambda(tets, 0.01f), oneLambda(tets, 0.01f);
      std::vector<Real> xyzw(4 * w.size());
      padRange(batchXyz.data(), w.data(), 0, w.size(), xyzw.data());
      projectTetVolumesBatched(cs.data(), order.data(), 0, tets, batchLambda.data(), xyzw.data(), xpbd, 3600);
      unpadRange(xyzw.data(), 0, w.size(), batchXyz.data());
      for (size_t i = 0; i < w.size(); ++i) ASSERT_EQ(w[i], xyzw[4 * i + 3]) << "inverse mass of particle " << i;
      Vec3* P = reinterpret_cast<Vec3*>(oneXyz.data());
      for (uint32_t k : order) {
        const TetVolumeConstraint& t = cs[k];
        Vec3* ps[4] = {&P[t.p[0]], &P[t.p[1]], &P[t.p[2]], &P[t.p[3]]};
        const Real ws[4] = {w[t.p[0]], w[t.p[1]], w[t.p[2]], w[t.p[3]]};
        oneLambda[k] +=
            projectTetVolume(ps, ws, t.restVolume, t.unilateral, xpbd, t.kPrime, t.compliance * 3600, oneLambda[k]);
      }
      EXPECT_NE(0, std::memcmp(xyz.data(), oneXyz.data(), xyz.size() * sizeof(Real)));  // it did move something
      EXPECT_EQ(0, std::memcmp(batchXyz.data(), oneXyz.data(), xyz.size() * sizeof(Real)))
          << "tets " << tets << " xpbd " << xpbd;
      EXPECT_EQ(0, std::memcmp(batchLambda.data(), oneLambda.data(), tets * sizeof(Real)))
          << "tets " << tets << " xpbd " << xpbd;
    }
  }
}

// The sweep reads the tets packed in its order (PackedTetVolumes): the same bits as the batched kernel on the structs,
// from any starting position (an island group's range starts anywhere in a colour), and the multipliers of every
// compliant tet; a four of rigid tets leaves its multipliers alone (nothing reads them: α̃ = 0).
TEST(TetVolumeKernel, PackedProjectionGivesTheBatchedBits) {
  std::mt19937 rng(11);
  for (size_t tets : {size_t(9), size_t(11), size_t(13)}) {
    auto [xyz, w, cs] = disjointTets(rng, tets);
    std::vector<uint32_t> order(tets);
    for (size_t t = 0; t < tets; ++t) {
      order[t] = uint32_t((t * 5 + 3) % tets);  // 5 is prime to every count: a permutation
      cs[t].compliance = 0;
      cs[t].stiffness = cs[t].kPrime = 0.7f;
      cs[t].unilateral = t % 4 == 1;
    }
    for (size_t n = 6; n < tets; n += 2) cs[order[n]].compliance = 1e-6f;  // positions 0-5 rigid, then mixed fours
    PackedTetVolumes packed;
    packed.pack(cs.data(), order.data(), tets);
    for (bool xpbd : {true, false}) {
      for (size_t begin : {size_t(0), size_t(1), size_t(2)}) {
        std::vector<Real> a = xyz, b = xyz, lambdaA(tets, 0.01f), lambdaB(tets, 0.01f);
        std::vector<Real> xyzwA(4 * w.size()), xyzwB(4 * w.size());
        padRange(a.data(), w.data(), 0, w.size(), xyzwA.data());
        padRange(b.data(), w.data(), 0, w.size(), xyzwB.data());
        projectTetVolumesBatched(cs.data(), order.data(), begin, tets, lambdaA.data(), xyzwA.data(), xpbd, 3600);
        projectPackedTetVolumes(packed, cs.data(), order.data(), begin, tets, lambdaB.data(), xyzwB.data(), xpbd, 3600);
        std::vector<Real> start(4 * w.size());
        padRange(xyz.data(), w.data(), 0, w.size(), start.data());
        EXPECT_NE(0, std::memcmp(xyzwA.data(), start.data(), start.size() * sizeof(Real)));  // it moved something
        EXPECT_EQ(0, std::memcmp(xyzwA.data(), xyzwB.data(), xyzwA.size() * sizeof(Real)))
            << "tets " << tets << " from " << begin << " xpbd " << xpbd;
        if (!xpbd) continue;
        for (size_t t = 0; t < tets; ++t) {
          if (cs[t].compliance > 0) {
            EXPECT_EQ(lambdaA[t], lambdaB[t]) << "tet " << t;
          }
        }
        if (begin == 0) {
          EXPECT_EQ(lambdaB[order[0]], 0.01f) << "the rigid four's multipliers are left alone";
        }
      }
    }
  }
}

// The packed sweep is compiled per pack (PackedTetVolumes::rigid, anyUnilateral): every variant gives the batched
// kernel's bits, under XPBD and PBD, from any starting position; a rigid pack's whole fours under XPBD leave their
// multipliers alone.
TEST(TetVolumeKernel, EveryCompiledVariantOfThePackedProjectionGivesTheBatchedBits) {
  std::mt19937 rng(17);
  for (bool compliant : {false, true}) {
    for (bool unilateral : {false, true}) {
      const size_t tets = 13;
      auto [xyz, w, cs] = disjointTets(rng, tets);
      std::vector<uint32_t> order(tets);
      for (size_t t = 0; t < tets; ++t) {
        order[t] = uint32_t((t * 5 + 3) % tets);
        cs[t].compliance = compliant ? 1e-6f : 0;
        cs[t].stiffness = cs[t].kPrime = 0.7f;
        cs[t].unilateral = unilateral && t % 3 == 1;
      }
      PackedTetVolumes packed;
      packed.pack(cs.data(), order.data(), tets);
      EXPECT_EQ(packed.rigid, !compliant);
      EXPECT_EQ(packed.anyUnilateral, unilateral);
      for (bool xpbd : {true, false}) {
        for (size_t begin : {size_t(0), size_t(1), size_t(2)}) {
          SCOPED_TRACE(testing::Message() << "compliant " << compliant << " unilateral " << unilateral << " xpbd "
                                          << xpbd << " from " << begin);
          std::vector<Real> lambdaA(tets, 0.01f), lambdaB(tets, 0.01f);
          std::vector<Real> xyzwA(4 * w.size()), xyzwB(4 * w.size());
          padRange(xyz.data(), w.data(), 0, w.size(), xyzwA.data());
          padRange(xyz.data(), w.data(), 0, w.size(), xyzwB.data());
          const std::vector<Real> start = xyzwA;
          projectTetVolumesBatched(cs.data(), order.data(), begin, tets, lambdaA.data(), xyzwA.data(), xpbd, 3600);
          projectPackedTetVolumes(packed, cs.data(), order.data(), begin, tets, lambdaB.data(), xyzwB.data(), xpbd,
                                  3600);
          EXPECT_NE(0, std::memcmp(xyzwA.data(), start.data(), start.size() * sizeof(Real)));  // it moved something
          EXPECT_EQ(0, std::memcmp(xyzwA.data(), xyzwB.data(), xyzwA.size() * sizeof(Real)));
          if (xpbd && compliant) {
            EXPECT_EQ(lambdaA, lambdaB);
          }
          // The whole fours of a rigid pack leave their multipliers alone (a short last batch writes its own back).
          for (size_t n = begin; xpbd && !compliant && n < begin + (tets - begin) / 4 * 4; ++n)
            EXPECT_EQ(lambdaB[order[n]], 0.01f) << "position " << n;
        }
      }
    }
  }
}

TEST(TetVolumeKernel, RestStateAndUnilateralVariant) {
  Vec3 p[4] = {Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0), Vec3(0, 0, 1)};
  const Real rest = tetVolume(p[0], p[1], p[2], p[3]);
  EXPECT_NEAR(rest, 1.0f / 6, 1e-7f);
  Vec3* ptr[4] = {&p[0], &p[1], &p[2], &p[3]};
  const Real w[4] = {1, 1, 1, 1};
  EXPECT_EQ(projectTetVolume(ptr, w, rest, false, true, 1, 0, 0), 0);
  EXPECT_EQ(projectTetVolume(ptr, w, rest * 0.5f, true, true, 1, 0, 0), 0);  // larger than rest: unilateral lets it be
  projectTetVolume(ptr, w, rest * 0.5f, false, true, 1, 0, 0);                 // bilateral shrinks it
  EXPECT_LT(tetVolume(p[0], p[1], p[2], p[3]), rest * 0.75f);
}

TEST(SoftBody, ACubeLandsComesToRestAndKeepsItsVolume) {
  World world;
  SolverSettings s;
  s.substeps = 10;
  s.iterations = 2;
  world.setSettings(s);
  const SoftBodyDef cube = scenes::tetCube(3, 0.3f, Vec3(-0.15f, 0.5f, -0.15f));
  const BodyRange range = world.addSoftBody(cube);
  EXPECT_EQ(range.particleCount, 64u);
  EXPECT_EQ(range.volumeCount, 3u * 3 * 3 * 6);
  const double rest = scenes::meshVolume(world, cube, 0);
  EXPECT_NEAR(rest, 0.027, 1e-6);
  double worst = 0;
  for (int f = 0; f < 180; ++f) {
    world.step(1.0f / 60);
    worst = std::max(worst, std::abs(scenes::meshVolume(world, cube, 0) / rest - 1));
    for (uint32_t i = 0; i < 64; ++i) ASSERT_GE(world.positions()[3 * i + 1], 0) << "frame " << f;
  }
  EXPECT_LT(worst, 0.02);  // volume within 2% at every frame, impact included
  Real speed = 0;
  for (uint32_t k = 0; k < 3 * 64; ++k) speed = std::max(speed, std::abs(world.velocities()[k]));
  EXPECT_LT(speed, 0.05f);  // at rest on the ground
  // Mass from density: 1000 kg/m³ x 0.027 m³.
  double mass = 0;
  for (uint32_t i = 0; i < 64; ++i) mass += 1.0 / world.inverseMasses()[i];
  EXPECT_NEAR(mass, 27.0, 1e-3);
}

TEST(SoftBody, BadMeshesAreRejectedWithTheTetNamed) {
  auto expectError = [](const SoftBodyDef& def, const char* fragment) {
    World world;
    try {
      world.addSoftBody(def);
      ADD_FAILURE() << "accepted; expected " << fragment;
    } catch (const InvalidArgument& e) {
      EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
    }
    EXPECT_EQ(world.particleCount(), 0u);
  };
  SoftBodyDef one;
  one.positions = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1};
  one.tets = {0, 1, 2, 3};
  World ok;
  EXPECT_EQ(ok.addSoftBody(one).volumeCount, 1u);
  SoftBodyDef bad = one;
  bad.tets = {0, 2, 1, 3};
  expectError(bad, "tets[0] is inverted");
  bad = one;
  bad.positions[9] = 0, bad.positions[11] = 0;  // vertex 3 onto the base: zero volume
  expectError(bad, "tets[0] is degenerate");
  bad = one;
  bad.tets = {0, 1, 2, 7};
  expectError(bad, "tets[0][3] is out of range");
  bad = one;
  bad.tets = {0, 1, 1, 3};
  expectError(bad, "tets[0] repeats a vertex");
  bad = one;
  bad.positions.insert(bad.positions.end(), {5, 5, 5});
  expectError(bad, "vertex 4 is in no tet");
  bad = one;
  bad.density = 0;
  expectError(bad, "density");
  bad = one;
  bad.positions[4] = std::nanf("");
  expectError(bad, "positions[4]");
  bad = one;
  bad.tets.clear();
  expectError(bad, "tets");
}

TEST(SoftBody, TotalMassSpreadsEvenlyInsteadOfByDensity) {
  World world;
  SoftBodyDef cube = scenes::tetCube(2, 0.3f, Vec3::Zero());
  const BodyRange byDensity = world.addSoftBody(cube);
  cube.totalMass = 2.7f;
  const BodyRange uniform = world.addSoftBody(cube);
  double densityTotal = 0;
  bool densityVaries = false;
  for (uint32_t i = 0; i < byDensity.particleCount; ++i) {
    const Real w = world.inverseMasses()[byDensity.firstParticle + i];
    densityTotal += 1 / w;
    densityVaries |= w != world.inverseMasses()[byDensity.firstParticle];
    EXPECT_FLOAT_EQ(world.inverseMasses()[uniform.firstParticle + i], Real(uniform.particleCount) / 2.7f);
  }
  EXPECT_TRUE(densityVaries) << "corner vertices have fewer tets than the centre one";
  EXPECT_NEAR(densityTotal, 1000 * 0.3 * 0.3 * 0.3, 1e-3);  // density x volume
  cube.totalMass = -1;
  EXPECT_THROW(world.addSoftBody(cube), InvalidArgument);
}

TEST(SoftBody, TwoCubesDroppedOnEachOtherStack) {
  // Soft body against soft body through particle collision (radius 0.04 m: wider than half the 0.1 m cells' face
  // diagonal, so no particle fits through a face): a 0.3 m cube dropped on another, off-centre, comes to rest on it.
  World world;
  SolverSettings s;
  s.substeps = 10;
  s.iterations = 2;
  s.selfCollision = {true, 0.04f};
  world.setSettings(s);
  const BodyRange bottom = world.addSoftBody(scenes::tetCube(3, 0.3f, Vec3(-0.15f, 0, -0.15f)));
  const BodyRange top = world.addSoftBody(scenes::tetCube(3, 0.3f, Vec3(-0.1f, 0.45f, -0.12f)));
  auto extent = [&](const BodyRange& b, bool highest) {
    Real y = highest ? -1e9f : 1e9f;
    for (uint32_t i = b.firstParticle; i < b.firstParticle + b.particleCount; ++i) {
      y = highest ? std::max(y, world.positions()[3 * i + 1]) : std::min(y, world.positions()[3 * i + 1]);
    }
    return y;
  };
  auto centre = [&](const BodyRange& b) {
    Vec3 sum = Vec3::Zero();
    for (uint32_t i = b.firstParticle; i < b.firstParticle + b.particleCount; ++i) sum += Vec3(world.positions() + 3 * i);
    return Vec3(sum / Real(b.particleCount));
  };
  Vec3 settled = Vec3::Zero();
  for (int f = 0; f < 180; ++f) {
    world.step(1.0f / 60);
    // Never interleaved: every particle of the top cube stays above every particle of the bottom one.
    ASSERT_GT(extent(top, false), extent(bottom, true)) << "frame " << f;
    if (f == 119) settled = centre(top);
  }
  // Resting on it: within a particle diameter (0.08 m) of its top face, on the ground's cube, and still (its centre
  // moved less than 5 mm in the last second; single particles keep jittering at up to 0.3 m/s, left for later).
  EXPECT_LT(extent(top, false) - extent(bottom, true), 0.08f);
  EXPECT_NEAR(extent(bottom, false), 0, 0.01f);
  EXPECT_LT((centre(top) - settled).norm(), 5e-3f);
  EXPECT_NEAR(centre(top).y(), 0.3f + 0.15f + 0.04f, 0.04f);
}

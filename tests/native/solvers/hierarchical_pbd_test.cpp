// Solver::Hierarchical (Müller 2008, HPBD): the hierarchy's invariants (parents, weights, shrinking levels, stretch-
// only coarse constraints at rest length), rest stays at rest, free fall is untouched, what the coarse projection and
// the prolongation do to momentum, the point of it all (a dense rigid cloth stretches less at the same iteration
// count), determinism across threads, and validation of its settings.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>
#include <set>
#include <vector>

#include "native/expect_error.h"
#include "pbd/task_system.h"
#include "pbd/world.h"
#include "scenes/measures.h"
#include "scenes/scenes.h"
#include "solvers/hierarchy.h"
#include "scenes/free_space.h"
#include "native/long_scene.h"

using namespace pbd;

namespace {

/// A world's distance constraints, rest positions and inverse masses, as Hierarchy::build takes them.
struct WorldGraph {
  std::vector<DistanceConstraint> constraints;
  std::vector<Real> restX, w;
  uint32_t particleCount() const { return uint32_t(w.size()); }
};

WorldGraph graphOf(const World& world) {
  WorldGraph g;
  for (uint32_t c = 0; c < world.distanceConstraintCount(); ++c) {
    const DistanceConstraintDef d = world.distanceConstraint(c);
    g.constraints.push_back({d.i, d.j, d.minLength, d.maxLength, d.strength.compliance, d.strength.stiffness, 1});
  }
  g.restX.assign(world.positions(), world.positions() + 3 * size_t(world.particleCount()));
  g.w.assign(world.inverseMasses(), world.inverseMasses() + world.particleCount());
  return g;
}

Hierarchy buildFor(const WorldGraph& g, HierarchyParams params) {
  Hierarchy h;
  h.build(g.constraints.data(), g.constraints.size(), g.restX.data(), g.w.data(), g.particleCount(), params);
  return h;
}

using Adjacency = std::map<uint32_t, std::set<uint32_t>>;

Adjacency adjacencyOf(const std::vector<DistanceConstraint>& cs) {
  Adjacency a;
  for (const DistanceConstraint& d : cs) a[d.i].insert(d.j), a[d.j].insert(d.i);
  return a;
}

double restDistance(const WorldGraph& g, uint32_t a, uint32_t b) {
  double s = 0;
  for (int k = 0; k < 3; ++k) s += std::pow(double(g.restX[3 * a + k]) - double(g.restX[3 * b + k]), 2);
  return std::sqrt(s);
}

/// Checks every rule of hierarchy.h on every coarse level of `h`.
void expectInvariants(const Hierarchy& h, const WorldGraph& g, uint32_t k) {
  std::vector<uint32_t> finer(g.particleCount());
  for (uint32_t i = 0; i < finer.size(); ++i) finer[i] = i;
  Adjacency adjacency = adjacencyOf(g.constraints);
  for (size_t l = 1; l < h.levelCount(); ++l) {
    const HierarchyLevel& level = h.level(l);
    EXPECT_LT(level.particles.size(), finer.size()) << "level " << l << " must shrink";
    EXPECT_TRUE(std::is_sorted(level.particles.begin(), level.particles.end()));
    EXPECT_TRUE(std::includes(finer.begin(), finer.end(), level.particles.begin(), level.particles.end()));
    const std::set<uint32_t> kept(level.particles.begin(), level.particles.end());
    std::vector<uint32_t> dropped;  // with neighbours: these need parents
    for (uint32_t f : finer) {
      const size_t degree = adjacency[f].size();
      if (!kept.count(f) && degree > 0) dropped.push_back(f);
      if (g.w[f] == 0 && degree > 0) {
        EXPECT_TRUE(kept.count(f)) << "pinned particle " << f << " dropped, level " << l;
      }
    }
    ASSERT_EQ(level.children, dropped) << "level " << l;
    ASSERT_EQ(level.parentBegin.size(), level.children.size() + 1);
    for (size_t c = 0; c < level.children.size(); ++c) {
      const uint32_t child = level.children[c];
      const uint32_t first = level.parentBegin[c], end = level.parentBegin[c + 1];
      EXPECT_GE(end - first, std::min<size_t>(k, adjacency[child].size())) << "child " << child << " level " << l;
      double sum = 0, scale = -1;
      for (uint32_t q = first; q < end; ++q) {
        const uint32_t parent = level.particles[level.parents[q]];
        EXPECT_TRUE(adjacency[child].count(parent)) << "parent " << parent << " is no neighbour of " << child;
        EXPECT_GT(level.weights[q], 0);
        sum += level.weights[q];
        const double weightTimesDistance = level.weights[q] * restDistance(g, child, parent);  // ∝ 1/d: constant
        if (scale < 0) scale = weightTimesDistance;
        EXPECT_NEAR(weightTimesDistance, scale, 1e-5 * scale) << "child " << child;
      }
      EXPECT_NEAR(sum, 1.0, 1e-6) << "child " << child;
    }
    for (const DistanceConstraint& d : level.constraints) {
      EXPECT_LT(d.i, d.j);
      EXPECT_TRUE(kept.count(d.i) && kept.count(d.j));
      EXPECT_EQ(d.minLength, 0) << "coarse constraints only resist stretching";
      EXPECT_NEAR(d.maxLength, restDistance(g, d.i, d.j), 1e-6);
      // Neighbours on the finer level, or both neighbours of one dropped particle there.
      bool sharesDropped = adjacency[d.i].count(d.j) > 0;
      for (uint32_t f : adjacency[d.i]) sharesDropped |= !kept.count(f) && adjacency[f].count(d.j) > 0;
      EXPECT_TRUE(sharesDropped) << d.i << "-" << d.j << " level " << l;
    }
    adjacency = adjacencyOf(level.constraints);
    finer = level.particles;
  }
}

bool sameLevels(const Hierarchy& a, const Hierarchy& b) {
  if (a.levelCount() != b.levelCount()) return false;
  for (size_t l = 1; l < a.levelCount(); ++l) {
    const HierarchyLevel &x = a.level(l), &y = b.level(l);
    if (x.particles != y.particles || x.children != y.children || x.parents != y.parents || x.weights != y.weights ||
        x.constraints.size() != y.constraints.size()) {
      return false;
    }
    for (size_t c = 0; c < x.constraints.size(); ++c) {
      if (std::memcmp(&x.constraints[c], &y.constraints[c], sizeof(DistanceConstraint)) != 0) return false;
    }
  }
  return true;
}

/// Largest relative stretch d / L - 1 over every distance constraint (L = its maxLength).
double maxStretch(const World& world) {
  double worst = 0;
  const Real* x = world.positions();
  for (uint32_t c = 0; c < world.distanceConstraintCount(); ++c) {
    const DistanceConstraintDef d = world.distanceConstraint(c);
    double s = 0;
    for (int k = 0; k < 3; ++k) s += std::pow(double(x[3 * d.i + k]) - double(x[3 * d.j + k]), 2);
    worst = std::max(worst, std::sqrt(s) / double(d.maxLength) - 1);
  }
  return worst;
}

void useHierarchical(World& world, int levels = 3) {
  SolverSettings s = world.settings();
  s.solver = Solver::Hierarchical;
  s.hierarchyLevels = levels;
  world.setSettings(s);
}

}  // namespace

TEST(HierarchicalPbd, HierarchyKeepsItsInvariantsOnAClothAndAChain) {
  World cloth;
  scenes::hangingCloth(cloth, 32);  // stretch, shear and bend edges: up to 12 neighbours; two pins
  const WorldGraph g = graphOf(cloth);
  for (int k : {1, 2, 3}) {
    const Hierarchy h = buildFor(g, {4, k, 2});
    EXPECT_EQ(h.levelCount(), 4u) << "k " << k;
    expectInvariants(h, g, uint32_t(k));
    EXPECT_TRUE(sameLevels(h, buildFor(g, {4, k, 2}))) << "the build is deterministic";
    std::printf("k %d: level sizes 1024", k);
    for (size_t l = 1; l < h.levelCount(); ++l) std::printf(" %zu", h.level(l).particles.size());
    std::printf("\n");
  }
  // A bare chain (degree <= 2) with k = 3: dropped links fall back to both neighbours as parents.
  World chain;
  uint32_t previous = chain.addParticle(Vec3(0, 0, 0), 1);
  for (int i = 1; i < 40; ++i) {
    DistanceConstraintDef d;
    d.i = previous;
    d.j = previous = chain.addParticle(Vec3(Real(0.1f * i * (1 + 0.05f * i)), 0, 0), 1);  // uneven links
    chain.addDistanceConstraint(d);
  }
  const WorldGraph gc = graphOf(chain);
  const Hierarchy hc = buildFor(gc, {3, 3, 2});
  ASSERT_GE(hc.levelCount(), 2u);
  expectInvariants(hc, gc, 3);
  for (size_t c = 0; c < hc.level(1).children.size(); ++c) {  // interior links: exactly their two neighbours
    const uint32_t child = hc.level(1).children[c];
    if (child > 0 && child < 39) {
      EXPECT_EQ(hc.level(1).parentBegin[c + 1] - hc.level(1).parentBegin[c], 2u);
    }
  }
}

TEST(HierarchicalPbd, LevelsStopWhenTooSmallAndOneLevelIsTheColouredSolve) {
  World tiny;
  scenes::hangingCloth(tiny, 3);  // 9 particles: a coarse level of < 4 particles is not built
  const WorldGraph g = graphOf(tiny);
  const Hierarchy h = buildFor(g, {16, 2, 2});
  EXPECT_LT(h.levelCount(), 16u);
  for (size_t l = 1; l < h.levelCount(); ++l) EXPECT_GE(h.level(l).particles.size(), 4u);

  // hierarchyLevels = 1: no coarse level, so the step is the coloured one, bit for bit.
  World a, b;
  scenes::hangingCloth(a, 16);
  scenes::hangingCloth(b, 16);
  useHierarchical(b, 1);
  for (int f = 0; f < 30; ++f) a.step(1.0f / 60), b.step(1.0f / 60);
  EXPECT_EQ(scenes::stateHash(a), scenes::stateHash(b));
}

TEST(HierarchicalPbd, ARestClothStaysAtRestBitForBit) {
  World world;
  scenes::hangingCloth(world, 24);
  useHierarchical(world);
  world.setGravity(Vec3::Zero());
  const std::vector<Real> x0(world.positions(), world.positions() + 3 * world.particleCount());
  for (int f = 0; f < 60; ++f) world.step(1.0f / 60);
  EXPECT_EQ(std::memcmp(x0.data(), world.positions(), x0.size() * sizeof(Real)), 0);
  for (uint32_t k = 0; k < 3 * world.particleCount(); ++k) ASSERT_EQ(world.velocities()[k], 0) << k;
}

TEST(HierarchicalPbd, FreeFallIsUntouched) {
  // No pins, no ground: every constraint stays at rest length, so the coarse levels must not move anything.
  World coloured, hierarchical;
  for (World* w : {&coloured, &hierarchical}) {
    SolverSettings s;
    s.ground.enabled = false;
    w->setSettings(s);
    ClothDef c;
    c.columns = c.rows = 20;
    c.spacing = 0.05f;
    c.origin = Vec3(-0.5f, 0, -0.5f);
    w->addCloth(c);
  }
  useHierarchical(hierarchical);
  const std::vector<Real> x0(coloured.positions(), coloured.positions() + 3 * coloured.particleCount());
  const int frames = 30;
  for (int f = 0; f < frames; ++f) coloured.step(1.0f / 60), hierarchical.step(1.0f / 60);
  const double t = frames / 60.0, h = 1.0 / 600;
  const double drop = 0.5 * 9.81 * t * t + 0.5 * 9.81 * t * h;  // symplectic Euler's exact position (free_fall_test)
  double worstVsColoured = 0, worstVsAnalytic = 0;
  for (uint32_t i = 0; i < hierarchical.particleCount(); ++i) {
    for (int k = 0; k < 3; ++k) {
      const double xh = hierarchical.positions()[3 * i + k];
      worstVsColoured = std::max(worstVsColoured, std::abs(xh - coloured.positions()[3 * i + k]));
      worstVsAnalytic = std::max(worstVsAnalytic, std::abs(xh - (x0[3 * i + k] - (k == 1 ? drop : 0))));
    }
  }
  std::printf("free fall: max |hierarchical - coloured| %.3g m, max |hierarchical - analytic| %.3g m\n",
              worstVsColoured, worstVsAnalytic);
  EXPECT_LE(worstVsColoured, 1e-6);
  EXPECT_LE(worstVsAnalytic, 1e-4);  // float32 positions over 1.2 m of fall
}

TEST(HierarchicalPbd, EachLevelKeepsLinearMomentumThanksToLumpedMasses) {
  // A free 16 x 16 cloth with uneven masses, stretched unevenly. A coarse projection moves its ends by equal and
  // opposite impulses of the lumped masses M_p = m_p + Σ_f w_fp m_f, and the prolongation then moves each child by
  // its share, so projection + prolongation leave Σ m Δp (real masses) unchanged. The projection alone does not:
  // that is why the masses are lumped.
  World world;
  ClothDef c;
  c.columns = c.rows = 16;
  c.spacing = 0.1f;
  world.addCloth(c);
  WorldGraph g = graphOf(world);
  for (uint32_t i = 0; i < g.particleCount(); ++i) g.w[i] = Real(100 + 37 * (i % 7));  // 1/kg, uneven
  Hierarchy h = buildFor(g, {3, 2, 2});
  ASSERT_EQ(h.levelCount(), 3u);
  std::vector<Vec3> p(g.particleCount());
  for (uint32_t i = 0; i < p.size(); ++i) {
    const Vec3 r(g.restX[3 * i], g.restX[3 * i + 1], g.restX[3 * i + 2]);
    p[i] = Vec3(r.x() * (1 + Real(0.5) * r.x()), Real(0.1f) * r.x() * r.z(), r.z() * (1 + Real(0.2) * r.x()));
  }
  auto momentum = [&] {  // Σ m p: its change is Σ m Δp
    Eigen::Vector3d s = Eigen::Vector3d::Zero();
    for (size_t i = 0; i < p.size(); ++i) s += p[i].cast<double>() / double(g.w[i]);
    return s;
  };
  for (size_t l = h.levelCount() - 1; l >= 1; --l) {
    const std::vector<Vec3> before = p;
    const Eigen::Vector3d m0 = momentum();
    h.projectLevel(l, p.data(), g.w.data(), true, 3.6e5f);
    double impulse = 0;  // Σ m |Δp|: the scale the drift is compared with
    for (size_t i = 0; i < p.size(); ++i) impulse += (p[i] - before[i]).cast<double>().norm() / double(g.w[i]);
    const double projectionDrift = (momentum() - m0).norm();
    h.prolongate(l, p.data(), g.w.data());
    const double stageDrift = (momentum() - m0).norm();
    std::printf("level %zu: Σ m|Δp| %.4g kg m, Σ m Δp after projection %.3g, after prolongation %.3g\n", l, impulse,
                projectionDrift, stageDrift);
    EXPECT_GT(impulse, 5e-3) << "the level must actually correct something";
    EXPECT_LT(stageDrift, 1e-5 * impulse);
    EXPECT_GT(projectionDrift, 1e3 * stageDrift) << "the children's share is missing until prolongation";
  }
}

TEST(HierarchicalPbd, AFreeStretchedClothKeepsItsMomentumInAWorld) {
  for (Solver solver : {Solver::ColouredGaussSeidel, Solver::Hierarchical}) {
    World world;
    SolverSettings s = scenes::freeSpace();
    s.solver = solver;
    world.setSettings(s);
    ClothDef c;
    c.columns = c.rows = 24;
    c.spacing = 0.05f;
    world.addCloth(c);
    for (uint32_t i = 0; i < world.particleCount(); ++i) {  // stretch one side: the constraints pull it back
      const Real* x = world.positions() + 3 * i;
      world.setPosition(i, Vec3(x[0] * (1 + Real(0.2) * x[0]), x[1], x[2]));
    }
    for (int f = 0; f < 10; ++f) world.step(1.0f / 60);
    double scale = 0;  // Σ m |v|, kg m/s
    for (uint32_t i = 0; i < world.particleCount(); ++i) {
      scale += Eigen::Vector3d(world.velocities()[3 * i], world.velocities()[3 * i + 1], world.velocities()[3 * i + 2])
                   .norm() / world.inverseMasses()[i];
    }
    const double drift = scenes::momenta(world).linear.norm();
    std::printf("%s: Σ m|v| %.3g, |Σ m v| %.3g kg m/s\n", solver == Solver::Hierarchical ? "hierarchical" : "coloured",
                scale, drift);
    EXPECT_GT(scale, 0.1);
    // v = (p - x) / h in float32 rounds by about ulp(x) / h = 7e-5 m/s per particle: 1e-4 kg m/s is that noise over
    // 576 particles of 1/576 kg. Without lumped masses the prolongation alone would add ~10% of Σ m|Δp| per level.
    EXPECT_LT(drift, 1e-4);
  }
}

namespace {

/// Peak and final max stretch of a 64 x 64 rigid cloth (XPBD, compliance 0, 10 substeps x 1 iteration, no
/// tethers) pinned at two corners, over 2 s; the peak is taken over the second second. `vertical`: it starts
/// hanging in its plane (x, -y), else horizontal (x, z) and swings down (scenes::hangingCloth).
std::pair<double, double> clothStretch(bool hierarchical, bool vertical, double* msPerFrame) {
  World world;
  scenes::hangingCloth(world, 64);
  if (vertical) {
    World hanging;
    hanging.setSettings(world.settings());
    ClothDef c;
    c.columns = c.rows = 64;
    c.spacing = 1.0f / 63;
    c.origin = Vec3(-0.5f, 1.0f, 0);
    c.axisV = Vec3(0, -1, 0);
    c.pinned = {0, 63};
    c.bend = Strength{0, 1};
    hanging.addCloth(c);
    world = std::move(hanging);
  }
  if (hierarchical) useHierarchical(world);
  double peak = 0;
  const auto t0 = std::chrono::steady_clock::now();
  for (int f = 1; f <= 120; ++f) {
    world.step(1.0f / 60);
    if (f > 60) peak = std::max(peak, maxStretch(world));
  }
  *msPerFrame = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count() / 120;
  return {peak, maxStretch(world)};
}

}  // namespace

TEST(HierarchicalPbd, ADenseRigidClothStretchesLessThanWithColouredGaussSeidel) {
  PBD_LONG_SCENE();
  // The point of HPBD: with one iteration per substep, Gauss-Seidel moves a correction about one edge per pass, so a
  // 64 x 64 rigid cloth stretches a lot near its pins; the coarse levels carry the correction across in long jumps.
  for (bool vertical : {true, false}) {
    double ms[2];
    const auto coloured = clothStretch(false, vertical, &ms[0]);
    const auto hierarchical = clothStretch(true, vertical, &ms[1]);
    std::printf("64x64 %s: max stretch at 2 s coloured %.3f, hierarchical %.3f; peak over 1-2 s %.3f vs %.3f; "
                "%.1f vs %.1f ms/frame (incl. measuring)\n", vertical ? "hanging" : "swinging", coloured.second,
                hierarchical.second, coloured.first, hierarchical.first, ms[0], ms[1]);
    if (vertical) {
      EXPECT_LT(hierarchical.second, 0.4 * coloured.second);  // measured 0.15
      EXPECT_LT(hierarchical.first, 0.4 * coloured.first);
    } else {
      EXPECT_LT(hierarchical.first, 0.7 * coloured.first);  // measured ~0.4: a swing is less regular
    }
  }
}

TEST(HierarchicalPbd, BitIdenticalSerialAndThreaded) {
  auto run = [](TaskSystem* tasks) {
    World world(tasks);
    scenes::hangingCloth(world, 72);  // 5184 particles: the level-0 colours and particle loops do split
    useHierarchical(world);
    for (int f = 0; f < 10; ++f) world.step(1.0f / 60);
    return scenes::stateHash(world);
  };
  const uint64_t serial = run(nullptr);
  EXPECT_EQ(run(nullptr), serial);
  for (unsigned workers : {1u, 2u}) {
    ThreadPool pool(workers);
    EXPECT_EQ(run(&pool), serial) << "workers " << workers;
  }
}

TEST(HierarchicalPbd, RebuildsWhenAPinIsReleased) {
  // World a is built with corners 0 and 15 pinned and steps once at rest (that builds its hierarchy, which keeps
  // both pins), then corner 15 is released. World b has only corner 0 pinned from the start. Both are then in the
  // same state, so they must continue bit-identically, which they do only if a's hierarchy is rebuilt.
  auto make = [](World& world, std::vector<uint32_t> pinned) {
    SolverSettings s;  // XPBD, 10 substeps x 1 iteration
    s.solver = Solver::Hierarchical;
    s.gravity = Vec3::Zero();
    s.ground.enabled = false;
    world.setSettings(s);
    ClothDef c;
    c.columns = c.rows = 16;
    c.spacing = 1.0f / 15;
    c.origin = Vec3(-0.5f, 1.0f, 0);
    c.pinned = pinned;
    c.bend = Strength{0, 1};
    world.addCloth(c);
    world.step(1.0f / 60);  // at rest: nothing moves, the hierarchy is built
    world.setGravity(Vec3(0, -9.81f, 0));
  };
  World a, b;
  make(a, {0, 15});
  make(b, {0});
  const Hierarchy hb = buildFor(graphOf(b), {3, 2, 2});
  const auto& kept = hb.level(1).particles;
  ASSERT_FALSE(std::binary_search(kept.begin(), kept.end(), 15u)) << "free corner 15 must be dropped, or this "
                                                                      "test cannot tell a stale hierarchy";
  a.setInverseMass(15, b.inverseMasses()[15]);
  for (int f = 0; f < 10; ++f) a.step(1.0f / 60), b.step(1.0f / 60);
  EXPECT_EQ(scenes::stateHash(a), scenes::stateHash(b));
}

TEST(HierarchicalPbd, RejectsBadSettingsAndLeavesTheWorldUnchanged) {
  World world;
  SolverSettings s;
  s.solver = Solver::Hierarchical;
  world.setSettings(s);
  for (int bad : {0, 17}) {
    SolverSettings t = s;
    t.hierarchyLevels = bad;
    expectError([&] { world.setSettings(t); }, {"setSettings", "hierarchyLevels"});
  }
  SolverSettings t = s;
  t.hierarchyParents = 0;
  expectError([&] { world.setSettings(t); }, {"setSettings", "hierarchyParents"});
  t = s;
  t.coarseIterations = 0;
  expectError([&] { world.setSettings(t); }, {"setSettings", "coarseIterations"});
  expectError([&] { world.setHierarchy(3, 2, 1001); }, {"setHierarchy", "coarseIterations"});
  expectError([&] { world.setHierarchy(3, -1, 2); }, {"setHierarchy", "parents"});
  EXPECT_EQ(world.settings().hierarchyLevels, 3);
  EXPECT_EQ(world.settings().hierarchyParents, 2);
  EXPECT_EQ(world.settings().coarseIterations, 2);
  world.setHierarchy(5, 3, 4);
  EXPECT_EQ(world.settings().hierarchyLevels, 5);
  EXPECT_EQ(world.settings().hierarchyParents, 3);
  EXPECT_EQ(world.settings().coarseIterations, 4);
  expectError([&] { world.setSolver(Solver(99)); }, {"setSolver", "solver"});
}

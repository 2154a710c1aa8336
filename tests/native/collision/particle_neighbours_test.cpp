// Particle self-collision's neighbour list (collision/particle_neighbours.h): between two searches it yields exactly
// the pairs a brute-force search would, in the same sorted order, and a world that keeps its list steps bit for bit
// like one that searches afresh every frame.
#include <gtest/gtest.h>

#include <cstdio>
#include <random>
#include <utility>
#include <vector>

#include "collision/particle_neighbours.h"
#include "pbd/world.h"
#include "native/random_particles.h"
#include "scenes/scenes.h"
#include "native/long_scene.h"

using namespace pbd;

namespace {

using PairList = std::vector<std::pair<uint32_t, uint32_t>>;

/// Every pair i < j closer than `diameter` at xyz and not closer than it at rest, by i then j.
PairList bruteForcePairs(const std::vector<Real>& xyz, const std::vector<Real>& rest, Real diameter) {
  PairList pairs;
  const uint32_t n = uint32_t(xyz.size() / 3);
  for (uint32_t i = 0; i < n; ++i) {
    for (uint32_t j = i + 1; j < n; ++j) {
      if (squaredDistance(&xyz[3 * i], &xyz[3 * j]) >= diameter * diameter) continue;
      if (squaredDistance(&rest[3 * i], &rest[3 * j]) < diameter * diameter) continue;
      pairs.push_back({i, j});
    }
  }
  return pairs;
}

}  // namespace

// 600 particles moving at random (at most 1.7 % of the diameter a step each), also all drifting together by 10 % of
// the diameter a step besides (a falling body): every step the list yields exactly the brute-force pairs, and it is
// searched again only every so often (the drift, 0.4 of the move allowed each step, would make every other step
// search without taking the particles' mean move away).
TEST(ParticleNeighbours, YieldExactlyTheBruteForcePairsWhileTheListIsReused) {
  for (const Real drift : {0.0f, 0.01f}) {
    std::mt19937 rng(11);
    std::uniform_real_distribution<Real> unit(-1, 1);
    const uint32_t n = 600;
    const Real diameter = 0.1f;
    auto [xyz, rest] = test::randomParticles(rng, n, 0.6f, 0.3f);
    std::vector<Real> velocity(3 * n);
    for (Real& c : velocity) c = 0.001f * unit(rng);  // per step: at most 1.7 % of the diameter
    for (size_t k = 1; k < velocity.size(); k += 3) velocity[k] -= drift;
    ParticleNeighbours list;
    list.reserve(n, 64 * n);
    int searches = 0;
    size_t pairsSeen = 0;
    const int steps = 200;
    for (int step = 0; step < steps; ++step) {
      if (list.stale(xyz.data(), n, diameter)) {
        list.search(xyz.data(), rest.data(), n, diameter, diameter, diameter / 2, [](uint32_t i, uint32_t j) {
          ADD_FAILURE() << "no room for " << i << ", " << j;
        });
        ++searches;
      }
      PairList found;
      list.forEachWithin(xyz.data(), diameter, [&](uint32_t i, uint32_t j) { found.push_back({i, j}); });
      const PairList expected = bruteForcePairs(xyz, rest, diameter);
      ASSERT_EQ(found, expected) << "step " << step << " (" << searches << " searches so far)";
      pairsSeen += expected.size();
      for (size_t k = 0; k < xyz.size(); ++k) xyz[k] += velocity[k];
    }
    std::printf("drift %g: %d searches in %d steps, %zu pairs in all\n", double(drift), searches, steps, pairsSeen);
    EXPECT_GT(pairsSeen, size_t(steps));  // the scene has pairs to find
    EXPECT_LT(searches, steps / 4);       // and the list is reused between searches
    EXPECT_GT(searches, 1);               // but searched again once particles have moved
  }
}

TEST(ParticleNeighbours, AListIsStaleForAnotherDiameterOrCountAndAfterANonFinitePosition) {
  std::vector<Real> xyz = {0, 0, 0, 0.05f, 0, 0, 1, 1, 1};
  const std::vector<Real> rest = {0, 0, 0, 1, 0, 0, 2, 2, 2};
  ParticleNeighbours list;
  list.reserve(3, 8);
  EXPECT_TRUE(list.stale(xyz.data(), 3, 0.1f));  // never searched
  list.search(xyz.data(), rest.data(), 3, 0.1f, 0.1f, 0.05f, [](uint32_t, uint32_t) {});
  EXPECT_FALSE(list.stale(xyz.data(), 3, 0.1f));
  EXPECT_TRUE(list.stale(xyz.data(), 3, 0.2f));
  EXPECT_TRUE(list.stale(xyz.data(), 2, 0.1f));
  xyz[7] = std::numeric_limits<Real>::quiet_NaN();
  EXPECT_TRUE(list.stale(xyz.data(), 3, 0.1f));
  xyz[7] = 1 + 0.04f;  // 0.027 from the mean move (0.013) > kMoveSlack x skin / 2 = 0.8 x 0.025
  EXPECT_TRUE(list.stale(xyz.data(), 3, 0.1f));
  xyz[7] = 1 + 0.01f;
  EXPECT_FALSE(list.stale(xyz.data(), 3, 0.1f));
  std::vector<Real> moved = xyz;  // all three 2 m along y: nothing moved apart
  for (size_t k = 1; k < moved.size(); k += 3) moved[k] += 2;
  EXPECT_FALSE(list.stale(moved.data(), 3, 0.1f));
  moved[0] += 0.04f;  // and one 0.04 along x besides: 0.027 from the mean move
  EXPECT_TRUE(list.stale(moved.data(), 3, 0.1f));
}

TEST(ParticleNeighbours, APairWithoutRoomGoesToOverflowAndTheListStaysStale) {
  const std::vector<Real> xyz = {0, 0, 0, 0.05f, 0, 0, 0, 0.05f, 0};
  const std::vector<Real> rest = {0, 0, 0, 1, 0, 0, 2, 0, 0};
  ParticleNeighbours list;
  list.reserve(3, 1);  // three pairs within reach, room for one
  PairList overflowed;
  EXPECT_FALSE(list.search(xyz.data(), rest.data(), 3, 0.1f, 0.1f, 0.05f, [&](uint32_t i, uint32_t j) { overflowed.push_back({i, j}); }));
  EXPECT_EQ(list.size() + overflowed.size(), 3u);
  EXPECT_EQ(list.size(), 1u);
  EXPECT_TRUE(list.stale(xyz.data(), 3, 0.1f));
}

namespace {

struct SearchCounts {
  uint32_t searches = 0, withoutSkin = 0, substeps = 0;  // the kept world's, summed over the frames
  uint32_t reusedInContact = 0;  // frames with self-collision pairs in which the kept world searched no pairs
};

/// A cloth falling and sliding onto a pinned one (columns² particles `spacing` apart each, self-collision radius
/// `radius`): one world keeps its neighbour list from frame to frame, the other is restored from a snapshot every
/// frame, which leaves it none, so it searches afresh. The sliding keeps changing the pairs and carries particles
/// across the hash's cells, so an order that depended on when the list was searched would show: both must hash the
/// same every frame. `counts`: the kept world's searches (World::lastStepReport), for the caller to check which
/// kind of list it kept.
void expectAKeptListToStepLikeAFreshSearch(Real spacing, Real radius, uint32_t columns, SearchCounts& counts) {
  auto build = [&](World& world) {
    SolverSettings s;
    s.substeps = 20;  // a list with a skin outlasts 4 substeps from the landing on
    s.iterations = 2;
    s.selfCollision = {true, radius};
    world.setSettings(s);
    ClothDef c;
    c.columns = c.rows = columns;
    c.spacing = spacing;  // finer than 2r: B cannot fall through A's squares
    c.origin = Vec3(-0.15f, 0.2f, -0.15f);
    for (uint32_t k = 0; k < uint32_t(c.columns * c.rows); ++k) c.pinned.push_back(k);
    world.addCloth(c);
    // 5 cm above, half a spacing across: no pair starts within reach, and it falls across A's squares.
    c.origin = Vec3(-0.15f + spacing / 2, 0.25f, -0.15f + spacing / 2);
    c.pinned.clear();
    const uint32_t first = world.addCloth(c).firstParticle;
    for (uint32_t i = first; i < world.particleCount(); ++i) world.setVelocity(i, Vec3(0.1f, 0, 0.03f));
  };
  World kept, fresh;
  build(kept);
  build(fresh);
  uint32_t mostPairs = 0;
  for (int f = 0; f < 120; ++f) {
    const std::vector<uint8_t> blob = fresh.saveSnapshot();
    World restored;
    restored.loadSnapshot(blob.data(), blob.size());
    fresh = std::move(restored);
    kept.step(1.0f / 60);
    fresh.step(1.0f / 60);
    mostPairs = std::max(mostPairs, kept.selfCollisionPairCount());
    counts.searches += kept.lastStepReport().selfCollisionSearches;
    counts.withoutSkin += kept.lastStepReport().selfCollisionSearchesWithoutSkin;
    counts.substeps += uint32_t(kept.settings().substeps);
    if (kept.lastStepReport().selfCollisionSearches == 0 && kept.selfCollisionPairCount() > 0) ++counts.reusedInContact;
    ASSERT_EQ(scenes::stateHash(kept), scenes::stateHash(fresh)) << "frame " << f;
  }
  EXPECT_GT(mostPairs, 10u);
  std::printf("spacing %.3g, 2r %.3g: %u searches in %u substeps, %u of them without a skin; %u frames in contact "
              "without a search\n", spacing, 2 * radius, counts.searches, counts.substeps, counts.withoutSkin,
              counts.reusedInContact);
}

}  // namespace

TEST(ParticleNeighbours, AWorldThatKeepsItsListStepsLikeOneThatSearchesEveryFrame) {
  SearchCounts counts;
  expectAKeptListToStepLikeAFreshSearch(0.02f, 0.012f, 16, counts);
  // The premise: the list with a skin was searched many times and outlived whole frames while pairs were in contact.
  EXPECT_GE(counts.searches - counts.withoutSkin, 5u);
  EXPECT_GE(counts.reusedInContact, 10u);
  EXPECT_LE(20 * counts.searches, counts.substeps);  // a list lasted 20 substeps or more on average (measured: 200)
}

// With particles 1 cm apart and 2r = 4 cm, a list with a skin (reach 6 cm) would hold some 30 pairs per particle
// that are never in contact, more than its room: the world searches without a skin instead, and still steps the
// same whether it kept its list or not.
TEST(ParticleNeighbours, AWorldWhoseListWithASkinDoesNotFitStepsLikeOneThatSearchesEveryFrame) {
  PBD_LONG_SCENE();
  SearchCounts counts;
  expectAKeptListToStepLikeAFreshSearch(0.01f, 0.02f, 16, counts);
  // The premise: the lists without a skin were the ones kept (one search with a skin per 64 stale substeps).
  EXPECT_GT(counts.withoutSkin, 0u);
  EXPECT_GE(counts.withoutSkin, 9 * (counts.searches - counts.withoutSkin));
}

TEST(ParticleNeighbours, WithoutASkinTheListHoldsExactlyThePairsWithinTheDiameter) {
  std::mt19937 rng(3);
  const uint32_t n = 300;
  const Real diameter = 0.12f;
  auto [xyz, rest] = test::randomParticles(rng, n, 0.5f, 0.3f);
  ParticleNeighbours list;
  list.reserve(n, 16 * n);
  EXPECT_TRUE(list.search(xyz.data(), rest.data(), n, diameter, diameter, 0, [](uint32_t, uint32_t) {}));
  const PairList expected = bruteForcePairs(xyz, rest, diameter);
  EXPECT_EQ(list.size(), expected.size());
  PairList found;
  list.forEachWithin(xyz.data(), diameter, [&](uint32_t i, uint32_t j) { found.push_back({i, j}); });
  EXPECT_EQ(found, expected);
  EXPECT_FALSE(list.stale(xyz.data(), n, diameter));  // unmoved
  xyz[100] += 1e-4f;
  EXPECT_TRUE(list.stale(xyz.data(), n, diameter));  // any move
}

namespace {

struct SearchResult {
  bool complete;
  PairList listed, overflowed;  // the list in its order; the overflow calls in theirs
  uint64_t visits;           // ParticleNeighbours::searchVisits, which the world's choice of skin reads
};

SearchResult searchOn(TaskSystem* tasks, const std::vector<Real>& xyz, const std::vector<Real>& rest, Real diameter,
                      size_t room) {
  const uint32_t n = uint32_t(xyz.size() / 3);
  ParticleNeighbours list;
  list.reserve(n, room);
  SearchResult r;
  r.complete = list.search(xyz.data(), rest.data(), n, diameter, diameter, diameter / 2,
                           [&](uint32_t i, uint32_t j) { r.overflowed.push_back({i, j}); }, nullptr, tasks);
  list.forEachWithin(xyz.data(), 1e30f, [&](uint32_t i, uint32_t j) { r.listed.push_back({i, j}); });
  r.visits = list.searchVisits();
  return r;
}

}  // namespace

// A search shared across threads gives the serial search's list and overflow calls, in the same order: with room to
// spare; with one chunk far denser than its share of the room (the particles of chunk 3 packed into one spot, so
// that chunk and the ones after it are searched again serially); and with too little room for all. The work it counts
// (searchVisits) is the serial search's too: every listed or overflowed pair was a candidate handed over.
TEST(ParticleNeighbours, ASearchSharedAcrossThreadsListsWhatTheSerialSearchLists) {
  std::mt19937 rng(17);
  const uint32_t n = 1000;  // 8 chunks
  const Real diameter = 0.1f;
  auto [xyz, rest] = test::randomParticles(rng, n, 0.6f, 0.3f);
  std::vector<Real> packed = xyz;
  std::uniform_real_distribution<Real> unit(-1, 1);
  for (uint32_t i = 3 * ParticleNeighbours::kChunk; i < 4 * ParticleNeighbours::kChunk; ++i) {
    for (int a = 0; a < 3; ++a) packed[3 * i + a] = 0.2f + 0.05f * unit(rng);
  }
  struct Case {
    const char* name;
    const std::vector<Real>* positions;
    size_t room;
    bool complete;      // the premise: whether all pairs fit
  } cases[] = {{"spread out", &xyz, 16 * n, true}, {"one dense chunk", &packed, 16 * n, true},
               {"too little room", &packed, 2 * n, false}};
  for (const Case& c : cases) {
    const SearchResult serial = searchOn(nullptr, *c.positions, rest, diameter, c.room);
    ASSERT_EQ(serial.complete, c.complete) << c.name;
    ASSERT_GT(serial.listed.size(), n / 2) << c.name;
    EXPECT_GE(serial.visits, serial.listed.size() + serial.overflowed.size()) << c.name;
    if (c.complete && c.positions == &packed) {  // chunk 3 lists more than its share of the room
      size_t chunk3 = 0;
      for (const auto& [i, j] : serial.listed) chunk3 += i / ParticleNeighbours::kChunk == 3;
      ASSERT_GT(chunk3, c.room * ParticleNeighbours::kChunk / n) << c.name;
    }
    for (unsigned workers : {1u, 3u}) {
      ThreadPool pool(workers);
      const SearchResult shared = searchOn(&pool, *c.positions, rest, diameter, c.room);
      EXPECT_EQ(shared.complete, serial.complete) << c.name << ", workers " << workers;
      EXPECT_EQ(shared.listed, serial.listed) << c.name << ", workers " << workers;
      EXPECT_EQ(shared.overflowed, serial.overflowed) << c.name << ", workers " << workers;
      EXPECT_EQ(shared.visits, serial.visits) << c.name << ", workers " << workers;
    }
  }
}

// A cloth draped over a box whose flaps swing (gallery:drape's, smaller): lists with the narrowest skin go stale
// within a substep or two there, so the world takes a wider skin whose lists outlast several. Counted in searches,
// the same on every run: 147 in these 900 substeps; 533 with every skin the narrowest (checked), so this fails if the
// choice stays at the narrowest skin or at none.
TEST(ParticleNeighbours, ASwingingClothTakesASkinWhoseListsOutlastSubsteps) {
  World world;
  SolverSettings s = world.settings();
  s.selfCollision = {true, 0.006f};
  world.setSettings(s);
  ColliderDef box;
  box.shape = ColliderShape::Box, box.position = {0, 0.25f, 0}, box.halfExtents = {0.25f, 0.25f, 0.25f};
  world.addCollider(box);
  ClothDef c;
  c.columns = c.rows = 24, c.spacing = 0.8f / 23, c.origin = Vec3(-0.4f, 0.8f, -0.4f), c.mass = 0.2f;
  c.bendModel = BendModel::Dihedral;
  world.addCloth(c);
  uint32_t searches = 0, substeps = 0;
  for (int f = 0; f < 150; ++f) {
    world.step(1.0f / 60);
    if (f < 60) continue;  // from 1 s on: draped, its flaps swinging
    searches += world.lastStepReport().selfCollisionSearches;
    substeps += uint32_t(world.settings().substeps);
  }
  std::printf("%u searches in %u substeps\n", searches, substeps);
  EXPECT_LT(2 * searches, substeps);
}

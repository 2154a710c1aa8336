// Native benchmarks: step time of the Foundation cloth (scenes::hangingCloth: XPBD, 10 substeps x 1 iteration) per
// 1/60 s frame with projections per second; the tetrahedralizer on the Stanford bunny at two resolutions; the soft
// bunny's step time; binding a render mesh to a tet mesh; a soft cube's step time by particle order; a dihedral curtain;
// the thread pool's cost of an empty job.
#include <benchmark/benchmark.h>

#include <malloc.h>

#include <algorithm>
#include <chrono>
#include <memory>
#include <numeric>
#include <random>
#include <vector>

#include "pbd/embedding.h"
#include "pbd/particle_order.h"
#include "pbd/tetrahedralize.h"
#include "pbd/world.h"
#include "scenes/bunny.h"
#include "scenes/cloth_on_bunny.h"
#include "scenes/folded_sheet.h"
#include "scenes/numbered_cloth.h"
#include "scenes/scenes.h"
#include "scenes/shuffle.h"
#include "scenes/tet_cube.h"

using namespace pbd;

// The cloth of bench/scenes.mjs hangingCloth (bench:peers): n x n, two corners pinned, all rigid; g = 1: gravity,
// 0: at rest; `substeps` passes per frame (substeps x 1 iteration).
static void stepCloth(benchmark::State& state, int substeps) {
  const int n = int(state.range(0));
  const unsigned threads = unsigned(state.range(1));
  std::unique_ptr<ThreadPool> pool = threads > 1 ? std::make_unique<ThreadPool>(threads - 1) : nullptr;
  World world(pool.get());
  scenes::hangingCloth(world, n);
  SolverSettings s = world.settings();
  if (state.range(2) == 0) s.gravity = Vec3::Zero();
  s.substeps = substeps;
  world.setSettings(s);
  for (int f = 0; f < 30; ++f) world.step(1.0f / 60);  // past the first transient
  world.setStepTimings(true);
  StepTimings sum;
  for (auto _ : state) {
    world.step(1.0f / 60);
    const StepTimings& t = world.lastStepTimings();
    sum.integrateMs += t.integrateMs, sum.colliderContactsMs += t.colliderContactsMs, sum.solveMs += t.solveMs;
  }
  // Where a frame goes (ms): integrate = forces, prediction, velocity update, the guard; contacts = the ground scans.
  const double frames = double(state.iterations());
  state.counters["integrate"] = sum.integrateMs / frames;
  state.counters["contacts"] = sum.colliderContactsMs / frames;
  state.counters["solve"] = sum.solveMs / frames;
  const double projections = double(world.constraintCount()) * world.settings().substeps * world.settings().iterations;
  state.counters["projections/s"] = benchmark::Counter(projections, benchmark::Counter::kIsIterationInvariantRate);
  state.counters["constraints"] = world.constraintCount();
}
static void ClothStep(benchmark::State& state) { stepCloth(state, 10); }
BENCHMARK(ClothStep)->ArgNames({"n", "threads", "g"})
    ->ArgsProduct({{32, 64, 128, 256}, {1, 2}, {1}})->ArgsProduct({{128, 256}, {1, 2}, {0}})
    ->Unit(benchmark::kMillisecond)->Repetitions(5)->ReportAggregatesOnly(true);
// bench:peers' cloth256rest20: issue #8's 60 fps target, 20 passes per frame.
static void ClothStep20Passes(benchmark::State& state) { stepCloth(state, 20); }
BENCHMARK(ClothStep20Passes)->ArgNames({"n", "threads", "g"})->ArgsProduct({{256}, {1, 2}, {0}})
    ->Unit(benchmark::kMillisecond)->Repetitions(5)->ReportAggregatesOnly(true);

// bench:peers' cloth128shuffled natively: the n x n cloth at rest (g = 0, all rigid, two corners pinned, 10 x 1)
// built through addParticles and addDistanceConstraints, numbered row-major (shuffled 0) or at random (1; the
// schedule lays it out on its grid's row-major order, schedule/lattice_order.h): what a numbering costs.
static void NumberedClothStep(benchmark::State& state) {
  const uint32_t n = uint32_t(state.range(0));
  const unsigned threads = unsigned(state.range(1));
  std::unique_ptr<ThreadPool> pool = threads > 1 ? std::make_unique<ThreadPool>(threads - 1) : nullptr;
  World world(pool.get());
  std::vector<uint32_t> to(size_t(n) * n);
  std::iota(to.begin(), to.end(), 0u);
  if (state.range(2)) to = scenes::randomNumbering(n * n, 52);
  scenes::addNumberedCloth(world, n, to);
  SolverSettings s = world.settings();
  s.gravity = Vec3::Zero();
  world.setSettings(s);
  for (int f = 0; f < 30; ++f) world.step(1.0f / 60);
  for (auto _ : state) world.step(1.0f / 60);
  const double projections = double(world.constraintCount()) * world.settings().substeps;
  state.counters["projections/s"] = benchmark::Counter(projections, benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(NumberedClothStep)->ArgNames({"n", "threads", "shuffled"})->ArgsProduct({{128}, {1, 2}, {0, 1}})
    ->Unit(benchmark::kMillisecond)->Repetitions(5)->ReportAggregatesOnly(true);

// What an iteration of a solver costs (issue 53's measure, bench/solvers/stiff.mjs iterationCost): bench:peers'
// hanging n x n cloth with gravity at 10 substeps x `iterations`, coloured Gauss-Seidel (solver 0) or Vertex Block
// Descent (1); an iteration = (the frame at 10 x 2 - the frame at 10 x 1) / 10.
static void HangingClothIterations(benchmark::State& state) {
  const unsigned threads = unsigned(state.range(3));
  std::unique_ptr<ThreadPool> pool = threads > 1 ? std::make_unique<ThreadPool>(threads - 1) : nullptr;
  World world(pool.get());
  scenes::hangingCloth(world, int(state.range(0)));
  SolverSettings s = world.settings();
  s.solver = state.range(1) ? Solver::VertexBlockDescent : Solver::ColouredGaussSeidel;
  s.iterations = int(state.range(2));
  world.setSettings(s);
  for (int f = 0; f < 30; ++f) world.step(1.0f / 60);
  for (auto _ : state) world.step(1.0f / 60);
}
BENCHMARK(HangingClothIterations)->ArgNames({"n", "vbd", "iterations", "threads"})
    ->ArgsProduct({{128}, {0, 1}, {1, 2}, {1}})->Unit(benchmark::kMillisecond)->Repetitions(5)
    ->ReportAggregatesOnly(true);

// An n x n cloth of 1 m hung by two corners whose stretch and shear are strain triangles (ClothModel::StrainTriangles,
// the builder's default strengths, skip-one bending edges), 10 x 1 per 1/60 s frame: the triangles' sweep.
static void StrainClothStep(benchmark::State& state) {
  const int n = int(state.range(0));
  const unsigned threads = unsigned(state.range(1));
  std::unique_ptr<ThreadPool> pool = threads > 1 ? std::make_unique<ThreadPool>(threads - 1) : nullptr;
  World world(pool.get());
  ClothDef def;
  def.columns = def.rows = n;
  def.spacing = Real(1) / Real(n - 1);
  def.origin = Vec3(-0.5f, 1, 0);
  def.pinned = {0, uint32_t(n - 1)};
  def.model = ClothModel::StrainTriangles;
  world.addCloth(def);
  for (int f = 0; f < 30; ++f) world.step(1.0f / 60);
  for (auto _ : state) world.step(1.0f / 60);
  const double projections = double(world.triangleStrainCount()) * world.settings().substeps;
  state.counters["triangles/s"] = benchmark::Counter(projections, benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(StrainClothStep)->ArgNames({"n", "threads"})->ArgsProduct({{64, 128}, {1, 2}})
    ->Unit(benchmark::kMillisecond)->Repetitions(5)->ReportAggregatesOnly(true);

/// The thread pool's cost of a job: parallelFor of an empty body over the cloth's 16,384 particles in the step's
/// ranges (4,096). p50 and p90 = the median and the 90th percentile of the single jobs' wall times, µs: the tail is
/// where a worker that joins late (or sleeps in the kernel) shows.
static void PoolEmptyJob(benchmark::State& state) {
  ThreadPool pool(unsigned(state.range(0)) - 1);
  auto empty = [](size_t, size_t) {};
  std::vector<double> micros;
  micros.reserve(1 << 22);
  for (auto _ : state) {
    const auto t0 = std::chrono::steady_clock::now();
    pool.parallelFor(16384, 4096, empty);
    if (micros.size() < micros.capacity()) {
      micros.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count());
    }
  }
  std::sort(micros.begin(), micros.end());
  state.counters["p50"] = micros.empty() ? 0 : micros[micros.size() / 2];
  state.counters["p90"] = micros.empty() ? 0 : micros[micros.size() * 9 / 10];
}
BENCHMARK(PoolEmptyJob)->ArgNames({"threads"})->Arg(2)->Unit(benchmark::kMicrosecond);

/// Steps `world` (its self-colliding body has `particles` particles, past its start-up) for the benchmark's
/// iterations with the step split into stages (StepTimings, ms per frame): broad = self-collision broad phase,
/// narrow = its continuous tests, solve = constraint iterations, contacts = ground and collider contacts;
/// selfUsPerParticle = (broad + narrow) per particle, µs per frame; candidatesPerParticle and contactsPerParticle =
/// the narrow phase's pairs and the contacts among them per particle and frame (StepReport); narrowNsPerCandidate =
/// narrow / candidates; frozenPerFrame = particles the failsafe froze (StepReport::selfFrozenParticles); listsPerFrame
/// and walksPerFrame = candidate lists made and tree walks without one (StepReport::selfCandidateLists,
/// selfTreeWalks). Together they tell whether a growth of the cost is the scene's (more contact) or the code's.
static void measureSelfCollisionSteps(benchmark::State& state, World& world, uint32_t particles) {
  world.setStepTimings(true);
  StepTimings sum;
  double candidates = 0, contacts = 0, frozen = 0, lists = 0, walks = 0;
  for (auto _ : state) {
    world.step(1.0f / 60);
    const StepTimings& t = world.lastStepTimings();
    sum.broadPhaseMs += t.broadPhaseMs, sum.narrowPhaseMs += t.narrowPhaseMs, sum.solveMs += t.solveMs;
    sum.colliderContactsMs += t.colliderContactsMs;
    candidates += world.lastStepReport().selfCandidates;
    contacts += world.lastStepReport().selfContactsFound;
    frozen += world.lastStepReport().selfFrozenParticles;
    lists += world.lastStepReport().selfCandidateLists;
    walks += world.lastStepReport().selfTreeWalks;
  }
  const double frames = double(state.iterations());
  state.counters["broad"] = sum.broadPhaseMs / frames;
  state.counters["narrow"] = sum.narrowPhaseMs / frames;
  state.counters["solve"] = sum.solveMs / frames;
  state.counters["contacts"] = sum.colliderContactsMs / frames;
  state.counters["selfUsPerParticle"] = 1000 * (sum.broadPhaseMs + sum.narrowPhaseMs) / frames / particles;
  state.counters["candidatesPerParticle"] = candidates / frames / particles;
  state.counters["contactsPerParticle"] = contacts / frames / particles;
  state.counters["narrowNsPerCandidate"] = candidates > 0 ? 1e6 * sum.narrowPhaseMs / candidates : 0;
  state.counters["frozenPerFrame"] = frozen / frames;
  state.counters["listsPerFrame"] = lists / frames;
  state.counters["walksPerFrame"] = walks / frames;
  state.counters["particles"] = particles;
}

// Issue #5's self-collision scene (scenes/cloth_on_bunny.h): an n x n cloth with continuous self-collision dropped
// on the Stanford bunny, timed from 0.5 s in (draping and folding). self = 0 runs it with self-collision off. A finer
// cloth crumples more here (see contactsPerParticle), so its cost per particle grows with the scene, not only the code.
static void ClothOnBunnyStep(benchmark::State& state) {
  const int n = int(state.range(0));
  const unsigned threads = unsigned(state.range(1));
  std::unique_ptr<ThreadPool> pool = threads > 1 ? std::make_unique<ThreadPool>(threads - 1) : nullptr;
  World world(pool.get());
  const SurfaceMesh bunny = scenes::bunny(0.05f, 0);
  const BodyRange cloth = scenes::clothOnBunny(world, n, bunny);
  if (state.range(2) == 0) world.setContinuousSelfCollision(cloth.body, {false, 0.001f});
  for (int f = 0; f < 30; ++f) world.step(1.0f / 60);
  measureSelfCollisionSteps(state, world, cloth.particleCount);
}
BENCHMARK(ClothOnBunnyStep)->ArgNames({"n", "threads", "self"})
    ->ArgsProduct({{64, 128}, {1, 2}, {1}})->Args({256, 1, 1})->Args({128, 1, 0})
    ->Unit(benchmark::kMillisecond)->Iterations(10)->Repetitions(3)->ReportAggregatesOnly(true);

// How self-collision scales with the resolution at a fixed contact density (scenes/folded_sheet.h): an n x n sheet
// folded in half on the ground, its upper layer resting on the lower one, timed from 0.25 s in. Linear scaling
// keeps selfUsPerParticle flat from 64² to 256².
static void FoldedSheetStep(benchmark::State& state) {
  World world;
  const MeshBody sheet = scenes::foldedSheet(world, int(state.range(0)));
  for (int f = 0; f < 15; ++f) world.step(1.0f / 60);
  measureSelfCollisionSteps(state, world, sheet.range.particleCount);
}
BENCHMARK(FoldedSheetStep)->ArgNames({"n"})->Arg(64)->Arg(128)->Arg(256)
    ->Unit(benchmark::kMillisecond)->Iterations(10)->Repetitions(3)->ReportAggregatesOnly(true);

// The soft cube of bench/peers: 10³ cells x 6 tets, density 1000 kg/m³, dropped from 0.5 m onto the ground (its
// default friction, 0.5); XPBD 10 x 1 per 1/60 s frame, timed from 0.5 s in. `material` sets the rest of the body;
// `projections` counts the projections a substep makes, for the rate.
template <class Material, class Projections>
void stepTetCube(benchmark::State& state, Material material, Projections projections) {
  const unsigned threads = unsigned(state.range(0));
  std::unique_ptr<ThreadPool> pool = threads > 1 ? std::make_unique<ThreadPool>(threads - 1) : nullptr;
  World world(pool.get());
  SolverSettings s;
  s.method = Method::Xpbd;
  s.substeps = 10;
  s.iterations = 1;
  world.setSettings(s);
  const int cells[3] = {10, 10, 10};
  SoftBodyDef def = scenes::tetBox(cells, Vec3(1, 1, 1), Vec3(-0.5f, 0.5f, -0.5f));
  def.density = 1000;
  material(def);
  world.addSoftBody(def);
  for (int f = 0; f < 30; ++f) world.step(1.0f / 60);
  for (auto _ : state) world.step(1.0f / 60);
  state.counters["projections/s"] =
      benchmark::Counter(double(projections(world)) * s.substeps, benchmark::Counter::kIsIterationInvariantRate);
}

// The cube with a rigid volume constraint per tet and a distance constraint per tet edge (bench/peers' cube10).
static void CubeStep(benchmark::State& state) {
  stepTetCube(
      state, [](SoftBodyDef& def) { def.edges = Strength{0, 1}, def.volume = Strength{0, 1}; },
      [](const World& world) { return world.constraintCount() + world.tetVolumeCount(); });
}
BENCHMARK(CubeStep)->ArgNames({"threads"})->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->Repetitions(5)
    ->ReportAggregatesOnly(true);

// The same cube of Neo-Hookean tets (E = 1 MPa, ν = 0.4, no edge constraints): the material kernel's cost (four
// tets of a colour at a time, constraints/neo_hookean.h).
static void NeoHookeanCubeStep(benchmark::State& state) {
  stepTetCube(
      state,
      [](SoftBodyDef& def) {
        def.edgeConstraints = false, def.material = SoftMaterial::NeoHookean;
        def.youngsModulus = 1e6f, def.poissonRatio = 0.4f;
      },
      [](const World& world) { return world.neoHookeanCount(); });
}
BENCHMARK(NeoHookeanCubeStep)->ArgNames({"threads"})->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->Repetitions(5)
    ->ReportAggregatesOnly(true);

// Particle collision between soft bodies, as in the demo's stack (web/demo/scenes/stack.js) but bigger: 12 tet cubes
// of 6³ cells (4,116 particles, 300 kg/m³, rigid volumes, soft edges) dropped in three layers, collision radius 12
// mm; XPBD 10 x 1 per 1/60 s frame, timed from 1 s in. "pairs" is the particle pair search per frame (ms). On 1 and
// 2 threads: each body is below every pass's threshold for sharing out a colour, so only the tets' island groups
// (symmetric_sweep.h) give the second thread work (5.99 and 6.00 ms before them, 5.75-5.95 and 3.90-4.82 with them).
static void SoftCubeStackStep(benchmark::State& state) {
  const unsigned threads = unsigned(state.range(0));
  std::unique_ptr<ThreadPool> pool = threads > 1 ? std::make_unique<ThreadPool>(threads - 1) : nullptr;
  World world(pool.get());
  SolverSettings s;
  s.substeps = 10;
  s.iterations = 1;
  s.linearDamping = 0.1f;
  s.selfCollision.enabled = true;
  s.selfCollision.radius = 0.012f;
  world.setSettings(s);
  for (int k = 0; k < 12; ++k) {
    const int cells[3] = {6, 6, 6};
    SoftBodyDef def = scenes::tetBox(cells, Vec3(0.3f, 0.3f, 0.3f),
                                     Vec3(-0.6f + 0.4f * Real(k % 4), 0.05f + 0.35f * Real(k / 4), -0.15f + 0.05f * Real(k % 3)));
    def.density = 300;
    def.edges = Strength{1e-5f, 0.6f};
    def.volume = Strength{0, 1};
    world.addSoftBody(def);
  }
  for (int f = 0; f < 60; ++f) world.step(1.0f / 60);
  world.setStepTimings(true);
  double pairs = 0;
  for (auto _ : state) {
    world.step(1.0f / 60);
    pairs += world.lastStepTimings().broadPhaseMs;
  }
  state.counters["pairs"] = pairs / double(state.iterations());
  state.counters["particles"] = world.particleCount();
}
BENCHMARK(SoftCubeStackStep)->ArgNames({"threads"})->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->Iterations(60)
    ->Repetitions(3)->ReportAggregatesOnly(true);

// The demo's curtain without its wind (web/demo/scenes/curtain.js): a 48 x 36 cloth hanging from its top row, dihedral
// bending (α = 1e-2, k = 0.1) on every interior edge, gravity slanted so that it swings; XPBD 10 x 1 per 1/60 s frame.
// What it measures is mostly the dihedrals: 4,853 of them, projected twice per pass (the symmetric sweep).
static void DihedralCurtainStep(benchmark::State& state) {
  World world;
  ClothDef c;
  c.columns = 48, c.rows = 36, c.spacing = 2.0f / 47;
  c.origin = Vec3(-1, 2, 0), c.axisU = Vec3(1, 0, 0), c.axisV = Vec3(0, -1, 0);
  c.mass = 0.6f;
  for (uint32_t k = 0; k < 48; ++k) c.pinned.push_back(k);
  c.bendModel = BendModel::Dihedral;
  c.bend = Strength{1e-2f, 0.1f};
  world.addCloth(c);
  SolverSettings s = world.settings();
  s.gravity = Vec3(0.3f, -9.81f, 2.0f);
  world.setSettings(s);
  for (int f = 0; f < 60; ++f) world.step(1.0f / 60);
  for (auto _ : state) world.step(1.0f / 60);
  state.counters["dihedrals"] = double(world.dihedralConstraintCount());
}
BENCHMARK(DihedralCurtainStep)->Unit(benchmark::kMillisecond)->Repetitions(5)->ReportAggregatesOnly(true);

// Bytes per particle (a world of n² bare particles) and per constraint (the n x n cloth of ClothStep minus those
// particles, over its constraints), from malloc's count: what the layout costs, the same measure as bench:peers's
// wasm figure.
static void MemoryPerElement(benchmark::State& state) {
  const int n = int(state.range(0));
  const auto inUse = [] { return double(mallinfo2().uordblks + mallinfo2().hblkhd); };  // heap + mmapped blocks
  double particleBytes = 0, constraintBytes = 0;
  for (auto _ : state) {
    const double before = inUse();
    {
      World bare;
      std::vector<Real> xyz(3 * size_t(n) * size_t(n), Real(0));
      for (size_t i = 0; i < xyz.size() / 3; ++i) xyz[3 * i] = Real(i);
      bare.addParticles(xyz.data(), nullptr, size_t(n) * size_t(n));
      bare.step(1.0f / 60);
      particleBytes = (inUse() - before) / double(n * n);
    }
    World world;
    scenes::hangingCloth(world, n);
    world.step(1.0f / 60);
    constraintBytes = (inUse() - before - particleBytes * n * n) / double(world.constraintCount());
  }
  state.counters["B/particle"] = particleBytes;
  state.counters["B/constraint"] = constraintBytes;
}
BENCHMARK(MemoryPerElement)->ArgNames({"n"})->Arg(32)->Arg(128)->Iterations(1)->Unit(benchmark::kMillisecond);

static void TetrahedralizeBunny(benchmark::State& state) {
  const SurfaceMesh surface = scenes::bunny(0.05f, 0.3f);
  const int resolution = int(state.range(0));
  size_t tets = 0;
  for (auto _ : state) tets = tetrahedralize(surface.positions, surface.triangles, {.resolution = resolution}).tets.size() / 4;
  state.counters["tets"] = double(tets);
}
BENCHMARK(TetrahedralizeBunny)->ArgNames({"resolution"})->Arg(10)->Arg(20)->Unit(benchmark::kMillisecond)
    ->Repetitions(5)->ReportAggregatesOnly(true);

/// The soft bunny of tests/native/scenes/soft_bunny_test.cpp (resolution 10, volume material, XPBD 10 x 1), one frame.
static void SoftBunnyStep(benchmark::State& state) {
  const SurfaceMesh surface = scenes::bunny(0.05f, 0.3f);
  const TetrahedralizeResult mesh = tetrahedralize(surface.positions, surface.triangles, {.resolution = 10});
  World world;
  world.setMethod(Method::Xpbd);
  world.setSubsteps(10);
  SoftBodyDef def;
  def.positions = mesh.positions;
  def.tets = mesh.tets;
  def.density = 500;
  def.edges = Strength{1e-6f, 1};
  if (state.range(0) == 1) {
    def.material = SoftMaterial::NeoHookean;
    def.edgeConstraints = false;
  }
  world.addSoftBody(def);
  for (int f = 0; f < 30; ++f) world.step(1.0f / 60);
  for (auto _ : state) world.step(1.0f / 60);
  state.counters["particles"] = world.particleCount();
  state.counters["tets"] = double(mesh.tets.size() / 4);
}
BENCHMARK(SoftBunnyStep)->ArgNames({"neoHookean"})->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond)->Repetitions(5)
    ->ReportAggregatesOnly(true);

/// 100k random render vertices bound to a 12^3-cell tet block (10368 tets).
static void BindRenderMesh(benchmark::State& state) {
  const int cells[3] = {12, 12, 12};
  const SoftBodyDef block = scenes::tetBox(cells, Vec3(12, 12, 12), Vec3::Zero());
  std::mt19937 rng(5);
  std::uniform_real_distribution<float> coordinate(-0.5f, 12.5f);
  std::vector<float> render(300000);
  for (float& x : render) x = coordinate(rng);
  for (auto _ : state) benchmark::DoNotOptimize(bindToTets(block.positions, block.tets, render).tet.data());
}
BENCHMARK(BindRenderMesh)->Unit(benchmark::kMillisecond)->Repetitions(5)->ReportAggregatesOnly(true);

/// Particle order and cache (issue #8), one 1/60 s frame (volume material, edges, XPBD 10 x 1, dropped onto the
/// ground) of mesh 0: a tet cube of 24³ cells (15,625 vertices), 1: the bunny tetrahedralized at resolution 40, with
/// its vertices numbered order 0: at random (fixed seed), 1: the same after reorderSoftBody, 2: as built (the cube's
/// row-by-row numbering, the tetrahedralizer's output order); on `threads` threads (at random, the coloured pass's
/// blocks of particles all touch each other and its layout turns colour-major: schedule/block_schedule.h).
static void SoftBodyOrder(benchmark::State& state) {
  const unsigned threads = unsigned(state.range(2));
  std::unique_ptr<ThreadPool> pool = threads > 1 ? std::make_unique<ThreadPool>(threads - 1) : nullptr;
  SoftBodyDef built;
  if (state.range(0) == 0) {
    built = scenes::tetCube(24, 1, Vec3(-0.5f, 0.5f, -0.5f));
  } else {
    const SurfaceMesh surface = scenes::bunny(0.05f, 0.3f);
    const TetrahedralizeResult mesh = tetrahedralize(surface.positions, surface.triangles, {.resolution = 40});
    built.positions = mesh.positions;
    built.tets = mesh.tets;
    built.density = 500;
  }
  SoftBodyDef def = state.range(1) == 2 ? built : scenes::shuffledVertices(built, 8);
  if (state.range(1) == 1) reorderSoftBody(def);
  World world(pool.get());
  world.addSoftBody(def);
  for (int f = 0; f < 30; ++f) world.step(1.0f / 60);
  for (auto _ : state) world.step(1.0f / 60);
  state.counters["particles"] = world.particleCount();
}
BENCHMARK(SoftBodyOrder)->ArgNames({"mesh", "order", "threads"})->ArgsProduct({{0, 1}, {0, 1, 2}, {1, 2}})
    ->Unit(benchmark::kMillisecond)->Repetitions(5)->ReportAggregatesOnly(true);

BENCHMARK_MAIN();

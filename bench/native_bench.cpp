// Native benchmarks: step time of the Foundation cloth (scenes::hangingCloth: XPBD, 10 substeps x 1 iteration) per
// 1/60 s frame with projections per second; the tetrahedralizer on the Stanford bunny at two resolutions; the soft
// bunny's step time; binding a render mesh to a tet mesh.
#include <benchmark/benchmark.h>

#include <memory>
#include <random>

#include "pbd/embedding.h"
#include "pbd/tetrahedralize.h"
#include "pbd/world.h"
#include "scenes/bunny.h"
#include "scenes/scenes.h"
#include "scenes/tet_cube.h"

using namespace pbd;

static void ClothStep(benchmark::State& state) {
  const int n = int(state.range(0));
  const unsigned threads = unsigned(state.range(1));
  std::unique_ptr<ThreadPool> pool = threads > 1 ? std::make_unique<ThreadPool>(threads - 1) : nullptr;
  World world(pool.get());
  scenes::hangingCloth(world, n);
  for (int f = 0; f < 30; ++f) world.step(1.0f / 60);  // past the first transient
  for (auto _ : state) world.step(1.0f / 60);
  const double projections = double(world.constraintCount()) * world.settings().substeps * world.settings().iterations;
  state.counters["projections/s"] = benchmark::Counter(projections, benchmark::Counter::kIsIterationInvariantRate);
  state.counters["constraints"] = world.constraintCount();
}
BENCHMARK(ClothStep)->ArgNames({"n", "threads"})->Args({64, 1})->Args({64, 2})->Args({128, 1})->Args({128, 2})
    ->Unit(benchmark::kMillisecond)->Repetitions(5)->ReportAggregatesOnly(true);

/// The bunny's surface (scaled to 0.5 m) to a tet mesh, `resolution` grid cells along its longest side.
static void TetrahedralizeBunny(benchmark::State& state) {
  const SurfaceMesh surface = scenes::bunny(0.05f, 0.3f);
  const int resolution = int(state.range(0));
  size_t tets = 0;
  for (auto _ : state) tets = tetrahedralize(surface.positions, surface.triangles, {.resolution = resolution}).tets.size() / 4;
  state.counters["tets"] = double(tets);
}
BENCHMARK(TetrahedralizeBunny)->ArgNames({"resolution"})->Arg(10)->Arg(20)->Unit(benchmark::kMillisecond)
    ->Repetitions(5)->ReportAggregatesOnly(true);

/// The soft bunny of tests/native/soft_bunny_test.cpp (resolution 10, volume material, XPBD 10 x 1), one frame.
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

BENCHMARK_MAIN();

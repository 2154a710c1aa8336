// Native step time of the Foundation benchmark cloth (scenes::hangingCloth: XPBD, 10 substeps x 1 iteration).
// Reported per frame of 1/60 s, with constraint projections per second as a counter.
#include <benchmark/benchmark.h>

#include <memory>

#include "pbd/world.h"
#include "scenes/scenes.h"

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

BENCHMARK_MAIN();

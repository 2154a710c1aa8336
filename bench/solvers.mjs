// npm run bench:solvers — every solver on the same scenes (issue #4): iterations to reach a residual, ms per step,
// the stretch after the measured step; residual curves as CSV and SVG in build/bench/solvers/; HPBD's target on
// 128², coloured Gauss-Seidel on 2 threads against 1, and BDF2 against implicit Euler on a spring pendulum.
//
//   node bench/solvers.mjs [--quick] [--scenes=cloth32,chain1000,...] [--iterations=N] [--runs=N]
//   node bench/solvers.mjs --hpbd-sweep [--scenes=cloth128] [--levels=3,5,8] [--coarse=8,32,128,256]   (npm run bench:hpbd)
//   node bench/solvers.mjs --stiff [--runs=N] [--seconds=3] [--threads=2]
//   --chebyshev=0.5[,0.8] (either mode but --hpbd-sweep) adds a lane 'vbd@ρ' per value: VBD with Chebyshev
//   acceleration ρ (setChebyshevRho).
//
// Protocol per scene: warm the scene up (30 frames of PD, 1 substep x 3: see warmState), keep its positions and
// velocities; from that same state, in a world of the scene that never stepped (so nothing settles first), each
// solver takes ONE step of one substep with N iterations (default 150, PD 30) and
// records the RMS (and max) |C| of the distance constraints after every iteration (every scene is rigid, so r = C
// for all solvers). The level is the RMS that Gauss-Seidel reaches after 100 iterations; "iters" is the first
// iteration at which a solver's RMS is at or below it. "ms/step" is the median of --runs steps of 10 iterations
// (1 thread); "ms to level" the median of steps with exactly "iters" iterations. "stretch" is the worst edge stretch
// after the N-iteration step.
//
// --hpbd-sweep: issue #4's HPBD target over a grid of hierarchy settings instead. On each scene (default the 128²
// cloth; same warm state, one step of one substep, single-threaded build), the fewest fine iterations (in steps of 5,
// up to 100) with which hierarchical PBD reaches the stretch residual that Gauss-Seidel reaches after 100, for every
// levels x coarse iterations pair (k = 2 parents), and that step's ms. "-" = not reached within 100.
//
// --stiff: issue 53's scenes that favour stiffness (bench/scenes.mjs STIFF_SCENES, solvers/stiff.mjs), for every
// solver of SOLVERS (a solver that throws in a scene gets its error in its row). Strain = |x_a - x_b| / rest - 1 per edge; relative
// residual = RMS |C| / mean rest length over a scene's constraints, from the positions. 1: the rigid 48² cloth
// (stretchShearCloth: rigid stretch and shear, no bending, no tethers, two top corners pinned) for --seconds (3) at
// 60 frames/s at 10 substeps x 1 iteration and at 1 x 10: max and mean strain of the grid edges at the end, median
// ms per frame over --runs fresh runs (1 thread; --threads=2: 2, as the measured pool use shares them). 1b: a 32²
// cloth built by addCloth with dihedral bending at the defaults, hung the same way, at 10 x 1: the same columns and
// the largest particle speed at the end (VBD gains energy on its stiff hinges). 1c: what one iteration costs on
// bench:peers' hanging 128² cloth, coloured Gauss-Seidel and VBD (frames at 10 x 2 minus frames at 10 x 1, over 10).
// 2a (32² cloth hung from its top edge, left half's edges at
// compliance 1e-8, the rest 1e-2) and 2b (24² rigid cloth of 0.01 kg, top corners pinned, 10 kg at the middle of
// its bottom edge): from the warm state (as above), the fewest iterations of one step of one substep that bring the
// relative residual to 1e-3 (doubling, then bisection, up to 1000; 2a over the stiff half's edges only, since the
// soft half keeps a physical stretch; 2b over every constraint, where it equals the engine's recorded RMS |C|),
// the median ms of such a step over --runs, and the max grid-edge strain after --seconds at 10 x 1 from rest (2a:
// stiff and soft half apart). 2c: a 4³-cell tet block (rigid edges and volumes, g = 0, no ground) with every
// particle moved to a seeded uniformly random point of its bounding box, let go for --seconds at 10 x 1 and 1 x 10:
// finite (and steps the NaN guard undid), max and max |strain| of the tet edges, kinetic energy, inverted tets.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createPbd } from '../web/lib/index.js';
import { iterationsToReach } from './solvers/metrics.mjs';
import { SOLVER_SCENES as SCENES } from './scenes.mjs';
import { chebyshevLane, fewestHpbdIterations, residualCurve, SOLVERS, stepTime, stretchAfterStep, threadScaling,
  warmState } from './solvers/measure.mjs';
import { pendulumEnergy, PENDULUM } from './solvers/pendulum.mjs';
import { curvesCsv, curvesSvg, table } from './solvers/report.mjs';
import { STIFF, stiffReport } from './solvers/stiff.mjs';

const REFERENCE_ITERATIONS = 100;  // the level: Gauss-Seidel's RMS residual after this many iterations
const TIMING_ITERATIONS = 10;
const THREAD_ROUNDS = 7, THREAD_FRAMES = 20;
const WARMUP_FRAMES = 30;
// PD's iterations cost a global solve each (10x a Gauss-Seidel sweep on 256²) and its curve is flat after a few:
// its measured step stops here, whatever --iterations says.
const PD_ITERATIONS = 30;

function options(argv) {
  const known = ['quick', 'hpbd-sweep', 'stiff', 'scenes', 'iterations', 'runs', 'levels', 'coarse', 'seconds',
    'chebyshev', 'threads'];
  for (const a of argv) {
    if (!known.includes(/^--([\w-]+)/.exec(a)?.[1])) throw new Error(`unknown option ${a} (have --${known.join(', --')})`);
  }
  const get = (name) => argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];
  const list = (text) => text.split(',').map(Number);
  const quick = argv.includes('--quick'), sweep = argv.includes('--hpbd-sweep'), stiff = argv.includes('--stiff');
  if (stiff && sweep) throw new Error('--stiff and --hpbd-sweep are separate modes: pick one');
  if (get('seconds') !== undefined && !stiff) throw new Error('--seconds goes with --stiff');
  const seconds = Number(get('seconds') ?? STIFF.seconds);
  if (!(seconds > 0)) throw new Error('--seconds must be > 0');
  const scenes = (get('scenes') ?? (sweep ? 'cloth128' : quick ? 'cloth32,cloth64,cloth128,chain1000,beam'
    : Object.keys(SCENES).join(','))).split(',');
  for (const s of scenes) if (!SCENES[s]) throw new Error(`--scenes: unknown scene '${s}' (known: ${Object.keys(SCENES).join(', ')})`);
  const iterations = Number(get('iterations') ?? (quick ? 120 : 150));
  if (!(iterations >= REFERENCE_ITERATIONS)) throw new Error(`--iterations must be >= ${REFERENCE_ITERATIONS}`);
  const rhos = get('chebyshev') === undefined ? [] : list(get('chebyshev'));
  for (const rho of rhos) if (!(rho >= 0 && rho < 1)) throw new Error(`--chebyshev: ρ must be in [0, 1), got ${rho}`);
  if (rhos.length && sweep) throw new Error('--chebyshev does not go with --hpbd-sweep');
  const threads = Number(get('threads') ?? 1);
  if (threads !== 1 && threads !== 2) throw new Error(`--threads must be 1 or 2, got ${get('threads')}`);
  if (threads !== 1 && !stiff) throw new Error('--threads goes with --stiff');
  const solvers = [...SOLVERS, ...rhos.map(chebyshevLane)];
  return { scenes, iterations, runs: Number(get('runs') ?? 3), sweep, stiff, seconds, solvers, threads,
    levels: list(get('levels') ?? '3,5,8'),
    coarse: list(get('coarse') ?? '8,32,128,256') };
}

const fmt = (x, digits = 3) => (x === null || x === undefined ? '-' : Number(x).toPrecision(digits));

function runScene(pbd, name, opts, outDir) {
  const scene = SCENES[name];
  const warm = warmState(pbd, scene, WARMUP_FRAMES);
  const budget = (solver) => (solver === 'projective-dynamics' ? Math.min(PD_ITERATIONS, opts.iterations) : opts.iterations);
  const results = opts.solvers.map((solver) => ({ solver, ...residualCurve(pbd, warm, solver, budget(solver)) }));
  const level = results[0].rms[REFERENCE_ITERATIONS - 1];
  for (const r of results) {
    r.iters = iterationsToReach(r.rms, level);
    r.msPerStep = stepTime(pbd, warm, r.solver, TIMING_ITERATIONS, opts.runs);
    r.msToLevel = r.iters ? stepTime(pbd, warm, r.solver, r.iters, opts.runs) : null;
  }
  console.log(`\n${scene.label}: ${warm.geometry.edges.length / 2} stretch edges; level = Gauss-Seidel's RMS |C| after ` +
    `${REFERENCE_ITERATIONS} iterations = ${fmt(level)} m (first iteration: ${fmt(results[0].rms[0])} m)`);
  console.log(table(
    [{ title: 'solver', width: 22, align: 'left' }, { title: 'iters', width: 6 }, { title: 'N', width: 4 }, { title: 'RMS@N', width: 9 },
      { title: `ms/step(${TIMING_ITERATIONS} it)`, width: 15 }, { title: 'ms to level', width: 11 }, { title: 'stretch', width: 9 }],
    results.map((r) => [r.solver, r.iters ?? `>${r.rms.length}`, r.rms.length, fmt(r.rms[r.rms.length - 1]), r.msPerStep.toFixed(2),
      r.msToLevel === null ? '-' : r.msToLevel.toFixed(2), `${(100 * r.stretch).toFixed(3)}%`])));
  const curves = results.flatMap((r) => [{ name: `${r.solver} rms`, values: r.rms }, { name: `${r.solver} max`, values: r.max }]);
  writeFileSync(join(outDir, `${name}.csv`), curvesCsv(curves));
  writeFileSync(join(outDir, `${name}.svg`), curvesSvg({ title: `${scene.label}: RMS |C| per iteration (dashed: level)`,
    curves: results.map((r) => ({ name: r.solver, values: r.rms })), level }));
  return { warm, results, level };
}

function hpbdTarget(scene) {
  const gs = scene.results.find((r) => r.solver === 'gauss-seidel');
  const h = scene.results.find((r) => r.solver === 'hierarchical');
  console.log(`\nHPBD on 128²: reaches Gauss-Seidel's ${REFERENCE_ITERATIONS}-iteration RMS in ${h.iters ?? '>' + h.rms.length} ` +
    `fine iterations (${h.iters ? (REFERENCE_ITERATIONS / h.iters).toFixed(1) + 'x fewer' : 'not reached'}; target >= 4x), ` +
    `in ${fmt(h.msToLevel)} ms against Gauss-Seidel's ${fmt(gs.msToLevel)} ms.`);
}

/**
 * The HPBD target on its own measure, the stretch residual (RMS of max(0, d - L) over the stretch edges):
 * Gauss-Seidel's after 100 iterations, and the fewest fine iterations (in steps of 5) with which HPBD reaches it,
 * for the default hierarchy, a deeper one, and the setting that meets the target (--hpbd-sweep). Compression is
 * left out: the coarse levels only resist stretching.
 */
function hpbdStretchTarget(pbd, scene) {
  const gs = stretchAfterStep(pbd, scene.warm, 'gauss-seidel', REFERENCE_ITERATIONS);
  console.log(`HPBD on 128², stretch residual: Gauss-Seidel after ${REFERENCE_ITERATIONS} iterations ${fmt(gs.rms)} m ` +
    `(${gs.ms.toFixed(1)} ms)`);
  const hierarchies = [{ levels: 3, parents: 2, coarseIterations: 2 }, { levels: 5, parents: 2, coarseIterations: 8 },
    { levels: 8, parents: 2, coarseIterations: 256 }];
  for (const hierarchy of hierarchies) {
    const hit = fewestHpbdIterations(pbd, scene.warm, hierarchy, gs.rms, REFERENCE_ITERATIONS);
    console.log(`  levels ${hierarchy.levels}, coarse iterations ${hierarchy.coarseIterations}: ` + (hit
      ? `${hit.n} fine iterations (${(REFERENCE_ITERATIONS / hit.n).toFixed(1)}x fewer; target >= 4x), ${hit.ms.toFixed(1)} ms`
      : `not reached in ${REFERENCE_ITERATIONS}`));
  }
}

// Issue #4's 2-thread target: THREAD_ROUNDS blocks of THREAD_FRAMES steps per thread count, in turn (measure.mjs).
function threadScalingReport(pbd, scene) {
  const { one, two, ratio } = threadScaling(pbd, scene.warm, TIMING_ITERATIONS, THREAD_ROUNDS, THREAD_FRAMES);
  pbd.setThreads(1);
  console.log(`Coloured Gauss-Seidel on 128², ${TIMING_ITERATIONS} iterations (median of ${THREAD_ROUNDS} blocks of ` +
    `${THREAD_FRAMES} steps per thread count, in turn): 1 thread ${one.toFixed(2)} ms, ` +
    `2 threads ${two.toFixed(2)} ms: ${ratio.toFixed(2)}x (median paired ratio; target >= 1.7x; wasm threaded build).`);
}

function pendulumReport(pbd) {
  const P = PENDULUM;
  const euler = pendulumEnergy(pbd, 'implicit-euler'), bdf2 = pendulumEnergy(pbd, 'bdf2');
  const swing = P.mass * P.gravity * P.length;
  console.log(`Spring pendulum (${P.mass} kg, ${P.stiffness} N/m, ${P.length} m, released horizontally, ${P.substeps} ` +
    `substeps x ${P.iterations} iteration, 1/60 s): energy after ${P.seconds} s, relative to the start (swing energy ` +
    `m g L = ${swing.toFixed(2)} J): implicit Euler ${(euler.end - euler.start).toFixed(3)} J, BDF2 ` +
    `${(bdf2.end - bdf2.start).toFixed(3)} J.`);
}

/** --hpbd-sweep: the fewest fine iterations to Gauss-Seidel's stretch residual for every levels x coarse pair. */
function hpbdSweep(pbd, name, opts) {
  const scene = SCENES[name];
  const warm = warmState(pbd, scene, WARMUP_FRAMES);
  const gs = stretchAfterStep(pbd, warm, 'gauss-seidel', REFERENCE_ITERATIONS);
  console.log(`${scene.label}: Gauss-Seidel's stretch residual after ${REFERENCE_ITERATIONS} iterations ` +
    `${gs.rms.toExponential(3)} m (${gs.ms.toFixed(1)} ms, single-threaded wasm)`);
  console.log('fine iterations to reach it (ms of that step), HPBD with k = 2 parents; target: <= 25 (4x fewer)');
  console.log(['levels \\ coarse it.', ...opts.coarse.map(String)].map((s) => s.padStart(12)).join(''));
  for (const levels of opts.levels) {
    const row = [String(levels)];
    for (const coarseIterations of opts.coarse) {
      const hit = fewestHpbdIterations(pbd, warm, { levels, parents: 2, coarseIterations }, gs.rms, REFERENCE_ITERATIONS);
      row.push(hit ? `${hit.n} (${hit.ms.toFixed(1)})` : '-');
    }
    console.log(row.map((s) => s.padStart(12)).join(''));
  }
}

const opts = options(process.argv.slice(2));
if (opts.sweep) {
  const pbd = await createPbd({ variant: 'single' });
  for (const name of opts.scenes) hpbdSweep(pbd, name, opts);
  process.exit(0);
}
if (opts.stiff) {
  const pbd = await createPbd({ variant: 'threaded', threads: 2 });
  pbd.setThreads(opts.threads);
  console.log(`pbd-wasm solver benchmark --stiff (issue 53; wasm ${pbd.variant}, ${opts.threads} thread(s), the ` +
    `engine's measured pool use; --runs=${opts.runs}, ` +
    `--seconds=${opts.seconds})`);
  const started = performance.now();
  stiffReport(pbd, opts);
  console.log(`\n(${((performance.now() - started) / 1000).toFixed(0)} s)`);
  pbd.terminate();
  process.exit(0);
}
const outDir = join(dirname(fileURLToPath(import.meta.url)), '..', 'build', 'bench', 'solvers');
mkdirSync(outDir, { recursive: true });
const pbd = await createPbd({ variant: 'threaded', threads: 2 });
pbd.setThreads(1);
console.log(`pbd-wasm solver benchmark (wasm ${pbd.variant}, 1 thread unless said; --iterations=${opts.iterations}, --runs=${opts.runs})`);
const started = performance.now();
const done = {};
for (const name of opts.scenes) done[name] = runScene(pbd, name, opts, outDir);
if (done.cloth128) {
  hpbdTarget(done.cloth128);
  hpbdStretchTarget(pbd, done.cloth128);
  threadScalingReport(pbd, done.cloth128);
}
pendulumReport(pbd);
console.log(`\nCSV and SVG: ${outDir}  (${((performance.now() - started) / 1000).toFixed(0)} s)`);
pbd.terminate();

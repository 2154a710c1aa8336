// `npm run bench:peers`: pbd-wasm side by side with Jolt Physics soft bodies (npm jolt-physics), same scenes
// (bench/scenes.mjs), same solver work, in two environments, each on its own: first Node (both engines as wasm in this
// process, plus pbd-wasm's native build), then headless Chromium (both engines as wasm in a module Worker of a
// cross-origin isolated page; browser.mjs). Per environment, engine build, thread count and scene: WARMUP frames
// (2 s of simulated time, past the JIT's tier-up), the sanity figures at that moment, then RUNS runs of FRAMES frames
// each, interleaved across the configs; reports the per-frame ms median over the runs, with the fastest and slowest
// run, and the ratio to Jolt's single-threaded build measured in the same environment and run. The measuring and
// reporting code is one path for both environments (measure.mjs, report.mjs); what is Node-only stays here: the
// native rows (the native benchmark binary), the load average and the report files.
// Prints a table per environment and writes build/reports/bench-peers.json and .csv (every row tagged with its
// environment, 'node' or 'chromium'; a run with one environment writes only its rows).
//
// Options: --node (Node only) --browser (Chromium only); neither or both: Node, then Chromium.
//          --no-files: print only, leave build/reports/bench-peers.* as they are (npm run bench's pbd-wasm rows).
//          --runs=N (7) --frames=N (30) --warmup=N (120)
//          --scenes=cloth32,cloth64,cloth128,cloth256,cloth128rest,cloth256rest,cloth256rest20,cube10 (the default)
//                   Any scene id of bench/scenes.mjs benchScene, run in the order given, and these groups:
//                   default (the list above), meshes (issue 52: cloth128rest,cloth128shuffled,clothIrregular,cube10,
//                   cube16,cube24,bunnyTets; not in the default run), all (both). E.g. --scenes=meshes.
//                   cloth128shuffled: the 128² rest cloth numbered at random; clothIrregular: a jittered 128² grid
//                   cut along random diagonals (triangle edges + bend across each interior edge); cubeC: C³ cells;
//                   bunnyTets: the npm bunny tetrahedralized by pbd.tetrahedralize, dropped like the cube.
//          --configs=pbd-single,pbd-threaded-1,pbd-threaded-2,pbd-native-1,pbd-native-2,jolt-wasm,jolt-wasm-own,
//                    jolt-mt-1,jolt-mt-2   (the pbd-native rows are Node's only)
//
// What is and is not comparable (see also the comments in bench/scenes.mjs and jolt-scenes.mjs):
// - Same particles, masses, pins, gravity, ground, friction and the same constraint set, all XPBD compliance 0,
//   same frame (1/60 s) split into 10 substeps with one pass over the constraints each.
// - Constraint ordering differs: pbd-wasm runs graph-coloured Gauss-Seidel (strips of particles, each colour by
//   colour, each family emitted in red-black order); Jolt's Optimize() groups constraints into independent sets and orders them its own way. With
//   one pass per substep the order decides convergence: on the rigid reference cloth at 64x64 and up Jolt's lets the
//   error grow until the cloth blows up. The verdict column says which rows simulate the scene, and only those
//   timings compare (same work per frame, but a blown-up scene is not the scene).
// - Jolt does more per frame than solve constraints: broad phase, collision-plane search against the floor (once
//   per frame), body bookkeeping, sleeping checks, velocity clamping. That is part of what a user pays for.
// - Builds: pbd-wasm's single and threaded builds both use wasm SIMD. Jolt's official single-threaded 'wasm' build
//   has no SIMD; its 'wasm-multithread' build has SIMD, but only loads in Node with a one-line glue fix (see
//   jolt-node.mjs), so Node's jolt-mt rows run a patched copy of the published glue (the .wasm is untouched);
//   Chromium's load the published glue as is.
// - Threads: pbd threads = its pool size including the caller; Jolt threads = JoltSettings.mMaxWorkerThreads + 1.
//   In Chromium the caller is the page's measuring Worker, not its main thread. The machine's other load lands on
//   whichever run is active; min and max show the spread. Timer: performance.now() (Chromium, cross-origin
//   isolated: 5 µs resolution; a run lasts milliseconds).
import { mkdir, writeFile } from 'node:fs/promises';
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runInChromium } from './browser.mjs';
import { joltVersion, loadJoltNode } from './jolt-node.mjs';
import { needsBunny, runBench, selectConfigs, selectScenes } from './measure.mjs';
import { printHeader, printReport, toCsv } from './report.mjs';
import { SUBSTEPS, DT, TARGET_PASSES, bunnySurface } from '../scenes.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

function options(argv) {
  const o = { runs: 7, frames: 30, warmup: 120, scenes: null, configs: null };
  const flags = { node: false, browser: false, 'no-files': false };
  for (const a of argv) {
    const m = /^--([\w-]+)(?:=(.*))?$/.exec(a);
    if (m && m[2] === undefined && m[1] in flags) flags[m[1]] = true;
    else if (m && m[2] !== undefined && m[1] in o) {
      o[m[1]] = ['scenes', 'configs'].includes(m[1]) ? m[2].split(',') : Number(m[2]);
    }
    else throw new Error(`unknown option ${a}`);
  }
  if (!(o.runs >= 1 && o.frames >= 1 && o.warmup >= 0)) throw new Error('--runs and --frames must be >= 1');
  const both = flags.node === flags.browser;
  o.environments = [...(both || flags.node ? ['node'] : []), ...(both || flags.browser ? ['chromium'] : [])];
  o.files = !flags['no-files'];
  return o;
}

/** The Google Benchmark name of a scene in bench/native_bench.cpp, or null when it has no native twin. */
function nativeName(scene, threads) {
  if (scene.mesh === 'cube') return scene.size === 10 ? `CubeStep/threads:${threads}` : null;
  if (scene.mesh !== 'grid') return null;
  const name = { [SUBSTEPS]: 'ClothStep', [TARGET_PASSES]: 'ClothStep20Passes' }[scene.substeps];
  return name ? `${name}/n:${scene.size}/threads:${threads}/g:${scene.gravity === 0 ? 0 : 1}` : null;
}

/**
 * The native rows: runs the native benchmark binary once over the selected scenes (5 repetitions each, its own
 * warm-up of 30 frames) and returns the median ms per frame by benchmark name. Sanity figures are the wasm rows':
 * the native build runs the same code (tests/native checks native and wasm agree bit for bit).
 */
function runNative(scenes, configs) {
  const names = [];
  for (const sc of scenes) for (const c of configs) if (c.engine === 'pbd-native') names.push(nativeName(sc, c.threads));
  const wanted = names.filter(Boolean);
  if (!wanted.length) return new Map();
  const bin = join(ROOT, 'build', 'native', 'bench', 'pbd_bench');
  const filter = `^(${wanted.join('|')})(/|$)`;  // names end in /repeats:5 (native_bench.cpp)
  const out = execFileSync(bin, [`--benchmark_filter=${filter}`, '--benchmark_format=json'],
    { encoding: 'utf8', maxBuffer: 1 << 26, stdio: ['ignore', 'pipe', 'ignore'] });
  const byName = new Map();
  for (const b of JSON.parse(out).benchmarks) {
    if (b.aggregate_name === 'median') byName.set(b.run_name.replace(/\/repeats:\d+$/, ''), b.real_time);  // ms
  }
  return byName;
}

/** Fills the native rows from one run of the native benchmark; counts and sanity come from the scene's wasm row. */
function fillNativeRows(results, scenes, configs) {
  let byName;
  try {
    byName = runNative(scenes, configs);
  } catch (e) {
    for (const r of results) if (r.engine === 'pbd-native') r.error = `native benchmark: ${e.message.split('\n')[0]}`;
    return;
  }
  for (const r of results.filter((q) => q.engine === 'pbd-native')) {
    const scene = scenes.find((sc) => sc.id === r.scene);
    const ms = byName.get(nativeName(scene, r.threads));
    const twin = results.find((q) => q.scene === r.scene && q.configId === 'pbd-single' && !q.error);
    if (ms === undefined || !twin) {
      r.error = ms === undefined ? 'no native twin of this scene' : 'needs the pbd-single row for its counts';
      continue;
    }
    Object.assign(r, {
      particles: twin.particles, constraints: twin.constraints, ms: { median: ms, min: ms, max: ms, runs: [ms] },
      sanity: twin.sanity, verdictAtEnd: twin.verdictAtEnd, substeps: twin.substeps, mprojPerS: twin.constraints * twin.substeps / ms / 1e3,
      worldBytes: twin.worldBytes, wasmHeapBytes: 0,
    });
  }
}

const loadText = (l) => l.map((x) => x.toFixed(2)).join(' ');
const cpuText = () => `${os.cpus().length} cores (${os.cpus()[0]?.model ?? '?'})`;

/** Node: this process; the native rows from the native benchmark binary. */
async function runNode(o) {
  const loadAverageBefore = os.loadavg();
  console.log(`=== Node ${process.version} ===`);
  printHeader(joltVersion(), `Node ${process.version}, ${cpuText()}, load average ${loadText(loadAverageBefore)}`, o);
  const { results, memory } = await runBench(o, { environment: 'node', loadJolt: loadJoltNode,
    progress: (line) => process.stderr.write(`${line}\n`) });
  fillNativeRows(results, selectScenes(o), selectConfigs(o, 'node'));
  printReport({ environment: 'node', results, memory, warmup: o.warmup });
  const loadAverageAfter = os.loadavg();
  console.log(`Load average after: ${loadText(loadAverageAfter)} on ${os.cpus().length} cores.\n`);
  return { results, meta: { node: process.version, loadAverageBefore, loadAverageAfter } };
}

/** Chromium: browser.mjs runs the same runBench in a page's Worker; reported here like Node's rows. */
async function runChromium(o) {
  if (!selectConfigs(o, 'chromium').length) {
    console.log('=== headless Chromium: skipped (no selected config runs there) ===\n');
    return { results: [], meta: null };
  }
  const loadAverageBefore = os.loadavg();
  console.log('=== headless Chromium ===');
  printHeader(joltVersion(), 'headless Chromium (/usr/bin/chromium, measured in a module Worker of a cross-origin ' +
    `isolated page), ${cpuText()}, load average ${loadText(loadAverageBefore)}`, o);
  const out = await runInChromium(o, (line) => process.stderr.write(`${line}\n`));
  console.log(`Chromium ${out.browserVersion}, navigator.hardwareConcurrency ${out.hardwareConcurrency}, ` +
    `crossOriginIsolated ${out.crossOriginIsolated}`);
  printReport({ environment: 'chromium', results: out.results, memory: out.memory, warmup: o.warmup });
  const loadAverageAfter = os.loadavg();
  console.log(`Load average after: ${loadText(loadAverageAfter)} on ${os.cpus().length} cores.\n`);
  return { results: out.results, meta: { chromium: out.browserVersion, hardwareConcurrency: out.hardwareConcurrency,
    crossOriginIsolated: out.crossOriginIsolated, loadAverageBefore, loadAverageAfter } };
}

async function main() {
  const o = options(process.argv.slice(2));
  // The bunny's surface comes from the npm package here, in Node, for both environments (measure.mjs sceneDef).
  if (needsBunny(selectScenes(o))) o.bunnySurface = await bunnySurface();
  const results = [], environments = {};
  for (const env of o.environments) {
    const run = env === 'node' ? await runNode(o) : await runChromium(o);
    results.push(...run.results);
    if (run.meta) environments[env] = run.meta;
  }
  if (!results.length || !o.files) {
    console.log(`${results.length ? '--no-files' : 'nothing measured'}: build/reports/bench-peers.* left as they were`);
    return results.some((r) => r.error) ? 1 : 0;
  }
  const dir = join(ROOT, 'build', 'reports');
  await mkdir(dir, { recursive: true });
  const meta = {
    date: new Date().toISOString(), cpus: os.cpus().length, cpuModel: os.cpus()[0]?.model, joltPhysics: joltVersion(),
    environments, frameSeconds: DT, substeps: SUBSTEPS, warmupFrames: o.warmup, runs: o.runs, framesPerRun: o.frames,
  };
  await writeFile(join(dir, 'bench-peers.json'), JSON.stringify({ meta, results: results.map(({ sceneLabel, ...r }) => r) }, null, 2) + '\n');
  await writeFile(join(dir, 'bench-peers.csv'), toCsv(results));
  console.log(`wrote build/reports/bench-peers.json and build/reports/bench-peers.csv ` +
    `(${Object.keys(environments).join(' and ')})`);
  return results.some((r) => r.error) ? 1 : 0;  // a scene that blows up is a finding, not a failure of the bench
}

main().then((code) => process.exit(code), (e) => {
  console.error(`bench:peers: ${e.stack ?? e}`);
  process.exit(1);
});

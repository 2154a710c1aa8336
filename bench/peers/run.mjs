// `npm run bench:peers`: pbd-wasm side by side with Jolt Physics soft bodies (npm jolt-physics), same scenes
// (scene-defs.mjs), same solver work, both as wasm in this Node process. Per engine build, thread count and scene:
// WARMUP frames (2 s of simulated time, past V8's tier-up), the sanity figures at that moment, then RUNS runs of
// FRAMES frames each, interleaved across the configs (measureScene); reports the per-frame ms median over the runs,
// with the fastest and slowest run.
// Prints a table and writes build/reports/bench-peers.json and .csv.
//
// Options: --runs=N (7) --frames=N (30) --warmup=N (120)
//          --scenes=cloth32,cloth64,cloth128,cloth256,cloth128rest,cloth256rest,cube10
//          --configs=pbd-single,pbd-threaded-1,pbd-threaded-2,jolt-wasm,jolt-wasm-own,jolt-mt-1,jolt-mt-2
//
// What is and is not comparable (see also the comments in scene-defs.mjs and jolt-scenes.mjs):
// - Same particles, masses, pins, gravity, ground, friction and the same constraint set, all XPBD compliance 0,
//   same frame (1/60 s) split into 10 substeps with one pass over the constraints each.
// - Constraint ordering differs: pbd-wasm runs graph-coloured Gauss-Seidel (colour by colour, each family emitted in
//   red-black order); Jolt's Optimize() groups constraints into independent sets and orders them its own way. With
//   one pass per substep the order decides convergence: on the rigid reference cloth at 64x64 and up Jolt's lets the
//   error grow until the cloth blows up. The verdict column says which rows simulate the scene, and only those
//   timings compare (same work per frame, but a blown-up scene is not the scene).
// - Jolt does more per frame than solve constraints: broad phase, collision-plane search against the floor (once
//   per frame), body bookkeeping, sleeping checks, velocity clamping. That is part of what a user pays for.
// - Builds: pbd-wasm's single and threaded builds both use wasm SIMD. Jolt's official single-threaded 'wasm' build
//   has no SIMD; its 'wasm-multithread' build has SIMD, but only loads in Node with a one-line glue fix (see
//   jolt-scenes.mjs), so the jolt-mt rows run a patched copy of the published glue (the .wasm is untouched).
// - Threads: pbd threads = its pool size including the caller; Jolt threads = JoltSettings.mMaxWorkerThreads + 1.
//   The machine's other load lands on whichever run is active; min and max show the spread.
import { mkdir, writeFile } from 'node:fs/promises';
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadPbd, pbdCloth, pbdCube } from './pbd-scenes.mjs';
import { joltCloth, joltCube, joltVersion, loadJolt } from './jolt-scenes.mjs';
import {
  CLOTH_SIZES, COMPARABLE, CUBE_CELLS, DT, GRAVITY, clothDef, REST_SIZES, SUBSTEPS, clothSanity, cubeSanity, restLengths,
} from './scene-defs.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

function options(argv) {
  const o = { runs: 7, frames: 30, warmup: 120, scenes: null, configs: null };
  for (const a of argv) {
    const m = /^--(\w+)=(.*)$/.exec(a);
    if (!m || !(m[1] in o)) throw new Error(`unknown option ${a}`);
    o[m[1]] = ['scenes', 'configs'].includes(m[1]) ? m[2].split(',') : Number(m[2]);
  }
  if (!(o.runs >= 1 && o.frames >= 1 && o.warmup >= 0)) throw new Error('--runs and --frames must be >= 1');
  return o;
}

const SCENES = [
  ...CLOTH_SIZES.map((n) => ({ id: `cloth${n}`, label: `cloth ${n}x${n}`, kind: 'cloth', size: n, gravity: GRAVITY })),
  ...REST_SIZES.map((n) => ({ id: `cloth${n}rest`, label: `cloth ${n}x${n} g=0`, kind: 'cloth', size: n, gravity: 0 })),
  { id: `cube${CUBE_CELLS}`, label: `cube ${CUBE_CELLS}^3 cells`, kind: 'cube', size: CUBE_CELLS },
];

const CONFIGS = [
  { id: 'pbd-single', engine: 'pbd-wasm', build: 'single', simd: true, threads: 1 },
  { id: 'pbd-threaded-1', engine: 'pbd-wasm', build: 'threaded', simd: true, threads: 1 },
  { id: 'pbd-threaded-2', engine: 'pbd-wasm', build: 'threaded', simd: true, threads: 2 },
  // The same scenes in the native build (bench/native_bench.cpp ClothStep and CubeStep, run once by fillNativeRows):
  // the wasm/native ratio of the same code.
  { id: 'pbd-native-1', engine: 'pbd-native', build: 'native', simd: true, threads: 1 },
  { id: 'pbd-native-2', engine: 'pbd-native', build: 'native', simd: true, threads: 2 },
  { id: 'jolt-wasm', engine: 'jolt', build: 'wasm', simd: false, threads: 1 },
  // The cloth with the constraints Jolt's own CreateConstraints builds (jolt-scenes.mjs, layout 'jolt'), the way a
  // Jolt user would: not the identical set, so its sanity figures, not only its time, differ.
  { id: 'jolt-wasm-own', engine: 'jolt', build: 'wasm', simd: false, threads: 1, layout: 'jolt', scenes: ['cloth'] },
  { id: 'jolt-mt-1', engine: 'jolt', build: 'wasm-multithread', simd: true, threads: 1, patched: true },
  { id: 'jolt-mt-2', engine: 'jolt', build: 'wasm-multithread', simd: true, threads: 2, patched: true },
];

// Engine modules, loaded once per build (a pbd-wasm threaded module per thread count, as its pool is fixed at load).
// All stay loaded for the whole run; idle, their pools sleep.
async function loadEngines(configs) {
  const engines = new Map(), errors = new Map();
  for (const c of configs.filter((x) => x.engine !== 'pbd-native')) {
    const key = engineKey(c);
    if (engines.has(key) || errors.has(key)) continue;
    try {
      engines.set(key, c.engine === 'jolt' ? await loadJolt(c.build) : await loadPbd({ variant: c.build, threads: c.threads }));
    } catch (e) {
      errors.set(key, e.message.split('\n')[0]);
    }
  }
  return { engines, errors };
}
const engineKey = (c) => (c.engine === 'jolt' ? c.build : `${c.build}/${c.threads}`);

function build(config, engine, scene) {
  if (config.engine === 'pbd-wasm') {
    if (engine.threads !== config.threads) throw new Error(`pbd-wasm runs ${engine.threads} threads, not ${config.threads}`);
    return scene.kind === 'cloth' ? pbdCloth(engine, scene.size, { gravity: scene.gravity }) : pbdCube(engine, scene.size);
  }
  return scene.kind === 'cloth'
    ? joltCloth(engine, scene.size, { threads: config.threads, layout: config.layout ?? 'same', gravity: scene.gravity })
    : joltCube(engine, scene.size, { threads: config.threads });
}

/** Bytes malloc'd in the engine's wasm heap now: pbd-wasm's mallinfo, Jolt's own allocator statistics. */
function heapInUse(config, engine) {
  if (config.engine === 'pbd-wasm') return engine.heapBytesInUse();
  return engine.JoltInterface.prototype.sGetTotalMemory() - engine.JoltInterface.prototype.sGetFreeMemory();
}
/** The engine's wasm memory size, bytes: it only grows, so after a scene it is the peak so far. */
const heapSize = (config, engine) => (config.engine === 'pbd-wasm' ? engine.memory.byteLength : engine.HEAPU8.length);

/**
 * pbd-wasm's memory per particle and per constraint, measured with malloc's count in the single-threaded build:
 * a world of n² bare particles (everything a particle costs: state, solver scratch, contact room, hashes), then the
 * n x n cloth of the scene minus those particles, over its constraints (constraint, multiplier, colour schedule,
 * hierarchy and body bookkeeping).
 */
function memoryPerElement(pbd, n) {
  const before = pbd.heapBytesInUse();
  const bare = new pbd.World();
  bare.addParticles(clothDef(n).positions, undefined);
  bare.step(DT);
  const particleBytes = (pbd.heapBytesInUse() - before) / (n * n);
  bare.delete();
  const h = pbdCloth(pbd, n);
  h.step();
  const constraintBytes = (pbd.heapBytesInUse() - before - particleBytes * n * n) / h.constraintCount;
  h.delete();
  return { n, particleBytes, constraintBytes };
}

/** The Google Benchmark name of a scene in bench/native_bench.cpp, or null when it has no native twin. */
function nativeName(scene, threads) {
  if (scene.kind === 'cube') return scene.size === 10 ? `CubeStep/threads:${threads}` : null;
  return `ClothStep/n:${scene.size}/threads:${threads}/g:${scene.gravity === 0 ? 0 : 1}`;
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
      sanity: twin.sanity, verdictAtEnd: twin.verdictAtEnd, mprojPerS: twin.constraints * SUBSTEPS / ms / 1e3,
      worldBytes: twin.worldBytes, wasmHeapBytes: 0,
    });
  }
}

const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; };

/**
 * One scene in every config: build all, warm each up (WARMUP frames, then its sanity figures), then RUNS rounds in
 * which every config times FRAMES frames, the order rotating each round. Interleaving spreads each config's runs over
 * the same minutes, so a burst of load from the machine's other users hits all configs alike instead of one.
 */
function measureScene(scene, entries, o) {
  const live = [];
  for (const { config, engine, base } of entries) {
    try {
      const heapBefore = heapInUse(config, engine);
      const h = build(config, engine, scene);
      const rest = restLengths(h.def.positions, scene.kind === 'cloth' ? h.def.stretch : h.def.edges);
      const sanityOf = (p) => (scene.kind === 'cloth' ? clothSanity(p, h.def, rest) : cubeSanity(p, h.def, rest));
      live.push({ h, base, sanityOf, perFrame: [], heapBefore, config, engine });
    } catch (e) {
      base.error = e.message.split('\n')[0];
    }
  }
  for (const x of live) {
    for (let f = 0; f < o.warmup; f++) x.h.step();
    x.sanity = { t: o.warmup * DT, ...x.sanityOf(x.h.positions()) };
    x.worldBytes = heapInUse(x.config, x.engine) - x.heapBefore;  // after warm-up: every buffer a step needs exists by now
  }
  for (let r = 0; r < o.runs; r++) {
    for (let k = 0; k < live.length; k++) {
      const x = live[(k + r) % live.length];
      const t0 = performance.now();
      for (let f = 0; f < o.frames; f++) x.h.step();
      x.perFrame.push((performance.now() - t0) / o.frames);
    }
  }
  for (const x of live) {
    const end = x.sanityOf(x.h.positions());
    x.h.delete();
    Object.assign(x.base, {
      particles: x.h.particleCount, constraints: x.h.constraintCount,
      ms: { median: median(x.perFrame), min: Math.min(...x.perFrame), max: Math.max(...x.perFrame), runs: x.perFrame },
      sanity: x.sanity, verdictAtEnd: end.verdict,
      mprojPerS: x.h.constraintCount * SUBSTEPS / median(x.perFrame) / 1e3,  // M constraint projections per second
      worldBytes: x.worldBytes, wasmHeapBytes: heapSize(x.config, x.engine),
    });
  }
  return entries.map((e) => e.base);
}

const f2 = (x) => (x === undefined ? '' : x.toFixed(2));
function sanityText(s) {
  const stretch = `stretch p99 ${f2(s.p99Stretch)} max ${f2(s.maxStretch)} min ${f2(s.minStretch)}`;
  return s.freeCornerY !== undefined
    ? `lowest y ${f2(s.lowestY)}  corner y ${f2(s.freeCornerY)}  ${stretch}`
    : `lowest y ${f2(s.lowestY)}  centroid y ${f2(s.centroidY)}  volume ${f2(s.volumeRatio)}  ${stretch}`;
}
const buildText = (c) => `${c.build.replace('multithread', 'mt')}${c.simd ? ' simd' : ''}${c.patched ? ' *' : ''}` +
  (c.layout === 'jolt' ? ', own constr.' : '');

function printTable(results, sanityT) {
  const head = ['scene', 'engine', 'build', 'thr', 'particles', 'constr.', 'ms/frame median [min, max]', 'Mproj/s',
    'world KB', 'x jolt-wasm',
    'verdict', `sanity at t = ${sanityT.toFixed(2)} s (stretch: length / rest, grid or tet edges)`];
  const rows = results.map((r) => {
    if (r.error) return [r.sceneLabel, r.engine, buildText(r.config), String(r.threads), '', '', 'ERROR (below)', '', '', '', '', ''];
    const ref = results.find((q) => q.scene === r.scene && q.configId === 'jolt-wasm' && !q.error);
    const ratio = ref ? (ref.ms.median / r.ms.median).toFixed(2) : '';
    const bothOk = ref && COMPARABLE.includes(ref.sanity.verdict) && COMPARABLE.includes(r.sanity.verdict);
    const verdict = r.sanity.verdict + (r.verdictAtEnd === r.sanity.verdict ? '' : `, then ${r.verdictAtEnd}`);
    return [r.sceneLabel, r.engine, buildText(r.config), String(r.threads), String(r.particles), String(r.constraints),
      `${r.ms.median.toFixed(2).padStart(7)} [${r.ms.min.toFixed(2)}, ${r.ms.max.toFixed(2)}]`,
      r.mprojPerS.toFixed(0).padStart(4), String(Math.round(r.worldBytes / 1024)).padStart(6),
      bothOk || !ratio ? ratio : `(${ratio})`, verdict, sanityText(r.sanity)];
  });
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
  const line = (cells) => cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]))).join('  ');
  console.log(line(head));
  console.log(line(widths.map((w) => '-'.repeat(w))));
  let last = null;
  for (let k = 0; k < rows.length; k++) {
    if (last !== null && results[k].scene !== last) console.log('');
    last = results[k].scene;
    console.log(line(rows[k]));
  }
  const errors = new Map(results.filter((r) => r.error).map((r) => [`${r.configId}: ${r.error}`, true]));
  if (errors.size) console.log(`\nERRORS\n${[...errors.keys()].join('\n')}`);
}

/**
 * The issue #8 targets per cloth scene, from this run's medians: single-threaded pbd-wasm against Jolt's
 * single-threaded build (target 4x), pbd-wasm on 2 threads against Jolt's multithread build on 2 (target 3x), and
 * pbd-wasm's 2-thread speed-up (target 1.8x). A ratio whose rows did not both simulate the scene is in parentheses.
 */
function printTargets(results) {
  const row = (scene, id) => results.find((r) => r.scene === scene && r.configId === id && !r.error);
  const ratio = (a, b) => {
    if (!a || !b) return 'n/a';
    const text = `${(a.ms.median / b.ms.median).toFixed(2)}x`;
    return COMPARABLE.includes(a.sanity.verdict) && COMPARABLE.includes(b.sanity.verdict) ? text : `(${text})`;
  };
  const scenes = [...new Set(results.map((r) => r.scene))].filter((id) => id.startsWith('cloth'));
  if (!scenes.length) return;
  console.log('\ntargets (issue #8): ST = jolt-wasm / pbd-single (>= 4x), MT = jolt-mt-2 / pbd-threaded-2 (>= 3x), ' +
    '2T = pbd-threaded-1 / pbd-threaded-2 (>= 1.8x),\n  W/N = pbd-native-1 / pbd-single (wasm speed as a fraction of native, >= 0.8x)');
  for (const id of scenes) {
    const st = ratio(row(id, 'jolt-wasm'), row(id, 'pbd-single'));
    const mt = ratio(row(id, 'jolt-mt-2'), row(id, 'pbd-threaded-2'));
    const t2 = ratio(row(id, 'pbd-threaded-1'), row(id, 'pbd-threaded-2'));
    const wn = ratio(row(id, 'pbd-native-1'), row(id, 'pbd-single'));
    console.log(`  ${id.padEnd(13)} ST ${st.padStart(8)}   MT ${mt.padStart(8)}   2T ${t2.padStart(8)}   W/N ${wn.padStart(8)}`);
  }
}

/**
 * Cost growth: per config, ms/frame against constraints over the cloth sizes of one gravity setting, as the
 * log-log slope between neighbouring sizes (1 = linear; above 1 = worse than linear, e.g. falling out of a cache).
 */
function printGrowth(results) {
  const groups = [['cloth', (id) => /^cloth\d+$/.test(id)], ['cloth g=0', (id) => /^cloth\d+rest$/.test(id)]];
  const configIds = [...new Set(results.map((r) => r.configId))];
  console.log('\ncost growth: log-log slope of ms/frame against constraints between neighbouring sizes (1 = linear)');
  for (const [label, match] of groups) {
    for (const id of configIds) {
      const rows = results.filter((r) => r.configId === id && match(r.scene) && !r.error)
        .sort((a, b) => a.constraints - b.constraints);
      if (rows.length < 2) continue;
      const steps = rows.slice(1).map((r, k) => {
        const q = rows[k];
        const slope = Math.log(r.ms.median / q.ms.median) / Math.log(r.constraints / q.constraints);
        return `${q.scene.replace(/\D+/g, '')}->${r.scene.replace(/\D+/g, '')} ${slope.toFixed(2)}`;
      });
      const perConstraint = rows.map((r) => `${(1e6 * r.ms.median / (r.constraints * SUBSTEPS)).toFixed(1)}`).join(' / ');
      console.log(`  ${label.padEnd(10)} ${id.padEnd(15)} ${steps.join('   ')}   (ns per projection: ${perConstraint})`);
    }
  }
}

function toCsv(results) {
  const cols = ['scene', 'engine', 'build', 'simd', 'threads', 'particles', 'constraints', 'ms_median', 'ms_min', 'ms_max',
    'mproj_per_s', 'world_bytes', 'wasm_heap_bytes',
    'sanity_t_s', 'verdict', 'verdict_at_end', 'lowest_y', 'free_corner_y', 'centroid_y', 'volume_ratio',
    'p99_stretch', 'max_stretch', 'min_stretch', 'error'];
  const out = [cols.join(',')];
  for (const r of results) {
    const s = r.sanity ?? {};
    out.push([r.scene, r.engine, r.config.build + (r.config.patched ? ' (patched glue)' : ''), r.config.simd, r.threads,
      r.particles ?? '', r.constraints ?? '', r.ms?.median ?? '', r.ms?.min ?? '', r.ms?.max ?? '',
      r.mprojPerS ?? '', r.worldBytes ?? '', r.wasmHeapBytes ?? '', s.t ?? '',
      s.verdict ?? '', r.verdictAtEnd ?? '', s.lowestY ?? '', s.freeCornerY ?? '', s.centroidY ?? '', s.volumeRatio ?? '',
      s.p99Stretch ?? '', s.maxStretch ?? '', s.minStretch ?? '', r.error ? `"${r.error.replace(/"/g, '""')}"` : ''].join(','));
  }
  return out.join('\n') + '\n';
}

async function main() {
  const o = options(process.argv.slice(2));
  const scenes = o.scenes ? SCENES.filter((s) => o.scenes.includes(s.id)) : SCENES;
  const configs = o.configs ? CONFIGS.filter((c) => o.configs.includes(c.id)) : CONFIGS;
  if (!scenes.length || !configs.length) throw new Error('no scene or no config selected');
  const loadBefore = os.loadavg();
  console.log(`pbd-wasm vs Jolt Physics ${joltVersion()} soft bodies, Node ${process.version}, ` +
    `${os.cpus().length} cores (${os.cpus()[0]?.model ?? '?'}), load average ${loadBefore.map((x) => x.toFixed(2)).join(' ')}`);
  console.log(`frame ${DT.toFixed(5)} s = ${SUBSTEPS} XPBD substeps x 1 pass (pbd setSubsteps(${SUBSTEPS}) setIterations(1); ` +
    `Jolt mNumIterations = ${SUBSTEPS}); ${o.warmup} warm-up frames, then ${o.runs} runs x ${o.frames} frames\n`);

  const { engines, errors } = await loadEngines(configs);
  const results = [];
  for (const scene of scenes) {
    const entries = configs.filter((c) => !c.scenes || c.scenes.includes(scene.kind)).map((config) => ({
      config, engine: engines.get(engineKey(config)),
      base: { scene: scene.id, sceneLabel: scene.label, configId: config.id, config, engine: config.engine,
        threads: config.threads, ...(errors.has(engineKey(config)) ? { error: errors.get(engineKey(config)) } : {}) },
    }));
    const rows = measureScene(scene, entries.filter((e) => !e.base.error && e.config.engine !== 'pbd-native'), o);
    results.push(...entries.map((e) => e.base));
    for (const r of rows) {
      process.stderr.write(`  ${scene.id.padEnd(8)} ${r.configId.padEnd(14)} ` +
        `${r.error ? `error: ${r.error}` : `${r.ms.median.toFixed(2)} ms/frame, ${r.sanity.verdict}`}\n`);
    }
  }
  const single = engines.get('single/1');
  const memory = single ? [32, 128].map((n) => memoryPerElement(single, n)) : [];
  for (const [key, engine] of engines) if (!key.startsWith('wasm')) engine.terminate();  // pbd-wasm pools
  fillNativeRows(results, scenes, configs);
  console.log('');
  printTable(results, o.warmup * DT);
  printTargets(results);
  printGrowth(results);
  for (const m of memory) {
    console.log(`memory (pbd-wasm single, malloc'd bytes): ${m.particleBytes.toFixed(0)} B per particle (${m.n}² bare ` +
      `particles), ${m.constraintBytes.toFixed(0)} B per constraint (the ${m.n}x${m.n} cloth minus its particles)`);
  }
  const peaks = [...new Set(results.filter((r) => r.wasmHeapBytes).map((r) => r.configId))].map((id) =>
    `${id} ${(Math.max(...results.filter((r) => r.configId === id).map((r) => r.wasmHeapBytes ?? 0)) / 2 ** 20).toFixed(0)} MB`);
  if (peaks.length) console.log(`peak wasm memory over this run (memory.buffer size, never shrinks): ${peaks.join(', ')}`);
  const loadAfter = os.loadavg();
  console.log("\njolt wasm = jolt-physics' official single-threaded build (no SIMD); wasm-mt simd * = its multithread " +
    'build (SIMD, pthreads) with the\nNode pthread check in its glue fixed (jolt-scenes.mjs); thr = threads incl. the ' +
    "caller. own constr. = the cloth built with Jolt's CreateConstraints instead of pbd-wasm's constraint set.\n" +
    "'x jolt-wasm' = jolt wasm's median / this row's median; in parentheses when either row 'blew up' or is\n" +
    "'unstable' (its timing then measures a broken motion). verdict (scene-defs.mjs): 'stretched' = 1 % of the edges\n" +
    "> 1.1x rest or one > 1.5x; 'unstable' = an edge > 3x or < 0.25x; 'blew up' = NaN or a particle > 10 m away.\n" +
    `Load average after: ${loadAfter.map((x) => x.toFixed(2)).join(' ')} on ${os.cpus().length} cores.`);

  const dir = join(ROOT, 'build', 'reports');
  await mkdir(dir, { recursive: true });
  const meta = {
    date: new Date().toISOString(), node: process.version, cpus: os.cpus().length, cpuModel: os.cpus()[0]?.model,
    loadAverageBefore: loadBefore, loadAverageAfter: loadAfter, joltPhysics: joltVersion(),
    frameSeconds: DT, substeps: SUBSTEPS, warmupFrames: o.warmup, runs: o.runs, framesPerRun: o.frames,
  };
  await writeFile(join(dir, 'bench-peers.json'), JSON.stringify({ meta, results: results.map(({ sceneLabel, ...r }) => r) }, null, 2) + '\n');
  await writeFile(join(dir, 'bench-peers.csv'), toCsv(results));
  console.log(`wrote build/reports/bench-peers.json and build/reports/bench-peers.csv`);
  return results.some((r) => r.error) ? 1 : 0;  // a scene that blows up is a finding, not a failure of the bench
}

main().then((code) => process.exit(code), (e) => {
  console.error(`bench:peers: ${e.stack ?? e}`);
  process.exit(1);
});

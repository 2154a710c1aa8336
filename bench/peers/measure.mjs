// The measurement of `npm run bench:peers`, shared by Node (run.mjs) and headless Chromium (browser-worker.mjs): the
// scene and config lists, engine loading, the interleaved scene loop, medians, throughput, world memory and the
// sanity figures. No Node-only imports here (no fs, os, child_process): the page loads this very file through Vite.
// What stays environment-specific is passed in: how Jolt's builds load (Node needs a patched multithread glue,
// jolt-node.mjs; the browser imports the published one) and where progress lines go.
import { loadPbd, pbdCloth, pbdScene } from './pbd-scenes.mjs';
import { joltScene } from './jolt-scenes.mjs';
import {
  CLOTH_SIZES, CUBE_CELLS, DT, REST_SIZES, TARGET_SCENE_ID, benchScene, benchSceneDef, bunnyTetMesh, clothDef,
} from '../scenes.mjs';
import { clothSanity, cubeSanity, restLengths } from './sanity.mjs';

// The scenes (bench/scenes.mjs benchScene: { id, label, kind, mesh, size, gravity, substeps }); substeps: passes per
// frame (substeps x 1 pass), on both sides. SCENE_GROUPS: names that --scenes expands. 'default' (what runs without
// --scenes): the grid cloths and the 10³ cube. 'meshes': issue 52's scenes (the 128² rest cloth numbered at random,
// an irregular triangulated cloth, bigger cubes, the tetrahedralized bunny) with cloth128rest and cube10 as their
// references; not in the default run, which they would nearly double (estimate). 'all': both.
const DEFAULT_SCENES = [...CLOTH_SIZES.map((n) => `cloth${n}`), ...REST_SIZES.map((n) => `cloth${n}rest`),
  TARGET_SCENE_ID, `cube${CUBE_CELLS}`];
const MESH_SCENES = ['cloth128rest', 'cloth128shuffled', 'clothIrregular', 'cube10', 'cube16', 'cube24', 'bunnyTets'];
export const SCENE_GROUPS = {
  default: DEFAULT_SCENES, meshes: MESH_SCENES, all: [...new Set([...DEFAULT_SCENES, ...MESH_SCENES])],
};
export const SCENES = DEFAULT_SCENES.map(benchScene);

// patched: 'node' = the row runs a patched copy of Jolt's glue in Node only (jolt-node.mjs); the browser loads the
// published glue as is. environments: where a config can run (default: both).
export const CONFIGS = [
  { id: 'pbd-single', engine: 'pbd-wasm', build: 'single', simd: true, threads: 1 },
  { id: 'pbd-threaded-1', engine: 'pbd-wasm', build: 'threaded', simd: true, threads: 1 },
  { id: 'pbd-threaded-2', engine: 'pbd-wasm', build: 'threaded', simd: true, threads: 2 },
  // Every step on both threads (World.setPoolUse('always')), where the row above runs each on the faster of the two
  // threads and one ('measured', the package's default): the price or gain of that choice, in the same run.
  { id: 'pbd-threaded-2-always', engine: 'pbd-wasm', build: 'threaded', simd: true, threads: 2, poolUse: 'always' },
  // The same scenes in the native build (bench/native_bench.cpp ClothStep and CubeStep, run once by run.mjs
  // fillNativeRows): the wasm/native ratio of the same code. Node's report only.
  { id: 'pbd-native-1', engine: 'pbd-native', build: 'native', simd: true, threads: 1, environments: ['node'] },
  { id: 'pbd-native-2', engine: 'pbd-native', build: 'native', simd: true, threads: 2, environments: ['node'] },
  { id: 'jolt-wasm', engine: 'jolt', build: 'wasm', simd: false, threads: 1 },
  // The cloth with the constraints Jolt's own CreateConstraints builds (jolt-scenes.mjs, layout 'jolt'), the way a
  // Jolt user would: not the identical set, so its sanity figures, not only its time, differ.
  { id: 'jolt-wasm-own', engine: 'jolt', build: 'wasm', simd: false, threads: 1, layout: 'jolt', scenes: ['cloth'] },
  { id: 'jolt-mt-1', engine: 'jolt', build: 'wasm-multithread', simd: true, threads: 1, patched: 'node' },
  { id: 'jolt-mt-2', engine: 'jolt', build: 'wasm-multithread', simd: true, threads: 2, patched: 'node' },
];

/**
 * o.scenes: scene ids (any benchScene() knows) and SCENE_GROUPS names, in the order to run, or null for the default
 * group. o.configs: config ids, or null for all. environment: 'node' | 'chromium'.
 */
export function selectScenes(o) {
  const ids = [...new Set((o.scenes ?? ['default']).flatMap((id) => SCENE_GROUPS[id] ?? [id]))];
  return ids.map((id) => {
    const scene = benchScene(id);
    if (!scene) throw new Error(`--scenes: unknown scene '${id}' (groups: ${Object.keys(SCENE_GROUPS).join(', ')})`);
    return scene;
  });
}
/** Whether any of the scenes needs the bunny's surface (o.bunnySurface: bench/scenes.mjs bunnySurface()). */
export const needsBunny = (scenes) => scenes.some((s) => s.mesh === 'bunny');
export function selectConfigs(o, environment) {
  return (o.configs ? CONFIGS.filter((c) => o.configs.includes(c.id)) : CONFIGS)
    .filter((c) => !c.environments || c.environments.includes(environment))
    .map(({ patched, ...c }) => ({ ...c, patched: patched === environment }));
}

// Engine modules, loaded once per build (a pbd-wasm threaded module per thread count, as its pool is fixed at load).
// All stay loaded for the whole run; idle, their pools sleep. loadJolt(build) returns an initialised Jolt module.
async function loadEngines(configs, loadJolt) {
  const engines = new Map(), errors = new Map();
  for (const c of configs.filter((x) => x.engine !== 'pbd-native')) {
    const key = engineKey(c);
    if (engines.has(key) || errors.has(key)) continue;
    try {
      engines.set(key, c.engine === 'jolt' ? await loadJolt(c.build) : await loadPbd({ variant: c.build, threads: c.threads }));
    } catch (e) {
      errors.set(key, String(e?.message ?? e).split('\n')[0]);
    }
  }
  return { engines, errors };
}
const engineKey = (c) => (c.engine === 'jolt' ? c.build : `${c.build}/${c.threads}`);

function build(config, engine, scene, def) {
  if (config.engine === 'pbd-wasm') {
    if (engine.threads !== config.threads) throw new Error(`pbd-wasm runs ${engine.threads} threads, not ${config.threads}`);
    return pbdScene(engine, scene, def, config.poolUse);
  }
  return joltScene(engine, scene, def, { threads: config.threads, layout: config.layout ?? 'same' });
}

/**
 * The scene's def (bench/scenes.mjs benchSceneDef), once for all configs. bunnyTets: tetrahedralized from
 * o.bunnySurface by a pbd-wasm single-threaded module of its own, so that the tetrahedralizer's heap stays out of
 * the measured modules' memory figures.
 */
async function sceneDef(scene, o) {
  if (scene.mesh !== 'bunny') return benchSceneDef(scene);
  if (!o.bunnySurface) throw new Error('bunnyTets needs o.bunnySurface (bench/scenes.mjs bunnySurface())');
  const pbd = await loadPbd({ variant: 'single' });
  try {
    return benchSceneDef(scene, bunnyTetMesh(pbd, o.bunnySurface));
  } finally {
    pbd.terminate();
  }
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

export const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; };

/**
 * One scene in every config: build and warm up each in turn (WARMUP frames, then its sanity figures), then RUNS
 * rounds in which every config times FRAMES frames, the order rotating each round. Interleaving spreads each config's
 * runs over the same minutes, so a burst of load from the machine's other users hits all configs alike instead of
 * one. Build and warm-up go one config at a time so that the heap growth counted as a world's bytes is its own, not
 * also that of the next config's world in the same engine module (jolt-wasm and jolt-wasm-own, jolt-mt-1 and -2).
 */
function measureScene(scene, def, entries, o) {
  const live = [];
  for (const { config, engine, base } of entries) {
    try {
      const heapBefore = heapInUse(config, engine);
      const h = build(config, engine, scene, def);
      const rest = restLengths(h.def.positions, scene.kind === 'cloth' ? h.def.stretch : h.def.edges);
      const sanityOf = (p) => (scene.kind === 'cloth' ? clothSanity(p, h.def, rest) : cubeSanity(p, h.def, rest));
      for (let f = 0; f < o.warmup; f++) h.step();
      const sanity = { t: o.warmup * DT, ...sanityOf(h.positions()) };
      const worldBytes = heapInUse(config, engine) - heapBefore;  // after warm-up: every buffer a step needs exists
      live.push({ h, base, sanityOf, perFrame: [], config, engine, sanity, worldBytes });
    } catch (e) {
      base.error = String(e?.message ?? e).split('\n')[0];
    }
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
      substeps: scene.substeps,
      mprojPerS: x.h.constraintCount * scene.substeps / median(x.perFrame) / 1e3,  // M constraint projections per second
      worldBytes: x.worldBytes, wasmHeapBytes: heapSize(x.config, x.engine),
    });
  }
  return entries.map((e) => e.base);
}

/**
 * The whole measurement in this environment: loads the engines, measures every selected scene in every selected
 * config (measureScene), then pbd-wasm's bytes per particle and per constraint, and stops pbd-wasm's thread pools.
 * o: { runs, frames, warmup, scenes, configs, bunnySurface } (run.mjs options; bunnySurface only with bunnyTets).
 * environment: 'node' | 'chromium' (tags every row).
 * loadJolt(build): an initialised Jolt module. progress(line): one line per measured row, as it finishes.
 * Returns { results, memory }: a row per scene and config (pbd-native rows carry no figures: run.mjs fills them),
 * plain data (the browser posts it back to Node).
 */
export async function runBench(o, { environment, loadJolt, progress }) {
  const scenes = selectScenes(o), configs = selectConfigs(o, environment);
  if (!scenes.length || !configs.length) throw new Error(`no scene or no config selected for ${environment}`);
  const { engines, errors } = await loadEngines(configs, loadJolt);
  const results = [];
  for (const scene of scenes) {
    const entries = configs.filter((c) => !c.scenes || c.scenes.includes(scene.kind)).map((config) => ({
      config, engine: engines.get(engineKey(config)),
      base: { environment, scene: scene.id, sceneLabel: scene.label, configId: config.id, config, engine: config.engine,
        threads: config.threads, ...(errors.has(engineKey(config)) ? { error: errors.get(engineKey(config)) } : {}) },
    }));
    let def;
    try {
      def = await sceneDef(scene, o);
    } catch (e) {
      for (const { base } of entries) base.error ??= `scene: ${String(e?.message ?? e).split('\n')[0]}`;
    }
    const rows = measureScene(scene, def, entries.filter((e) => !e.base.error && e.config.engine !== 'pbd-native'), o);
    results.push(...entries.map((e) => e.base));
    for (const r of rows) {
      progress(`  ${environment} ${scene.id.padEnd(16)} ${r.configId.padEnd(14)} ` +
        `${r.error ? `error: ${r.error}` : `${r.ms.median.toFixed(2)} ms/frame, ${r.sanity.verdict}`}`);
    }
  }
  const single = engines.get('single/1');
  const memory = single ? [32, 128].map((n) => memoryPerElement(single, n)) : [];
  for (const [key, engine] of engines) if (!key.startsWith('wasm')) engine.terminate();  // pbd-wasm pools
  return { results, memory };
}

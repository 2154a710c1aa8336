// The report of `npm run bench:peers`, one code path for every environment's rows (measure.mjs runBench results,
// from Node or posted back by headless Chromium): the table with the ratio to Jolt's single-threaded build, the
// issue #8 targets, the cost growth, pbd-wasm's memory figures, the footnote and the CSV. Plain console output, no
// Node-only imports.
import { DT, SUBSTEPS, TARGET_PASSES, TARGET_PASSES_SIZE, TARGET_SCENE_ID } from '../scenes.mjs';
import { COMPARABLE } from './sanity.mjs';

/** The lines above an environment's table. envText: the environment (runtime, version, cores, load). */
export function printHeader(joltVersion, envText, o) {
  console.log(`pbd-wasm vs Jolt Physics ${joltVersion} soft bodies, ${envText}`);
  console.log(`frame ${DT.toFixed(5)} s = ${SUBSTEPS} XPBD substeps x 1 pass (pbd setSubsteps(${SUBSTEPS}) setIterations(1); ` +
    `Jolt mNumIterations = ${SUBSTEPS}; ${TARGET_PASSES} in ${TARGET_SCENE_ID}); ` +
    `${o.warmup} warm-up frames, then ${o.runs} runs x ${o.frames} frames\n`);
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
    'verdict', `sanity at t = ${sanityT.toFixed(2)} s (stretch: length / rest, cloth stretch edges or tet edges)`];
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
 * W/N needs the native rows, which only Node's report has.
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
  const sixty = row(TARGET_SCENE_ID, 'pbd-threaded-2');
  if (sixty) {
    console.log(`  60 fps: cloth ${TARGET_PASSES_SIZE}² at ${TARGET_PASSES} passes, pbd-wasm threaded on 2 threads ` +
      `${sixty.ms.median.toFixed(2)} ms per frame (target <= 16.7 ms)`);
  }
}

/**
 * Cost growth: per config, ms/frame against constraints over the cloth sizes of one gravity setting (and over the
 * cube sizes), as the
 * log-log slope between neighbouring sizes (1 = linear; above 1 = worse than linear, e.g. falling out of a cache).
 */
function printGrowth(results) {
  const groups = [['cloth', (id) => /^cloth\d+$/.test(id)], ['cloth g=0', (id) => /^cloth\d+rest$/.test(id)],
    ['cube', (id) => /^cube\d+$/.test(id)]];
  const configIds = [...new Set(results.map((r) => r.configId))];
  const lines = [];
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
      const perConstraint = rows.map((r) => `${(1e6 * r.ms.median / (r.constraints * r.substeps)).toFixed(1)}`).join(' / ');
      lines.push(`  ${label.padEnd(10)} ${id.padEnd(15)} ${steps.join('   ')}   (ns per projection: ${perConstraint})`);
    }
  }
  if (!lines.length) return;
  console.log('\ncost growth: log-log slope of ms/frame against constraints between neighbouring sizes (1 = linear)');
  for (const l of lines) console.log(l);
}

function printMemory(results, memory) {
  for (const m of memory) {
    console.log(`memory (pbd-wasm single, malloc'd bytes): ${m.particleBytes.toFixed(0)} B per particle (${m.n}² bare ` +
      `particles), ${m.constraintBytes.toFixed(0)} B per constraint (the ${m.n}x${m.n} cloth minus its particles)`);
  }
  const peaks = [...new Set(results.filter((r) => r.wasmHeapBytes).map((r) => r.configId))].map((id) =>
    `${id} ${(Math.max(...results.filter((r) => r.configId === id).map((r) => r.wasmHeapBytes ?? 0)) / 2 ** 20).toFixed(0)} MB`);
  if (peaks.length) console.log(`peak wasm memory over this run (memory.buffer size, never shrinks): ${peaks.join(', ')}`);
}

const JOLT_MT_TEXT = {
  node: "wasm-mt simd * = its multithread build (SIMD, pthreads) with the\nNode pthread check in its glue fixed " +
    '(jolt-node.mjs)',
  chromium: 'wasm-mt simd = its multithread build (SIMD, pthreads), glue as\npublished',
};

/**
 * One environment's report, after its header: table, targets, growth, memory, footnote.
 * results: that environment's rows (runBench, native rows filled in Node); memory: runBench's memory figures.
 */
export function printReport({ environment, results, memory, warmup }) {
  console.log('');
  printTable(results, warmup * DT);
  printTargets(results);
  printGrowth(results);
  printMemory(results, memory);
  console.log(`\njolt wasm = jolt-physics' official single-threaded build (no SIMD); ${JOLT_MT_TEXT[environment]}; ` +
    "thr = threads incl. the caller.\nown constr. = the cloth built with Jolt's CreateConstraints instead of pbd-wasm's " +
    "constraint set. 'x jolt-wasm' = jolt wasm's median / this\nrow's median (same environment, same run); in " +
    "parentheses when either row 'blew up' or is 'unstable' (its timing then\nmeasures a broken motion). verdict " +
    "(sanity.mjs): 'stretched' = 1 % of the edges > 1.1x rest or one > 1.5x; 'unstable' =\nan edge > 3x or " +
    "< 0.25x; 'blew up' = NaN or a particle > 10 m away.");
}

/** Every row of every environment as CSV, one line per row. */
export function toCsv(results) {
  const cols = ['environment', 'scene', 'engine', 'build', 'simd', 'threads', 'particles', 'constraints', 'ms_median',
    'ms_min', 'ms_max', 'mproj_per_s', 'world_bytes', 'wasm_heap_bytes',
    'sanity_t_s', 'verdict', 'verdict_at_end', 'lowest_y', 'free_corner_y', 'centroid_y', 'volume_ratio',
    'p99_stretch', 'max_stretch', 'min_stretch', 'error'];
  const out = [cols.join(',')];
  for (const r of results) {
    const s = r.sanity ?? {};
    out.push([r.environment, r.scene, r.engine, r.config.build + (r.config.patched ? ' (patched glue)' : ''),
      r.config.simd, r.threads,
      r.particles ?? '', r.constraints ?? '', r.ms?.median ?? '', r.ms?.min ?? '', r.ms?.max ?? '',
      r.mprojPerS ?? '', r.worldBytes ?? '', r.wasmHeapBytes ?? '', s.t ?? '',
      s.verdict ?? '', r.verdictAtEnd ?? '', s.lowestY ?? '', s.freeCornerY ?? '', s.centroidY ?? '', s.volumeRatio ?? '',
      s.p99Stretch ?? '', s.maxStretch ?? '', s.minStretch ?? '', r.error ? `"${r.error.replace(/"/g, '""')}"` : ''].join(','));
  }
  return out.join('\n') + '\n';
}

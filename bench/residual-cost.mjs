// What the convergence record (World.setRecordResiduals) costs a gallery scene, in Node, with the panel's starting
// values. Two measures:
// - default: the scene built twice in one process, one copy recording residuals (as the demo does, to plot them) and
//   one not, stepped at 1/60 s with their frames alternated (so that the machine's drifting speed moves both alike).
//   Prints, per run, the mean ms per frame of each copy from 2 s to 10 s of simulated time and the ratio; the median
//   ratio over the runs last. --every=N: the recording copy records one step in N, as the demo's worker does
//   (web/demo/residual-record.js: 4).
// - --comb: whether the demo's solver-ms plot shows the record's own time. One copy stepped as the worker steps it
//   (one step in --every records, default 4), 12 s, the first 2 s left out; prints the median wall ms of the
//   recording steps against the others, then the same less the ms the record reports for its sweeps
//   (StepTimings.residualMs), which is what the worker plots. A ratio near 1 in the second pair: no comb.
// Usage: node bench/residual-cost.mjs [scene=solvers] [--runs=3] [--variant=single|threaded] [--every=N] [--comb]
import { createPbd } from '../web/lib/index.js';
import { RECORD_EVERY, ResidualRecord } from '../web/demo/residual-record.js';
import { DT, galleryAssets, galleryScene } from './scenes.mjs';
import { median } from './solvers/metrics.mjs';

const args = process.argv.slice(2);
const option = (name, fallback) => args.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback;
const scene = args.find((a) => !a.startsWith('--')) ?? 'solvers';
const comb = args.includes('--comb');
const runs = Number(option('runs', 3));
const every = Number(option('every', comb ? RECORD_EVERY : 1));
const pbd = await createPbd({ variant: option('variant', 'single') });
const assets = await galleryAssets(pbd);

/** --comb: wall ms of the recording steps against the others, with and without the record's own sweeps. */
async function combRun() {
  const built = await galleryScene(pbd, scene, assets);
  const record = new ResidualRecord(built.worlds, every);
  const rows = { on: [[], []], off: [[], []] };
  for (let f = 0; f < 720; f++) {
    const t0 = performance.now();
    const on = record.beforeStep();
    for (const { world } of built.worlds) world.step(DT);
    const wall = performance.now() - t0;
    const rec = record.afterStep();
    if (f >= 120) { rows[on ? 'on' : 'off'][0].push(wall); rows[on ? 'on' : 'off'][1].push(wall - rec); }
  }
  for (const { world } of built.worlds) world.delete();
  const pair = ([on, off]) => `${median(on).toFixed(3)} vs ${median(off).toFixed(3)} ` +
    `(ratio ${(median(on) / median(off)).toFixed(3)})`;
  console.log(`${scene}: wasm ${pbd.variant}, one step in ${every} records; wall ms, recording steps ` +
    `${pair([rows.on[0], rows.off[0]])}; less the record: ${pair([rows.on[1], rows.off[1]])}`);
}

async function build(record) {
  const built = await galleryScene(pbd, scene, assets);
  for (const { world } of built.worlds) {
    world.setRecordResiduals(record);
    world.setStepTimings(true);
  }
  return built;
}

/** Default: the paired copies with and without the record, `runs` times; the median ratio. */
async function costRuns() {
  const ratios = [];
  console.log(`${scene}: wasm ${pbd.variant}; ms per frame (all worlds), 2-10 s, with / without the residual record` +
    (every > 1 ? ` (one step in ${every})` : ''));
  for (let run = 1; run <= runs; ++run) {
    const copies = [await build(true), await build(false)];
    const record = every > 1 ? new ResidualRecord(copies[0].worlds, every) : null;
    const sums = [0, 0];
    for (let frame = 1; frame <= 600; ++frame) {
      record?.beforeStep();
      copies.forEach((built, k) => {
        for (const { world } of built.worlds) {
          world.step(DT);
          if (frame > 120) sums[k] += world.lastStepTimings().totalMs;
        }
      });
    }
    for (const built of copies) for (const { world } of built.worlds) world.delete();
    const [on, off] = sums.map((s) => s / 480);
    ratios.push(on / off);
    console.log(`run ${run}: ${on.toFixed(2)} / ${off.toFixed(2)} ms, ratio ${(on / off).toFixed(3)}`);
  }
  ratios.sort((a, b) => a - b);
  console.log(`median ratio ${ratios[Math.floor(ratios.length / 2)].toFixed(3)}`);
}

await (comb ? combRun() : costRuns());
pbd.terminate?.();

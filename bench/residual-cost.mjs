// What the convergence record costs a gallery scene: the scene built twice in one Node process with the panel's
// starting values, one copy recording residuals (as the demo does, to plot them) and one not, stepped at 1/60 s with
// their frames alternated (so that the machine's drifting speed moves both alike). Prints, per run, the mean ms per
// frame of each copy from 2 s to 10 s of simulated time and the ratio; the median ratio over the runs last.
// --every=N: the recording copy records one step in N, as the demo's worker does (web/demo/residual-record.js: 4).
// Usage: node bench/residual-cost.mjs [scene=solvers] [--runs=3] [--variant=single|threaded] [--every=1]
import { createPbd } from '../web/lib/index.js';
import { ResidualRecord } from '../web/demo/residual-record.js';
import { applyParams, buildScene, createAssets, sceneParams } from '../web/demo/scene-host.js';

const args = process.argv.slice(2);
const option = (name, fallback) => args.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback;
const scene = args.find((a) => !a.startsWith('--')) ?? 'solvers';
const runs = Number(option('runs', 3));
const every = Number(option('every', 1));
const pbd = await createPbd({ variant: option('variant', 'single') });
const assets = createAssets(pbd);

function build(record) {
  const built = buildScene(pbd, scene, assets);
  applyParams(built, sceneParams(scene));
  for (const { world } of built.worlds) {
    world.setRecordResiduals(record);
    world.setStepTimings(true);
  }
  return built;
}

const ratios = [];
console.log(`${scene}: wasm ${pbd.variant}; ms per frame (all worlds), 2-10 s, with / without the residual record` +
  (every > 1 ? ` (one step in ${every})` : ''));
for (let run = 1; run <= runs; ++run) {
  const copies = [build(true), build(false)];
  const record = every > 1 ? new ResidualRecord(copies[0].worlds, every) : null;
  const sums = [0, 0];
  for (let frame = 1; frame <= 600; ++frame) {
    record?.beforeStep();
    copies.forEach((built, k) => {
      for (const { world } of built.worlds) {
        world.step(1 / 60);
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
pbd.terminate?.();

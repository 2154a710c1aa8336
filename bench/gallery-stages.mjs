// Where a gallery scene's step time goes, stage by stage (World.lastStepTimings), in Node: the demo's scene built
// with the panel's starting values (web/demo/scene-host.js), stepped at 1/60 s for 10 s of simulated time, the
// stage means printed per 2 s window. The render-free counterpart of gallery-bench.mjs, steadier on a shared machine.
// The residual record follows the demo's worker: one step in four (web/demo/residual-record.js).
// Usage: node bench/gallery-stages.mjs [scene=fold] [variant=single|threaded] [threads=1] [window=120] [frames=600]
// window: frames per printed mean (a short one shows the peaks: fold's while it falls and folds); frames: how many.
import { createPbd } from '../web/lib/index.js';
import { ResidualRecord } from '../web/demo/residual-record.js';
import { DT, galleryScene } from './scenes.mjs';

const [scene = 'fold', variant = 'single', threads = '1', window = '120', frames = '600'] = process.argv.slice(2);
const pbd = await createPbd({ variant, ...(variant === 'threaded' ? { threads: Number(threads) } : {}) });
const built = await galleryScene(pbd, scene);
for (const { world } of built.worlds) world.setStepTimings(true);
console.log(`${scene}: wasm ${pbd.variant}, ${pbd.threads} thread(s); ms per 1/60 s frame, all worlds, mean per window`);
const WINDOW = Number(window);
let sum = {};
const record = new ResidualRecord(built.worlds);
for (let frame = 1; frame <= Number(frames); frame++) {
  record.beforeStep();
  for (const { world } of built.worlds) {
    world.step(DT);
    for (const [stage, ms] of Object.entries(world.lastStepTimings())) sum[stage] = (sum[stage] ?? 0) + ms;
  }
  if (frame % WINDOW === 0) {
    const row = Object.entries(sum).map(([stage, ms]) => `${stage.replace(/Ms$/, '')} ${(ms / WINDOW).toFixed(2)}`);
    const digits = WINDOW % 60 ? 2 : 0;
    console.log(`t ${((frame - WINDOW) / 60).toFixed(digits)}-${(frame / 60).toFixed(digits)} s: ${row.join(', ')}`);
    sum = {};
  }
}
for (const { world } of built.worlds) world.delete();
pbd.terminate?.();

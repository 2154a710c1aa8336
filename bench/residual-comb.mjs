// The demo's solver-ms plot with and without the residual record's own time: a gallery scene stepped as the worker
// steps it (web/demo/residual-record.js: one step in four records), 12 s at 1/60 s, the first 2 s left out; prints the
// median wall ms of the recording steps against the others, then the same less the ms the record reports for its
// sweeps (StepTimings.residualMs), which is what the worker plots. A ratio near 1 in the second pair: no comb.
// Usage: node bench/residual-comb.mjs [scene=showcase]
import { createPbd } from '../web/lib/index.js';
import { ResidualRecord } from '../web/demo/residual-record.js';
import { applyParams, buildScene, createAssets, sceneParams } from '../web/demo/scene-host.js';
const scene = process.argv[2] ?? 'showcase';
const pbd = await createPbd({ variant: 'single' });
const built = buildScene(pbd, scene, createAssets(pbd));
applyParams(built, sceneParams(scene));
const record = new ResidualRecord(built.worlds);
const rows = { on: [[], []], off: [[], []] };
for (let f = 0; f < 720; f++) {
  const t0 = performance.now();
  const on = record.beforeStep();
  for (const { world } of built.worlds) world.step(1 / 60);
  const wall = performance.now() - t0;
  const rec = record.afterStep();
  if (f >= 120) { rows[on ? 'on' : 'off'][0].push(wall); rows[on ? 'on' : 'off'][1].push(wall - rec); }
}
const med = (a) => { const s = [...a].sort((x, y) => x - y); return s[s.length >> 1]; };
const pair = ([on, off]) => `${med(on).toFixed(3)} vs ${med(off).toFixed(3)} (ratio ${(med(on) / med(off)).toFixed(3)})`;
console.log(`${scene}: wall ms, recording steps ${pair([rows.on[0], rows.off[0]])}; ` +
  `less the record: ${pair([rows.on[1], rows.off[1]])}`);

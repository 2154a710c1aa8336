// Issue #4's HPBD target over a grid of hierarchy settings: on the 128² hanging cloth of `npm run bench:solvers`
// (same warm state, one step of one substep), the fewest fine iterations (in steps of 5, up to 100) with which
// hierarchical PBD reaches the stretch residual that Gauss-Seidel reaches after 100, for every levels x coarse
// iterations pair (k = 2 parents), and that step's ms. "-" = not reached within 100.
//
//   node bench/hpbd-sweep.mjs [--scene=cloth128] [--levels=3,5,8] [--coarse=8,32,128,256]
// The target needs many coarse iterations and levels: 8 x 256 meets it (25 fine iterations, 4x, in half of
// Gauss-Seidel's time); 5 x 128 needs 40, and at 8 or fewer coarse iterations none reaches it within 100.
import { createPbd } from '../web/lib/index.js';
import { stretchAfterStep, warmState } from './solvers/measure.mjs';
import { SCENES } from './solvers/scenes.mjs';

const REFERENCE_ITERATIONS = 100;
const WARMUP_FRAMES = 30;  // as bench/solvers.mjs

function option(name, fallback) {
  const arg = process.argv.find((a) => a.startsWith(`--${name}=`));
  return arg ? arg.slice(name.length + 3) : fallback;
}
const list = (text) => text.split(',').map(Number);

const sceneName = option('scene', 'cloth128');
const levels = list(option('levels', '3,5,8'));
const coarse = list(option('coarse', '8,32,128,256'));
const pbd = await createPbd({ variant: 'single' });
const scene = SCENES[sceneName];
if (!scene) throw new Error(`--scene: unknown scene "${sceneName}" (one of ${Object.keys(SCENES).join(', ')})`);
const warm = warmState(pbd, scene, WARMUP_FRAMES);
const gs = stretchAfterStep(pbd, warm, 'gauss-seidel', REFERENCE_ITERATIONS);
console.log(`${scene.label}: Gauss-Seidel's stretch residual after ${REFERENCE_ITERATIONS} iterations ` +
  `${gs.rms.toExponential(3)} m (${gs.ms.toFixed(1)} ms, single-threaded wasm)`);
console.log('fine iterations to reach it (ms of that step), HPBD with k = 2 parents; target: <= 25 (4x fewer)');
console.log(['levels \\ coarse it.', ...coarse.map(String)].map((s) => s.padStart(12)).join(''));
for (const l of levels) {
  const row = [String(l)];
  for (const c of coarse) {
    let hit = null;
    for (let n = 5; n <= REFERENCE_ITERATIONS && !hit; n += 5) {
      const h = stretchAfterStep(pbd, warm, 'hierarchical', n, { levels: l, parents: 2, coarseIterations: c });
      if (h.rms <= gs.rms) hit = { n, ms: h.ms };
    }
    row.push(hit ? `${hit.n} (${hit.ms.toFixed(1)})` : '-');
  }
  console.log(row.map((s) => s.padStart(12)).join(''));
}

// Resting drapes under each distance sweep (World.setDistanceSweep; issue 51 item 4). Every cloth of the grid is
// dropped flat onto a sphere (r 0.5 m on the ground) or a box (0.6 m cube on the ground), or dropped tilted 45° about
// x onto the ground, its top edge 0.75 m up (it lands on its lower edge and folds over): n² particles, 1 m, default
// strengths, dropped 0.05 or 0.3 m, centred or 0.1 m off centre (half of that in z), rigid damping 0.1 per frame,
// everything else at its defaults (10 substeps × 1 iteration). A drape is at rest once every particle stays under
// 1 cm/s; it counts as at rest by t if it is from then on to the end of the run. Also the step's cost on the 64² drape
// on the box, the median ms a frame over its frames. The single-threaded build, through the public API.
// Usage: node bench/drape-rest.mjs [--seconds=8] [--rigid=0.1] [--sizes=16,24,32,48,64] [--lib=web/lib]
// Prints one markdown table, a row per sweep.
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';
import { median } from './peers/measure.mjs';
import { maxSpeed } from '../tests/js/shared/physics/common.js';

const args = Object.fromEntries(process.argv.slice(2).map((a) => /^--(\w+)(?:=(.*))?$/.exec(a)?.slice(1) ?? [a, '']));
const seconds = Number(args.seconds ?? 8), rigid = Number(args.rigid ?? 0.1);
const sizes = (args.sizes ?? '16,24,32,48,64').split(',').map(Number);
const { createPbd } = await import(pathToFileURL(resolve(args.lib ?? 'web/lib', 'index.js')).href);
const pbd = await createPbd({ variant: 'single' });
const AT_REST = 0.01;  // m/s
const colliders = {
  sphere: { collider: { shape: 'sphere', position: [0, 0.5, 0], radius: 0.5 }, top: 1 },
  box: { collider: { shape: 'box', position: [0, 0.3, 0], halfExtents: [0.3, 0.3, 0.3] }, top: 0.6 },
  ground: { collider: null, top: 0.75, axisV: [0, -1, 1] },
};

/** One drape: when it came to rest for good (s, or null), its speed at 3 s and at the end (m/s), ms per frame. */
function drape(sweep, shape, n, drop, offset) {
  const world = new pbd.World();
  try {
    world.setGround({ enabled: true });
    world.setRigidDamping(rigid);
    world.setDistanceSweep(sweep);
    const { collider, top, axisV } = colliders[shape];
    if (collider) world.addCollider(collider);
    const cloth = world.addCloth({ columns: n, rows: n, spacing: 1 / (n - 1), ...(axisV && { axisV }),
      origin: [-0.5 + offset, top + drop, -0.5 + offset / 2] });
    const frames = Math.round(seconds * 60), times = [];
    let restSince = null, atThree = 0, last = 0;
    for (let f = 1; f <= frames; ++f) {
      const t = performance.now();
      world.step(1 / 60);
      times.push(performance.now() - t);
      last = maxSpeed(world, cloth.firstParticle, cloth.particleCount);
      if (f > 165 && f <= 180) atThree = Math.max(atThree, last);
      if (last >= AT_REST) restSince = null;
      else if (restSince === null) restSince = f / 60;
    }
    return { restSince, atThree, last, ms: median(times) };
  } finally {
    world.delete();
  }
}

const rows = [];
for (const sweep of ['forward', 'symmetric']) {
  const results = [];
  for (const shape of Object.keys(colliders)) {
    for (const n of sizes) {
      for (const drop of [0.05, 0.3]) {
        for (const offset of [0, 0.1]) results.push({ shape, n, ...drape(sweep, shape, n, drop, offset) });
      }
    }
  }
  const moving = results.filter((r) => r.restSince === null);
  const settled = results.filter((r) => r.restSince !== null).map((r) => r.restSince);
  const cost = results.find((r) => r.shape === 'box' && r.n === Math.max(...sizes))?.ms;
  rows.push(`| ${sweep} | ${results.filter((r) => r.atThree < AT_REST).length} of ${results.length} | ` +
    `${settled.length} of ${results.length} | ${settled.length ? Math.max(...settled).toFixed(2) : '–'} | ` +
    `${moving.length ? moving.map((r) => `${r.shape} ${r.n}²: ${r.last.toExponential(1)}`).join(', ') : 'none'} | ` +
    `${cost?.toFixed(2)} |`);
}
console.log(`| distance sweep | at rest at 3 s | at rest by ${seconds} s | slowest to rest (s) | ` +
  `moving at ${seconds} s (m/s) | ${Math.max(...sizes)}² box drape, ms a frame |`);
console.log('|---|---|---|---|---|---|');
for (const r of rows) console.log(r);
pbd.terminate();

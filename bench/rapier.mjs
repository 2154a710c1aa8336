// `npm run bench:rapier`: what two-way coupling with Rapier (pbd-wasm/rapier) costs. A 32² trampoline (1.55 m, 1 kg,
// its border pinned, 10 substeps × 4 iterations) carries B Rapier boxes of 0.5 kg (0.2 m) resting in a grid on it; per
// frame of 1/60 s, three ways:
//   coupled   coupling.step(): the PBD step with the boxes as dynamic twins, the impulses, Rapier's step;
//   kinematic the same PBD world with the boxes as kinematic colliders where they rest (world.step alone);
//   rapier    Rapier's step alone, the boxes resting on a fixed floor instead.
// The coupling's own cost is coupled − kinematic − rapier, given per box and per particle–box contact (the contacts
// of the last substep, World.contactCount). Each config: WARMUP frames, then RUNS runs of FRAMES frames, interleaved;
// the median of the runs' ms per frame, with the fastest and slowest. Node, 1 solver thread.
//
// Options: --boxes=1,4,16 --runs=N (7) --frames=N (60) --warmup=N (240)
import RAPIER from '@dimforge/rapier3d-compat';
import { createPbd } from '../web/lib/index.js';
import { coupleRapier } from '../web/lib/rapier.js';
import { timeInterleaved } from './interleaved-runs.mjs';

const arg = (name, fallback) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback;
const BOXES = arg('boxes', '1,4,16').split(',').map(Number);
const RUNS = Number(arg('runs', 7)), FRAMES = Number(arg('frames', 60)), WARMUP = Number(arg('warmup', 240));
const N = 32, SPACING = 0.05, HALF = 0.1, MASS = 0.5, DENSITY = MASS / (8 * HALF ** 3);

await RAPIER.init();
const pbd = await createPbd({ threads: 1 });

/** Box k's place in a grid over the trampoline's middle, at height y. */
function boxAt(k, count, y) {
  const side = Math.ceil(Math.sqrt(count)), pitch = 0.3;
  return [(k % side - (side - 1) / 2) * pitch, y, (Math.floor(k / side) - (side - 1) / 2) * pitch];
}

function trampoline() {
  const world = new pbd.World();
  world.setSubsteps(10);
  world.setIterations(4);
  world.setLinearDamping(1);
  const border = [];
  for (let i = 0; i < N; ++i) border.push(i, N * (N - 1) + i, N * i, N * i + N - 1);
  world.addCloth({ columns: N, rows: N, spacing: SPACING, origin: [-(N - 1) * SPACING / 2, 1, -(N - 1) * SPACING / 2],
    mass: 1, pinned: [...new Set(border)] });
  return world;
}

function rapierBoxes(count, y, withFloor) {
  const rapierWorld = new RAPIER.World({ x: 0, y: -9.81, z: 0 });
  rapierWorld.timestep = 1 / 60;
  if (withFloor) {
    const floor = rapierWorld.createRigidBody(RAPIER.RigidBodyDesc.fixed().setTranslation(0, y - HALF - 0.5, 0));
    rapierWorld.createCollider(RAPIER.ColliderDesc.cuboid(5, 0.5, 5), floor);
  }
  const bodies = [];
  for (let k = 0; k < count; ++k) {
    const [x, by, z] = boxAt(k, count, y);
    const body = rapierWorld.createRigidBody(RAPIER.RigidBodyDesc.dynamic().setTranslation(x, by, z));
    rapierWorld.createCollider(RAPIER.ColliderDesc.cuboid(HALF, HALF, HALF).setDensity(DENSITY), body);
    bodies.push(body);
  }
  return { rapierWorld, bodies };
}

/** The three configs for `count` boxes, each { name, frame(), contacts(), dispose() }, warmed up. */
function configs(count) {
  const coupledWorld = trampoline();
  const coupled = rapierBoxes(count, 1 + HALF + 0.02, false);
  const coupling = coupleRapier(coupledWorld, coupled.rapierWorld);
  for (const body of coupled.bodies) coupling.addBody(body);
  for (let f = 0; f < WARMUP; ++f) coupling.step();   // the boxes come to rest in the cloth
  const resting = coupled.bodies.every((b) => b.translation().y > 0.5 && Math.hypot(...Object.values(b.linvel())) < 0.1);
  const kinematicWorld = trampoline();
  for (const body of coupled.bodies) {   // where the coupled boxes rest, as kinematic colliders
    const t = body.translation(), r = body.rotation();
    kinematicWorld.addCollider({ shape: 'box', halfExtents: [HALF, HALF, HALF], position: [t.x, t.y, t.z],
      rotation: [r.x, r.y, r.z, r.w] });
  }
  for (let f = 0; f < WARMUP; ++f) kinematicWorld.step(1 / 60);
  const alone = rapierBoxes(count, 1 + HALF, true);
  for (let f = 0; f < WARMUP; ++f) alone.rapierWorld.step();
  return [
    { name: 'coupled', frame: () => coupling.step(), contacts: () => coupledWorld.contactCount(), resting,
      dispose: () => { coupledWorld.delete(); coupled.rapierWorld.free(); } },
    { name: 'kinematic', frame: () => kinematicWorld.step(1 / 60), contacts: () => kinematicWorld.contactCount(),
      dispose: () => kinematicWorld.delete() },
    { name: 'rapier', frame: () => alone.rapierWorld.step(), contacts: () => 0, dispose: () => alone.rapierWorld.free() },
  ];
}

const rows = [];
for (const count of BOXES) {
  const list = configs(count);
  const timed = timeInterleaved(list, { runs: RUNS, frames: FRAMES });
  const ms = Object.fromEntries(list.map((c, k) => [c.name, timed[k].ms]));
  const spread = Object.fromEntries(list.map((c, k) => [c.name, [timed[k].fastest, timed[k].slowest]]));
  const contacts = list[0].contacts();
  const own = ms.coupled - ms.kinematic - ms.rapier;
  rows.push({ count, ms, spread, contacts, own, resting: list[0].resting });
  list.forEach((c) => c.dispose());
}

const f = (x, d = 3) => x.toFixed(d);
console.log(`trampoline ${N}² (1 kg, border pinned), 10 substeps × 4 iterations, ${MASS} kg boxes of ${2 * HALF} m; ` +
  `Node ${process.version}, 1 solver thread; ms per frame, median of ${RUNS} runs of ${FRAMES} frames [fastest, slowest]`);
console.log('| boxes | at rest in the cloth | coupled | kinematic colliders (PBD alone) | Rapier alone | coupling itself | per box | contacts | per contact |');
console.log('|---|---|---|---|---|---|---|---|---|');
for (const r of rows) {
  const cell = (name) => `${f(r.ms[name])} [${f(r.spread[name][0])}, ${f(r.spread[name][1])}]`;
  console.log(`| ${r.count} | ${r.resting ? 'yes' : 'NO'} | ${cell('coupled')} | ${cell('kinematic')} | ${cell('rapier')} | ${f(r.own)} | ` +
    `${f(1000 * r.own / r.count, 1)} µs | ${r.contacts} | ${r.contacts ? f(1000 * r.own / r.contacts, 2) + ' µs' : '-'} |`);
}
pbd.terminate();

// Set-up cost through the public API, beside Jolt Physics' set-up of the same scene in the same run (issue 52).
// Cloth (default): an n² cloth's particles (mass 1, none pinned) and its stretch and shear (clothDef) by addParticle
// and addDistanceConstraint, one call each, then its first step; the same by addParticles and addDistanceConstraints,
// one call each. Jolt (npm jolt-physics, 'wasm' build, bench/peers/jolt-scenes.mjs): the SoftBodySharedSettings of the
// same vertices and edges (CalculateEdgeLengths), Optimize, CreateSoftBody + AddBody, then its first Step.
// --tets: the tet cube of n³ cells instead (cubeDef): our addSoftBody against Jolt's bench:peers cube settings
// (vertices, faces, edges, volumes), Optimize, body. Each run builds ours then Jolt's; neither world creation is timed.
// Usage: node bench/setup-cost.mjs [--sizes=32,64,128,256] [--tets [--cells=10,16,24]] [--lib=web/lib] [--runs=3]
// Prints one markdown table, median of the runs (performance.now()), ms.
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';
import { CLOTH_GROUND_Y, CUBE_DENSITY, clothDef, cubeDef } from './scenes.mjs';
import { loadJoltNode } from './peers/jolt-node.mjs';
import { addEdges, addSoftBody, addVertices, createSystem, cubeSharedSettings } from './peers/jolt-scenes.mjs';

const args = Object.fromEntries(process.argv.slice(2).map((a) => /^--(\w+)(?:=(.*))?$/.exec(a)?.slice(1) ?? [a, '']));
const tets = 'tets' in args;
const sizes = (tets ? args.cells ?? '10,16,24' : args.sizes ?? '32,64,128,256').split(',').map(Number);
const runs = Number(args.runs ?? 3);
const { createPbd } = await import(pathToFileURL(resolve(args.lib ?? 'web/lib', 'index.js')).href);
const pbd = await createPbd({ variant: 'single' });
const J = await loadJoltNode('wasm');
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const count = (x) => x.toLocaleString('en-US');

/** Jolt: shared settings (made by settings()), Optimize, CreateSoftBody + AddBody, first Step; ms each. */
function jolt(def, settings, floorY) {
  const sys = createSystem(J, { threads: 1, floorY });
  const t0 = performance.now();
  const shared = settings();
  const t1 = performance.now();
  shared.Optimize();
  const t2 = performance.now();
  const h = addSoftBody(J, sys, shared, def);
  const t3 = performance.now();
  h.step();
  const t4 = performance.now();
  const constraints = h.constraintCount;
  h.delete();
  return { settings: t1 - t0, optimize: t2 - t1, body: t3 - t2, step: t4 - t3, setup: t3 - t0, constraints };
}

function cloth(n) {
  const { positions: xyz, stretch, shear } = clothDef(n);   // the benchmarks' hanging cloth, its pins left free
  const edges = [...stretch, ...shear];
  const pairs = Uint32Array.from(edges.flat());
  const world = new pbd.World();
  const t0 = performance.now();
  for (let i = 0; i < n * n; i++) world.addParticle(xyz[3 * i], xyz[3 * i + 1], xyz[3 * i + 2], 1);
  const t1 = performance.now();
  for (let k = 0; k < pairs.length; k += 2) world.addDistanceConstraint(pairs[k], pairs[k + 1]);
  const t2 = performance.now();
  world.step(1 / 60);
  const t3 = performance.now();
  const constraints = world.distanceConstraintCount();
  world.delete();
  const bulk = new pbd.World();
  const t4 = performance.now();
  bulk.addParticles(xyz);
  bulk.addDistanceConstraints(pairs);
  const t5 = performance.now();
  bulk.delete();
  const inverseMasses = new Float32Array(n * n).fill(1);
  const j = jolt({ positions: xyz, inverseMasses }, () => {
    const shared = new J.SoftBodySharedSettings();
    addVertices(J, shared, xyz, inverseMasses);
    addEdges(J, shared, edges, 0);
    shared.CalculateEdgeLengths();
    return shared;
  }, CLOTH_GROUND_Y);
  if (j.constraints !== constraints) throw new Error(`cloth ${n}: Jolt has ${j.constraints} edges, ours ${constraints}`);
  return { particles: t1 - t0, constraints: t2 - t1, step: t3 - t2, count: constraints, bulk: t5 - t4, jolt: j };
}

function cube(cells) {
  const def = cubeDef(cells);
  const world = new pbd.World();
  const t0 = performance.now();
  const body = world.addSoftBody({ positions: def.positions, tets: def.tets, density: CUBE_DENSITY, material: 'volume',
    edgeConstraints: true, edges: { compliance: 0 }, volume: { compliance: 0 } });   // scenes.mjs softCube's options
  const t1 = performance.now();
  world.step(1 / 60);
  const t2 = performance.now();
  world.delete();
  if (body.constraintCount !== def.edges.length || body.volumeCount !== def.tets.length / 4) {
    throw new Error(`cube ${cells}: addSoftBody's constraints differ from cubeDef's`);
  }
  const j = jolt(def, () => cubeSharedSettings(J, def), 0);
  return { particles: def.positions.length / 3, tets: def.tets.length / 4, edges: def.edges.length, add: t1 - t0,
    step: t2 - t1, jolt: j };
}

const ms = (xs) => { const m = median(xs); return m < 10 ? m.toFixed(1) : m.toFixed(0); };
const joltCells = (r) => ['settings', 'optimize', 'body', 'setup', 'step'].map((k) => ms(r.map((x) => x.jolt[k])));
const JOLT_HEAD = 'Jolt SoftBodySharedSettings, ms | Jolt Optimize, ms | Jolt CreateSoftBody + AddBody, ms | ' +
  'Jolt set-up total, ms | Jolt first Step, ms';
if (tets) {
  console.log(`| cube | particles | tets | edges | addSoftBody, ms | first step, ms | ${JOLT_HEAD} | ` +
    'addSoftBody / Jolt set-up |');
  console.log(`|${'---|'.repeat(12)}`);
  for (const cells of sizes) {
    const r = Array.from({ length: runs }, () => cube(cells));
    const ratio = median(r.map((x) => x.add)) / median(r.map((x) => x.jolt.setup));
    console.log(`| ${cells}³ | ${count(r[0].particles)} | ${count(r[0].tets)} | ${count(r[0].edges)} | ` +
      `${ms(r.map((x) => x.add))} | ${ms(r.map((x) => x.step))} | ${joltCells(r).join(' | ')} | ${ratio.toPrecision(2)} |`);
  }
} else {
  console.log('| cloth | particles | constraints | addParticle × n², ms | addDistanceConstraint × each, ms | ' +
    `first step, ms | addParticles + addDistanceConstraints, ms | ${JOLT_HEAD} | bulk / Jolt set-up |`);
  console.log(`|${'---|'.repeat(13)}`);
  for (const n of sizes) {
    const r = Array.from({ length: runs }, () => cloth(n));
    const ratio = median(r.map((x) => x.bulk)) / median(r.map((x) => x.jolt.setup));
    console.log(`| ${n}² | ${count(n * n)} | ${count(r[0].count)} | ${ms(r.map((x) => x.particles))} | ` +
      `${ms(r.map((x) => x.constraints))} | ${ms(r.map((x) => x.step))} | ${ms(r.map((x) => x.bulk))} | ` +
      `${joltCells(r).join(' | ')} | ${ratio.toPrecision(2)} |`);
  }
}

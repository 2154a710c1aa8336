// Set-up cost through the public API: an n² cloth's particles by addParticle and its stretch and shear constraints by
// addDistanceConstraint, one call each, then its first step; and the same constraints in one addDistanceConstraints
// call. Linear in n² since the arrays grow geometrically (src/base/growth.h); before, every call copied every array.
// Usage: node bench/setup-cost.mjs [--sizes=32,64,128,256] [--lib=web/lib] [--runs=3]   (median of the runs, ms)
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';
import { clothDef } from './scenes.mjs';

const args = Object.fromEntries(process.argv.slice(2).map((a) => /^--(\w+)=(.*)$/.exec(a)?.slice(1) ?? [a, '']));
const sizes = (args.sizes ?? '32,64,128,256').split(',').map(Number);
const runs = Number(args.runs ?? 3);
const { createPbd } = await import(pathToFileURL(resolve(args.lib ?? 'web/lib', 'index.js')).href);
const pbd = await createPbd({ variant: 'single' });
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

function once(n) {
  const { positions: xyz, stretch, shear } = clothDef(n);   // the benchmarks' hanging cloth, its pins left free
  const pairs = Uint32Array.from([...stretch, ...shear].flat());
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
  bulk.addParticles(xyz);
  const t4 = performance.now();
  bulk.addDistanceConstraints(pairs);
  const t5 = performance.now();
  bulk.delete();
  return { particles: t1 - t0, constraints: t2 - t1, step: t3 - t2, count: constraints, bulk: t5 - t4 };
}

console.log('| cloth | particles | addParticle × n², ms | constraints | addDistanceConstraint × each, ms | ' +
  'addDistanceConstraints once, ms | first step, ms |');
console.log('|---|---|---|---|---|---|---|');
for (const n of sizes) {
  const r = Array.from({ length: runs }, () => once(n));
  console.log(`| ${n}² | ${n * n} | ${median(r.map((x) => x.particles)).toFixed(0)} | ${r[0].count} | ` +
    `${median(r.map((x) => x.constraints)).toFixed(0)} | ${median(r.map((x) => x.bulk)).toFixed(0)} | ` +
    `${median(r.map((x) => x.step)).toFixed(0)} |`);
}

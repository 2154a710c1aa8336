// Set-up cost through the public API: an n² cloth's particles by addParticle and its stretch and shear constraints by
// addDistanceConstraint, one call each, then its first step; and the same constraints in one addDistanceConstraints
// call. Linear in n² since the arrays grow geometrically (src/base/growth.h); before, every call copied every array.
// Usage: node bench/setup-cost.mjs [--sizes=32,64,128,256] [--lib=web/lib] [--runs=3]   (median of the runs, ms)
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';

const args = Object.fromEntries(process.argv.slice(2).map((a) => /^--(\w+)=(.*)$/.exec(a)?.slice(1) ?? [a, '']));
const sizes = (args.sizes ?? '32,64,128,256').split(',').map(Number);
const runs = Number(args.runs ?? 3);
const { createPbd } = await import(pathToFileURL(resolve(args.lib ?? 'web/lib', 'index.js')).href);
const pbd = await createPbd({ variant: 'single' });
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

/** The cloth's stretch and shear edges as index pairs: along rows, along columns, both diagonals of every cell. */
function clothPairs(n) {
  const id = (r, c) => r * n + c, pairs = [];
  for (let r = 0; r < n; r++) {
    for (let c = 0; c < n; c++) {
      if (c + 1 < n) pairs.push(id(r, c), id(r, c + 1));
      if (r + 1 < n) pairs.push(id(r, c), id(r + 1, c));
      if (c + 1 < n && r + 1 < n) pairs.push(id(r, c), id(r + 1, c + 1), id(r, c + 1), id(r + 1, c));
    }
  }
  return Uint32Array.from(pairs);
}

function once(n) {
  const world = new pbd.World();
  const t0 = performance.now();
  for (let r = 0; r < n; r++) for (let c = 0; c < n; c++) world.addParticle(c / (n - 1), 1, r / (n - 1), 1);
  const t1 = performance.now();
  const pairs = clothPairs(n);
  for (let k = 0; k < pairs.length; k += 2) world.addDistanceConstraint(pairs[k], pairs[k + 1]);
  const t2 = performance.now();
  world.step(1 / 60);
  const t3 = performance.now();
  const constraints = world.distanceConstraintCount();
  world.delete();
  const bulk = new pbd.World();
  const xyz = new Float32Array(3 * n * n);
  for (let k = 0; k < n * n; k++) xyz.set([(k % n) / (n - 1), 1, Math.floor(k / n) / (n - 1)], 3 * k);
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

// world.addDistanceConstraints: a mesh's edges in one call give the world that one call per edge gives (same
// snapshot bytes before and after stepping), take plain arrays and typed arrays, and rest lengths or the current ones.
// Its bad input is in docs/validation.md (validation-table.test.js).
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createPbd } from '../../../web/lib/index.js';

let pbd;
beforeAll(async () => { pbd = await createPbd({ threads: 2 }); });
afterAll(() => pbd?.terminate());

const N = 12;
const bytes = (world) => Array.from(world.saveSnapshot());

/** An N x N grid of particles at 1 m, two corners pinned; returns the world and its grid edges as pairs. */
function grid() {
  const world = new pbd.World();
  const xyz = [], w = [], pairs = [];
  for (let r = 0; r < N; r++) for (let c = 0; c < N; c++) xyz.push(c * 0.05, 1, r * 0.05), w.push(1);
  w[0] = w[N - 1] = 0;
  world.addParticles(xyz, w);
  for (let r = 0; r < N; r++) {
    for (let c = 0; c < N; c++) {
      if (c + 1 < N) pairs.push(r * N + c, r * N + c + 1);
      if (r + 1 < N) pairs.push(r * N + c, (r + 1) * N + c);
    }
  }
  return { world, pairs };
}

it.each([
  ['a plain array, current lengths', (pairs) => pairs, undefined],
  ['a Uint32Array, given lengths and a strength', (pairs) => Uint32Array.from(pairs), 0.045],
])('%s: one call is one call per edge', (_, form, rest) => {
  const bulk = grid(), single = grid();
  const strength = rest ? { compliance: 1e-5 } : {};
  const restLengths = rest ? new Float32Array(bulk.pairs.length / 2).fill(rest) : undefined;
  expect(bulk.world.addDistanceConstraints(form(bulk.pairs), rest ? { ...strength, restLengths } : undefined)).toBe(0);
  for (let k = 0; k < single.pairs.length; k += 2) {
    single.world.addDistanceConstraint(single.pairs[k], single.pairs[k + 1], rest ? { ...strength, restLength: rest } : undefined);
  }
  expect(bulk.world.distanceConstraintCount()).toBe(bulk.pairs.length / 2);
  expect(bytes(bulk.world)).toEqual(bytes(single.world));
  for (let f = 0; f < 20; f++) { bulk.world.step(1 / 60); single.world.step(1 / 60); }
  expect(bytes(bulk.world)).toEqual(bytes(single.world));
  bulk.world.delete();
  single.world.delete();
});

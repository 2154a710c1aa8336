// world.addTetVolumeConstraints: a soft body of one's own topology (addParticles, addTetVolumeConstraints) steps to
// the bits of the body addSoftBody builds from the same tets, from a plain array or a Uint32Array, with a strength;
// and the tets do hold it up. Its bad input is in docs/validation.md (validation-table.test.js).
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createPbd } from '../../../web/lib/index.js';
import { cubeDef, signedTetVolume } from '../../../bench/scenes.mjs';

let pbd;
beforeAll(async () => { pbd = await createPbd({ threads: 2 }); });
afterAll(() => pbd?.terminate());

const FRAMES = 60;

/** The tets' total signed volume at the world's positions, m³. */
function volume(world, tets) {
  const x = world.positions();
  let sum = 0;
  for (let t = 0; t < tets.length; t += 4) sum += signedTetVolume(x, tets[t], tets[t + 1], tets[t + 2], tets[t + 3]);
  return sum;
}

it.each([
  ['a plain array, rigid', (tets) => Array.from(tets), undefined, 0.01],
  ['a Uint32Array, compliant', (tets) => Uint32Array.from(tets), { compliance: 1e-7, stiffness: 1 }, 0.1],
])('%s: the same bits as addSoftBody, and the volume kept through a fall', (_, form, strength, volumeTolerance) => {
  const def = cubeDef(3);   // a 1 m cube of 3³ cells of 6 tets, dropped 0.5 m onto the ground
  const built = new pbd.World();
  const body = built.addSoftBody({ positions: def.positions, tets: def.tets, density: 1000, material: 'volume',
    edgeConstraints: false, ...(strength ? { volume: strength } : {}) });
  const own = new pbd.World();
  own.addParticles(built.positions().slice(), built.inverseMasses().slice());
  expect(own.addTetVolumeConstraints(form(def.tets), strength)).toBe(0);
  expect(own.tetVolumeCount()).toBe(built.tetVolumeCount());
  expect(own.tetVolumeCount()).toBe(def.tets.length / 4);
  const loose = new pbd.World();   // the same particles without their tets
  loose.addParticles(built.positions().slice(), built.inverseMasses().slice());
  const rest = volume(own, def.tets);
  expect(rest).toBeCloseTo(1, 5);
  for (let f = 0; f < FRAMES; f++) for (const w of [built, own, loose]) w.step(1 / 60);
  expect(Array.from(own.positions())).toEqual(Array.from(built.positions()));
  expect(body.particleCount).toBe(def.positions.length / 3);
  // Volume alone is no shape (the cube slumps), but the tets keep its volume; the loose particles lie flat.
  expect(Math.abs(volume(own, def.tets) / rest - 1)).toBeLessThan(volumeTolerance);
  expect(Math.abs(volume(loose, def.tets))).toBeLessThan(0.2);
  for (const w of [built, own, loose]) w.delete();
});

it('numbers the constraints of each call after the last, as tetVolumeCount counts them', () => {
  const def = cubeDef(1);
  const world = new pbd.World();
  world.addParticles(def.positions);
  expect(world.addTetVolumeConstraints(def.tets)).toBe(0);
  expect(world.addTetVolumeConstraints(def.tets, { compliance: 1e-6 })).toBe(def.tets.length / 4);
  expect(world.getConstraintStrength('tet-volume', def.tets.length / 4))
    .toEqual({ compliance: Math.fround(1e-6), stiffness: 1 });   // float32, as stored
  world.delete();
});

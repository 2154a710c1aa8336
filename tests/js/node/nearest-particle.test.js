// nearestParticle (pbd-wasm/three): the one search behind PbdBodyMesh.nearestParticle and the demo's pointer.
import { expect, it } from 'vitest';
import { nearestParticle } from '../../../web/lib/three.js';

const range = (firstParticle, particleCount) => ({ firstParticle, particleCount });
const xyz = new Float32Array([0, 0, 0, 1, 0, 0, 2, 0, 0, 3, 0, 0]);   // particles 0..3 on the x axis

it('finds the nearest particle inside the range only', () => {
  expect(nearestParticle(xyz, range(0, 4), { x: 2.2, y: 0.5, z: 0 })).toBe(2);
  expect(nearestParticle(xyz, range(0, 2), { x: 2.2, y: 0, z: 0 })).toBe(1);  // 2 and 3 are outside [0, 2)
  expect(nearestParticle(xyz, range(3, 1), { x: -5, y: 0, z: 0 })).toBe(3);   // absolute indices, not range-relative
});

it('returns -1 for an empty range and the first of equally near particles', () => {
  expect(nearestParticle(xyz, range(1, 0), { x: 1, y: 0, z: 0 })).toBe(-1);
  expect(nearestParticle(xyz, range(0, 4), { x: 0.5, y: 0, z: 0 })).toBe(0);
});

// nearestParticle (pbd-wasm/three): the one search behind PbdBodyMesh.nearestParticle and the demo's pointer.
import { expect, it } from 'vitest';
import { nearestParticle } from '../../../web/lib/three.js';
import { InvalidArgumentError } from '../../../web/lib/index.js';

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

it('names the argument and the value of bad input', () => {
  const at = { x: 0, y: 0, z: 0 };
  const cases = [
    [[null, range(0, 4), at], 'nearestParticle: positions must be an array of xyz per particle (got null)'],
    [[xyz, undefined, at], 'nearestParticle: range must be { firstParticle, particleCount } (got undefined)'],
    [[xyz, range(-1, 2), at], 'nearestParticle: range.firstParticle must be an integer >= 0 (got -1)'],
    [[xyz, range(0, 1.5), at], 'nearestParticle: range.particleCount must be an integer >= 0 (got 1.5)'],
    [[xyz, { firstParticle: 0, particlecount: 4 }, at],
      'nearestParticle: range.particleCount must be an integer >= 0 (got undefined)'],
    [[xyz, range(2, 3), at],
      'nearestParticle: range must lie within the 4 particles of positions (got firstParticle 2, particleCount 3)'],
    [[xyz, range(0, 4), { x: 0, y: NaN, z: 0 }], 'nearestParticle: point.y must be a finite number (got NaN)'],
    [[xyz, range(0, 4), null], 'nearestParticle: point.x must be a finite number (got undefined)'],
    [[xyz, range(0, 4), [1, 2, 3]], 'nearestParticle: point.x must be a finite number (got undefined)'],
  ];
  for (const [args, message] of cases) {
    expect(() => nearestParticle(...args)).toThrow(InvalidArgumentError);
    expect(() => nearestParticle(...args)).toThrow(message);
  }
  expect(nearestParticle(xyz, range(2, 2), at)).toBe(2);   // a range ending at the last particle is within
  expect(nearestParticle([], range(0, 0), at)).toBe(-1);    // a plain array, empty
});

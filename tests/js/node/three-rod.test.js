// pbd-wasm/three's PbdRod: a tube round a Cosserat rod's particles whose rings turn with its frames. Each ring lies at
// the rod's radius round its particle, across the rod; the stripe (the ring's first vertex) lies along the frame's
// first axis, so twisting the rod's free end winds it; dispose({ removeBody: true }) takes the rod out of the world.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPbd } from '../../../web/lib/index.js';
import { PbdRod } from '../../../web/lib/three.js';

let pbd;
beforeAll(async () => { pbd = await createPbd({ threads: 2 }); });
afterAll(() => pbd?.terminate());

const n = 10, radius = 0.02;
const points = Array.from({ length: 3 * (n + 1) }, (_, k) => (k % 3 === 0 ? k / 3 / n : k % 3 === 1 ? 1 : 0));

/** Ring i's vertex s as [x, y, z]. */
const vertex = (rod, i, s) => Array.from(rod.geometry.attributes.position.array.subarray(3 * (i * rod.sides + s), 3 * (i * rod.sides + s) + 3));

describe('PbdRod', () => {
  it('lays each ring round its particle, across the rod, at its radius', () => {
    const world = new pbd.World();
    const rod = new PbdRod(world, { points, radius, pinned: [0, 1], clampedSegments: [0] });
    for (let f = 0; f < 30; f++) world.step(1 / 60);
    rod.update();
    const x = world.positions();
    for (let i = 0; i <= n; i++) {
      const centre = [0, 1, 2].map((c) => x[3 * i + c]);
      const next = Math.min(n, i + 1), prev = Math.max(0, i - 1);
      const axis = [0, 1, 2].map((c) => x[3 * next + c] - x[3 * prev + c]);
      const axisLength = Math.hypot(...axis);
      for (let s = 0; s < rod.sides; s++) {
        const offset = vertex(rod, i, s).map((v, c) => v - centre[c]);
        expect(Math.hypot(...offset)).toBeCloseTo(radius, 5);
        expect(Math.abs(offset.reduce((sum, o, c) => sum + (o * axis[c]) / axisLength, 0))).toBeLessThan(0.15 * radius);
      }
    }
    rod.dispose();
  });

  it('winds its stripe as the rod twists', () => {
    const world = new pbd.World();
    world.setGravity([0, 0, 0]);
    const rod = new PbdRod(world, { points, radius, pinned: [0, 1, n - 1, n], clampedSegments: [0, n - 1] });
    const stripeAngle = (i) => {
      const [, y, z] = vertex(rod, i, 0);
      return Math.atan2(z, y - 1);
    };
    const before = stripeAngle(n);
    const turn = Math.PI / 2, last = rod.body.firstSegment + n - 1;
    const q = Array.from(world.segmentOrientations().subarray(4 * last, 4 * last + 4));
    // The last frame turned by a quarter turn about x (the rod's axis), then the rod settles round it.
    const [s, c] = [Math.sin(turn / 2), Math.cos(turn / 2)];
    world.setSegmentOrientation(last, [c * q[0] + s * q[3], c * q[1] - s * q[2], c * q[2] + s * q[1], c * q[3] - s * q[0]]);
    for (let f = 0; f < 60; f++) world.step(1 / 60);
    rod.update();
    const wound = (stripeAngle(n) - before + 3 * Math.PI) % (2 * Math.PI) - Math.PI;
    expect(Math.abs(wound)).toBeCloseTo(turn, 2);
    expect(Math.abs(stripeAngle(0) - before)).toBeLessThan(1e-3);   // the clamped end keeps its stripe
    rod.dispose({ removeBody: true });
    expect(world.segmentCount()).toBe(0);
    expect(world.particleCount()).toBe(0);
  });
});

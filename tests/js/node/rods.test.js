// Cosserat rods from JS: World.addRod, the segments' zero-copy views and setters. A rod clamped at one end twists by
// T ℓ / (G J) under an end torque and a cantilever sinks by q L⁴ / (8 E I) under its weight (the native suite checks
// both under every solver); removeBody keeps the records' firstSegment; bad input names the function, the argument
// and the value.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvalidArgumentError, createPbd } from '../../../web/lib/index.js';

let pbd;
beforeAll(async () => { pbd = await createPbd({ threads: 2 }); });
afterAll(() => pbd?.terminate());

/** A straight rod of `segments` segments from `origin` along +x, `length` long. */
function straightPoints(segments, length, origin = [0, 1, 0]) {
  const points = [];
  for (let k = 0; k <= segments; k++) points.push(origin[0] + (length * k) / segments, origin[1], origin[2]);
  return points;
}

/** The clamped start of a rod: its first two particles pinned, its first segment held. */
const clampedStart = { pinned: [0, 1], clampedSegments: [0] };

describe('Cosserat rods', () => {
  it('twist by T ℓ / (G J) under an end torque', () => {
    const world = new pbd.World();
    world.setGravity([0, 0, 0]);
    world.setLinearDamping(20);
    const n = 20, radius = 0.01, shearModulus = 4e7, torque = 0.05;
    const rod = world.addRod({ points: straightPoints(n, 1), radius, youngsModulus: 1e8, shearModulus, ...clampedStart });
    expect(rod.segmentCount).toBe(n);
    expect(world.segmentCount()).toBe(n);
    const last = rod.firstSegment + n - 1;
    const rest = Array.from(world.segmentOrientations().subarray(4 * last, 4 * last + 4));
    world.setSegmentTorque(last, [torque, 0, 0]);
    for (let f = 0; f < 180; f++) world.step(1 / 60);
    const q = world.segmentOrientations().subarray(4 * last, 4 * last + 4);
    // The turn q · rest⁻¹ about x (rest turns z onto x, so its conjugate's product keeps the twist in x).
    const [rx, ry, rz, rw] = [-rest[0], -rest[1], -rest[2], rest[3]];
    const tx = q[3] * rx + q[0] * rw + q[1] * rz - q[2] * ry, tw = q[3] * rw - q[0] * rx - q[1] * ry - q[2] * rz;
    const twist = 2 * Math.atan2(tx, tw);
    const expected = (torque * (n - 1) / n) / (shearModulus * Math.PI * radius ** 4 / 2);
    expect(Math.abs(twist - expected)).toBeLessThan(0.02 * expected);
    world.delete();
  });

  it('a cantilever sinks by q L⁴ / (8 E I) under its own weight', () => {
    const world = new pbd.World();
    world.setGround({ enabled: false });
    world.setSubsteps(20);
    world.setIterations(2);
    world.setLinearDamping(8);
    const n = 40, radius = 0.01, youngsModulus = 5e9;
    world.addRod({ points: straightPoints(n, 1), radius, density: 1000, youngsModulus, shearModulus: 2e9, ...clampedStart });
    for (let f = 0; f < 300; f++) world.step(1 / 60);
    const load = 1000 * Math.PI * radius ** 2 * 9.81, length = 1 - 0.5 / n;
    const expected = (load * length ** 4) / (8 * youngsModulus * (Math.PI * radius ** 4) / 4);
    const tip = 1 - world.positions()[3 * n + 1];
    expect(Math.abs(tip - expected)).toBeLessThan(0.05 * expected);
    world.delete();
  });

  it('gives each segment a unit frame along it, and keeps the records through removeBody', () => {
    const world = new pbd.World();
    const first = world.addRod({ points: [0, 1, 0, 0.1, 1.1, 0, 0.2, 1.1, 0.1] });
    const second = world.addRod({ points: straightPoints(5, 0.5, [0, 2, 0]) });
    expect([first.firstSegment, first.segmentCount, second.firstSegment, second.segmentCount]).toEqual([0, 2, 2, 5]);
    const q = world.segmentOrientations(), x = world.positions();
    expect(q.length).toBe(4 * 7);
    expect(world.segmentAngularVelocities().length).toBe(3 * 7);
    for (let k = 0; k < 2; k++) {
      const [qx, qy, qz, qw] = q.subarray(4 * k, 4 * k + 4);
      expect(Math.hypot(qx, qy, qz, qw)).toBeCloseTo(1, 6);
      const d3 = [2 * (qx * qz + qw * qy), 2 * (qy * qz - qw * qx), qw * qw - qx * qx - qy * qy + qz * qz];
      const along = [0, 1, 2].map((a) => x[3 * (k + 1) + a] - x[3 * k + a]);
      const length = Math.hypot(...along);
      for (let a = 0; a < 3; a++) expect(d3[a]).toBeCloseTo(along[a] / length, 6);
    }
    const removal = world.removeBody(first);
    expect(Array.from(removal.segmentRuns)).toEqual([0, 2]);
    expect([second.firstSegment, second.segmentCount, world.segmentCount()]).toEqual([0, 5, 5]);
    world.setSegmentAngularVelocity(second.firstSegment + 1, [0, 0, 2]);
    expect(Array.from(world.segmentAngularVelocities().subarray(3, 6))).toEqual([0, 0, 2]);
    world.delete();
  });

  it('refuses bad input by name and value, and adds nothing', () => {
    const world = new pbd.World();
    expect(() => world.addRod({ points: [0, 0, 0] })).toThrow(InvalidArgumentError);
    expect(() => world.addRod({ points: [0, 0, 0] })).toThrow(/addRod.*points/);
    expect(() => world.addRod({ points: [0, 0, 0, 0, 0, 0] })).toThrow(/addRod: points\[3\]/);
    expect(() => world.addRod({ points: straightPoints(3, 1), radius: -1 })).toThrow(/addRod: radius.*-1/);
    expect(() => world.addRod({ points: straightPoints(3, 1), radious: 0.1 })).toThrow(/radious/);
    expect(() => world.addRod({ points: straightPoints(3, 1), clampedSegments: [3] })).toThrow(/clampedSegments\[0\]/);
    expect(world.particleCount()).toBe(0);
    world.addRod({ points: straightPoints(3, 1) });
    expect(() => world.setSegmentTorque(3, [1, 0, 0])).toThrow(/setSegmentTorque: segment.*3/);
    expect(() => world.setSegmentOrientation(0, [0, 0, 0, 0])).toThrow(/setSegmentOrientation: rotation/);
    expect(() => world.setSegmentAngularVelocity(0, [NaN, 0, 0])).toThrow(/setSegmentAngularVelocity: omega/);
    world.delete();
  });
});

describe('the gallery scene', () => {
  it('twists its wire out of the plane it hangs in, which it keeps untwisted', async () => {
    const { default: scene } = await import('../../../web/demo/scenes/rods.js');
    /** The wire's extent along z (across its plane) after 8 s, with or without the scene's twisting. */
    const across = (twist) => {
      const worlds = [];
      const built = scene.build({ pbd, addWorld: () => { const w = new pbd.World(); worlds.push(w); return w; } });
      const [world] = worlds;
      const wire = built.drawables[0];
      for (let f = 0; f < 8 * 60; f++) {
        if (twist) built.onFrame(f / 60);
        world.step(1 / 60);
      }
      const x = world.positions();
      let lo = Infinity, hi = -Infinity;
      for (let i = 0; i < wire.particleCount; i++) {
        lo = Math.min(lo, x[3 * (wire.firstParticle + i) + 2]), hi = Math.max(hi, x[3 * (wire.firstParticle + i) + 2]);
      }
      for (const w of worlds) w.delete();
      return hi - lo;
    };
    expect(across(false)).toBeLessThan(1e-3);
    expect(across(true)).toBeGreaterThan(0.05);
  });
});

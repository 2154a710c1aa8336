// Triangle-mesh colliders from JS: three.js-style positions/indices arrays, a particle that falls on a mesh floor
// and rests on it (continuous collision, so even a fast one cannot pass through), and bad input named by argument.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPbd } from '../../../web/lib/index.js';

let pbd;
beforeAll(async () => { pbd = await createPbd({ threads: 2 }); });
afterAll(() => pbd?.terminate());

// A 2 x 2 m floor at y = 0, two triangles facing up (+Y), as a three.js PlaneGeometry rotated flat would give.
const floor = () => ({
  positions: new Float32Array([-1, 0, -1, 1, 0, -1, 1, 0, 1, -1, 0, 1]),
  indices: new Uint16Array([0, 2, 1, 0, 3, 2]),
});

describe('mesh colliders', () => {
  it('a particle falls on a mesh floor and rests on it', () => {
    const world = new pbd.World();
    world.setGround({ enabled: false });
    const thickness = 0.01;
    const k = world.addCollider({ shape: 'mesh', ...floor(), thickness, position: [0, 0.5, 0] });
    expect(k).toBe(0);
    expect(world.colliderCount()).toBe(1);
    const i = world.addParticle(0.2, 1.5, -0.1, 1);
    for (let f = 0; f < 120; f++) world.step(1 / 60);
    const p = world.positions(), v = world.velocities();
    expect(p[3 * i + 1]).toBeCloseTo(0.5 + thickness, 4);  // on the floor, its thickness above it
    expect(Math.abs(v[3 * i + 1])).toBeLessThan(1e-3);
    // 200 m/s downwards: one frame would carry it 3 m through the floor without continuous collision.
    world.setVelocity(i, 0, -200, 0);
    world.step(1 / 60);
    expect(world.positions()[3 * i + 1]).toBeCloseTo(0.5 + thickness, 4);
    world.delete();
  });

  it('bad indices throw an Error naming indices, and the world is unchanged', () => {
    const world = new pbd.World();
    const { positions } = floor();
    expect(() => world.addCollider({ shape: 'mesh', positions, indices: new Uint32Array([0, 1, 7]) }))
      .toThrow(/addCollider: indices\[2\] is out of range/);
    expect(() => world.addCollider({ shape: 'mesh', positions, indices: [0, 1, 1] }))
      .toThrow(/indices\[0\.\.2\] repeats a vertex/);
    expect(() => world.addCollider({ shape: 'mesh', positions, indices: [0, -1, 2] })).toThrow(/indices\[1\]/);
    expect(() => world.addCollider({ shape: 'mesh', positions })).toThrow(/indices/);
    expect(() => world.addCollider({ shape: 'mesh', positions: new Float32Array([0, NaN, 0, 1, 0, 0, 0, 0, 1]),
      indices: [0, 1, 2] })).toThrow(/positions\[1\] must be finite/);
    expect(world.colliderCount()).toBe(0);
    const k = world.addCollider({ shape: 'mesh', ...floor() });
    expect(() => world.setColliderMeshVertices(k, new Float32Array(6))).toThrow(/setColliderMeshVertices: positions/);
    world.delete();
  });
});

// Static and dynamic friction from JS (issue #5): staticFriction on the ground, colliders and body materials is set,
// read back where there is a getter, refused when bad (naming it, world unchanged), and acts: a patch on an incline
// (gravity tilted) with μ_s > tan θ > μ_d stays put, and slides at g (sin θ − μ_d cos θ) when μ_s < tan θ; the same
// on a tilted plane collider (shape 'plane') under plain gravity.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPbd } from '../../../web/lib/index.js';

let pbd;
beforeAll(async () => { pbd = await createPbd({ threads: 2 }); });
afterAll(() => pbd?.terminate());

const theta = Math.PI / 6;
const g = 9.81;

/** A 4x4 patch lying on the ground under gravity tilted by θ: a block on an incline sliding along +x. */
function incline(ground) {
  const world = new pbd.World();
  world.setSubsteps(20);
  world.setGravity(g * Math.sin(theta), -g * Math.cos(theta), 0);
  world.setGround(ground);
  world.addCloth({ columns: 4, rows: 4, spacing: 0.05, origin: [0, 0, 0], axisU: [1, 0, 0], axisV: [0, 0, 1] });
  return world;
}

/** The mean over particles of values (xyz each) along `axis` (default +x). */
function meanX(values, axis = [1, 0, 0]) {
  let sum = 0;
  for (let i = 0; i < values.length; i += 3) sum += values[i] * axis[0] + values[i + 1] * axis[1] + values[i + 2] * axis[2];
  return sum / (values.length / 3);
}

describe('static and dynamic friction', () => {
  it('defaults to -1 (same as friction), and set values read back', () => {
    const world = new pbd.World();
    expect(world.getGround().staticFriction).toBe(-1);
    world.setGround({ friction: 0.3, staticFriction: 0.8 });
    expect(world.getGround().friction).toBeCloseTo(0.3, 6);
    expect(world.getGround().staticFriction).toBeCloseTo(0.8, 6);
    world.addCloth({ columns: 2, rows: 2, contact: { staticFriction: 1.5 } });
    expect(world.getBodyMaterial(0)).toEqual({ friction: -1, staticFriction: 1.5, restitution: 0, thickness: 0 });
    world.setBodyMaterial(0, { friction: 0.2 });  // absent fields keep their values
    expect(world.getBodyMaterial(0).staticFriction).toBe(1.5);
    expect(world.addCollider({ shape: 'box', friction: 0.9, staticFriction: 0.1 })).toBe(0);  // μ_s < μ_d accepted
    world.delete();
  });

  it('bad values throw naming staticFriction and change nothing', () => {
    const world = new pbd.World();
    world.addCloth({ columns: 2, rows: 2 });
    expect(() => world.setGround({ staticFriction: -0.5 }))
      .toThrow(/setGround: ground.staticFriction must be >= 0 \(or -1: same as friction\)/);
    expect(() => world.setGround({ staticFriction: NaN })).toThrow(/setGround: ground.staticFriction must be finite/);
    expect(world.getGround().staticFriction).toBe(-1);
    expect(() => world.addCollider({ shape: 'sphere', staticFriction: Infinity }))
      .toThrow(/addCollider: staticFriction must be finite/);
    expect(world.colliderCount()).toBe(0);
    expect(() => world.setBodyMaterial(0, { staticFriction: -2 })).toThrow(/setBodyMaterial: staticFriction must be >= 0/);
    expect(() => world.setBodyMaterial(0, { staticFriction: 'high' })).toThrow(/setBodyMaterial: staticFriction must be a number/);
    expect(world.getBodyMaterial(0).staticFriction).toBe(-1);
    world.delete();
  });

  /**
   * Steps `held` for 2 s and expects it not to move along `axis` (< 0.1 mm); steps `sliding` from its start-up and
   * expects it to gain g (sin θ − 0.3 cos θ) along `axis` in the next second, within 5% (μ_d = 0.3).
   */
  function expectHeldAndSliding(held, sliding, axis) {
    const start = meanX(held.positions(), axis);
    for (let f = 0; f < 120; f++) held.step(1 / 60);
    expect(Math.abs(meanX(held.positions(), axis) - start)).toBeLessThan(1e-4);
    for (let f = 0; f < 30; f++) sliding.step(1 / 60);
    const v0 = meanX(sliding.velocities(), axis);
    for (let f = 0; f < 60; f++) sliding.step(1 / 60);
    const expected = g * (Math.sin(theta) - 0.3 * Math.cos(theta));
    expect(Math.abs(meanX(sliding.velocities(), axis) - v0 - expected)).toBeLessThan(0.05 * expected);
    held.delete();
    sliding.delete();
  }

  it('μ_s > tan θ > μ_d holds the patch; μ_s < tan θ slides it at g (sin θ − μ_d cos θ)', () => {
    expectHeldAndSliding(incline({ friction: 0.3, staticFriction: 0.8 }), incline({ friction: 0.3, staticFriction: 0.5 }));
  });

  it("a 'plane' collider tilted by θ is an incline: held when μ_s > tan θ, sliding at g (sin θ − μ_d cos θ) otherwise", () => {
    // The plane's normal is its local +Y; rotated by -θ about z it faces (sin θ, cos θ, 0) and slopes down along
    // (cos θ, -sin θ, 0).
    const down = [Math.cos(theta), -Math.sin(theta), 0];
    const rotation = [0, 0, Math.sin(-theta / 2), Math.cos(-theta / 2)];
    const onPlane = (friction, staticFriction) => {
      const world = new pbd.World();
      world.setSubsteps(20);
      world.setGround({ enabled: false });
      expect(world.addCollider({ shape: 'plane', position: [0, 1, 0], rotation, friction, staticFriction })).toBe(0);
      world.addCloth({ columns: 4, rows: 4, spacing: 0.05, origin: [0, 1, -0.075], axisU: down, axisV: [0, 0, 1] });
      return world;
    };
    expectHeldAndSliding(onPlane(0.3, 0.8), onPlane(0.3, 0.3), down);
  });
});

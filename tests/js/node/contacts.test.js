// Contacts from JS: per-body friction, restitution and thickness (the combination rule μ = sqrt(μ_body μ_surface),
// e = max(e_body, e_surface), t = t_body + t_surface checked through the physics), the velocity clamp, and the zero-copy contacts() view of
// the last substep (points on the surface, unit normals), all through the wasm build.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPbd } from '../../../web/lib/index.js';

let pbd;
beforeAll(async () => { pbd = await createPbd({ threads: 2 }); });
afterAll(() => pbd?.terminate());

/** First apex height after the first bounce. */
function reboundApex(world, particle) {
  let apex = -Infinity, bounced = false;
  for (let f = 0; f < 120; f++) {
    world.step(1 / 60);
    const vy = world.velocities()[3 * particle + 1];
    if (vy > 0) bounced = true;
    if (bounced && vy <= 0) break;
    if (bounced) apex = Math.max(apex, world.positions()[3 * particle + 1]);
  }
  return apex;
}

describe('contact materials', () => {
  it('a body with restitution e rebounds to e² h on a ground that does not bounce', () => {
    const world = new pbd.World();
    world.setSubsteps(40);
    world.setGround({ restitution: 0, friction: 0 });
    const rope = world.addRope({ segments: 1, start: [0, 2, 0], end: [0.1, 2, 0], contact: { restitution: 0.6 } });
    expect(rope.body).toBe(0);
    expect(world.bodyCount()).toBe(1);
    expect(world.getBodyMaterial(0)).toEqual({ friction: -1, staticFriction: -1, restitution: expect.closeTo(0.6, 6), thickness: 0 });
    const apex = reboundApex(world, 0);
    expect(Math.abs(apex - 0.36 * 2)).toBeLessThan(0.05 * 0.36 * 2);
    world.delete();
  });

  it('body friction slides a particle the Coulomb distance v²/(2 μ g) with μ = sqrt(μ_body μ_ground)', () => {
    const world = new pbd.World();
    world.setSubsteps(20);
    world.setGround({ friction: 1 });
    const i = world.addParticle(0, 0, 0, 1);
    world.setVelocity(i, 3, 0, 0);
    world.setBodyMaterial(world.bodyCount() - 1, { friction: 0.16 });  // μ = sqrt(0.16 · 1) = 0.4
    expect(world.getBodyMaterial(0).friction).toBeCloseTo(0.16, 6);
    for (let f = 0; f < 120; f++) world.step(1 / 60);
    const expected = 9 / (2 * 0.4 * 9.81);
    expect(Math.abs(world.velocities()[0])).toBeLessThan(1e-6);
    expect(Math.abs(world.positions()[0] - expected)).toBeLessThan(0.03 * expected);
    world.delete();
  });

  it("a body's contact thickness adds to the surface's: it rests that much higher, and bad values are refused", () => {
    const world = new pbd.World();
    world.setSubsteps(10);
    world.setGround({ thickness: 0.01 });
    world.addCollider({ shape: 'plane', position: [0, 1, 0], thickness: 0.02 });  // an infinite floor at y = 1
    world.addRope({ segments: 1, start: [0, 1.3, 0], end: [0.1, 1.3, 0], contact: { thickness: 0.05 } });
    world.addRope({ segments: 1, start: [0, 1.3, 1], end: [0.1, 1.3, 1] });
    world.setBodyMaterial(1, { thickness: 0.03 });
    expect(world.getBodyMaterial(0).thickness).toBeCloseTo(0.05, 6);
    // Both rest on the plane at its 0.02 plus their own margin (the ground's 0.01 is a metre below).
    for (let f = 0; f < 90; f++) world.step(1 / 60);
    const y = world.positions();
    expect(y[1]).toBeCloseTo(1 + 0.02 + 0.05, 4);
    expect(y[7]).toBeCloseTo(1 + 0.02 + 0.03, 4);
    expect(() => world.setBodyMaterial(0, { thickness: -0.1 })).toThrow(/setBodyMaterial: thickness must be >= 0/);
    expect(() => world.addRope({ segments: 1, contact: { thickness: NaN } })).toThrow(/addRope: contact.thickness must be finite/);
    expect(world.getBodyMaterial(0).thickness).toBeCloseTo(0.05, 6);
    expect(world.bodyCount()).toBe(2);
    world.delete();
  });

  it('bad materials throw naming the argument and change nothing', () => {
    const world = new pbd.World();
    world.addCloth({ columns: 2, rows: 2, contact: { friction: 0.3 } });
    expect(() => world.setBodyMaterial(0, { restitution: 2 })).toThrow(/setBodyMaterial: restitution must be in/);
    expect(() => world.setBodyMaterial(3, {})).toThrow(/setBodyMaterial: body is out of range/);
    expect(() => world.addRope({ segments: 2, contact: { friction: -3 } })).toThrow(/addRope: contact.friction/);
    expect(world.getBodyMaterial(0).friction).toBeCloseTo(0.3, 6);
    expect(world.getBodyMaterial(0).restitution).toBe(0);
    expect(world.bodyCount()).toBe(1);
    world.delete();
  });
});

describe('velocity clamp', () => {
  it('a 100 m/s particle moves at most maxSpeed · dt per step, and the limit is validated', () => {
    const world = new pbd.World();
    world.setGravity(0, 0, 0);
    world.setGround({ enabled: false });
    world.setMaxSpeed(5);
    expect(world.getMaxSpeed()).toBe(5);
    const i = world.addParticle(0, 0, 0, 1);
    world.setVelocity(i, 0, 0, 100);
    for (let f = 0; f < 10; f++) {
      const before = world.positions()[2];
      world.step(1 / 60);
      expect(world.positions()[2] - before).toBeCloseTo(5 / 60, 5);
    }
    expect(() => world.setMaxSpeed(-1)).toThrow(/setMaxSpeed: maxSpeed must be >= 0/);
    expect(world.getMaxSpeed()).toBe(5);
    world.delete();
  });
});

describe('contacts view', () => {
  it('a particle resting on a sphere: points on the surface, radial unit normals, a live view', () => {
    const world = new pbd.World();
    world.setGround({ enabled: false });
    const centre = [0.2, 0.1, -0.3], radius = 0.5, thickness = 0.02;
    world.addCollider({ shape: 'sphere', position: centre, radius, thickness, friction: 1 });
    world.addParticle(centre[0] + 0.05, centre[1] + radius + 0.2, centre[2] + 0.02, 1);
    for (let f = 0; f < 120; f++) world.step(1 / 60);
    const n = world.contactCount();
    expect(n).toBeGreaterThanOrEqual(1);
    const view = world.contacts();
    expect(view).toBeInstanceOf(Float32Array);
    expect(view.length).toBe(6 * n);
    for (let k = 0; k < n; k++) {
      const d = [0, 1, 2].map((a) => view[6 * k + a] - centre[a]);
      const len = Math.hypot(...d);
      expect(len).toBeCloseTo(radius, 5);
      for (let a = 0; a < 3; a++) expect(view[6 * k + 3 + a]).toBeCloseTo(d[a] / len, 5);
    }
    // Ground contacts too: the particle's foot on the plane, normal +Y.
    const ground = new pbd.World();
    ground.setGround({ height: -0.3 });
    ground.addParticle(0.4, 0.5, 0.7, 1);
    for (let f = 0; f < 60; f++) ground.step(1 / 60);
    expect(Array.from(ground.contacts())).toEqual([
      expect.closeTo(0.4, 6), expect.closeTo(-0.3, 6), expect.closeTo(0.7, 6), 0, 1, 0]);
    ground.delete();
    world.delete();
  });
});

// Two-way coupling with Rapier (pbd-wasm/rapier) and the impulses it is built on (World.colliderImpulse), through the
// wasm build and the real @dimforge/rapier3d-compat. The oracle is Newton's third law: with no gravity, a cloth and
// a Rapier box that collide exchange momentum, so the total of both engines is kept.
import RAPIER from '@dimforge/rapier3d-compat';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvalidArgumentError, createPbd } from '../../../web/lib/index.js';
import { coupleRapier } from '../../../web/lib/rapier.js';
import { applyParams, buildScene, disposeScene, sceneParams } from '../../../web/demo/scene-host.js';

let pbd;
beforeAll(async () => {
  await RAPIER.init();
  pbd = await createPbd({ threads: 2 });
});
afterAll(() => pbd?.terminate());

const cross = (a, b) => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const xyz = (v) => [v.x, v.y, v.z];
const norm = (v) => Math.hypot(...v);
const minus = (a, b) => a.map((x, k) => x - b[k]);

/** A demo gallery scene as the page builds it (scene-host.js, with the scene's own panel values). */
function galleryScene(name) {
  const built = buildScene(pbd, name, {});
  applyParams(built, sceneParams(name));
  return built;
}

/** Σ m v and Σ m x × v of the particles, in double. */
function clothMomenta(world) {
  const x = world.positions(), v = world.velocities(), w = world.inverseMasses();
  const linear = [0, 0, 0], angular = [0, 0, 0];
  for (let i = 0; i < world.particleCount(); ++i) {
    if (w[i] === 0) continue;
    const m = 1 / w[i], xi = [x[3 * i], x[3 * i + 1], x[3 * i + 2]], vi = [v[3 * i], v[3 * i + 1], v[3 * i + 2]];
    const l = cross(xi, vi);
    for (let a = 0; a < 3; ++a) linear[a] += m * vi[a], angular[a] += m * l[a];
  }
  return { linear, angular };
}

/** A cube's momenta: m v and c × m v + I ω (a cube's inertia is (m s²/6) 1 in any orientation). */
function cubeMomenta(body, side) {
  const m = body.mass(), v = xyz(body.linvel()), c = xyz(body.worldCom()), w = xyz(body.angvel());
  const linear = v.map((x) => m * x), orbit = cross(c, linear), I = (m * side * side) / 6;
  return { linear, angular: orbit.map((x, a) => x + I * w[a]) };
}

/** A free 16² cloth (1 kg) in zero gravity, and a 1 kg Rapier cube of 0.3 m thrown through it off-centre, spinning. */
function freeScene() {
  const world = new pbd.World();
  world.setGravity(0, 0, 0);
  world.setGround({ enabled: false });
  world.setSubsteps(8);
  world.setIterations(2);
  world.addCloth({ columns: 16, rows: 16, spacing: 0.05, origin: [-0.375, 0, -0.375], mass: 1 });
  const rapierWorld = new RAPIER.World({ x: 0, y: 0, z: 0 });
  rapierWorld.timestep = 1 / 60;
  const box = rapierWorld.createRigidBody(RAPIER.RigidBodyDesc.dynamic().setTranslation(0.2, 0.6, 0.1)
    .setLinvel(0.5, -3, 0).setAngvel({ x: 0, y: 2, z: 1 }));
  rapierWorld.createCollider(RAPIER.ColliderDesc.cuboid(0.15, 0.15, 0.15).setDensity(1 / 0.027).setFriction(0.5), box);
  const coupling = coupleRapier(world, rapierWorld);
  return { world, rapierWorld, box, coupling };
}

describe('World.colliderImpulse', () => {
  it('is minus what the contacts gave the particles, per step, and names a removed handle', () => {
    const world = new pbd.World();
    world.setGravity(0, 0, 0);
    world.setGround({ enabled: false });
    world.addCloth({ columns: 8, rows: 8, spacing: 0.05, origin: [-0.175, 0.3, -0.175], mass: 0.5 });
    for (let i = 0; i < world.particleCount(); ++i) world.setVelocity(i, 0, -3, 0);
    const first = world.addCollider({ shape: 'sphere', position: [5, 0, 0], radius: 0.1 });
    const sphere = world.addCollider({ shape: 'sphere', position: [0, 0, 0], radius: 0.2, restitution: 0.5 });
    world.removeCollider(first);  // the handle stays: the impulse is looked up by it
    expect(world.colliderImpulse(sphere)).toEqual({ linear: [0, 0, 0], angular: [0, 0, 0] });
    let exchanged = 0;
    for (let f = 0; f < 20; ++f) {
      const before = clothMomenta(world);
      world.step(1 / 60);
      const after = clothMomenta(world), j = world.colliderImpulse(sphere);
      const gained = minus(after.linear, before.linear);
      expect(norm(gained.map((x, a) => x + j.linear[a]))).toBeLessThan(1e-4 * Math.max(norm(before.linear), norm(j.linear)));
      exchanged += norm(j.linear);
    }
    expect(exchanged).toBeGreaterThan(0.5);  // the sphere stopped a good part of the cloth's 1.5 kg m/s
    expect(() => world.colliderImpulse(first)).toThrow(InvalidArgumentError);
    expect(() => world.colliderImpulse(first)).toThrow(/colliderImpulse: collider is out of range/);
    world.delete();
  });
});

describe('coupleRapier', () => {
  it('keeps the total momentum of a cloth and a Rapier box that collide in zero gravity', () => {
    const { world, rapierWorld, box, coupling } = freeScene();
    coupling.addBody(box);
    const total = () => {
      const a = clothMomenta(world), b = cubeMomenta(box, 0.3);
      return { linear: a.linear.map((x, k) => x + b.linear[k]), angular: a.angular.map((x, k) => x + b.angular[k]) };
    };
    const before = total(), boxBefore = cubeMomenta(box, 0.3);
    let touched = 0;
    for (let f = 0; f < 120; ++f) {
      coupling.step();
      touched += norm(coupling.bodyImpulse(box).linear) > 0;
    }
    const after = total();
    expect(touched).toBeGreaterThan(5);
    // The box gave the cloth a real share of its momentum, and the sum did not move.
    expect(norm(minus(cubeMomenta(box, 0.3).linear, boxBefore.linear))).toBeGreaterThan(0.2);
    expect(norm(minus(after.linear, before.linear))).toBeLessThan(1e-4 * norm(before.linear));
    expect(norm(minus(after.angular, before.angular))).toBeLessThan(1e-3 * norm(before.angular));
    world.delete();
    rapierWorld.free();
  });

  it('exchanges momentum with a body of two colliders too (its twins swept to where Rapier takes it)', () => {
    const { world, rapierWorld, box, coupling } = freeScene();
    rapierWorld.removeRigidBody(box);   // the dumbbell alone
    const dumbbell = rapierWorld.createRigidBody(RAPIER.RigidBodyDesc.dynamic().setTranslation(-0.1, 0.5, 0)
      .setLinvel(0, -2, 0.3).setAngvel({ x: 0, y: 0, z: 2 }));
    for (const x of [-0.12, 0.12]) {
      rapierWorld.createCollider(RAPIER.ColliderDesc.ball(0.08).setTranslation(x, 0, 0).setDensity(500), dumbbell);
    }
    coupling.addBody(dumbbell);
    const total = () => clothMomenta(world).linear.map((p, a) => p + dumbbell.mass() * xyz(dumbbell.linvel())[a]);
    const before = total(), dumbbellBefore = xyz(dumbbell.linvel());
    for (let f = 0; f < 60; ++f) coupling.step();
    expect(norm(minus(xyz(dumbbell.linvel()), dumbbellBefore))).toBeGreaterThan(0.1);   // the cloth slowed it
    expect(norm(minus(total(), before))).toBeLessThan(1e-4 * norm(before));
    world.delete();
    rapierWorld.free();
  });

  // At Rapier's own rate: each coupling.step() is one Rapier step, and the PBD step follows it over the same interval
  // (at 30 steps a second the cloth needs 20 substeps to keep them 1/600 s long; with 10 the box falls through).
  it.each([60, 120, 30])('carries a 10 kg Rapier box in a 1 kg hammock at %i Rapier steps a second: the box comes ' +
    'to rest, its weight on the cloth', (rate) => {
    const world = new pbd.World();
    world.setGround({ enabled: false });
    world.setSubsteps(Math.max(10, 600 / rate));   // substeps of 1/600 s at most (README, troubleshooting)
    world.setIterations(4);
    world.setLinearDamping(1);
    world.addCloth({ columns: 24, rows: 24, spacing: 0.05, origin: [-0.575, 1, -0.575], mass: 1,
      pinned: [0, 23, 24 * 23, 24 * 24 - 1] });
    const rapierWorld = new RAPIER.World({ x: 0, y: -9.81, z: 0 });
    rapierWorld.timestep = 1 / rate;
    const box = rapierWorld.createRigidBody(RAPIER.RigidBodyDesc.dynamic().setTranslation(0, 1.3, 0));
    rapierWorld.createCollider(RAPIER.ColliderDesc.cuboid(0.15, 0.15, 0.15).setDensity(10 / 0.027), box);
    const coupling = coupleRapier(world, rapierWorld);
    coupling.addBody(box);
    for (let f = 0; f < 9 * rate; ++f) coupling.step();
    let carried = 0, lowest = Infinity, highest = -Infinity;
    const start = xyz(box.translation());
    for (let f = 0; f < rate; ++f) {
      coupling.step();
      carried += coupling.bodyImpulse(box).linear[1];
      const y = box.translation().y;
      lowest = Math.min(lowest, y), highest = Math.max(highest, y);
    }
    const weight = box.mass() * 9.81;  // N: a second's impulses carry this many N·s
    expect(Math.abs(carried - weight)).toBeLessThan(0.02 * weight);
    expect(lowest).toBeGreaterThan(0.6);  // in the cloth, whose corners are at 1 m, not through it
    expect(highest - lowest).toBeLessThan(0.01);
    expect(norm(minus(xyz(box.translation()), start))).toBeLessThan(0.005);  // at rest: moved < 5 mm in a second
    world.delete();
    rapierWorld.free();
  });

  it('a hammock hung from four dynamic posts jointed to the ground: the posts carry the cloth and the box', () => {
    const world = new pbd.World();
    world.setGround({ enabled: false });
    world.setIterations(4);
    world.setLinearDamping(1);
    const n = 24, corners = [0, n - 1, n * (n - 1), n * n - 1];
    const cloth = world.addCloth({ columns: n, rows: n, spacing: 0.05, origin: [-0.575, 1, -0.575], mass: 1 });
    const rapierWorld = new RAPIER.World({ x: 0, y: -9.81, z: 0 });
    rapierWorld.timestep = 1 / 60;
    const ground = rapierWorld.createRigidBody(RAPIER.RigidBodyDesc.fixed());
    const coupling = coupleRapier(world, rapierWorld);
    const posts = corners.map((i) => {
      const [x, , z] = world.positions().slice(3 * (cloth.firstParticle + i), 3 * (cloth.firstParticle + i) + 3);
      const post = rapierWorld.createRigidBody(RAPIER.RigidBodyDesc.dynamic().setTranslation(x, 0.5, z));
      rapierWorld.createCollider(RAPIER.ColliderDesc.cuboid(0.03, 0.5, 0.03).setDensity(5 / 0.0036), post);   // 5 kg
      const q = { x: 0, y: 0, z: 0, w: 1 };
      rapierWorld.createImpulseJoint(RAPIER.JointData.fixed({ x, y: 0, z }, q, { x: 0, y: -0.5, z: 0 }, q), ground, post,
        true);
      coupling.attach(cloth.firstParticle + i, post, [0, 0.5, 0]);   // the post's top
      return post;
    });
    const box = rapierWorld.createRigidBody(RAPIER.RigidBodyDesc.dynamic().setTranslation(0, 1.3, 0));
    rapierWorld.createCollider(RAPIER.ColliderDesc.cuboid(0.15, 0.15, 0.15).setDensity(10 / 0.027), box);
    coupling.addBody(box);
    for (let f = 0; f < 540; ++f) coupling.step();
    let load = 0;
    for (let f = 0; f < 60; ++f) {
      coupling.step();
      for (const post of posts) load -= coupling.bodyImpulse(post).linear[1];
    }
    const weight = (1 + box.mass()) * 9.81;   // N: the cloth's and the box's, carried by the posts over a second
    expect(Math.abs(load - weight)).toBeLessThan(0.02 * weight);
    expect(box.translation().y).toBeGreaterThan(0.6);
    for (const post of posts) expect(Math.abs(post.translation().y - 0.5)).toBeLessThan(0.01);   // held by its joint
    world.delete();
    rapierWorld.free();
  });

  // A 1 kg rod of 1 m on a hinge (Rapier), and a 0.2 kg cloth of 3 × 3 particles hung rigidly just below its lower end
  // (PBD): the compound pendulum's period 2π √(I / (m g d)) goes from 1.64 s to 1.77 s with the cloth's mass. The
  // rod's twin knows its hinge (ColliderBody.joint), so the cloth's pull turns it about the hinge within the substeps
  // (with the pull a frame late, through Rapier's pose, the angle flipped sign frame by frame and grew).
  it('a cloth hung from a Rapier pendulum shifts its period as the added mass predicts', () => {
    const CLOTH = 0.2;   // kg
    const period = (withCloth) => {
      const world = new pbd.World();
      world.setGround({ enabled: false });
      world.setLinearDamping(0);
      const rapierWorld = new RAPIER.World({ x: 0, y: -9.81, z: 0 });
      rapierWorld.timestep = 1 / 60;
      const pivot = rapierWorld.createRigidBody(RAPIER.RigidBodyDesc.fixed().setTranslation(0, 2, 0));
      const omega = 0.3;   // rad/s about z at the bottom of the swing: a 0.05 rad swing
      const rod = rapierWorld.createRigidBody(RAPIER.RigidBodyDesc.dynamic().setTranslation(0, 1.5, 0)
        .setLinvel(omega * 0.5, 0, 0).setAngvel({ x: 0, y: 0, z: omega }));
      rapierWorld.createCollider(RAPIER.ColliderDesc.cuboid(0.02, 0.5, 0.02).setDensity(1 / 0.0016), rod);
      rapierWorld.createImpulseJoint(RAPIER.JointData.revolute({ x: 0, y: 0, z: 0 }, { x: 0, y: 0.5, z: 0 },
        { x: 0, y: 0, z: 1 }), pivot, rod, true);
      const coupling = coupleRapier(world, rapierWorld);
      coupling.addBody(rod);
      let inertia = 1 * (1 + 0.04 ** 2) / 12 + 1 * 0.5 ** 2, moment = 1 * 0.5;   // about the hinge: I, m d
      if (withCloth) {
        const cloth = world.addCloth({ columns: 3, rows: 3, spacing: 0.02, origin: [-0.02, 0.97, 0],
          axisU: [1, 0, 0], axisV: [0, -1, 0], mass: CLOTH });
        for (let i = 0; i < 9; ++i) {
          const p = cloth.firstParticle + i, x = world.positions()[3 * p], y = world.positions()[3 * p + 1];
          world.setVelocity(p, [omega * (2 - y), omega * x, 0]);   // ω ẑ × (x − hinge)
          coupling.attach(p, rod, [x, y - 1.5, 0]);
          inertia += (CLOTH / 9) * (x * x + (2 - y) ** 2), moment += (CLOTH / 9) * (2 - y);
        }
      }
      const angle = () => 2 * Math.asin(rod.rotation().z);
      const crossings = [];
      let last = angle();
      for (let f = 1; f <= 900; ++f) {
        coupling.step();
        const now = angle();
        if (last < 0 && now >= 0) crossings.push((f - 1 + last / (last - now)) / 60);   // upward through zero
        last = now;
      }
      world.delete();
      rapierWorld.free();
      const measured = (crossings.at(-1) - crossings[0]) / (crossings.length - 1);
      return { measured, predicted: 2 * Math.PI * Math.sqrt(inertia / (moment * 9.81)) };
    };
    const bare = period(false), loaded = period(true);
    expect(Math.abs(bare.measured - bare.predicted)).toBeLessThan(0.01 * bare.predicted);   // Rapier alone
    expect(loaded.predicted / bare.predicted).toBeGreaterThan(1.05);   // the shift is far larger than the tolerance
    expect(Math.abs(loaded.measured - loaded.predicted)).toBeLessThan(0.01 * loaded.predicted);
  });

  it("a hinged body's twin knows its hinge (World.setColliderBody's joint fields)", () => {
    const world = new pbd.World();
    const box = world.addCollider({ shape: 'box', position: [1, 2, 0], halfExtents: [0.1, 0.1, 0.1] });
    world.setColliderBody(box, { mass: 1, inertia: [0.01, 0.01, 0.01], joint: 'hinge', jointPivot: [0, 2, 0],
      jointAxis: [0, 0, 3] });
    expect(world.colliderBody(box)).toMatchObject({ joint: 'hinge', jointPivot: [0, 2, 0], jointAxis: [0, 0, 1] });
    expect(() => world.setColliderBody(box, { mass: 1, inertia: [1, 1, 1], joint: 'slider' }))
      .toThrow(/setColliderBody.*joint.*slider/);
    expect(() => world.setColliderBody(box, { mass: 1, inertia: [1, 1, 1], joint: 'hinge', jointAxis: [0, 0, 0] }))
      .toThrow(/setColliderBody: jointAxis must not be zero/);
    expect(world.colliderBody(box).joint).toBe('hinge');   // a refused call changes nothing
    world.step(1 / 60);   // gravity turns it down about the hinge, with the angular acceleration m g d / I_p
    const { linearVelocity: v, angularVelocity: w } = world.colliderBody(box);
    expect(w[2]).toBeCloseTo(-9.81 / 60 / 1.01, 3);
    expect(v[0]).toBeCloseTo(0, 3);   // it starts moving straight down: v = ω × (c − pivot)
    expect(v[1]).toBeCloseTo(w[2], 3);
    world.delete();

    const rapierWorld = new RAPIER.World({ x: 0, y: -9.81, z: 0 });
    const base = rapierWorld.createRigidBody(RAPIER.RigidBodyDesc.fixed().setTranslation(1, 3, 0));
    const bob = rapierWorld.createRigidBody(RAPIER.RigidBodyDesc.dynamic().setTranslation(1, 2, 0));
    rapierWorld.createCollider(RAPIER.ColliderDesc.ball(0.1).setDensity(100), bob);
    rapierWorld.createImpulseJoint(RAPIER.JointData.revolute({ x: 0, y: -0.5, z: 0 }, { x: 0, y: 0.5, z: 0 },
      { x: 1, y: 0, z: 0 }), base, bob, true);
    const coupled = coupleRapier(new pbd.World(), rapierWorld);
    const [twin] = coupled.addBody(bob);
    coupled.step();
    const body = coupled.world.colliderBody(twin);
    expect(body.joint).toBe('hinge');
    expect(body.jointPivot.map((c, a) => Math.abs(c - [1, 2.5, 0][a])).every((d) => d < 1e-6)).toBe(true);
    expect(Math.abs(body.jointAxis[0])).toBeCloseTo(1, 6);
    expect(body.gravity).toBe(true);   // gravity turns it about the hinge
    // A second joint, which the twin cannot know: no joint, and no gravity (the joints carry its weight). So does a
    // spherical joint, which rapier3d-compat reports as a generic one.
    const second = rapierWorld.createRigidBody(RAPIER.RigidBodyDesc.dynamic().setTranslation(-1, 2, 0));
    rapierWorld.createCollider(RAPIER.ColliderDesc.ball(0.1).setDensity(100), second);
    rapierWorld.createImpulseJoint(RAPIER.JointData.spherical({ x: -2, y: -0.5, z: 0 }, { x: 0, y: 0.5, z: 0 }), base,
      second, true);
    const [secondTwin] = coupled.addBody(second);
    coupled.step();
    expect(coupled.world.colliderBody(secondTwin)).toMatchObject({ joint: 'none', gravity: false });
    rapierWorld.createImpulseJoint(RAPIER.JointData.revolute({ x: 0, y: 0, z: 0 }, { x: 2, y: 0, z: 0 },
      { x: 1, y: 0, z: 0 }), bob, second, true);
    coupled.step();
    expect(coupled.world.colliderBody(twin)).toMatchObject({ joint: 'none', gravity: false });   // two joints now
    coupled.world.delete();
    rapierWorld.free();
  });

  it('a ball thrown through a hanging curtain loses the momentum the curtain gains', () => {
    const world = new pbd.World();
    world.setGround({ enabled: false });
    world.setSubsteps(10);
    world.setIterations(2);
    const n = 24, pins = Array.from({ length: n }, (_, k) => k * n);   // its top edge (the first column, along y)
    world.addCloth({ columns: n, rows: n, spacing: 0.05, origin: [-0.6, 1.6, 0], axisU: [0, -1, 0], axisV: [1, 0, 0],
      mass: 1, pinned: pins });
    const rapierWorld = new RAPIER.World({ x: 0, y: -9.81, z: 0 });
    rapierWorld.timestep = 1 / 60;
    const ball = rapierWorld.createRigidBody(RAPIER.RigidBodyDesc.dynamic().setTranslation(0, 1, -0.6)
      .setLinvel(0, 0, 6));
    rapierWorld.createCollider(RAPIER.ColliderDesc.ball(0.12).setDensity(2 / (4 / 3 * Math.PI * 0.12 ** 3)), ball);
    const coupling = coupleRapier(world, rapierWorld);
    coupling.addBody(ball);
    const p0 = xyz(ball.linvel()).map((v) => ball.mass() * v);
    const given = [0, 0, 0];
    let frames = 0;
    for (; frames < 30; ++frames) {
      coupling.step();
      const j = coupling.bodyImpulse(ball).linear;
      for (let a = 0; a < 3; ++a) given[a] += j[a];
    }
    // The ball's momentum changed by gravity's impulse plus what the curtain gave it, and the curtain took a good
    // part of its 12 kg m/s.
    const p1 = xyz(ball.linvel()).map((v) => ball.mass() * v);
    const gravity = [0, -ball.mass() * 9.81 * frames / 60, 0];
    const change = minus(p1, p0).map((x, a) => x - gravity[a]);
    expect(-given[2]).toBeGreaterThan(2);
    expect(norm(minus(change, given))).toBeLessThan(0.01 * norm(given));
    world.delete();
    rapierWorld.free();
  });

  it('a cloth hung from a fixed Rapier body weighs m g on it; a moving body drags a free cloth, momentum kept', () => {
    // Hanging: a 0.9 kg cloth's top row attached to a fixed bar; over a second at rest its pull is m g downward.
    const world = new pbd.World();
    world.setGround({ enabled: false });
    world.setLinearDamping(1);
    world.addCloth({ columns: 12, rows: 12, spacing: 0.05, origin: [0, 1, 0], axisU: [1, 0, 0], axisV: [0, -1, 0],
      mass: 0.9 });
    const rapierWorld = new RAPIER.World({ x: 0, y: -9.81, z: 0 });
    rapierWorld.timestep = 1 / 60;
    const bar = rapierWorld.createRigidBody(RAPIER.RigidBodyDesc.fixed().setTranslation(0.3, 1, 0));
    const coupling = coupleRapier(world, rapierWorld);
    for (let i = 0; i < 12; ++i) coupling.attach(i, bar, [0.05 * i - 0.3, 0, 0]);
    for (let f = 0; f < 180; ++f) coupling.step();
    let pull = 0;
    for (let f = 0; f < 60; ++f) {
      coupling.step();
      pull += coupling.bodyImpulse(bar).linear[1];
    }
    expect(Math.abs(pull + 0.9 * 9.81)).toBeLessThan(0.02 * 0.9 * 9.81);
    expect(() => coupling.attach(0, bar, [0, NaN, 0])).toThrow(/RapierCoupling.attach: anchor must be 3 finite/);
    expect(() => coupling.detach(999)).toThrow(/detach: attachment 999 was not made by attach/);
    coupling.removeBody(bar);
    expect(coupling.attachments).toEqual([]);
    world.delete();
    rapierWorld.free();

    // Dragging: in zero gravity a 1 kg Rapier box at 2 m/s pulls a free 1 kg cloth by one corner (rigid); the box
    // slows, the cloth follows, the total momentum of both engines stays.
    const { world: free, rapierWorld: rw, box, coupling: c } = freeScene();
    box.setTranslation({ x: -0.5, y: 0, z: -0.375 }, true);
    box.setLinvel({ x: -2, y: 0, z: 0 }, true);
    box.setAngvel({ x: 0, y: 0, z: 0 }, true);
    c.attach(0, box, [0.125, 0, 0]);   // particle 0 sits at (-0.375, 0, -0.375): the box's +x face
    const total = () => clothMomenta(free).linear.map((p, a) => p + box.mass() * xyz(box.linvel())[a]);
    const before = total();
    for (let f = 0; f < 60; ++f) c.step();
    expect(box.linvel().x).toBeGreaterThan(-1.5);   // it dragged the cloth along
    expect(norm(minus(total(), before))).toBeLessThan(1e-3 * norm(before));
    free.delete();
    rw.free();

    // Mirrored, a free body's attachments follow its twin and pull it within the substeps (World.attachToCollider):
    // a 0.2 kg box dragging the 1 kg cloth stays stable, and the total momentum stays.
    const { world: light, rapierWorld: lw, box: small, coupling: lc } = freeScene();
    small.collider(0).setDensity(0.2 / 0.027);
    lw.step();   // Rapier updates the mass properties in a step
    small.setTranslation({ x: -0.5, y: 0, z: -0.375 }, true);
    small.setLinvel({ x: -2, y: 0, z: 0 }, true);
    small.setAngvel({ x: 0, y: 0, z: 0 }, true);
    lc.addBody(small);
    lc.attach(0, small, [0.125, 0, 0]);
    expect(lc.attachments[0].twin).toBeDefined();
    const sum = () => clothMomenta(light).linear.map((p, a) => p + small.mass() * xyz(small.linvel())[a]);
    const start = sum();
    for (let f = 0; f < 60; ++f) lc.step();
    expect(Math.abs(small.mass() - 0.2)).toBeLessThan(1e-6);
    expect(norm(xyz(small.linvel()))).toBeLessThan(2);   // it slowed, dragging 5 times its mass
    expect(norm(minus(sum(), start))).toBeLessThan(1e-3 * norm(start));
    light.delete();
    lw.free();
  });

  // The gallery's scene as the page steps it: eight boxes of 10 to 0.5 kg dropped 0.8 m into a 1 kg hammock, one a
  // second. At its 10 substeps a 10 kg box went straight through; every box that lands on the cloth must stay on it.
  it('the gallery hammock carries every box that lands in it', () => {
    const built = galleryScene('hammock');
    for (let f = 0; f < 600; f++) built.step();
    const boxes = built.colliders.filter((c) => c.moving).map((c) => c.def.position);
    const landed = boxes.filter(([x, , z]) => Math.abs(x) < 0.6 && Math.abs(z) < 0.6);
    expect(landed.length).toBeGreaterThanOrEqual(6);
    for (const [, y] of landed) expect(y).toBeGreaterThan(0.7);   // in the cloth (hung at 1.2 m), not on the floor
    expect(built.worlds[0].world.lastStepReport().rolledBack).toBe(false);
    disposeScene(built);
  }, 60_000);

  // The gallery's pile: fifty 0.2 kg boxes dropped in a block onto a 2 kg trampoline come to rest on it (or, rolled
  // off its edge, on the floor): none passes through the cloth, and after 8 s none moves faster than 0.2 m/s.
  it('the gallery trampoline carries a pile of fifty boxes at rest', () => {
    const built = galleryScene('trampoline');
    for (let f = 0; f < 470; f++) built.step();
    const before = built.colliders.map((c) => c.def.position);
    for (let f = 0; f < 10; f++) built.step();
    const world = built.worlds[0].world, x = world.positions();
    let lowest = Infinity;
    for (let i = 0; i < world.particleCount(); i++) lowest = Math.min(lowest, x[3 * i + 1]);
    const boxes = built.colliders.map((c) => c.def.position);
    const over = boxes.filter(([bx, , bz]) => Math.abs(bx) < 0.75 && Math.abs(bz) < 0.75);
    expect(over.length).toBeGreaterThanOrEqual(45);
    for (const [, y] of over) expect(y).toBeGreaterThan(lowest);   // on the cloth or on boxes, never under it
    expect(boxes.length).toBe(50);
    const moved = boxes.map((p, k) => Math.hypot(...p.map((v, a) => v - before[k][a])));
    expect(Math.max(...moved) * 6).toBeLessThan(0.2);   // m/s over the last 1/6 s
    expect(world.lastStepReport().rolledBack).toBe(false);
    disposeScene(built);
  }, 60_000);

  // The gallery's bowling: a 4 kg soft cube thrown at 5 m/s into a tower of ten 0.5 kg Rapier boxes knocks it over
  // (the boxes move only by what its particles' contacts give them).
  it('the gallery soft body bowls over a tower of Rapier boxes', () => {
    const built = galleryScene('bowling');
    const start = built.colliders.map((c) => [...c.def.position]);
    const world = built.worlds[0].world;
    const cubeMomentum = () => {
      const v = world.velocities(), w = world.inverseMasses();
      let pz = 0;
      for (let i = 0; i < world.particleCount(); i++) if (w[i] > 0) pz += v[3 * i + 2] / w[i];
      return pz;
    };
    const thrown = cubeMomentum();
    for (let f = 0; f < 120; f++) built.step();
    const moved = built.colliders.filter((c, k) => Math.hypot(...c.def.position.map((v, a) => v - start[k][a])) > 0.3);
    expect(moved.length).toBeGreaterThanOrEqual(6);
    expect(thrown).toBeLessThan(-15);   // 4 kg at 5 m/s along -z
    expect(cubeMomentum()).toBeGreaterThan(0.5 * thrown);   // spent on the boxes and the ground
    expect(world.lastStepReport().rolledBack).toBe(false);
    disposeScene(built);
  }, 60_000);

  // The gallery's flag pole: a character (a kinematic Rapier capsule) walks into a 30 kg pole and knocks it over; the
  // flag's edge, attached to the pole, comes down with it and stays on its axis.
  it('the gallery flag comes down with the pole a character knocks over', () => {
    const built = galleryScene('flag-pole');
    for (let f = 0; f < 360; f++) built.step();
    const { position: centre, rotation: [qx, qy, qz, qw] } = built.colliders[1].def;
    const axis = [2 * (qx * qy - qw * qz), 1 - 2 * (qx * qx + qz * qz), 2 * (qy * qz + qw * qx)];
    expect(Math.abs(axis[1])).toBeLessThan(0.3);   // lying down, not standing
    const world = built.worlds[0].world, x = world.positions();
    for (let r = 0; r < 8; r++) {   // the edge column: particle 12 r of the flag, the scene's first body
      const d = [0, 1, 2].map((a) => x[3 * 12 * r + a] - centre[a]);
      const along = d[0] * axis[0] + d[1] * axis[1] + d[2] * axis[2];
      expect(Math.hypot(...d.map((v, a) => v - along * axis[a]))).toBeLessThan(0.05);
    }
    expect(world.lastStepReport().rolledBack).toBe(false);
    disposeScene(built);
  }, 60_000);

  it('gives the same bits on a second run', () => {
    const run = () => {
      const { world, rapierWorld, box, coupling } = freeScene();
      coupling.addBody(box);
      for (let f = 0; f < 40; ++f) coupling.step();
      const state = [...world.positions(), ...xyz(box.translation()), ...xyz(box.linvel()), ...xyz(box.angvel())];
      world.delete();
      rapierWorld.free();
      return state;
    };
    expect(run()).toEqual(run());
  });

  it('rejects what it cannot couple, with the world unchanged', () => {
    const { world, rapierWorld, box, coupling } = freeScene();
    expect(() => coupleRapier(world, {})).toThrow(/coupleRapier: rapierWorld must be a Rapier World/);
    expect(() => coupleRapier({}, rapierWorld)).toThrow(/coupleRapier: world must be a pbd-wasm World/);
    const cylinder = rapierWorld.createRigidBody(RAPIER.RigidBodyDesc.dynamic().setTranslation(3, 0, 0));
    rapierWorld.createCollider(RAPIER.ColliderDesc.ball(0.1), cylinder);
    rapierWorld.createCollider(RAPIER.ColliderDesc.cylinder(0.2, 0.1), cylinder);
    expect(() => coupling.addBody(cylinder)).toThrow(InvalidArgumentError);
    expect(() => coupling.addBody(cylinder)).toThrow(/addBody: collider has shape "cylinder"/);
    expect(world.colliderCount()).toBe(0);  // the ball was not added either
    coupling.addBody(box);
    expect(() => coupling.addBody(box)).toThrow(/is coupled already/);
    coupling.step();
    // A NaN velocity (set by the user) and a body removed from Rapier while coupled: step says so before either
    // world moves.
    const positions = [...world.positions()], boxAt = xyz(box.translation());
    box.setLinvel({ x: NaN, y: 0, z: 0 }, true);
    expect(() => coupling.step()).toThrow(/step: body \d+ has a non-finite pose or velocity \(got .*NaN/);
    expect([...world.positions()]).toEqual(positions);
    expect(xyz(box.translation())).toEqual(boxAt);
    box.setLinvel({ x: 0, y: 0, z: 0 }, true);
    rapierWorld.removeRigidBody(box);
    expect(() => coupling.step()).toThrow(/was removed from the Rapier world while coupled/);
    expect([...world.positions()]).toEqual(positions);
    coupling.removeBody(box);
    expect(world.colliderCount()).toBe(0);
    coupling.step();
    world.delete();
    rapierWorld.free();
  });
});

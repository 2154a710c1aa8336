// Continuous cloth self-collision from JS (issue #5): the per-body flag on addTriangleMesh/addCloth and its setter,
// checked through the physics in the wasm build: a small piece of a mesh body fired at 10 m/s down through the same
// body's flat sheet stays above it with the flag on and passes through with it off; bad settings are refused.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPbd } from '../../../web/lib/index.js';

let pbd;
beforeAll(async () => { pbd = await createPbd({ threads: 2 }); });
afterAll(() => pbd?.terminate());

const N = 11;

/** One mesh body: an N x N sheet in y = 0 over [-0.5, 0.5]² (corners pinned) and a small triangle 0.1 m above it. */
function sheetAndFlake(world, continuousSelfCollision) {
  const positions = [], triangles = [];
  for (let r = 0; r < N; r++) for (let c = 0; c < N; c++) positions.push(-0.5 + c / (N - 1), 0, -0.5 + r / (N - 1));
  for (let r = 0; r + 1 < N; r++) {
    for (let c = 0; c + 1 < N; c++) {
      const i = r * N + c;
      triangles.push(i, i + 1, i + N, i + 1, i + N + 1, i + N);
    }
  }
  const f = N * N;
  positions.push(0.03, 0.1, 0.04, 0.09, 0.1, 0.02, 0.05, 0.1, 0.11);
  triangles.push(f, f + 2, f + 1);
  world.setGravity(0, 0, 0);
  world.setGround({ enabled: false });
  world.setSubsteps(2);
  world.setIterations(4);
  const body = world.addTriangleMesh({
    positions, triangles, bending: false, pinned: [0, N - 1, N * (N - 1), N * N - 1],
    ...(continuousSelfCollision ? { continuousSelfCollision } : {}),
  });
  const flake = [0, 1, 2].map((k) => body.renderToParticle[f + k]);
  for (const i of flake) world.setVelocity(i, 0, -10, 0);
  return { body, flake };
}

/** Height of particle i above the sheet: y minus the sheet's y interpolated in the sheet triangle under its xz. */
function heightAboveSheet(world, body, i) {
  const x = world.positions(), p = (k) => body.renderToParticle[k];
  for (let r = 0; r + 1 < N; r++) {
    for (let c = 0; c + 1 < N; c++) {
      const v = r * N + c;
      for (const [a, b, d] of [[v, v + 1, v + N], [v + 1, v + N + 1, v + N]]) {
        const A = 3 * p(a), B = 3 * p(b), D = 3 * p(d);
        const det = (x[B] - x[A]) * (x[D + 2] - x[A + 2]) - (x[D] - x[A]) * (x[B + 2] - x[A + 2]);
        const u = ((x[3 * i] - x[A]) * (x[D + 2] - x[A + 2]) - (x[D] - x[A]) * (x[3 * i + 2] - x[A + 2])) / det;
        const w = ((x[B] - x[A]) * (x[3 * i + 2] - x[A + 2]) - (x[3 * i] - x[A]) * (x[B + 2] - x[A + 2])) / det;
        if (u < 0 || w < 0 || u + w > 1) continue;
        return x[3 * i + 1] - ((1 - u - w) * x[A + 1] + u * x[B + 1] + w * x[D + 1]);
      }
    }
  }
  return NaN;
}

/** The flake's lowest height above the sheet over `steps` frames, and the self-contacts kept apart meanwhile. */
function lowestFlakeHeight(world, body, flake, steps) {
  let lowest = Infinity, contacts = 0;
  for (let s = 0; s < steps; s++) {
    world.step(1 / 60);
    contacts += world.continuousSelfContactCount();
    // Beside the sheet (NaN) counts as through: it was fired straight down over its middle.
    for (const i of flake) lowest = Math.min(lowest, heightAboveSheet(world, body, i) || -Infinity);
  }
  return { lowest, contacts };
}

describe('continuous cloth self-collision', () => {
  it('keeps a piece fired at 10 m/s on its side of the same body, and lets it through when off', () => {
    const on = new pbd.World();
    const a = sheetAndFlake(on, { enabled: true, thickness: 0.005 });
    expect(on.getContinuousSelfCollision(a.body.body)).toEqual({ enabled: true, thickness: expect.closeTo(0.005, 6) });
    const held = lowestFlakeHeight(on, a.body, a.flake, 30);
    expect(held.contacts).toBeGreaterThan(0);
    expect(held.lowest).toBeGreaterThan(0);
    on.delete();

    const off = new pbd.World();
    const b = sheetAndFlake(off, null);
    expect(off.getContinuousSelfCollision(b.body.body)).toEqual({ enabled: false, thickness: expect.closeTo(0.005, 6) });
    expect(lowestFlakeHeight(off, b.body, b.flake, 30).lowest).toBeLessThan(0);
    off.delete();
  });

  it('reports the stage times of a step and a tangle denser than the contact room', () => {
    const world = new pbd.World();
    const { body, flake } = sheetAndFlake(world, { enabled: true, thickness: 0.005 });
    world.step(1 / 60);
    expect(world.lastStepTimings().totalMs).toBe(0);  // off by default
    world.setStepTimings(true);
    let narrow = 0;
    for (let f = 0; f < 10; f++) {
      world.step(1 / 60);
      const t = world.lastStepTimings();
      const stages = t.integrateMs + t.colliderContactsMs + t.broadPhaseMs + t.narrowPhaseMs + t.solveMs + t.residualMs;
      expect(stages).toBeCloseTo(t.totalMs, 2);
      narrow += t.narrowPhaseMs;
      expect(world.lastStepReport()).toMatchObject({ droppedContacts: 0, droppedSelfCollisionPairs: 0, droppedSelfContacts: 0 });
    }
    expect(narrow).toBeGreaterThan(0);
    expect(heightAboveSheet(world, body, flake[0])).toBeGreaterThan(0);
    world.delete();
    // Twelve copies of one triangle stacked 1 mm apart: every vertex and edge touches eleven others, more than the
    // 4 contacts per vertex and edge reserved. The step keeps the first ones and says how many it dropped.
    const stack = new pbd.World();
    stack.setGravity(0, 0, 0);
    stack.setGround({ enabled: false });
    stack.setSubsteps(1);
    const positions = [], triangles = [];
    for (let l = 0; l < 12; l++) {
      positions.push(0, 0.001 * l, 0, 1, 0.001 * l, 0, 0, 0.001 * l, 1);
      triangles.push(3 * l, 3 * l + 1, 3 * l + 2);
    }
    stack.addTriangleMesh({ positions, triangles, bending: false, continuousSelfCollision: { enabled: true, thickness: 0.05 } });
    stack.step(1 / 60);
    const report = stack.lastStepReport();
    expect(report.droppedSelfContacts).toBeGreaterThan(0);
    expect(stack.continuousSelfContactCount()).toBe(4 * 72);
    // One substep: every contact found was kept or dropped; the pairs tested: each vertex against the 11 other
    // layers' triangles and each edge against their 33 edges, once.
    expect(report.selfContactsFound).toBe(4 * 72 + report.droppedSelfContacts);
    expect(report.selfCandidates).toBe(12 * 3 * 11 + (12 * 3 * 11 * 3) / 2);
    expect(stack.positions().every(Number.isFinite)).toBe(true);
    stack.delete();
  });

  it('the setter turns it on at runtime and keeps absent fields', () => {
    const world = new pbd.World();
    const { body, flake } = sheetAndFlake(world, null);
    world.setContinuousSelfCollision(body.body, { enabled: true });
    expect(world.getContinuousSelfCollision(body.body)).toEqual({ enabled: true, thickness: expect.closeTo(0.005, 6) });
    expect(lowestFlakeHeight(world, body, flake, 30).lowest).toBeGreaterThan(0);
    world.delete();
  });

  it('refuses bad settings and bodies without triangles, naming them', () => {
    const world = new pbd.World();
    expect(() => world.addCloth({ columns: 4, rows: 4, continuousSelfCollision: { enabled: true, thickness: 0 } }))
      .toThrow(/addCloth: continuousSelfCollision\.thickness must be > 0/);
    expect(() => world.addCloth({ columns: 4, rows: 4, continuousSelfCollision: 3 })).toThrow(/continuousSelfCollision/);
    expect(world.particleCount()).toBe(0);
    const cloth = world.addCloth({ columns: 4, rows: 4, continuousSelfCollision: { enabled: true } });
    const rope = world.addRope({ segments: 2 });
    expect(() => world.setContinuousSelfCollision(cloth.body, { thickness: -1 })).toThrow(/thickness must be > 0/);
    expect(() => world.setContinuousSelfCollision(cloth.body, { thickness: NaN })).toThrow(/thickness/);
    expect(() => world.setContinuousSelfCollision(rope.body, { enabled: true })).toThrow(/no triangles/);
    expect(() => world.setContinuousSelfCollision(9, { enabled: true })).toThrow(/body/);
    expect(() => world.getContinuousSelfCollision(rope.body)).toThrow(/no triangles/);
    expect(world.getContinuousSelfCollision(cloth.body)).toEqual({ enabled: true, thickness: expect.closeTo(0.005, 6) });
    world.delete();
  });
});

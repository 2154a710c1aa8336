// Shared pieces of the physics report (tests/js/physics-report.mjs, tests/js/node/physics.test.js): the row every case
// returns, world set-up through the public API, and small measurements. Nothing here is random.

export const G = 9.81;          // m/s², gravity along -y in every case unless it says otherwise
export const FRAME = 1 / 60;    // s, one step(dt) of every case

/**
 * A case's row: pass is |measured − expected| <= tolerance. `expected` always comes from a formula, `measured` from
 * the simulation.
 */
export function row(name, { expected, measured, tolerance, unit, note = '' }) {
  const pass = Number.isFinite(measured) && Math.abs(measured - expected) <= tolerance;
  return { name, expected, measured, tolerance, unit, pass, note };
}

/**
 * A world with the settings given (gravity, substeps, iterations, integrator, linearDamping, ground), the rest at the
 * defaults documented in web/lib/index.d.ts. The ground is off unless `ground` says otherwise.
 */
export function makeWorld(pbd, {
  gravity = [0, -G, 0], substeps = 10, iterations = 1, integrator = 'implicit-euler', linearDamping = 0,
  ground = { enabled: false },
} = {}) {
  const world = new pbd.World();
  world.setGravity(...gravity);
  world.setSubsteps(substeps);
  world.setIterations(iterations);
  world.setIntegrator(integrator);
  world.setLinearDamping(linearDamping);
  world.setGround(ground);
  return world;
}

/** Runs fn(world) with a fresh world and deletes it afterwards, also when fn throws. */
export function withWorld(pbd, settings, fn) {
  const world = makeWorld(pbd, settings);
  try {
    return fn(world);
  } finally {
    world.delete();
  }
}

/** Steps `frames` frames of FRAME seconds, calling each(frame) after every step. */
export function run(world, frames, each) {
  for (let f = 1; f <= frames; f++) {
    world.step(FRAME);
    each?.(f);
  }
}

/** Particle masses of [first, first + count) from the live inverse masses (0 for pinned particles). */
export function masses(world, first, count) {
  const w = world.inverseMasses();
  return Array.from({ length: count }, (_, k) => (w[first + k] > 0 ? 1 / w[first + k] : 0));
}

/** Linear momentum (kg m/s) and angular momentum about the origin (kg m²/s) of particles [first, first + count). */
export function momenta(world, first, count, mass) {
  const x = world.positions(), v = world.velocities();
  const p = [0, 0, 0], l = [0, 0, 0];
  for (let k = 0; k < count; k++) {
    const i = 3 * (first + k), m = mass[k];
    const [px, py, pz] = [m * v[i], m * v[i + 1], m * v[i + 2]];
    p[0] += px, p[1] += py, p[2] += pz;
    l[0] += x[i + 1] * pz - x[i + 2] * py;
    l[1] += x[i + 2] * px - x[i] * pz;
    l[2] += x[i] * py - x[i + 1] * px;
  }
  return { p, l };
}

export const norm = (a) => Math.hypot(a[0], a[1], a[2]);
export const sub = (a, b) => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];

/** Largest particle speed (m/s) of [first, first + count). */
export function maxSpeed(world, first, count) {
  const v = world.velocities();
  let max = 0;
  for (let i = first; i < first + count; i++) max = Math.max(max, Math.hypot(v[3 * i], v[3 * i + 1], v[3 * i + 2]));
  return max;
}

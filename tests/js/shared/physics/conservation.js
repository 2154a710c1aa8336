// Conservation and rest cases of the physics report: the linear and angular momentum of a free soft body at several
// substep counts (issue 51 item 2), and a cloth that must come to rest on a sphere (issue 51 item 4).
import { FRAME, masses, maxSpeed, momenta, norm, row, run, sub, withWorld } from './common.js';
import { tetBox } from './tet-box.js';

// ---- momentum of a free body ---------------------------------------------------------------------------------------

/**
 * A Neo-Hookean cube (0.4 m, 4³ cells, E = 1e5 Pa, 1000 kg/m³) floating free: no gravity, no ground, no collider,
 * only its own constraints, which are internal forces: they change neither its linear momentum P = Σ m v nor its
 * angular momentum L = Σ m x × v (about the origin; the cube drifts at 1 m/s along x while it spins at 1.3 rad/s about
 * the axis (1, 2, 3)/√14 through its centre). Measured after 2 s: |ΔP| / |P0| and |ΔL| / |L0|; issue 51 item 2 asks
 * for 1e-5 and 1e-4 at every substep count. Under both integrators (BDF2's prediction alone adds about (4/9) (ω h)²
 * of a spinning body's L a substep, which the momentum guard has to keep out).
 */
const FREE = { side: 0.4, cells: 4, drift: [1, 0, 0], spin: 1.3, axis: [1, 2, 3], seconds: 2 };
const freeCache = new WeakMap();   // pbd -> Map(integrator and substeps -> { linear, angular })

function freeBody(pbd, substeps, integrator) {
  let cache = freeCache.get(pbd);
  if (!cache) freeCache.set(pbd, cache = new Map());
  const key = `${integrator} ${substeps}`;
  if (cache.has(key)) return cache.get(key);
  const { side, cells, drift, spin, axis, seconds } = FREE;
  const result = withWorld(pbd, { gravity: [0, 0, 0], substeps, integrator }, (world) => {
    const centre = [0, 1, 0];
    const mesh = tetBox([cells, cells, cells], [side, side, side], centre.map((c) => c - side / 2));
    const body = world.addSoftBody({ positions: mesh.positions, tets: mesh.tets, density: 1000, edgeConstraints: false,
      material: 'neo-hookean', youngsModulus: 1e5, poissonRatio: 0.3 });
    const { firstParticle: first, particleCount: count } = body;
    const a = norm(axis), omega = axis.map((c) => spin * c / a);
    const x = world.positions();
    for (let i = first; i < first + count; i++) {
      const r = sub([x[3 * i], x[3 * i + 1], x[3 * i + 2]], centre);
      world.setVelocity(i, drift[0] + omega[1] * r[2] - omega[2] * r[1], drift[1] + omega[2] * r[0] - omega[0] * r[2],
        drift[2] + omega[0] * r[1] - omega[1] * r[0]);
    }
    const m = masses(world, first, count);
    const start = momenta(world, first, count, m);
    run(world, Math.round(seconds / FRAME));
    const end = momenta(world, first, count, m);
    return { linear: norm(sub(end.p, start.p)) / norm(start.p), angular: norm(sub(end.l, start.l)) / norm(start.l) };
  });
  cache.set(key, result);
  return result;
}

function momentumCase(pbd, substeps, kind, integrator) {
  const measured = freeBody(pbd, substeps, integrator)[kind];
  const tolerance = kind === 'linear' ? 1e-5 : 1e-4;
  const under = integrator === 'bdf2' ? ', bdf2' : '';
  return row(`free body ${kind} momentum change${under}, ${substeps} substep${substeps === 1 ? '' : 's'}`, {
    expected: 0, measured, tolerance, unit: kind === 'linear' ? '|ΔP|/|P0|' : '|ΔL|/|L0|',
    note: `soft cube drifting 1 m/s, spinning 1.3 rad/s, no gravity/ground, ${FREE.seconds} s`,
  });
}

export const momentumSubstepCounts = [1, 10, 40, 64];
export const momentumCases = ['implicit-euler', 'bdf2'].flatMap((integrator) => momentumSubstepCounts.flatMap(
  (n) => ['linear', 'angular'].map((kind) => {
    const fn = (pbd) => momentumCase(pbd, n, kind, integrator);
    const name = `momentum${kind === 'linear' ? 'Linear' : 'Angular'}${integrator === 'bdf2' ? 'Bdf2' : ''}${n}`;
    return Object.defineProperty(fn, 'name', { value: name });
  })));

// ---- a cloth coming to rest ----------------------------------------------------------------------------------------

/** Steps 3 s; the largest particle speed of `body` over the frames of 2.75–3 s, m/s. */
function speedAtThreeSeconds(world, body) {
  let max = 0;
  run(world, 180, (f) => {
    if (f > 165) max = Math.max(max, maxSpeed(world, body.firstParticle, body.particleCount));
  });
  return max;
}

/**
 * A 32² cloth (1 m, 1 kg, default stretch, shear and bending) dropped flat and centred from 0.1 m above a sphere
 * collider of its own width (radius 0.5 m, resting on the ground, default friction), ground on, everything else at
 * its defaults (10 substeps × 1 iteration, no damping). It covers the upper half of the sphere, nothing hangs free
 * to swing: a static equilibrium. Issue 51 item 4 asks for a largest particle speed under 1 cm/s within 3 s.
 * Measured: the largest particle speed over the frames of 2.75–3 s.
 */
export function restingDrape(pbd) {
  const n = 32, size = 1, radius = 0.5, centre = [0, 0.5, 0], drop = 0.1;
  const measured = withWorld(pbd, { ground: { enabled: true } }, (world) => {
    world.addCollider({ shape: 'sphere', position: centre, radius });
    const cloth = world.addCloth({ columns: n, rows: n, spacing: size / (n - 1),
      origin: [-size / 2, centre[1] + radius + drop, -size / 2] });
    return speedAtThreeSeconds(world, cloth);
  });
  return row('resting drape: max particle speed at 3 s', {
    expected: 0, measured, tolerance: 0.01, unit: 'm/s',
    note: '32² cloth, 1 m, on a sphere r = 0.5 m, defaults (10 × 1, no damping); max over 2.75–3 s',
  });
}

/**
 * A 16² cloth (1 m, 1 kg) dropped flat and centred from 0.1 m onto a box collider (0.6 m cube on the ground), with
 * Müller's damping of non-rigid motion (rigidDamping 0.15 per frame) and 4 iterations: damping must bring a resting
 * drape to rest. Measured: the largest stored particle speed over the frames of 2.75–3 s. While the damping pulled the
 * particles the box's contacts held toward the whole cloth's rigid motion, a patch on the box's top flipped between
 * two positions every substep (period 2, ±0.25 m/s), with friction 0 as well.
 */
export function restUnderRigidDamping(pbd) {
  const n = 16, measured = withWorld(pbd, { ground: { enabled: true }, iterations: 4 }, (world) => {
    world.setRigidDamping(0.15);
    world.addCollider({ shape: 'box', position: [0, 0.3, 0], halfExtents: [0.3, 0.3, 0.3] });
    const cloth = world.addCloth({ columns: n, rows: n, spacing: 1 / (n - 1), origin: [-0.5, 0.7, -0.5] });
    return speedAtThreeSeconds(world, cloth);
  });
  return row('rest under rigid damping: max particle speed at 3 s', {
    expected: 0, measured, tolerance: 0.01, unit: 'm/s',
    note: '16² cloth, 1 m, on a 0.6 m box, rigidDamping 0.15, 10 × 4; max over 2.75–3 s',
  });
}

/**
 * What the README's troubleshooting says: the resting drape's cloth (32², 1 m, defaults) dropped from 0.1 m onto a
 * sphere (r 0.5 m) or a box (0.6 m cube), with rigid damping 0.1 per frame and nothing else changed, is at rest
 * (every particle under 1 cm/s) over 2.75–3 s. Measured: the largest particle speed over those frames.
 * The cloth's size n, its drop (m) and its offset from the centre (m in x, half of it in z) may be changed, and the
 * distances swept symmetrically (World.setDistanceSweep).
 */
function dampedDrape(pbd, collider, { n = 32, drop = 0.1, offset = 0 } = {}, distanceSweep = 'forward') {
  const top = collider.shape === 'sphere' ? 1 : 0.6;
  const measured = withWorld(pbd, { ground: { enabled: true } }, (world) => {
    world.setRigidDamping(0.1);
    world.setDistanceSweep(distanceSweep);
    world.addCollider(collider);
    const cloth = world.addCloth({ columns: n, rows: n, spacing: 1 / (n - 1),
      origin: [-0.5 + offset, top + drop, -0.5 + offset / 2] });
    return speedAtThreeSeconds(world, cloth);
  });
  const forward = distanceSweep === 'forward';
  const name = `drape on a ${collider.shape}, rigid damping 0.1${forward ? '' : `, ${distanceSweep} distance sweep`}`;
  return row(`${name}: max particle speed at 3 s`, {
    expected: 0, measured, tolerance: 0.01, unit: 'm/s',
    note: `${n}² cloth, 1 m, dropped ${drop} m onto a ${collider.shape}` +
      `${offset ? `, ${offset} m off centre` : ''}; ` +
      `defaults but rigidDamping 0.1${forward ? '' : `, distanceSweep '${distanceSweep}'`}; max over 2.75–3 s`,
  });
}

const BOX = { shape: 'box', position: [0, 0.3, 0], halfExtents: [0.3, 0.3, 0.3] };

export const dampedDrapeOnSphere = (pbd) =>
  dampedDrape(pbd, { shape: 'sphere', position: [0, 0.5, 0], radius: 0.5 });
export const dampedDrapeOnBox = (pbd) => dampedDrape(pbd, BOX);
/**
 * A 48² cloth dropped 0.3 m onto the box: its flaps fold over the box's edges, and the distances' default forward
 * sweep keeps folds ringing in spite of the damping (4.7e-2 m/s at 3 s here; issue 51 item 4: a folded drape whose
 * particles on the box were pinned instead rang as well, so the contacts are not the source). Swept there and back
 * in every iteration, the same drape comes to rest.
 */
export const dampedFoldedDrapeSymmetric = (pbd) => dampedDrape(pbd, BOX, { n: 48, drop: 0.3 }, 'symmetric');

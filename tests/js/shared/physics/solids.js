// Elastic-solid cases of the physics report: a Neo-Hookean bar under an end load, a cantilever's tip deflection as
// its mesh is refined, and the volume a pressure balloon keeps while it rests on the ground. The tet meshes are
// structured boxes (tet-box.js), so every case is deterministic.
import { uvSphere } from '../uv-sphere.js';
import { row, run, withWorld } from './common.js';
import { boundaryFaces, signedVolume, tetBox } from './tet-box.js';

/** The particles of cross-section i (all j, k) of a tetBox, as world indices. */
function section(mesh, body, i) {
  const [, ny, nz] = mesh.counts, out = [];
  for (let k = 0; k <= nz; k++) for (let j = 0; j <= ny; j++) out.push(body.firstParticle + mesh.index(i, j, k));
  return out;
}

/** The mean of coordinate `axis` (0 x, 1 y, 2 z) over particles. */
function meanCoordinate(world, particles, axis) {
  const x = world.positions();
  return particles.reduce((s, i) => s + x[3 * i + axis], 0) / particles.length;
}

/** A soft body of the Neo-Hookean material alone (edgeConstraints off) on a tetBox, its face x = 0 clamped (pinned). */
function clampedBar(world, mesh, { density, youngsModulus, poissonRatio }) {
  const [, ny, nz] = mesh.counts;
  const pinned = [];
  for (let k = 0; k <= nz; k++) for (let j = 0; j <= ny; j++) pinned.push(mesh.index(0, j, k));
  return world.addSoftBody({ positions: mesh.positions, tets: mesh.tets, density, pinned, edgeConstraints: false,
    material: 'neo-hookean', youngsModulus, poissonRatio });
}

// ---- Neo-Hookean bar -----------------------------------------------------------------------------------------------

const BAR = { length: 1, side: 0.1, cells: [20, 2, 2], density: 1000, youngsModulus: 1e5, poissonRatio: 0.3, load: 1 };

/**
 * Small-strain uniaxial tension: a bar of Young's modulus E and cross-section A, clamped at one end and pulled at the
 * other by F, strains ε = F / (E A) (1e-3 here: small enough that the Neo-Hookean curve is linear). F is spread over
 * the end face as a uniform traction (each end-face triangle gives a third of its share to each corner); ε is
 * measured between the cross-sections at L/4 and 3L/4, away from the clamp (which holds the lateral contraction of
 * ν = 0.3) and the loaded face, averaged over the last second of 3 s. Gravity off; linear damping 2ω of the bar's
 * first axial mode (ω = π c / 2L, c = √(E/ρ)) settles it.
 */
export function neoHookeanBar(pbd) {
  const { length: L, side, cells, density, youngsModulus: E, poissonRatio, load } = BAR;
  const area = side * side, expected = load / (E * area);
  const omega = Math.PI * Math.sqrt(E / density) / (2 * L);
  const measured = withWorld(pbd, { gravity: [0, 0, 0], linearDamping: 2 * omega }, (world) => {
    const mesh = tetBox(cells, [L, side, side]);
    const body = clampedBar(world, mesh, { density, youngsModulus: E, poissonRatio });
    const force = new Map();
    for (const face of boundaryFaces(mesh.tets)) {
      if (!face.every((v) => mesh.positions[3 * v] === L)) continue;
      const share = load * triangleArea(mesh.positions, face) / (3 * area);
      for (const v of face) force.set(v, (force.get(v) ?? 0) + share);
    }
    for (const [v, fx] of force) world.setExternalForce(body.firstParticle + v, fx, 0, 0);
    const [nx] = cells, a = section(mesh, body, nx / 4), b = section(mesh, body, 3 * nx / 4);
    const gauge = L / 2;
    let sum = 0, count = 0;
    run(world, 180, (f) => {
      if (f <= 120) return;
      sum += (meanCoordinate(world, b, 0) - meanCoordinate(world, a, 0)) / gauge - 1, count++;
    });
    return sum / count;
  });
  return row('Neo-Hookean bar strain F/(E A)', {
    expected, measured, tolerance: 0.02 * expected, unit: 'm/m',
    note: `${L} × ${side} × ${side} m, ${cells.join('×')} cells × 6 tets, E = ${E} Pa, ν = ${poissonRatio}, ` +
      `F = ${load} N; ${(100 * (measured / expected - 1)).toFixed(2)} %`,
  });
}

function triangleArea(x, [a, b, c]) {
  const u = [0, 1, 2].map((d) => x[3 * b + d] - x[3 * a + d]), v = [0, 1, 2].map((d) => x[3 * c + d] - x[3 * a + d]);
  return 0.5 * Math.hypot(u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]);
}

// ---- cantilever ----------------------------------------------------------------------------------------------------

/**
 * A cantilever of length L, square section H × H, clamped at x = 0, sagging under its own weight. Euler–Bernoulli:
 * w = ρ g A L⁴ / (8 E I), I = H⁴/12, so w = 1.5 ρ g L⁴ / (E H²) (Timoshenko's shear term adds ~1 % at L/H = 10).
 * The solve must be converged for the comparison to mean anything: XPBD at 1 iteration settles near the static
 * solution only while c h / edge <= 0.5 (c = √(E/ρ) the wave speed, h the substep; at 1 a 20×2×2 beam sagged 11 %
 * more than at 0.5, and a stiff E = 1.5e8 Pa beam never settled), so the material is soft (c = 7.5 m/s)
 * and gravity is scaled to g' = 0.01875 m/s², which puts the tip 5 cm down (w/L = 5 %, root strain 1 %): a per-substep
 * fall of 5e-8 m, still above float32's resolution here. Linear damping 2ω1 (ω1 = 1.875² √(EI/(ρAL⁴)), the first
 * bending mode) settles it; w is the tip section's mean y displacement, averaged over the last second of 9 s.
 * Linear tets lock in bending, so w approaches the beam theory's value from below as the mesh is refined.
 */
const BEAM = { length: 1, side: 0.1, density: 1000, waveSpeed: 7.5, poissonRatio: 0.3, tipOverLength: 0.05 };
const BEAM_MESHES = [[10, 1, 1], [20, 2, 1], [40, 4, 1]];
const beamCache = new WeakMap();   // pbd -> Map(mesh key -> w): the finer rows compare with the coarser ones

function beamSetup() {
  const { length: L, side: H, density, waveSpeed: c, tipOverLength } = BEAM;
  const E = density * c * c;
  const g = tipOverLength * L * E * H * H / (1.5 * density * L ** 4);
  const expected = 1.5 * density * g * L ** 4 / (E * H * H);
  const omega1 = 1.875 ** 2 * Math.sqrt(E * H ** 4 / 12 / (density * H * H * L ** 4));
  return { E, g, expected, omega1 };
}

function cantileverTip(pbd, cells) {
  let cache = beamCache.get(pbd);
  if (!cache) beamCache.set(pbd, cache = new Map());
  const key = cells.join('x');
  if (cache.has(key)) return cache.get(key);
  const { length: L, side: H, density, poissonRatio } = BEAM;
  const { E, g, omega1 } = beamSetup();
  const w = withWorld(pbd, { gravity: [0, -g, 0], linearDamping: 2 * omega1 }, (world) => {
    const mesh = tetBox(cells, [L, H, H]);
    const body = clampedBar(world, mesh, { density, youngsModulus: E, poissonRatio });
    const tip = section(mesh, body, cells[0]);
    const y0 = meanCoordinate(world, tip, 1);
    let sum = 0, count = 0;
    run(world, 540, (f) => {
      if (f > 480) sum += y0 - meanCoordinate(world, tip, 1), count++;
    });
    return sum / count;
  });
  cache.set(key, w);
  return w;
}

/**
 * Row k of the refinement: the coarsest only has to sag the right way (within 90 %); each finer mesh must cut the
 * coarser one's error by a quarter at least; the finest must also be within 30 % of beam theory.
 */
function cantilever(pbd, k) {
  const { expected } = beamSetup();
  const cells = BEAM_MESHES[k];
  const measured = cantileverTip(pbd, cells);
  let tolerance = 0.9 * expected, note = 'sanity bound 90 %';
  if (k > 0) {
    const coarser = cantileverTip(pbd, BEAM_MESHES[k - 1]);
    tolerance = 0.75 * Math.abs(coarser - expected);
    note = `0.75 × the ${BEAM_MESHES[k - 1].join('×')} mesh's error`;
  }
  if (k === BEAM_MESHES.length - 1 && 0.3 * expected < tolerance) tolerance = 0.3 * expected, note = '30 %';
  const trend = BEAM_MESHES.slice(0, k + 1).map((c) => (cantileverTip(pbd, c) / expected).toFixed(3)).join(' → ');
  return row(`cantilever tip w, ${cells.join('×')} cells`, {
    expected, measured, tolerance, unit: 'm',
    note: `EB ρgAL⁴/(8EI); w/w_EB ${trend}; tolerance ${note}`,
  });
}

export const cantileverCoarse = (pbd) => cantilever(pbd, 0);
export const cantileverMedium = (pbd) => cantilever(pbd, 1);
export const cantileverFine = (pbd) => cantilever(pbd, 2);

// ---- volume under load ---------------------------------------------------------------------------------------------

/**
 * A pressure balloon (a closed UV-sphere mesh, radius 0.25 m, 1 kg, pressure 1 with a rigid volume constraint, rigid
 * edges, default bending) dropped from 0.2 m onto the ground: after 3 s it rests, squashed by its weight, and must
 * still enclose its rest volume (the constraint's target 4/3 π r³ of the polyhedron, read by surfaceRestVolume).
 * Measured: surfaceVolume / surfaceRestVolume, the smallest over the last second.
 */
export function balloonVolume(pbd) {
  const radius = 0.25;
  const measured = withWorld(pbd, { ground: { enabled: true } }, (world) => {
    const { positions, triangles } = uvSphere(24, 12, radius, [0, radius + 0.2, 0]);
    world.addTriangleMesh({ positions, triangles, mass: 1, pressure: 1 });
    let min = Infinity;
    run(world, 180, (f) => {
      if (f > 120) min = Math.min(min, world.surfaceVolume(0) / world.surfaceRestVolume(0));
    });
    return min;
  });
  return row('balloon resting on the ground: volume kept', {
    expected: 1, measured, tolerance: 0.01, unit: 'V/V0',
    note: 'UV sphere 24×12, r = 0.25 m, 1 kg, pressure 1; smallest V/V0 over 2–3 s',
  });
}

/**
 * A soft cube (0.3 m, 6³ cells × 6 tets, 500 kg/m³) of volume-preserving tets (rigid tet volumes, soft tet edges of
 * 1e-2 m/N) resting on the ground: its weight squashes it by about a tenth, and the sum of its tet volumes must stay
 * at the rest volume. Measured: the V/V0 furthest from 1 over 2–3 s.
 */
export function softCubeVolume(pbd) {
  const side = 0.3;
  const mesh = tetBox([6, 6, 6], [side, side, side], [-side / 2, 0.05, -side / 2]);
  const { measured, height } = withWorld(pbd, { ground: { enabled: true } }, (world) => {
    const body = world.addSoftBody({ positions: mesh.positions, tets: mesh.tets, density: 500,
      edges: { compliance: 1e-2 } });
    const volume = () => tetVolume(world.positions(), mesh.tets, body.firstParticle);
    const v0 = volume();
    let worst = 1;
    run(world, 180, (f) => {
      if (f <= 120) return;
      const r = volume() / v0;
      if (Math.abs(r - 1) > Math.abs(worst - 1)) worst = r;
    });
    const y = world.positions().filter((_, k) => k % 3 === 1);
    return { measured: worst, height: Math.max(...y) - Math.min(...y) };
  });
  return row('soft cube resting on the ground: volume kept', {
    expected: 1, measured, tolerance: 0.01, unit: 'V/V0',
    note: `rigid tet volumes, edges 1e-2 m/N; squashed to ${(100 * height / side).toFixed(1)} % of its height`,
  });
}

/** The volume of a body's tets (the tetBox's, moved to `first`), m³. */
function tetVolume(x, tets, first) {
  let sum = 0;
  for (let t = 0; t < tets.length; t += 4) {
    sum += signedVolume(x, [tets[t] + first, tets[t + 1] + first, tets[t + 2] + first, tets[t + 3] + first]) / 6;
  }
  return sum;
}

// The peer benchmark's scenes as plain data, shared by pbd-scenes.mjs and jolt-scenes.mjs so both engines get the
// same particles, masses, constraints and pins, and the sanity figures that show both simulated the same motion.
// No engine code here.

/** Frame length, s. Both engines take one step of this per frame. */
export const DT = 1 / 60;

/**
 * Solver work per frame, the same in both engines: 10 XPBD substeps of dt/10, each one pass over every constraint.
 * pbd-wasm: setSubsteps(10), setIterations(1). Jolt: SoftBodyCreationSettings.mNumIterations = 10, because a Jolt
 * soft-body "iteration" is a substep: SoftBodyMotionProperties::InitializeUpdateContext sets
 * mSubStepDeltaTime = dt / mNumIterations, and every iteration integrates velocities and positions over that
 * substep, applies each constraint once (XPBD, alpha = compliance / substep²), resolves collisions and recomputes
 * velocities, exactly the substep loop of pbd-wasm (Macklin et al. 2019, "Small Steps in Physics Simulation").
 * What differs: Jolt finds collision planes once per step (per frame) and reuses them in all substeps; pbd-wasm
 * tests the ground plane every substep.
 */
export const SUBSTEPS = 10;
/**
 * The 60 fps target of issue #8: the 256² rest cloth at 20 passes per frame, as 20 substeps x 1 pass on both sides
 * (Jolt mNumIterations = 20), the same definition of a pass as above. Scene id cloth256rest20.
 */
export const TARGET_PASSES = 20;
export const TARGET_PASSES_SIZE = 256;
export const TARGET_SCENE_ID = `cloth${TARGET_PASSES_SIZE}rest${TARGET_PASSES}`;

// ---------------------------------------------------------------------------------------------------------------
// Cloth: tests/scenes/scenes.h hangingCloth. n x n particles, 1 m square in the XZ plane at y = 1 (particle
// (row r, column c) at (-0.5 + c s, 1, r s), index r n + c), 1 kg spread evenly, particles 0 and n - 1 (the two
// corners of row 0) pinned, every constraint rigid (XPBD compliance 0): stretch (grid edges), shear (both cell
// diagonals), bend (skip-one distance constraints along rows and columns). It falls and swings about the pinned
// edge. The ground plane sits at y = -2, out of reach (the cloth hangs at most 1 m below its pins).

export const CLOTH_SIZES = [32, 64, 128, 256];
/** Rest variants (gravity 0) for throughput where every engine stays finite (issue #8). */
export const REST_SIZES = [128, 256];
/** m/s², y. The rest variants use 0. */
export const GRAVITY = -9.81;
export const CLOTH_GROUND_Y = -2;

/** Particles, masses, pins and the constraint pairs (the same set pbd-wasm's addCloth builds). */
export function clothDef(n) {
  const s = 1 / (n - 1);
  const positions = new Float32Array(3 * n * n);
  for (let r = 0; r < n; r++) {
    for (let c = 0; c < n; c++) {
      const i = r * n + c;
      positions[3 * i] = -0.5 + c * s;
      positions[3 * i + 1] = 1;
      positions[3 * i + 2] = r * s;
    }
  }
  const id = (c, r) => r * n + c;
  const pairs = (dc0, dr0, dc1, dr1) => {
    const out = [];
    const dc = Math.max(dc0, dc1), dr = Math.max(dr0, dr1);
    for (let r = 0; r + dr < n; r++) for (let c = 0; c + dc < n; c++) out.push([id(c + dc0, r + dr0), id(c + dc1, r + dr1)]);
    return out;
  };
  const stretch = [...pairs(0, 0, 1, 0), ...pairs(0, 0, 0, 1)];
  const shear = [...pairs(0, 0, 1, 1), ...pairs(1, 0, 0, 1)];
  const bend = [...pairs(0, 0, 2, 0), ...pairs(0, 0, 0, 2)];
  // Render triangles (Jolt faces): cell (c, r) split along its (c, r)-(c+1, r+1) diagonal.
  const triangles = [];
  for (let r = 0; r + 1 < n; r++) {
    for (let c = 0; c + 1 < n; c++) {
      triangles.push(id(c, r), id(c, r + 1), id(c + 1, r + 1), id(c, r), id(c + 1, r + 1), id(c + 1, r));
    }
  }
  const pinned = [0, n - 1];
  const inverseMasses = new Float32Array(n * n).fill(n * n / 1);  // 1 kg over all n² particles, pinned ones too
  for (const p of pinned) inverseMasses[p] = 0;
  return {
    n, spacing: s, mass: 1, positions, inverseMasses, pinned, stretch, shear, bend, triangles,
    freeCorner: id(n - 1, n - 1),
    constraintCount: stretch.length + shear.length + bend.length,
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Soft cube: a 1 m cube of (cells)³ grid cells, each split into 6 tets (the Kuhn split Jolt's SoftBodyCreator::
// CreateCube uses), with a rigid volume constraint per tet and a rigid distance constraint on every distinct tet
// edge (what pbd-wasm's addSoftBody builds: grid edges, one diagonal per face, one body diagonal per cell),
// density 1000 kg/m³ with vertex masses lumped from tet volumes. Its bottom starts 0.5 m above the ground plane
// y = 0, it falls, lands at t ~ 0.32 s and comes to rest on it (friction 0.5, no restitution).

export const CUBE_CELLS = 10;
export const CUBE_SIZE = 1;
export const CUBE_DROP = 0.5;
export const CUBE_DENSITY = 1000;
export const CUBE_FRICTION = 0.5;

const KUHN = [  // per cell: 6 tets, corners as (dx, dy, dz) offsets
  [[0, 0, 0], [0, 1, 1], [0, 0, 1], [1, 1, 1]],
  [[0, 0, 0], [0, 1, 0], [0, 1, 1], [1, 1, 1]],
  [[0, 0, 0], [0, 0, 1], [1, 0, 1], [1, 1, 1]],
  [[0, 0, 0], [1, 0, 1], [1, 0, 0], [1, 1, 1]],
  [[0, 0, 0], [1, 1, 0], [0, 1, 0], [1, 1, 1]],
  [[0, 0, 0], [1, 0, 0], [1, 1, 0], [1, 1, 1]],
];

export function signedTetVolume(p, a, b, c, d) {
  const ax = p[3 * b] - p[3 * a], ay = p[3 * b + 1] - p[3 * a + 1], az = p[3 * b + 2] - p[3 * a + 2];
  const bx = p[3 * c] - p[3 * a], by = p[3 * c + 1] - p[3 * a + 1], bz = p[3 * c + 2] - p[3 * a + 2];
  const cx = p[3 * d] - p[3 * a], cy = p[3 * d + 1] - p[3 * a + 1], cz = p[3 * d + 2] - p[3 * a + 2];
  return (ax * (by * cz - bz * cy) - ay * (bx * cz - bz * cx) + az * (bx * cy - by * cx)) / 6;
}

export function cubeDef(cells = CUBE_CELLS) {
  const m = cells + 1, h = CUBE_SIZE / cells;
  const id = (x, y, z) => x + y * m + z * m * m;
  const positions = new Float32Array(3 * m * m * m);
  for (let z = 0; z < m; z++) {
    for (let y = 0; y < m; y++) {
      for (let x = 0; x < m; x++) {
        const i = id(x, y, z);
        positions[3 * i] = x * h - CUBE_SIZE / 2;
        positions[3 * i + 1] = y * h + CUBE_DROP;
        positions[3 * i + 2] = z * h - CUBE_SIZE / 2;
      }
    }
  }
  const tets = [];
  for (let z = 0; z < cells; z++) {
    for (let y = 0; y < cells; y++) {
      for (let x = 0; x < cells; x++) {
        for (const t of KUHN) {
          const q = t.map(([dx, dy, dz]) => id(x + dx, y + dy, z + dz));
          if (signedTetVolume(positions, ...q) < 0) [q[2], q[3]] = [q[3], q[2]];  // pbd-wasm wants positive volume
          tets.push(...q);
        }
      }
    }
  }
  const edgeSet = new Set();
  const edges = [];
  const mass = new Float64Array(m * m * m);
  let restVolume = 0;
  for (let t = 0; t < tets.length; t += 4) {
    const q = tets.slice(t, t + 4);
    const v = signedTetVolume(positions, ...q);
    restVolume += v;
    for (const k of q) mass[k] += CUBE_DENSITY * v / 4;
    for (let a = 0; a < 4; a++) {
      for (let b = a + 1; b < 4; b++) {
        const i = Math.min(q[a], q[b]), j = Math.max(q[a], q[b]);
        const key = i * m * m * m + j;
        if (!edgeSet.has(key)) edgeSet.add(key), edges.push([i, j]);
      }
    }
  }
  const inverseMasses = Float32Array.from(mass, (w) => 1 / w);
  // Boundary faces (for Jolt's SoftBodyShape; pbd-wasm needs none): the tet faces that belong to one tet only.
  const faceCount = new Map();
  const faceOf = (a, b, c) => [a, b, c].sort((u, w) => u - w).join(',');
  for (let t = 0; t < tets.length; t += 4) {
    const [a, b, c, d] = tets.slice(t, t + 4);
    for (const f of [[a, c, b], [a, b, d], [a, d, c], [b, c, d]]) {  // outward for a positive tet
      const key = faceOf(...f);
      const e = faceCount.get(key);
      faceCount.set(key, e ? { ...e, count: e.count + 1 } : { tri: f, count: 1 });
    }
  }
  const triangles = [];
  for (const { tri, count } of faceCount.values()) if (count === 1) triangles.push(...tri);
  return {
    cells, positions, tets: Uint32Array.from(tets), edges, inverseMasses, triangles, restVolume,
    totalMass: mass.reduce((a, b) => a + b, 0),
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Sanity figures, computed the same way from either engine's world-space positions (xyz per particle).

/** Length / rest length over the pairs: max, 99th percentile and min (min < 1 = compressed, e.g. crumpled). */
function edgeStretch(p, pairs, rest) {
  const r = new Float64Array(pairs.length);
  for (let k = 0; k < pairs.length; k++) {
    const [i, j] = pairs[k];
    r[k] = Math.hypot(p[3 * i] - p[3 * j], p[3 * i + 1] - p[3 * j + 1], p[3 * i + 2] - p[3 * j + 2]) / rest[k];
  }
  r.sort();  // NaN sorts last
  return { max: r[r.length - 1], p99: r[Math.floor(0.99 * (r.length - 1))], min: r[0] };
}

export function restLengths(p, pairs) {
  return pairs.map(([i, j]) => Math.hypot(p[3 * i] - p[3 * j], p[3 * i + 1] - p[3 * j + 1], p[3 * i + 2] - p[3 * j + 2]));
}

const allFinite = (p) => p.every(Number.isFinite);
const maxAbs = (p) => p.reduce((m, x) => Math.max(m, Math.abs(x)), 0);

/**
 * verdict, from the edge length ratios (length / rest) and the positions:
 *   'blew up'   non-finite, or a particle > 10 m from the origin (the scenes span 2 m);
 *   'unstable'  an edge > 3x or < 0.25x its rest length: tangled or crumpled patches, no longer the scene's motion;
 *   'stretched' intact, but under-converged: 1 % of the edges > 1.1x or one > 1.5x;
 *   'ok'.
 * Timings compare only between rows that are 'ok' or 'stretched'.
 */
export const COMPARABLE = ['ok', 'stretched'];
function verdict(finite, extent, e) {
  if (!finite || !(extent <= 10)) return 'blew up';
  if (e.max > 3 || e.min < 0.25) return 'unstable';
  if (e.p99 > 1.1 || e.max > 1.5) return 'stretched';
  return 'ok';
}

/**
 * Over the grid (stretch) edges: maxStretch, p99Stretch, minStretch; lowestY and freeCornerY (the corner opposite
 * the pins), m.
 */
export function clothSanity(p, def, stretchRest = restLengths(def.positions, def.stretch)) {
  let lowestY = Infinity;
  for (let i = 1; i < p.length; i += 3) lowestY = Math.min(lowestY, p[i]);
  const finite = allFinite(p), e = edgeStretch(p, def.stretch, stretchRest), extent = maxAbs(p);
  return {
    verdict: verdict(finite, extent, e), finite, lowestY, freeCornerY: p[3 * def.freeCorner + 1],
    maxStretch: e.max, p99Stretch: e.p99, minStretch: e.min,
  };
}

/** Over all tet edges: max/p99/minStretch; lowestY, centroidY, m; volumeRatio: sum of tet volumes / rest. */
export function cubeSanity(p, def, edgeRest = restLengths(def.positions, def.edges)) {
  let lowestY = Infinity, sumY = 0;
  for (let i = 1; i < p.length; i += 3) lowestY = Math.min(lowestY, p[i]), sumY += p[i];
  let volume = 0;
  for (let t = 0; t < def.tets.length; t += 4) {
    volume += signedTetVolume(p, def.tets[t], def.tets[t + 1], def.tets[t + 2], def.tets[t + 3]);
  }
  const finite = allFinite(p), e = edgeStretch(p, def.edges, edgeRest), extent = maxAbs(p);
  const volumeRatio = volume / def.restVolume;
  let v = verdict(finite, extent, e);
  if (COMPARABLE.includes(v) && (Math.abs(volumeRatio - 1) > 0.2 || lowestY < -0.1)) v = 'unstable';
  return {
    verdict: v, finite, lowestY, centroidY: sumY / (p.length / 3), volumeRatio,
    maxStretch: e.max, p99Stretch: e.p99, minStretch: e.min,
  };
}

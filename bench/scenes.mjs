// The benchmarks' scenes, one module for every JS suite (bench/README.md, "Scenes"): what each scene is, as data and
// as a pbd-wasm World builder. A suite builds its scenes here, so two suites that name the same scene build the same
// particles, constraints and settings, and a comparison (pbd-wasm against Jolt, one build against another, one thread
// count against another) compares like with like.
//
// No Node-only imports and no engine loading: headless Chromium loads this file too (bench:peers --browser). The
// builders take a World (the package's, or a raw Emscripten module's: bench/simd.mjs) and return what they built.
// The demo's gallery scenes stay in web/demo/scenes/; galleryScene() below builds them as the page's worker does.
//
// Native twins (C++, tests/scenes/): hangingCloth is scenes::hangingCloth, softCube is the tet cube of CubeStep (10³),
// clothOnBunny is scenes/cloth_on_bunny.h, softBunny is SoftBunnyStep's (bench/native_bench.cpp). Issue 52's meshes
// (shuffledClothDef, irregularClothDef, the bigger cubes, bunnyTets) have none.

/** Frame length, s. Every suite steps 1/60 s frames. */
export const DT = 1 / 60;
/** Solver work per frame: 10 XPBD substeps x 1 pass over the constraints (Jolt: see peers/jolt-scenes.mjs). */
export const SUBSTEPS = 10;
/** m/s², y. The rest ("g = 0") variants use 0. */
export const GRAVITY = -9.81;
/** Ground friction (dynamic Coulomb) of the cloth's and the cube's ground, pbd-wasm's default. */
export const CUBE_FRICTION = 0.5;

// ---------------------------------------------------------------------------------------------------------------
// The hanging cloth (the "Foundation cloth"; tests/scenes/scenes.h hangingCloth). n x n particles, 1 m square in the
// XZ plane at y = 1 (particle (row r, column c) at (-0.5 + c s, 1, r s), index r n + c), 1 kg spread evenly,
// particles 0 and n - 1 (the two corners of row 0) pinned, every constraint rigid (XPBD compliance 0): stretch (grid
// edges), shear (both cell diagonals), bend (skip-one distance constraints along rows and columns). It falls and
// swings about the pinned edge. The ground plane sits at y = -2, out of reach (the cloth hangs at most 1 m below its
// pins). Scene ids: clothN, clothNrest (g = 0), clothNrestP (g = 0, P substeps x 1 pass).

export const CLOTH_SIZES = [32, 64, 128, 256];
/** Rest variants (gravity 0) for throughput where every engine stays finite (issue #8). */
export const REST_SIZES = [128, 256];
export const CLOTH_GROUND_Y = -2;
/** The 60 fps target of issue #8: the 256² rest cloth at 20 passes per frame (20 substeps x 1 pass). */
export const TARGET_PASSES = 20;
export const TARGET_PASSES_SIZE = 256;
export const TARGET_SCENE_ID = `cloth${TARGET_PASSES_SIZE}rest${TARGET_PASSES}`;

/** Particles, masses, pins and the constraint pairs (the same set pbd-wasm's addCloth builds), for any engine. */
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

/**
 * Solver settings and ground of the cloth and the cube: XPBD, `substeps` x `iterations`, gravity (0, g, 0), the
 * ground at y = groundY (friction 0.5, no restitution, no thickness); linear damping and the speed clamp (`damping`
 * 1/s, `maxSpeed` m/s) off unless given. `solver`: World.setSolver's name, or the default (coloured Gauss-Seidel).
 */
function configure(world, groundY, { gravity = GRAVITY, substeps = SUBSTEPS, iterations = 1, solver, damping = 0,
  maxSpeed = 0 } = {}) {
  world.setMethod('xpbd');
  if (solver) world.setSolver(solver);
  world.setSubsteps(substeps);
  world.setIterations(iterations);
  world.setGravity(0, gravity, 0);
  world.setLinearDamping(damping);
  if (maxSpeed) world.setMaxSpeed(maxSpeed);
  world.setGround({ height: groundY, friction: CUBE_FRICTION, restitution: 0, thickness: 0 });
}

/**
 * The hanging cloth in a pbd-wasm World (clothDef(n)'s constraint set; the builder throws if addCloth built another).
 * options: gravity, substeps, iterations, solver, damping, maxSpeed (configure above). Returns addCloth's body.
 */
export function hangingCloth(world, n, options = {}) {
  const def = clothDef(n);
  configure(world, CLOTH_GROUND_Y, options);
  const body = world.addCloth({ columns: n, rows: n, spacing: def.spacing, origin: [-0.5, 1, 0], axisU: [1, 0, 0],
    axisV: [0, 0, 1], mass: def.mass, pinned: def.pinned, stretch: { compliance: 0 }, shear: { compliance: 0 },
    bend: { compliance: 0, stiffness: 1 }, bendModel: 'skip-one', tethers: 'none' });
  if (body.constraintCount !== def.constraintCount || body.tetherCount !== 0) {
    throw new Error(`hangingCloth: ${body.constraintCount} constraints, clothDef expects ${def.constraintCount}`);
  }
  return body;
}

// ---------------------------------------------------------------------------------------------------------------
// Issue 52's cloths: meshes other than the grid, for the same constraint count (n² = 16,384 particles at n = 128). At
// rest (g = 0), 10 substeps x 1 pass, every constraint rigid, pinned at two corners like the grid cloth. Both are
// built in pbd-wasm through the public API (addParticles, addDistanceConstraints: meshCloth below), not addCloth, and
// given to Jolt from the same arrays. The random choices come from seededRandom with fixed seeds, so every run and
// both engines see the same mesh. Scene ids: clothNshuffled, clothIrregular (n = 128) or clothIrregularN.

/** Seeds of the shuffled and the irregular cloth (any fixed number: they make the scenes reproducible). */
export const SHUFFLE_SEED = 52;
export const IRREGULAR_SEED = 5252;
export const IRREGULAR_SIZE = 128;
/** Jitter of the irregular cloth's points: up to this fraction of the grid spacing along each axis. */
export const IRREGULAR_JITTER = 0.3;

/** A seeded PRNG (mulberry32): returns a function giving uniform floats in [0, 1), the same sequence for a seed. */
export function seededRandom(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A random permutation of 0 .. count - 1 (Fisher-Yates over seededRandom(seed)): perm[old index] = new index. */
export function seededPermutation(count, seed) {
  const random = seededRandom(seed), perm = Uint32Array.from({ length: count }, (_, i) => i);
  for (let i = count - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [perm[i], perm[j]] = [perm[j], perm[i]];
  }
  return perm;
}

/**
 * clothDef(n) with its particles numbered at random (seededPermutation(n², seed)): the same cloth, positions,
 * masses and constraints, the pairs, pins, triangles and free corner renumbered. What it measures: the grid's
 * numbering gives neighbours nearby indices (a cache line holds a row's neighbours); here no two neighbours are.
 */
export function shuffledClothDef(n, seed = SHUFFLE_SEED) {
  const def = clothDef(n), perm = seededPermutation(n * n, seed);
  const positions = new Float32Array(def.positions.length), inverseMasses = new Float32Array(def.inverseMasses.length);
  for (let i = 0; i < n * n; i++) {
    positions.set(def.positions.subarray(3 * i, 3 * i + 3), 3 * perm[i]);
    inverseMasses[perm[i]] = def.inverseMasses[i];
  }
  const pairs = (list) => list.map(([i, j]) => [perm[i], perm[j]]);
  return {
    ...def, seed, positions, inverseMasses, pinned: def.pinned.map((i) => perm[i]), stretch: pairs(def.stretch),
    shear: pairs(def.shear), bend: pairs(def.bend), triangles: def.triangles.map((i) => perm[i]),
    freeCorner: perm[def.freeCorner],
  };
}

/**
 * An irregular triangulated cloth of n x n particles: the grid of clothDef(n) (1 m square at y = 1, row-major
 * numbering) with every point moved by up to IRREGULAR_JITTER x the spacing along x and z (points on the border
 * only along it, the corners not at all) and every cell split along a random one of its two diagonals. Constraints,
 * all rigid: `stretch` = the triangle edges (each once), `bend` = across every interior edge, a distance constraint
 * between the two vertices opposite it (the skip-one bend of a triangle mesh; Jolt's EBendType_Distance), `shear`
 * none (the diagonals are triangle edges). 1 kg spread evenly, the corners of row 0 (particles 0 and n - 1) pinned.
 */
export function irregularClothDef(n = IRREGULAR_SIZE, seed = IRREGULAR_SEED) {
  const random = seededRandom(seed), s = 1 / (n - 1), id = (c, r) => r * n + c;
  const positions = new Float32Array(3 * n * n);
  const jitter = (k, last) => (k === 0 || k === last ? 0 : (2 * random() - 1) * IRREGULAR_JITTER * s);
  for (let r = 0; r < n; r++) {
    for (let c = 0; c < n; c++) {
      const i = id(c, r);
      positions[3 * i] = -0.5 + c * s + jitter(c, n - 1);
      positions[3 * i + 1] = 1;
      positions[3 * i + 2] = r * s + jitter(r, n - 1);
    }
  }
  const triangles = [];
  for (let r = 0; r + 1 < n; r++) {
    for (let c = 0; c + 1 < n; c++) {
      const [a, b, cc, d] = [id(c, r), id(c + 1, r), id(c + 1, r + 1), id(c, r + 1)];
      if (random() < 0.5) triangles.push(a, d, cc, a, cc, b);  // diagonal a-cc
      else triangles.push(a, d, b, b, d, cc);                 // diagonal b-d
    }
  }
  // Edges of the triangles, each once, with the vertices opposite it (one on the border, two inside).
  const opposite = new Map(), stretch = [];
  for (let t = 0; t < triangles.length; t += 3) {
    for (let k = 0; k < 3; k++) {
      const i = triangles[t + k], j = triangles[t + (k + 1) % 3], o = triangles[t + (k + 2) % 3];
      const key = Math.min(i, j) * n * n + Math.max(i, j);
      if (!opposite.has(key)) opposite.set(key, []), stretch.push([Math.min(i, j), Math.max(i, j)]);
      opposite.get(key).push(o);
    }
  }
  const bend = [], seen = new Set(opposite.keys());
  for (const others of opposite.values()) {
    if (others.length !== 2) continue;
    const [i, j] = [Math.min(...others), Math.max(...others)];
    if (!seen.has(i * n * n + j)) seen.add(i * n * n + j), bend.push([i, j]);
  }
  const pinned = [id(0, 0), id(n - 1, 0)];
  const inverseMasses = new Float32Array(n * n).fill(n * n);  // 1 kg over all n² particles, pinned ones too
  for (const p of pinned) inverseMasses[p] = 0;
  return {
    n, seed, spacing: s, mass: 1, positions, inverseMasses, pinned, stretch, shear: [], bend, triangles,
    freeCorner: id(n - 1, n - 1), constraintCount: stretch.length + bend.length,
  };
}

/**
 * A cloth def (clothDef's fields: positions, inverseMasses, stretch, shear, bend) in a pbd-wasm World through the
 * public API a user with their own mesh has: addParticles, then one addDistanceConstraints call over stretch, shear
 * and bend, all rigid. configure()'s settings with the ground at CLOTH_GROUND_Y. Returns a BodyRange-like record
 * (particleCount, constraintCount; no volumes, dihedrals or tethers).
 */
export function meshCloth(world, def, options = {}) {
  configure(world, CLOTH_GROUND_Y, options);
  const first = world.addParticles(def.positions, def.inverseMasses);
  const pairs = [...def.stretch, ...def.shear, ...def.bend];
  const flat = new Uint32Array(2 * pairs.length);
  pairs.forEach(([i, j], k) => { flat[2 * k] = first + i; flat[2 * k + 1] = first + j; });
  const before = world.distanceConstraintCount();
  const firstConstraint = world.addDistanceConstraints(flat, { compliance: 0 });
  const constraintCount = world.distanceConstraintCount() - before;
  if (constraintCount !== def.constraintCount) {
    throw new Error(`meshCloth: ${constraintCount} constraints, the def has ${def.constraintCount}`);
  }
  return { firstParticle: first, particleCount: def.positions.length / 3, firstConstraint, constraintCount,
    tetherCount: 0, dihedralCount: 0, volumeCount: 0 };
}

// ---------------------------------------------------------------------------------------------------------------
// The soft cube: a 1 m cube of (cells)³ grid cells, each split into 6 tets (the Kuhn split Jolt's SoftBodyCreator::
// CreateCube uses), with a rigid volume constraint per tet and a rigid distance constraint on every distinct tet
// edge (what pbd-wasm's addSoftBody builds: grid edges, one diagonal per face, one body diagonal per cell),
// density 1000 kg/m³ with vertex masses lumped from tet volumes. Its bottom starts 0.5 m above the ground plane
// y = 0, it falls, lands at t ~ 0.32 s and comes to rest on it (friction 0.5, no restitution). Scene id: cubeC.
// The same mesh as the demo's tetCube(cells, 1, [-0.5, 0.5, -0.5]) (web/demo/tet-cube.js) but for the order of the
// tets and of their corners, which the colouring follows: kept so that its figures stay comparable.

export const CUBE_CELLS = 10;
export const CUBE_SIZE = 1;
export const CUBE_DROP = 0.5;
export const CUBE_DENSITY = 1000;

const KUHN = [  // per cell: 6 tets, corners as (dx, dy, dz) offsets
  [[0, 0, 0], [0, 1, 1], [0, 0, 1], [1, 1, 1]],
  [[0, 0, 0], [0, 1, 0], [0, 1, 1], [1, 1, 1]],
  [[0, 0, 0], [0, 0, 1], [1, 0, 1], [1, 1, 1]],
  [[0, 0, 0], [1, 0, 1], [1, 0, 0], [1, 1, 1]],
  [[0, 0, 0], [1, 1, 0], [0, 1, 0], [1, 1, 1]],
  [[0, 0, 0], [1, 0, 0], [1, 1, 0], [1, 1, 1]],
];

/** Signed volume of tet (a, b, c, d) in the flat positions p (positive: right-handed, as pbd-wasm wants). */
export function signedTetVolume(p, a, b, c, d) {
  const ax = p[3 * b] - p[3 * a], ay = p[3 * b + 1] - p[3 * a + 1], az = p[3 * b + 2] - p[3 * a + 2];
  const bx = p[3 * c] - p[3 * a], by = p[3 * c + 1] - p[3 * a + 1], bz = p[3 * c + 2] - p[3 * a + 2];
  const cx = p[3 * d] - p[3 * a], cy = p[3 * d + 1] - p[3 * a + 1], cz = p[3 * d + 2] - p[3 * a + 2];
  return (ax * (by * cz - bz * cy) - ay * (bx * cz - bz * cx) + az * (bx * cy - by * cx)) / 6;
}

/** The cube's particles, tets, distinct edges, lumped inverse masses and boundary triangles, for any engine. */
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
  return { cells, ...tetMeshDef(positions, Uint32Array.from(tets)) };
}

/**
 * Any tet mesh (positive tets) as the data both engines take: positions, tets, the distinct tet edges (in the order
 * the tets first meet them), inverse masses lumped from the tet volumes at `density` (kg/m³; what addSoftBody's
 * density gives), the boundary triangles (the faces of one tet only, outward; for Jolt's SoftBodyShape), the rest
 * volume and the total mass.
 */
export function tetMeshDef(positions, tets, density = CUBE_DENSITY) {
  const count = positions.length / 3;
  const edgeSet = new Set();
  const edges = [];
  const mass = new Float64Array(count);
  let restVolume = 0;
  for (let t = 0; t < tets.length; t += 4) {
    const q = Array.from(tets.subarray(t, t + 4));
    const v = signedTetVolume(positions, ...q);
    restVolume += v;
    for (const k of q) mass[k] += density * v / 4;
    for (let a = 0; a < 4; a++) {
      for (let b = a + 1; b < 4; b++) {
        const i = Math.min(q[a], q[b]), j = Math.max(q[a], q[b]);
        const key = i * count + j;
        if (!edgeSet.has(key)) edgeSet.add(key), edges.push([i, j]);
      }
    }
  }
  if (!mass.every((w) => w > 0)) throw new Error('tetMeshDef: a vertex belongs to no tet of positive volume');
  const inverseMasses = Float32Array.from(mass, (w) => 1 / w);
  // Boundary faces (for Jolt's SoftBodyShape; pbd-wasm needs none): the tet faces that belong to one tet only.
  const faceCount = new Map();
  const faceOf = (a, b, c) => [a, b, c].sort((u, w) => u - w).join(',');
  for (let t = 0; t < tets.length; t += 4) {
    const [a, b, c, d] = tets.subarray(t, t + 4);
    for (const f of [[a, c, b], [a, b, d], [a, d, c], [b, c, d]]) {  // outward for a positive tet
      const key = faceOf(...f);
      const e = faceCount.get(key);
      faceCount.set(key, e ? { ...e, count: e.count + 1 } : { tri: f, count: 1 });
    }
  }
  const triangles = [];
  for (const { tri, count: c } of faceCount.values()) if (c === 1) triangles.push(...tri);
  return { positions, tets, edges, inverseMasses, triangles, restVolume, totalMass: mass.reduce((a, b) => a + b, 0) };
}

/**
 * A tet def (tetMeshDef's) in a pbd-wasm World: addSoftBody with a rigid volume constraint per tet and a rigid
 * distance constraint per tet edge, density CUBE_DENSITY, configure()'s settings with the ground at y = 0. Throws if
 * addSoftBody built other constraints than the def lists. Returns its body.
 */
export function softTets(world, def, name = 'softTets') {
  configure(world, 0);
  const body = world.addSoftBody({ positions: def.positions, tets: def.tets, density: CUBE_DENSITY, material: 'volume',
    edgeConstraints: true, edges: { compliance: 0 }, volume: { compliance: 0 } });
  if (body.constraintCount !== def.edges.length || body.volumeCount !== def.tets.length / 4) {
    throw new Error(`${name}: constraint counts differ from the def's`);
  }
  return body;
}

/** The soft cube in a pbd-wasm World (cubeDef(cells)'s constraints; throws if addSoftBody built others). */
export function softCube(world, cells = CUBE_CELLS) {
  return softTets(world, cubeDef(cells), 'softCube');
}

// The tetrahedralized bunny (issue 52): the Stanford bunny of the npm package `bunny` (web/demo/bunny-mesh.js), about
// 1 m tall (scale 0.1) with its lowest point CUBE_DROP above the ground, tetrahedralized by pbd-wasm's own
// pbd.tetrahedralize at BUNNY_RESOLUTION (3,998 particles, 18,707 tets), then dropped like the cube: same density,
// rigid volumes and tet edges, same ground. Scene id: bunnyTets. The tetrahedralizer needs a pbd-wasm module and the
// npm package is CommonJS (the bench:peers page loads no bundled dependencies): the caller gets the surface
// (bunnySurface, Node) and the tets (bunnyTetMesh) and passes them in, as for clothOnBunny below.
export const BUNNY_SCALE = 0.1;
export const BUNNY_RESOLUTION = 24;

/** The bunny's surface as plain arrays { positions, triangles } (npm `bunny`, scaled and lifted; Node or bundlers). */
export async function bunnySurface() {
  const { bunnyMesh } = await import('../web/demo/bunny-mesh.js');
  const { positions, triangles } = bunnyMesh(BUNNY_SCALE, CUBE_DROP);
  return { positions: Array.from(positions), triangles: Array.from(triangles) };
}

/** The bunny's tet mesh: pbd.tetrahedralize of bunnySurface()'s arrays at BUNNY_RESOLUTION ({ positions, tets }). */
export function bunnyTetMesh(pbd, surface) {
  return pbd.tetrahedralize(Float32Array.from(surface.positions), Uint32Array.from(surface.triangles),
    { resolution: BUNNY_RESOLUTION });
}

// ---------------------------------------------------------------------------------------------------------------
// Scene ids: the cloths, the cubes and the bunny by name, as bench:peers, paired-threads.mjs and paired-builds.mjs
// take them.

/**
 * 'cloth128' (gravity), 'cloth128rest' (g = 0), 'cloth256rest20' (g = 0, 20 substeps x 1 pass), 'cloth128shuffled'
 * (g = 0, shuffledClothDef), 'clothIrregular' / 'clothIrregular64' (g = 0, irregularClothDef, n = 128 unless given),
 * 'cube10' (any cells), 'bunnyTets' -> { id, label, kind: 'cloth' | 'tets', mesh: 'grid' | 'shuffled' | 'irregular' |
 * 'cube' | 'bunny', size, gravity, substeps }; null for any other name.
 */
export function benchScene(id) {
  const cloth = /^cloth(\d+)(?:(rest)(\d+)?)?$/.exec(id);
  if (cloth) {
    const n = Number(cloth[1]), rest = Boolean(cloth[2]), passes = cloth[3] ? Number(cloth[3]) : SUBSTEPS;
    const label = cloth[3] ? `cloth ${n}² g=0 ${passes}x1` : `cloth ${n}x${n}${rest ? ' g=0' : ''}`;
    return { id, label, kind: 'cloth', mesh: 'grid', size: n, gravity: rest ? 0 : GRAVITY, substeps: passes };
  }
  const shuffled = /^cloth(\d+)shuffled$/.exec(id);
  if (shuffled) {
    return { id, label: `cloth ${shuffled[1]}² shuffled g=0`, kind: 'cloth', mesh: 'shuffled',
      size: Number(shuffled[1]), gravity: 0, substeps: SUBSTEPS };
  }
  const irregular = /^clothIrregular(\d+)?$/.exec(id);
  if (irregular) {
    const n = irregular[1] ? Number(irregular[1]) : IRREGULAR_SIZE;
    return { id, label: `cloth ${n}² irregular g=0`, kind: 'cloth', mesh: 'irregular', size: n, gravity: 0,
      substeps: SUBSTEPS };
  }
  const cube = /^cube(\d+)$/.exec(id);
  if (cube) {
    return { id, label: `cube ${cube[1]}^3 cells`, kind: 'tets', mesh: 'cube', size: Number(cube[1]), gravity: GRAVITY,
      substeps: SUBSTEPS };
  }
  if (id === 'bunnyTets') {
    return { id, label: `bunny tets res ${BUNNY_RESOLUTION}`, kind: 'tets', mesh: 'bunny', size: BUNNY_RESOLUTION,
      gravity: GRAVITY, substeps: SUBSTEPS };
  }
  return null;
}

/**
 * A benchScene()'s particles and constraints as data, what Jolt is given and pbd-wasm builds: clothDef,
 * shuffledClothDef, irregularClothDef (cloth kind: positions, inverseMasses, pinned, stretch, shear, bend, triangles,
 * freeCorner, constraintCount) or cubeDef, tetMeshDef (tets kind: positions, tets, edges, inverseMasses, triangles,
 * restVolume). bunnyTets needs `tetMesh`, its bunnyTetMesh().
 */
export function benchSceneDef(scene, tetMesh) {
  switch (scene.mesh) {
    case 'grid': return clothDef(scene.size);
    case 'shuffled': return shuffledClothDef(scene.size);
    case 'irregular': return irregularClothDef(scene.size);
    case 'cube': return cubeDef(scene.size);
    case 'bunny':
      if (!tetMesh) throw new Error('bunnyTets: pass its tet mesh (bunnyTetMesh(pbd, await bunnySurface()))');
      return { ...tetMeshDef(Float32Array.from(tetMesh.positions), Uint32Array.from(tetMesh.tets)),
        resolution: BUNNY_RESOLUTION };
    default: throw new Error(`benchSceneDef: unknown mesh ${scene.mesh}`);
  }
}

/**
 * Builds a benchScene() into a pbd-wasm World; returns its body. The grid cloth through addCloth (hangingCloth),
 * the other cloths through addParticles + addDistanceConstraints (meshCloth), the tet meshes through addSoftBody
 * (softTets). def: benchSceneDef(scene) (bunnyTets: required; the others compute it when left out).
 */
export function buildBenchScene(world, scene, def) {
  const settings = { gravity: scene.gravity, substeps: scene.substeps };
  if (scene.mesh === 'grid') return hangingCloth(world, scene.size, settings);
  if (scene.kind === 'cloth') return meshCloth(world, def ?? benchSceneDef(scene), settings);
  return softTets(world, def ?? benchSceneDef(scene), scene.id);
}

// ---------------------------------------------------------------------------------------------------------------
// The solvers' scenes (bench:solvers): each returns the edges whose stretch is reported (flat particle-index pairs)
// with their rest lengths. Every one is rigid XPBD (compliance 0) with the ground off, so the recorded residual
// r = C + α̃λ is the constraint violation C for every solver alike (PD keeps no λ).

/** Lengths of `edges` (pairs of particle indices, flat) in the positions xyz. */
export function edgeLengths(xyz, edges) {
  const out = new Float64Array(edges.length / 2);
  for (let e = 0; e < out.length; e++) {
    const a = 3 * edges[2 * e], b = 3 * edges[2 * e + 1];
    out[e] = Math.hypot(xyz[a] - xyz[b], xyz[a + 1] - xyz[b + 1], xyz[a + 2] - xyz[b + 2]);
  }
  return out;
}

function withRest(world, edges) {
  return { edges: new Uint32Array(edges), rest: edgeLengths(world.positions(), edges) };
}

/**
 * Issue #4's hanging cloth: n x n particles, 1 m, 1 kg, two corners pinned, rigid stretch (grid edges) and shear
 * (both cell diagonals) distance constraints, no bending. Built particle by particle rather than with addCloth,
 * whose rigid skip-one bend edges (or serial dihedrals) would over-constrain it: a hanging cloth cannot meet them
 * all, every residual curve then flattens on that conflict and no solver's convergence shows. Stretch and shear
 * alone can all be met (a plate of rigid quads hinged along the grid lines). So not hangingCloth above.
 */
export function stretchShearCloth(world, n) {
  world.setGround({ enabled: false });
  const xyz = new Float32Array(3 * n * n), invMass = new Float32Array(n * n).fill(n * n);  // 1 kg in all
  for (let r = 0; r < n; r++) {
    for (let c = 0; c < n; c++) xyz.set([-0.5 + c / (n - 1), 1, r / (n - 1)], 3 * (r * n + c));
  }
  invMass[0] = invMass[n - 1] = 0;
  const first = world.addParticles(xyz, invMass);
  const id = (r, c) => first + r * n + c;
  const rigid = { compliance: 0, stiffness: 1 };
  const edges = clothEdges(n, first).grid;
  for (let k = 0; k < edges.length; k += 2) world.addDistanceConstraint(edges[k], edges[k + 1], rigid);
  for (let r = 0; r + 1 < n; r++) {
    for (let c = 0; c + 1 < n; c++) {
      world.addDistanceConstraint(id(r, c), id(r + 1, c + 1), rigid);
      world.addDistanceConstraint(id(r, c + 1), id(r + 1, c), rigid);
    }
  }
  return withRest(world, edges);
}

/**
 * The same n x n cloth (1 m, 1 kg, flat at y = 1, the two corners of its first row pinned, no ground) built by
 * addCloth with dihedral bending at the default strengths (rigid stretch and shear, hinges of compliance 1e-4): the
 * stiff hinges that VBD gains energy on at one iteration (docs/performance.md). Edges: the grid edges.
 */
export function dihedralHangingCloth(world, n) {
  world.setGround({ enabled: false });
  const body = world.addCloth({ columns: n, rows: n, spacing: 1 / (n - 1), origin: [-0.5, 1, 0], axisU: [1, 0, 0],
    axisV: [0, 0, 1], mass: 1, bendModel: 'dihedral', pinned: [0, n - 1] });
  return withRest(world, clothEdges(n, body.firstParticle).grid);
}

/** A chain of `links` rigid links, 1 kg, 10 m long, pinned at one end, starting horizontal (it swings down). */
export function chain(world, links) {
  world.setGround({ enabled: false });
  const body = world.addRope({ segments: links, start: [0, 0, 0], end: [10, 0, 0], mass: 1, pinned: [0],
    stretch: { compliance: 0, stiffness: 1 } });
  const edges = [];
  for (let k = 0; k < links; k++) edges.push(body.firstParticle + k, body.firstParticle + k + 1);
  return withRest(world, edges);
}

/**
 * A soft tet beam, cells nx x ny x nz of side `cell` m, clamped at x = 0, sagging under gravity: each cube split
 * into the 6 Kuhn tets around its main diagonal, rigid tet edges and incompressible tet volumes (density 1000).
 */
export function tetBeam(world, nx = 16, ny = 4, nz = 4, cell = 0.05) {
  world.setGround({ enabled: false });
  const { positions, tets } = beamMesh(nx, ny, nz, cell);
  const pinned = [];
  for (let v = 0; v < positions.length / 3; v++) if (positions[3 * v] === 0) pinned.push(v);
  const body = world.addSoftBody({ positions, tets, density: 1000, pinned });
  const seen = new Set(), edges = [];
  for (let t = 0; t < tets.length; t += 4) {
    for (let a = 0; a < 4; a++) {
      for (let b = a + 1; b < 4; b++) {
        const i = Math.min(tets[t + a], tets[t + b]), j = Math.max(tets[t + a], tets[t + b]);
        if (!seen.has(i * 1e6 + j)) seen.add(i * 1e6 + j), edges.push(body.firstParticle + i, body.firstParticle + j);
      }
    }
  }
  return withRest(world, edges);
}

/**
 * Grid points and right-handed Kuhn tets of an nx x ny x nz block of cubes (pure). The demo's tetCube's split, with
 * x the slowest index instead of z.
 */
export function beamMesh(nx, ny, nz, cell) {
  const positions = [], tets = [];
  const id = (i, j, k) => (i * (ny + 1) + j) * (nz + 1) + k;
  for (let i = 0; i <= nx; i++) {
    for (let j = 0; j <= ny; j++) for (let k = 0; k <= nz; k++) positions.push(i * cell, j * cell, k * cell);
  }
  const axes = [[1, 0, 0], [0, 1, 0], [0, 0, 1]];
  const orders = [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]];
  for (let i = 0; i < nx; i++) {
    for (let j = 0; j < ny; j++) {
      for (let k = 0; k < nz; k++) {
        for (const order of orders) {
          const corner = [i, j, k], tet = [id(i, j, k)];
          for (const a of order) {
            corner[0] += axes[a][0], corner[1] += axes[a][1], corner[2] += axes[a][2];
            tet.push(id(corner[0], corner[1], corner[2]));
          }
          if (signedTetVolume(positions, ...tet) < 0) [tet[2], tet[3]] = [tet[3], tet[2]];
          tets.push(...tet);
        }
      }
    }
  }
  return { positions: new Float32Array(positions), tets: new Uint32Array(tets) };
}

/** bench:solvers' scenes by name: { label, build(world) -> { edges, rest } }. */
export const SOLVER_SCENES = {
  cloth32: { label: 'hanging cloth 32x32', build: (w) => stretchShearCloth(w, 32) },
  cloth64: { label: 'hanging cloth 64x64', build: (w) => stretchShearCloth(w, 64) },
  cloth128: { label: 'hanging cloth 128x128', build: (w) => stretchShearCloth(w, 128) },
  cloth256: { label: 'hanging cloth 256x256', build: (w) => stretchShearCloth(w, 256) },
  chain1000: { label: 'chain of 1,000 links', build: (w) => chain(w, 1000) },
  beam: { label: 'soft tet beam 16x4x4 cells (volume tets + edges)', build: (w) => tetBeam(w) },
};

// ---------------------------------------------------------------------------------------------------------------
// Issue 53's stiff scenes (bench:solvers --stiff): what favours a solver that handles stiffness and mass ratios
// (Vertex Block Descent's claims). Built through the public API (addParticles, addDistanceConstraints,
// setInverseMass, addSoftBody, setPosition), ground off. The cloths are laid out as stretchShearCloth's (n x n, 1 m
// square in the XZ plane at y = 1, particle (row r, column c) at (-0.5 + c s, 1, r s), index r n + c, row 0 the top
// edge; stretch and shear distance constraints, no bending, no tethers) and return withRest's { edges, rest } (the
// grid edges, whose strain is reported) and `residual`: { edges, rest } of the constraints whose |C| the stiff
// residual is taken over (stiff.mjs relativeResidual).

/**
 * The grid and shear edges of an n x n cloth as flat particle pairs (stretchShearCloth's order: grid edges row by
 * row, then both diagonals of each cell), offset by `first`, and which of them are grid edges.
 */
function clothEdges(n, first) {
  const id = (r, c) => first + r * n + c;
  const grid = [], shear = [];
  for (let r = 0; r < n; r++) {
    for (let c = 0; c < n; c++) {
      if (c + 1 < n) grid.push(id(r, c), id(r, c + 1));
      if (r + 1 < n) grid.push(id(r, c), id(r + 1, c));
    }
  }
  for (let r = 0; r + 1 < n; r++) {
    for (let c = 0; c + 1 < n; c++) shear.push(id(r, c), id(r + 1, c + 1), id(r, c + 1), id(r + 1, c));
  }
  return { grid, shear };
}

/** stretchShearCloth's particles: n x n over 1 m, `mass` kg spread evenly (pinned ones too), `pinned` grid indices. */
function clothParticles(world, n, mass, pinned) {
  const xyz = new Float32Array(3 * n * n), invMass = new Float32Array(n * n).fill((n * n) / mass);
  for (let r = 0; r < n; r++) {
    for (let c = 0; c < n; c++) xyz.set([-0.5 + c / (n - 1), 1, r / (n - 1)], 3 * (r * n + c));
  }
  for (const p of pinned) invMass[p] = 0;
  return world.addParticles(xyz, invMass);
}

/** Compliance (m/N) of the stiff and of the soft half of stiffHalfCloth: a stiffness ratio of 1e6. */
export const STIFF_HALF_COMPLIANCE = { stiff: 1e-8, soft: 1e-2 };

/**
 * Issue 53's two-stiffness cloth: n x n (default 32), 1 kg, hung from its whole top edge (row 0 pinned). Every
 * stretch and shear edge with both ends in the left half (columns < n / 2) has compliance 1e-8 m/N, every other one
 * (the right half and the edges across the middle) 1e-2 m/N (STIFF_HALF_COMPLIANCE): one addDistanceConstraints call
 * per compliance, stiff first. Returns { edges, rest, stiff } (the grid edges; stiff[e] = 1 for the stiff ones) and
 * `residual`: the stiff half's stretch and shear edges (the soft half keeps a physical stretch of up to 10% when it
 * hangs, so only the stiff edges' |C| tends to 0 with more iterations, for every solver alike).
 */
export function stiffHalfCloth(world, n = 32) {
  world.setGround({ enabled: false });
  const first = clothParticles(world, n, 1, Array.from({ length: n }, (_, c) => c));
  const { grid, shear } = clothEdges(n, first);
  const left = (i, j) => (i - first) % n < n / 2 && (j - first) % n < n / 2;
  const split = (pairs) => {
    const stiff = [], soft = [];
    for (let k = 0; k < pairs.length; k += 2) (left(pairs[k], pairs[k + 1]) ? stiff : soft).push(pairs[k], pairs[k + 1]);
    return { stiff, soft };
  };
  const all = split([...grid, ...shear]);
  world.addDistanceConstraints(all.stiff, { compliance: STIFF_HALF_COMPLIANCE.stiff });
  world.addDistanceConstraints(all.soft, { compliance: STIFF_HALF_COMPLIANCE.soft });
  const stiff = new Uint8Array(grid.length / 2);
  for (let e = 0; e < stiff.length; e++) stiff[e] = left(grid[2 * e], grid[2 * e + 1]) ? 1 : 0;
  return { ...withRest(world, grid), stiff, residual: withRest(world, all.stiff) };
}

/** heavyMassCloth's masses: the cloth's total (kg, every particle the same) and the one heavy particle's (kg). */
export const HEAVY_MASS = { cloth: 0.01, heavy: 10 };

/**
 * Issue 53's heavy mass on a light cloth: n x n (default 24), 0.01 kg in all, pinned at its two top corners, every
 * stretch and shear edge rigid (compliance 0); then the particle at the middle of the bottom edge (row n - 1, column
 * n / 2) is made 10 kg with setInverseMass (HEAVY_MASS: 576,000 times a cloth particle at n = 24). Returns the grid
 * edges with `heavy` (its particle index) and `residual`: every distance constraint (all rigid, so the residual is
 * the engine's own RMS |C|).
 */
export function heavyMassCloth(world, n = 24) {
  world.setGround({ enabled: false });
  const first = clothParticles(world, n, HEAVY_MASS.cloth, [0, n - 1]);
  const { grid, shear } = clothEdges(n, first);
  world.addDistanceConstraints([...grid, ...shear], { compliance: 0 });
  const heavy = first + (n - 1) * n + n / 2;
  world.setInverseMass(heavy, 1 / HEAVY_MASS.heavy);
  return { ...withRest(world, grid), heavy, residual: withRest(world, [...grid, ...shear]) };
}

/** The scrambled block's seed (seededRandom). */
export const SCRAMBLE_SEED = 53;

/**
 * Issue 53's scrambled start: a soft block of cells³ cubes of side `cell` m (default 4³ of 0.1 m: 125 particles,
 * 384 tets; beamMesh's Kuhn split), addSoftBody with density 1000 and rigid tet edges and volumes (its defaults), no
 * pins, no gravity, no ground. Then every particle is moved (setPosition) to a uniformly random point of the block's
 * bounding box (seededRandom(seed), x, y, z in turn), at rest, and let go. Returns the tet edges with their rest
 * lengths (from the built shape, before the scramble), `tets` (world particle indices) and `restVolumes`.
 */
export function scrambledTetBlock(world, cells = 4, cell = 0.1, seed = SCRAMBLE_SEED) {
  world.setGround({ enabled: false });
  world.setGravity(0, 0, 0);
  const { positions, tets } = beamMesh(cells, cells, cells, cell);
  const body = world.addSoftBody({ positions, tets, density: 1000 });
  const seen = new Set(), edges = [], worldTets = new Uint32Array(tets.length), restVolumes = [];
  for (let t = 0; t < tets.length; t += 4) {
    for (let a = 0; a < 4; a++) {
      worldTets[t + a] = body.firstParticle + tets[t + a];
      for (let b = a + 1; b < 4; b++) {
        const i = Math.min(tets[t + a], tets[t + b]), j = Math.max(tets[t + a], tets[t + b]);
        if (!seen.has(i * 1e6 + j)) seen.add(i * 1e6 + j), edges.push(body.firstParticle + i, body.firstParticle + j);
      }
    }
    restVolumes.push(signedTetVolume(positions, ...tets.subarray(t, t + 4)));
  }
  const built = withRest(world, edges);
  const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
  for (let v = 0; v < positions.length; v++) lo[v % 3] = Math.min(lo[v % 3], positions[v]), hi[v % 3] = Math.max(hi[v % 3], positions[v]);
  const random = seededRandom(seed);
  for (let v = 0; v < positions.length / 3; v++) {
    const p = [0, 1, 2].map((k) => lo[k] + (hi[k] - lo[k]) * random());
    world.setPosition(body.firstParticle + v, p[0], p[1], p[2]);
  }
  return { ...built, tets: worldTets, restVolumes: Float64Array.from(restVolumes) };
}

/**
 * bench:solvers --stiff's scenes by name: { label, build(world) -> { edges, rest, ... } }. hanging48 is the
 * benchmark's own rigid cloth (stretchShearCloth) at 48².
 */
export const STIFF_SCENES = {
  hanging48: { label: 'rigid hanging cloth 48x48, two top corners pinned', build: (w) => stretchShearCloth(w, 48) },
  dihedral32: { label: 'cloth 32x32 with dihedral bending (addCloth defaults), two corners of its first row pinned',
    build: (w) => dihedralHangingCloth(w, 32) },
  stiffHalf32: { label: 'cloth 32x32 hung from its top edge, left half 1e6x stiffer (compliance 1e-8 vs 1e-2)',
    build: (w) => stiffHalfCloth(w, 32) },
  heavyMass24: { label: 'light cloth 24x24 (0.01 kg, rigid, top corners pinned), 10 kg at the middle of its bottom edge',
    build: (w) => heavyMassCloth(w, 24) },
  scrambledTets4: { label: 'soft block 4x4x4 cells (rigid edges + volumes), every particle scrambled, g = 0',
    build: (w) => scrambledTetBlock(w, 4) },
};

// ---------------------------------------------------------------------------------------------------------------
// The Stanford bunny's scenes (npm run bench). `bunny` / `mesh` come from the caller (web/demo/bunny-mesh.js
// bunnyMesh, pbd.tetrahedralize), which keeps the npm 'bunny' package out of this file (and out of the browser).

/**
 * Issue #5's self-collision scene (tests/scenes/cloth_on_bunny.h): an n x n cloth, 1 m, 1 kg, continuous
 * self-collision on (thickness 0.45 x the spacing), dropped from 0.1 m above the bunny (bunnyMesh(0.05, 0): 0.5 m
 * tall on y = 0, a triangle-mesh collider of thickness 1 cm, friction 0.4) onto the ground; XPBD 10 substeps x 1
 * iteration, linear damping 0.1 1/s. Returns the cloth's body.
 */
export function clothOnBunny(world, n, bunny) {
  world.setMethod('xpbd');
  world.setSubsteps(10);
  world.setIterations(1);
  world.setLinearDamping(0.1);
  world.addCollider({ shape: 'mesh', positions: bunny.positions, indices: bunny.triangles, thickness: 0.01,
    friction: 0.4 });
  let top = -Infinity, cx = 0, cz = 0;
  const count = bunny.positions.length / 3;
  for (let i = 0; i < count; i++) {
    top = Math.max(top, bunny.positions[3 * i + 1]);
    cx += bunny.positions[3 * i] / count;
    cz += bunny.positions[3 * i + 2] / count;
  }
  const spacing = 1 / (n - 1);
  return world.addCloth({ columns: n, rows: n, spacing, origin: [cx - 0.5, top + 0.1, cz - 0.5], axisU: [1, 0, 0],
    axisV: [0, 0, 1], mass: 1, bend: { compliance: 1e-3, stiffness: 1 },
    continuousSelfCollision: { enabled: true, thickness: 0.45 * spacing } });
}

/**
 * The soft bunny of SoftBunnyStep: `mesh` (pbd.tetrahedralize of the bunny) as a soft body, density 500, XPBD 10
 * substeps; material 'volume' (with edge constraints, compliance 1e-6) or 'neo-hookean'. Returns its body.
 */
export function softBunny(world, mesh, material) {
  world.setMethod('xpbd');
  world.setSubsteps(10);
  return world.addSoftBody({ positions: mesh.positions, tets: mesh.tets, density: 500, edges: { compliance: 1e-6 },
    material, edgeConstraints: material === 'volume' });
}

// ---------------------------------------------------------------------------------------------------------------
// The demo's gallery (web/demo/scenes/): built as the page's simulation worker builds it (web/demo/scene-host.js),
// with the panel's starting values. Imported on demand: the demo's modules pull in the npm 'bunny' package.

/** The gallery's scene names, in the page's order. */
export async function galleryNames() {
  return Object.keys((await import('../web/demo/scenes/index.js')).SCENES);
}

/** The assets the gallery scenes share (the tetrahedralized bunny): build once, pass to several galleryScene calls. */
export async function galleryAssets(pbd) {
  return (await import('../web/demo/scene-host.js')).createAssets(pbd);
}

/** A gallery scene as the demo's worker builds it: { worlds: [{ world, ... }], ... } (scene-host.js buildScene). */
export async function galleryScene(pbd, name, assets) {
  const host = await import('../web/demo/scene-host.js');
  const built = host.buildScene(pbd, name, assets ?? host.createAssets(pbd));
  host.applyParams(built, host.sceneParams(name));
  return built;
}

// The solver benchmark's scenes, built through the package API. Each returns the edges whose stretch is reported
// (flat particle-index pairs) with their rest lengths. Every scene is rigid XPBD (compliance 0), so the recorded
// residual r = C + α̃λ is the constraint violation C for every solver alike (PD keeps no λ).
import { edgeLengths } from './metrics.mjs';

/**
 * Issue #4's hanging cloth: n x n particles, 1 m, 1 kg, two corners pinned, rigid stretch (grid edges) and shear
 * (both cell diagonals) distance constraints, no bending. Built particle by particle rather than with addCloth,
 * whose rigid skip-one bend edges (or serial dihedrals) would over-constrain it: a hanging cloth cannot meet them
 * all, every residual curve then flattens on that conflict and no solver's convergence shows. Stretch and shear
 * alone can all be met (a plate of rigid quads hinged along the grid lines).
 */
export function hangingCloth(world, n) {
  world.setGround({ enabled: false });
  const xyz = new Float32Array(3 * n * n), invMass = new Float32Array(n * n).fill(n * n);  // 1 kg in all
  for (let r = 0; r < n; r++) {
    for (let c = 0; c < n; c++) xyz.set([-0.5 + c / (n - 1), 1, r / (n - 1)], 3 * (r * n + c));
  }
  invMass[0] = invMass[n - 1] = 0;
  const first = world.addParticles(xyz, invMass);
  const id = (r, c) => first + r * n + c;
  const rigid = { compliance: 0, stiffness: 1 };
  const edges = [];
  for (let r = 0; r < n; r++) {
    for (let c = 0; c < n; c++) {
      if (c + 1 < n) edges.push(id(r, c), id(r, c + 1));
      if (r + 1 < n) edges.push(id(r, c), id(r + 1, c));
    }
  }
  for (let k = 0; k < edges.length; k += 2) world.addDistanceConstraint(edges[k], edges[k + 1], rigid);
  for (let r = 0; r + 1 < n; r++) {
    for (let c = 0; c + 1 < n; c++) {
      world.addDistanceConstraint(id(r, c), id(r + 1, c + 1), rigid);
      world.addDistanceConstraint(id(r, c + 1), id(r + 1, c), rigid);
    }
  }
  return withRest(world, edges);
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

/** Grid points and right-handed Kuhn tets of an nx x ny x nz block of cubes (pure; exported for the tests). */
export function beamMesh(nx, ny, nz, cell) {
  const positions = [], tets = [];
  const id = (i, j, k) => (i * (ny + 1) + j) * (nz + 1) + k;
  for (let i = 0; i <= nx; i++) for (let j = 0; j <= ny; j++) for (let k = 0; k <= nz; k++) positions.push(i * cell, j * cell, k * cell);
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
          if (signedVolume(positions, tet) < 0) [tet[2], tet[3]] = [tet[3], tet[2]];
          tets.push(...tet);
        }
      }
    }
  }
  return { positions: new Float32Array(positions), tets: new Uint32Array(tets) };
}

export function signedVolume(p, t) {
  const d = (a, b) => [p[3 * b] - p[3 * a], p[3 * b + 1] - p[3 * a + 1], p[3 * b + 2] - p[3 * a + 2]];
  const [u, v, w] = [d(t[0], t[1]), d(t[0], t[2]), d(t[0], t[3])];
  return (u[0] * (v[1] * w[2] - v[2] * w[1]) - u[1] * (v[0] * w[2] - v[2] * w[0]) + u[2] * (v[0] * w[1] - v[1] * w[0])) / 6;
}

function withRest(world, edges) {
  return { edges: new Uint32Array(edges), rest: edgeLengths(world.positions(), edges) };
}

/** Every scene of the benchmark by name. */
export const SCENES = {
  cloth32: { label: 'hanging cloth 32x32', build: (w) => hangingCloth(w, 32) },
  cloth64: { label: 'hanging cloth 64x64', build: (w) => hangingCloth(w, 64) },
  cloth128: { label: 'hanging cloth 128x128', build: (w) => hangingCloth(w, 128) },
  cloth256: { label: 'hanging cloth 256x256', build: (w) => hangingCloth(w, 256) },
  chain1000: { label: 'chain of 1,000 links', build: (w) => chain(w, 1000) },
  beam: { label: 'soft tet beam 16x4x4 cells (volume tets + edges)', build: (w) => tetBeam(w) },
};

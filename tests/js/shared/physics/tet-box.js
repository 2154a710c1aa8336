// A structured tet mesh of a box: (nx × ny × nz) cubes, each split into 6 tets around its main diagonal (Kuhn), so
// neighbouring cubes share faces. Every tet is right-handed, as addSoftBody wants.

/**
 * @param {[number, number, number]} size box edge lengths along x, y, z (m); the box spans [0, size] from `origin`.
 * @returns {{positions: Float32Array, tets: Uint32Array, index: (i: number, j: number, k: number) => number,
 *   counts: [number, number, number]}}
 */
export function tetBox([nx, ny, nz], size, origin = [0, 0, 0]) {
  const index = (i, j, k) => (k * (ny + 1) + j) * (nx + 1) + i;
  const positions = new Float32Array(3 * (nx + 1) * (ny + 1) * (nz + 1));
  for (let k = 0; k <= nz; k++) {
    for (let j = 0; j <= ny; j++) {
      for (let i = 0; i <= nx; i++) {
        const at = 3 * index(i, j, k);
        positions[at] = origin[0] + size[0] * i / nx;
        positions[at + 1] = origin[1] + size[1] * j / ny;
        positions[at + 2] = origin[2] + size[2] * k / nz;
      }
    }
  }
  const axes = [[1, 0, 0], [0, 1, 0], [0, 0, 1]];
  const orders = [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]];
  const tets = [];
  for (let k = 0; k < nz; k++) {
    for (let j = 0; j < ny; j++) {
      for (let i = 0; i < nx; i++) {
        for (const order of orders) {
          const c = [i, j, k];
          const tet = [index(...c)];
          for (const axis of order) {
            for (let d = 0; d < 3; d++) c[d] += axes[axis][d];
            tet.push(index(...c));
          }
          if (signedVolume(positions, tet) < 0) [tet[2], tet[3]] = [tet[3], tet[2]];
          tets.push(...tet);
        }
      }
    }
  }
  return { positions, tets: Uint32Array.from(tets), index, counts: [nx, ny, nz] };
}

/** Six times the signed volume of tet (a, b, c, d). */
export function signedVolume(x, [a, b, c, d]) {
  const e = (p) => [x[3 * p] - x[3 * a], x[3 * p + 1] - x[3 * a + 1], x[3 * p + 2] - x[3 * a + 2]];
  const [u, v, w] = [e(b), e(c), e(d)];
  return u[0] * (v[1] * w[2] - v[2] * w[1]) - u[1] * (v[0] * w[2] - v[2] * w[0]) + u[2] * (v[0] * w[1] - v[1] * w[0]);
}

/**
 * Boundary faces of a tet mesh (faces of exactly one tet), each as 3 vertex indices.
 * @returns {number[][]}
 */
export function boundaryFaces(tets) {
  const seen = new Map();
  for (let t = 0; t < tets.length; t += 4) {
    const v = [tets[t], tets[t + 1], tets[t + 2], tets[t + 3]];
    for (let skip = 0; skip < 4; skip++) {
      const face = v.filter((_, q) => q !== skip);
      const key = [...face].sort((a, b) => a - b).join(',');
      seen.set(key, seen.has(key) ? null : face);
    }
  }
  return [...seen.values()].filter(Boolean);
}

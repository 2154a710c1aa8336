/**
 * Geometry whose vertices are the simulation's particles, read in place: the low-level half of the adapter, for
 * pages that get positions from a worker (a Float32Array over shared wasm memory) rather than from a World.
 *
 * @example
 * const range = world.addCloth({ columns: 64, rows: 64, spacing: 0.02 });
 * const geometry = createClothGeometry(world.positions(), range, 64, 64);
 * // every frame, after world.step():
 * refreshGeometry(geometry);
 *
 * The position attribute wraps the view it is given (no copy); after a call that may allocate in the world (adding
 * particles or bodies), fetch world.positions() again and call setGeometryPositions().
 */
import { BufferAttribute, BufferGeometry, Float32BufferAttribute } from 'three';
import { gridTriangles, tetSurfaceTriangles } from './topology.js';
import { InvalidArgumentError } from '../errors.js';

/**
 * A triangulated grid over particles [range.firstParticle, + columns*rows) of a positions view.
 * @param {Float32Array} positions xyz per particle: world.positions(), or a Float32Array over shared wasm memory.
 * @param {{firstParticle: number}} range where the cloth's particles start (what addCloth returned).
 * @param {number} columns particles along the cloth's first axis.
 * @param {number} rows particles along its second axis.
 */
export function createClothGeometry(positions, range, columns, rows) {
  if (!(Number.isInteger(columns) && columns >= 2 && Number.isInteger(rows) && rows >= 2)) {
    throw new InvalidArgumentError(
      `createClothGeometry: columns and rows must be integers >= 2 (got ${columns}, ${rows})`);
  }
  const count = columns * rows;
  const indices = gridTriangles(columns, rows);
  const uvs = new Float32Array(count * 2);
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < columns; c++) {
      uvs[2 * (r * columns + c)] = c / (columns - 1);
      uvs[2 * (r * columns + c) + 1] = r / (rows - 1);
    }
  }
  const geometry = createMeshGeometry(positions, { firstParticle: range.firstParticle, particleCount: count }, indices);
  geometry.setAttribute('uv', new BufferAttribute(uvs, 2));
  return geometry;
}

/**
 * The outer surface of a tet mesh as a geometry over the soft body's particles (no copy): every tet face that no
 * other tet shares, wound outwards (tets must have positive volume, as addSoftBody requires).
 * @param {Float32Array} positions world.positions() or a view over shared wasm memory.
 * @param {{firstParticle: number, particleCount: number}} range what addSoftBody returned.
 * @param {ArrayLike<number>} tets the 4 vertex indices per tet given to addSoftBody.
 */
export function createSoftBodyGeometry(positions, range, tets) {
  return createMeshGeometry(positions, range, tetSurfaceTriangles(tets));
}

/** A geometry over particles [range.firstParticle, + range.particleCount) with the given triangle indices. */
export function createMeshGeometry(positions, range, indices) {
  const geometry = new BufferGeometry();
  geometry.setIndex(new BufferAttribute(indices, 1));
  geometry.userData.pbdRange = { firstParticle: range.firstParticle, particleCount: range.particleCount };
  setGeometryPositions(geometry, positions);
  return geometry;
}

/** Points the geometry at a new positions view (after the world allocated, or a new shared buffer arrived). */
export function setGeometryPositions(geometry, positions) {
  const { firstParticle, particleCount } = geometry.userData.pbdRange;
  const view = positions.subarray(3 * firstParticle, 3 * (firstParticle + particleCount));
  if (view.length !== 3 * particleCount) {
    throw new InvalidArgumentError(`setGeometryPositions: positions holds ${positions.length / 3} particles, the ` +
      `cloth needs ${firstParticle + particleCount}`);
  }
  geometry.setAttribute('position', new BufferAttribute(view, 3));
  refreshGeometry(geometry);
}

/**
 * Marks the positions as changed (the GPU upload of the frame), recomputes the normals, and drops the bounds.
 * three.js computes dropped bounds again when it needs them (a raycast, or frustum culling), so a body that is
 * neither picked nor culled this frame does not pay for them.
 */
export function refreshGeometry(geometry) {
  geometry.attributes.position.needsUpdate = true;
  refreshNormals(geometry);
  geometry.boundingSphere = null;
  geometry.boundingBox = null;
}

/**
 * Area-weighted vertex normals over the triangle index: the sums of three's computeVertexNormals, in the same order
 * and with the same rounding (so the same bits), in flat loops over the arrays instead of Vector3 reads and writes.
 * It runs for every body every frame; three's takes about twice as long. A mesh without an index (flat triangles,
 * embedded in a soft body) or with positions not in a plain float array keeps three's. A normal attribute the loop
 * cannot write in place (quantized or interleaved, as glTF files have them) is replaced by a float one.
 */
/**
 * Area-weighted vertex normals, not normalized: n (xyz per vertex, of `p`'s length) becomes the sum over the triangles
 * of `index` at each vertex of (c − b) × (a − b), twice the triangle's area along its front face's normal (as three
 * forms it).
 */
export function sumTriangleNormals(p, index, n) {
  n.fill(0);
  for (let t = 0; t < index.length; t += 3) {
    const a = 3 * index[t], b = 3 * index[t + 1], c = 3 * index[t + 2];
    const cbx = p[c] - p[b], cby = p[c + 1] - p[b + 1], cbz = p[c + 2] - p[b + 2];
    const abx = p[a] - p[b], aby = p[a + 1] - p[b + 1], abz = p[a + 2] - p[b + 2];
    const x = cby * abz - cbz * aby, y = cbz * abx - cbx * abz, z = cbx * aby - cby * abx;
    n[a] += x; n[a + 1] += y; n[a + 2] += z;
    n[b] += x; n[b + 1] += y; n[b + 2] += z;
    n[c] += x; n[c + 1] += y; n[c + 2] += z;
  }
}

function refreshNormals(geometry) {
  const position = geometry.attributes.position;
  const plain = (a) => a && !a.isInterleavedBufferAttribute && a.itemSize === 3 && a.array instanceof Float32Array;
  if (!geometry.index || !plain(position)) return geometry.computeVertexNormals();
  if (!plain(geometry.attributes.normal) || geometry.attributes.normal.count !== position.count) {
    geometry.setAttribute('normal', new Float32BufferAttribute(new Float32Array(3 * position.count), 3));
  }
  const normal = geometry.attributes.normal;
  const n = normal.array;
  sumTriangleNormals(position.array, geometry.index.array, n);
  for (let i = 0; i < n.length; i += 3) {
    const length = Math.sqrt(n[i] * n[i] + n[i + 1] * n[i + 1] + n[i + 2] * n[i + 2]) || 1;
    n[i] *= 1 / length; n[i + 1] *= 1 / length; n[i + 2] *= 1 / length;
  }
  normal.needsUpdate = true;
}

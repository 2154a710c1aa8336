/**
 * Bodies made from a three.js Mesh: its geometry (in world space, through mesh.matrixWorld) becomes a cloth/shell
 * (welded, one particle per welded vertex) or a soft body (welded, tetrahedralized, the original geometry embedded).
 */
import { BufferAttribute } from 'three';
import { InvalidArgumentError, describeValue } from '../errors.js';
import { pbdOf } from '../module-of.js';
import { PbdBodyMesh } from './body-mesh.js';
import { createMeshGeometry } from './geometry.js';
import { PbdSoftBody } from './pbd-soft-body.js';

/**
 * The mesh's vertex positions in world space and its triangles (0, 1, 2, ... for a non-indexed geometry).
 * @param {import('three').Mesh} mesh
 * @returns {{positions: Float32Array, triangles: Uint32Array}}
 */
export function meshArrays(mesh) {
  const geometry = mesh?.geometry;
  const position = geometry?.attributes?.position;
  if (!position || position.itemSize !== 3) {
    throw new InvalidArgumentError('meshArrays: mesh.geometry needs a 3D position attribute');
  }
  mesh.updateWorldMatrix(true, false);
  const world = geometry.clone().applyMatrix4(mesh.matrixWorld);
  const positions = Float32Array.from(world.attributes.position.array);
  world.dispose();
  const triangles = geometry.index
    ? Uint32Array.from(geometry.index.array)
    : Uint32Array.from({ length: position.count - (position.count % 3) }, (_, i) => i);
  return { positions, triangles };
}

/**
 * A cloth, shell or balloon from a Mesh (see world.addTriangleMesh for `options`), drawn over its particles.
 * The drawn geometry has one vertex per particle (welded), so UVs are kept only when welding merged nothing.
 * @returns {PbdBodyMesh & {body: object}}
 */
export function clothFromMesh(world, mesh, options = {}, view = {}) {
  const { positions, triangles } = meshArrays(mesh);
  const body = world.addTriangleMesh({ ...options, positions, triangles });
  const first = body.firstParticle;
  const index = triangles.map((v) => body.renderToParticle[v] - first);
  const geometry = createMeshGeometry(world.positions(), body, index);
  const uv = mesh.geometry.attributes.uv;
  const oneToOne = body.particleCount === positions.length / 3 && body.renderToParticle.every((p, i) => p === first + i);
  if (uv && oneToOne) geometry.setAttribute('uv', new BufferAttribute(Float32Array.from(uv.array), uv.itemSize));
  const result = new PbdBodyMesh(world, body, geometry, view.material);
  result.body = body;
  return result;
}

/**
 * A soft body from a closed Mesh: welded, tetrahedralized (synchronously: call it in a Worker for big meshes), added
 * with `options` (see world.addSoftBody; plus the tetrahedralize options resolution, minQuality, surfaceMargin,
 * onProgress, signal, and weldTolerance, default 1e-6 m), and drawn as the original geometry embedded in the tets.
 * The earlier form softBodyFromMesh(pbd, world, mesh, ...) is still accepted.
 * @returns {PbdSoftBody}
 */
export function softBodyFromMesh(...args) {
  const [world, mesh, options = {}, view = {}] = pbdOf(args[1]) && args[0] === pbdOf(args[1]) ? args.slice(1) : args;
  const pbd = pbdOf(world);
  if (!pbd) {
    throw new InvalidArgumentError(`softBodyFromMesh: world must be a World made by createPbd (got ${describeValue(world)})`);
  }
  const { resolution, minQuality, surfaceMargin, onProgress, signal, weldTolerance = 1e-6, ...bodyOptions } = options;
  const { positions, triangles } = meshArrays(mesh);
  const welded = pbd.weldVertices(positions, triangles, weldTolerance);
  const tetOptions = Object.fromEntries(Object.entries({ resolution, minQuality, surfaceMargin, onProgress, signal })
    .filter(([, value]) => value !== undefined));
  const tets = pbd.tetrahedralize(welded.positions, welded.triangles, tetOptions);
  const renderGeometry = mesh.geometry.clone().applyMatrix4(mesh.matrixWorld);
  try {
    return new PbdSoftBody(world, { ...bodyOptions, positions: tets.positions, tets: tets.tets },
      { ...view, renderGeometry });
  } finally {
    renderGeometry.dispose();
  }
}

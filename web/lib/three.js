/**
 * pbd-wasm/three: the three.js adapter. `three` is a peer dependency of this entry only.
 *
 * @example
 * import { createPbd } from 'pbd-wasm';
 * import { PbdCloth, pickParticle } from 'pbd-wasm/three';
 * const pbd = await createPbd();
 * const world = new pbd.World();
 * const cloth = new PbdCloth(world, { columns: 32, rows: 32, spacing: 0.03, origin: [-0.5, 1.5, 0], pinned: [0, 31] });
 * scene.add(cloth);
 * // every frame: world.step(1 / 60); cloth.update();
 *
 * One module per feature: geometry over particle views (geometry.js), body meshes (pbd-cloth.js, pbd-soft-body.js,
 * pbd-rod.js, body-mesh.js), bodies made from a three.js Mesh (from-mesh.js), raycast picking (picking.js, nearest-particle.js),
 * grabbing with the pointer (pbd-drag-controls.js), cutting with it (cutting.js), character cloth on a SkinnedMesh
 * (skinned-cloth.js), leak warnings.
 */
export {
  createClothGeometry, createMeshGeometry, createSoftBodyGeometry, refreshGeometry, setGeometryPositions,
} from './three/geometry.js';
export { gridTriangles, tetSurfaceTriangles } from './three/topology.js';
export { PbdBodyMesh } from './three/body-mesh.js';
export { PbdCloth } from './three/pbd-cloth.js';
export { PbdRod } from './three/pbd-rod.js';
export { PbdSoftBody } from './three/pbd-soft-body.js';
export { clothFromMesh, meshArrays, softBodyFromMesh } from './three/from-mesh.js';
export { pickParticle } from './three/picking.js';
export { PbdDragControls } from './three/pbd-drag-controls.js';
export { cutAlongStroke, edgesCrossingStroke } from './three/cutting.js';
export { nearestParticle } from './three/nearest-particle.js';
export { setLeakWarnings } from './three/leak-warning.js';
export { PbdSkinnedCloth, skinnedClothFromMesh } from './three/skinned-cloth.js';

// Soft bodies falling and stacking: the Stanford bunny and tet cubes, kept apart by particle collision between
// bodies (the same self-collision machinery that keeps a cloth off itself).
import { SOFT_BUNNY } from '../cloth-scene.js';
import { kindParams, materialParams } from '../constraint-params.js';
import { tetCube } from '../tet-cube.js';
import { surfaceDrawable, tetDrawable } from './drawables.js';

const CUBES = [
  { origin: [-0.25, 0.05, -0.2], size: 0.4, density: 300 },
  { origin: [-0.15, 0.6, -0.15], size: 0.3, density: 200 },
  { origin: [0.45, 0.05, -0.2], size: 0.35, density: 500 },
  { origin: [-0.1, 1.9, -0.1], size: 0.25, density: 150, neoHookean: true },
];
const VOLUME = { compliance: 0, stiffness: 1 };   // the volume cubes' and the bunny's (SOFT_BUNNY.volume) tets
/** The last cube is a Neo-Hookean solid (set by E and ν; the panel's material controls act on it). */
const NEO_HOOKEAN = { material: 'neo-hookean', youngsModulus: 3e4, poissonRatio: 0.3, materialStiffness: 1 };

export default {
  title: 'Soft bodies falling and stacking',
  hint: 'grab a body with the mouse and throw it',
  camera: { position: [0.3, 1.4, 2.6], target: [0.1, 0.5, 0] },
  params: { selfCollision: true, ...kindParams('tetVolume', VOLUME), ...materialParams(NEO_HOOKEAN) },
  selfCollisionRadius: 0.012,
  build({ addWorld, assets }) {
    const world = addWorld();
    const drawables = [];
    const tunable = [];
    const materials = [];
    for (const { origin, size, density, neoHookean } of CUBES) {
      const cube = tetCube(3, size, origin);
      const body = world.addSoftBody({ ...cube, density, edges: { compliance: 1e-5, stiffness: 0.6 },
        ...(neoHookean ? NEO_HOOKEAN : { volume: VOLUME }) });
      if (neoHookean) materials.push({ world, body: body.body });
      drawables.push(tetDrawable(world, body, cube.tets, 'soft'));
      tunable.push({ world, first: body.firstConstraint, count: body.constraintCount });
    }
    const bunny = assets.bunnyTets();
    const lifted = Float32Array.from(bunny.tets.positions, (v, k) => v + (k % 3 === 1 ? 0.75 : k % 3 === 0 ? -1.3 : 0));
    const { scale, offset, resolution, ...material } = SOFT_BUNNY;
    const bunnyBody = world.addSoftBody({ positions: lifted, tets: bunny.tets.tets, ...material });
    drawables.push(surfaceDrawable(world, bunnyBody, bunny.surfaceTriangles, 'bunny', 'bunny'));
    return { drawables, colliders: [], tunable, materials };
  },
};

// The default scene: a 64 x 64 cloth swinging down over a sphere and a box, a soft tet cube, and the Stanford bunny
// tetrahedralized in the worker at start. OBJ files dropped on the page join it as soft bodies.
import { CLOTH, COLLIDERS, SOFT_BUNNY, SOFT_CUBE } from '../cloth-scene.js';
import { kindParams } from '../constraint-params.js';
import { tetCube } from '../tet-cube.js';
import { colliderDrawable, gridDrawable, surfaceDrawable, tetDrawable } from './drawables.js';

export default {
  title: 'Cloth, soft cube and bunny',
  hint: 'drag the cloth with the mouse; drop an .obj file to add a soft body',
  camera: { position: [0, 1.6, 3.2], target: [0, 0.9, 0.4] },
  params: { ...kindParams('tetVolume', SOFT_CUBE.volume) },   // the cube's and the bunny's (SOFT_BUNNY.volume)
  acceptsDroppedMeshes: true,
  build({ addWorld, assets }) {
    const world = addWorld();
    const colliders = COLLIDERS.map((def) => colliderDrawable(world, world.addCollider(def), def));
    const cloth = world.addCloth(CLOTH);
    const cube = tetCube(SOFT_CUBE.cells, SOFT_CUBE.size, SOFT_CUBE.origin);
    const softBody = world.addSoftBody({ ...cube, density: SOFT_CUBE.density, edges: SOFT_CUBE.edges,
      volume: SOFT_CUBE.volume });
    const bunny = assets.bunnyTets();
    const { scale, offset, resolution, ...material } = SOFT_BUNNY;
    const bunnyBody = world.addSoftBody({ positions: bunny.tets.positions, tets: bunny.tets.tets, ...material });
    // Stretch and shear follow the panel; the skip-one bending edges (the cloth's last family) stay soft.
    const bend = (CLOTH.columns - 2) * CLOTH.rows + CLOTH.columns * (CLOTH.rows - 2);
    return {
      drawables: [
        gridDrawable(world, cloth, CLOTH.columns, CLOTH.rows, 'cloth', 'cloth'),
        tetDrawable(world, softBody, cube.tets, 'soft'),
        surfaceDrawable(world, bunnyBody, bunny.surfaceTriangles, 'bunny', 'bunny'),
      ],
      colliders,
      tunable: [{ world, first: cloth.firstConstraint, count: cloth.constraintCount - bend }],
      info: { bunny: { tets: bunny.tets.tets.length / 4, particles: bunnyBody.particleCount, ms: bunny.ms } },
    };
  },
};

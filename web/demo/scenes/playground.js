// Collision playground: a trampoline of cloth pinned at its corners, a soft cube and a rope, and kinematic colliders
// that the mouse moves. A moving collider carries its velocity into the contacts, so friction drags what it touches.
import { tetCube } from '../tet-cube.js';
import { colliderDrawable, gridDrawable, ropeDrawable, tetDrawable } from './drawables.js';

const N = 40;
const SIZE = 1.6;
const COLLIDERS = [
  { shape: 'sphere', position: [-0.4, 0.3, 0.2], radius: 0.22, thickness: 0.01, friction: 0.6 },
  { shape: 'capsule', position: [0.45, 0.25, -0.3], rotation: [0, 0, 0.7071068, 0.7071068], radius: 0.12,
    halfHeight: 0.25, thickness: 0.01, friction: 0.6 },
  { shape: 'box', position: [0.2, 0.2, 0.55], halfExtents: [0.18, 0.18, 0.18], thickness: 0.01, friction: 0.6 },
];

export default {
  title: 'Collision playground',
  hint: 'drag the sphere, capsule or box with the mouse: they push the trampoline and carry what rests on them',
  camera: { position: [0, 2.0, 2.8], target: [0, 0.5, 0] },
  build({ addWorld }) {
    const world = addWorld();
    const colliders = COLLIDERS.map((def) => colliderDrawable(world, world.addCollider(def), def, true));
    const corners = [0, N - 1, N * (N - 1), N * N - 1];
    const trampoline = world.addCloth({ columns: N, rows: N, spacing: SIZE / (N - 1), origin: [-SIZE / 2, 0.8, -SIZE / 2],
      mass: 0.5, pinned: corners });
    const cube = tetCube(3, 0.25, [-0.1, 1.4, -0.1]);
    const softBody = world.addSoftBody({ ...cube, density: 200, edges: { compliance: 1e-5, stiffness: 0.6 } });
    const rope = world.addRope({ segments: 30, start: [-0.7, 1.8, -0.6], end: [0.5, 1.8, -0.6], mass: 0.1, pinned: [0] });
    return {
      drawables: [
        gridDrawable(world, trampoline, N, N, 'cloth', 'trampoline'),
        tetDrawable(world, softBody, cube.tets, 'soft'),
        ropeDrawable(world, rope),
      ],
      colliders,
      tunable: [{ world, first: trampoline.firstConstraint, count: trampoline.constraintCount }],
    };
  },
};

// Cloth dropped flat onto a sphere and onto the Stanford bunny as a triangle-mesh collider (continuous collision),
// with particle self-collision so the folds pile up instead of passing through each other.
import { kindParams } from '../constraint-params.js';
import { colliderDrawable, gridDrawable } from './drawables.js';

const N = 36;
const SIZE = 1.2;
const BEND = { compliance: 1, stiffness: 0.05 };   // dihedral bending, as built (and the panel's start)
const SPHERE = { shape: 'sphere', position: [-0.75, 0.35, 0], radius: 0.35, thickness: 0.01, friction: 0.5 };

export default {
  title: 'Cloth draped on a sphere and on a mesh',
  hint: 'self-collision on; the right cloth lands on the bunny as a triangle-mesh collider',
  camera: { position: [0, 1.7, 2.6], target: [0, 0.4, 0] },
  params: { selfCollision: true, ...kindParams('dihedral', BEND) },
  selfCollisionRadius: 0.006,
  build({ addWorld, assets }) {
    const world = addWorld();
    const bunny = assets.bunnySurface(0.06, 0);           // 0.06 x the npm bunny: about 0.55 m tall, on the ground
    for (let i = 0; i < bunny.positions.length; i += 3) bunny.positions[i] += 0.75;
    const mesh = { shape: 'mesh', positions: bunny.positions, indices: bunny.triangles, thickness: 0.01, friction: 0.5 };
    const colliders = [SPHERE, mesh].map((def) => colliderDrawable(world, world.addCollider(def), def));
    const drawables = [];
    const tunable = [];
    for (const x of [-0.75, 0.75]) {
      const cloth = world.addCloth({ columns: N, rows: N, spacing: SIZE / (N - 1), origin: [x - SIZE / 2, 1.1, -SIZE / 2],
        mass: 0.3, bendModel: 'dihedral', bend: BEND });
      drawables.push(gridDrawable(world, cloth, N, N, 'cloth', 'cloth'));
      tunable.push({ world, first: cloth.firstConstraint, count: cloth.constraintCount });
    }
    return { drawables, colliders, tunable };
  },
};

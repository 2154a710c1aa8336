// Ropes and a chain swinging down onto a bar: the same particles and links with more or less bending resistance
// (skip-one links), and a heavy chain of rigid links.
import { colliderDrawable, ropeDrawable } from './drawables.js';

const ROPES = [
  { z: -0.6, segments: 40, mass: 0.2, bend: { compliance: 1, stiffness: 0.01 }, style: 'rope', label: 'limp rope' },
  { z: -0.3, segments: 40, mass: 0.2, bend: { compliance: 1e-3, stiffness: 0.3 }, style: 'rope2', label: 'rope' },
  { z: 0, segments: 40, mass: 0.2, bend: { compliance: 1e-6, stiffness: 0.9 }, style: 'rope3', label: 'stiff rope' },
  { z: 0.3, segments: 24, mass: 2, bend: { compliance: 1, stiffness: 0 }, style: 'chain', label: 'chain' },
];
const BAR = { shape: 'capsule', position: [0.3, 0.9, 0], rotation: [0.7071068, 0, 0, 0.7071068], radius: 0.05,
  halfHeight: 0.9, thickness: 0.01, friction: 0.3 };

export default {
  title: 'Ropes and a chain',
  hint: 'they swing down onto the bar; grab one and whip it',
  camera: { position: [2.2, 1.4, 2.2], target: [0.4, 0.9, 0] },
  params: { substeps: 20 },
  build({ addWorld }) {
    const world = addWorld();
    const colliders = [colliderDrawable(world, world.addCollider(BAR), BAR)];
    const drawables = [];
    const tunable = [];
    for (const { z, segments, mass, bend, style, label } of ROPES) {
      const rope = world.addRope({ segments, start: [-0.6, 1.6, z], end: [1.0, 1.6, z], mass, pinned: [0], bend });
      drawables.push(ropeDrawable(world, rope, style, label));
      tunable.push({ world, first: rope.firstConstraint, count: segments });   // the links; bending stays per rope
    }
    return { drawables, colliders, tunable };
  },
};

// Fifty Rapier boxes (0.2 kg each, 10 kg in all) dropped in a block onto a 2 kg trampoline whose border is pinned
// (pbd-wasm/rapier): the cloth catches them, they tumble into a pile, and the pile comes to rest on it, boxes resting
// on boxes by Rapier's contacts and on the cloth by the coupling.
import RAPIER from '@dimforge/rapier3d-compat';
import { coupleRapier } from 'pbd-wasm/rapier';
import { colliderDrawable, gridDrawable } from './drawables.js';

const N = 32, SIZE = 1.6, HEIGHT = 1.0;
const BOXES = 50, HALF = 0.07, BOX_MASS = 0.2, PITCH = 0.2;

export default {
  title: 'Fifty Rapier boxes on a trampoline',
  hint: 'two-way coupling with Rapier: a pile of rigid boxes at rest on a cloth; grab the trampoline',
  camera: { position: [0, 2.2, 2.8], target: [0, 0.9, 0] },
  params: { damping: 0.5, substeps: 20, iterations: 4 },
  build({ addWorld }) {
    const world = addWorld();
    const border = [];
    for (let i = 0; i < N; ++i) border.push(i, N * (N - 1) + i, N * i, N * i + N - 1);
    const trampoline = world.addCloth({ columns: N, rows: N, spacing: SIZE / (N - 1),
      origin: [-SIZE / 2, HEIGHT, -SIZE / 2], mass: 2, pinned: [...new Set(border)] });
    const rapierWorld = new RAPIER.World({ x: 0, y: -9.81, z: 0 });
    rapierWorld.timestep = 1 / 60;
    const floor = rapierWorld.createRigidBody(RAPIER.RigidBodyDesc.fixed().setTranslation(0, -0.5, 0));
    rapierWorld.createCollider(RAPIER.ColliderDesc.cuboid(5, 0.5, 5), floor);
    const coupling = coupleRapier(world, rapierWorld);
    // A block of 4 × 4 boxes a layer, 0.2 m apart, layers 0.2 m apart from 0.3 m above the cloth.
    const boxes = Array.from({ length: BOXES }, (_, k) => {
      const layer = Math.floor(k / 16), i = k % 16;
      const position = [(i % 4 - 1.5) * PITCH, HEIGHT + 0.3 + PITCH * layer, (Math.floor(i / 4) - 1.5) * PITCH];
      const body = rapierWorld.createRigidBody(RAPIER.RigidBodyDesc.dynamic().setTranslation(...position));
      rapierWorld.createCollider(RAPIER.ColliderDesc.cuboid(HALF, HALF, HALF).setDensity(BOX_MASS / (8 * HALF ** 3))
        .setFriction(0.6), body);
      const [twin] = coupling.addBody(body);
      const def = { shape: 'box', halfExtents: [HALF, HALF, HALF], position, rotation: [0, 0, 0, 1] };
      return { body, drawable: { ...colliderDrawable(world, twin, def), moving: true } };
    });
    return {
      drawables: [gridDrawable(world, trampoline, N, N, 'cloth', 'trampoline')],
      colliders: boxes.map((b) => b.drawable),
      tunable: [{ world, first: trampoline.firstConstraint, count: trampoline.constraintCount }],
      step() {
        coupling.step();
        for (const { body, drawable: { def } } of boxes) {
          const t = body.translation(), r = body.rotation();
          def.position = [t.x, t.y, t.z];
          def.rotation = [r.x, r.y, r.z, r.w];
        }
      },
      dispose() {
        for (const { body } of boxes) coupling.removeBody(body);
        rapierWorld.free();
      },
    };
  },
};

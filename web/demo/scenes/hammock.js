// Rapier's rigid bodies in a cloth hammock (pbd-wasm/rapier): eight boxes of 10 to 0.5 kg drop one a second from
// 0.8 m above a 1 kg hammock hung from four posts, push it down and are carried by it, momentum exchanged both ways. What
// rolls off lands on Rapier's floor. The boxes are drawn from their PBD twins, which follow the Rapier bodies.
import RAPIER from '@dimforge/rapier3d-compat';
import { coupleRapier } from 'pbd-wasm/rapier';
import { colliderDrawable, gridDrawable } from './drawables.js';

const N = 32, SIZE = 1.4, HEIGHT = 1.2;
// Heaviest first: a light box caught between a heavy one and the cloth is pushed through it, since the coupling
// exchanges impulses once a frame and the cloth never learns of the weight on top (Rapier's contact, not ours).
const BOXES = [[0.16, 10], [0.16, 10], [0.12, 2], [0.12, 2], [0.12, 2], [0.08, 0.5], [0.08, 0.5], [0.08, 0.5]];

export default {
  title: 'Rapier boxes in a cloth hammock',
  hint: 'two-way coupling with Rapier: each box pushes the cloth and is carried by it; grab the hammock',
  camera: { position: [0, 2.4, 3.0], target: [0, 0.8, 0] },
  params: { damping: 0.5, substeps: 20, iterations: 4 },   // at 10 substeps a 10 kg box landing at 4 m/s goes through
  build({ addWorld }) {
    const world = addWorld();
    const corners = [0, N - 1, N * (N - 1), N * N - 1];
    const hammock = world.addCloth({ columns: N, rows: N, spacing: SIZE / (N - 1),
      origin: [-SIZE / 2, HEIGHT, -SIZE / 2], mass: 1, pinned: corners });
    const posts = [[-1, -1], [1, -1], [-1, 1], [1, 1]].map(([x, z]) => {
      const def = { shape: 'capsule', position: [x * SIZE / 2, HEIGHT / 2, z * SIZE / 2], radius: 0.03,
        halfHeight: HEIGHT / 2, thickness: 0.005 };
      return colliderDrawable(world, world.addCollider(def), def);
    });
    const rapierWorld = new RAPIER.World({ x: 0, y: -9.81, z: 0 });
    rapierWorld.timestep = 1 / 60;
    const floor = rapierWorld.createRigidBody(RAPIER.RigidBodyDesc.fixed().setTranslation(0, -0.5, 0));
    rapierWorld.createCollider(RAPIER.ColliderDesc.cuboid(5, 0.5, 5), floor);
    const coupling = coupleRapier(world, rapierWorld);
    // Parked asleep out of sight, in a row high above; one a second is put over the hammock and woken.
    const boxes = BOXES.map(([half, mass], k) => {
      const body = rapierWorld.createRigidBody(RAPIER.RigidBodyDesc.dynamic().setTranslation(k - BOXES.length / 2, 30, 0)
        .setSleeping(true));
      rapierWorld.createCollider(RAPIER.ColliderDesc.cuboid(half, half, half).setDensity(mass / (8 * half ** 3))
        .setFriction(0.6), body);
      const [twin] = coupling.addBody(body);
      const t = body.translation();
      const def = { shape: 'box', halfExtents: [half, half, half], position: [t.x, t.y, t.z], rotation: [0, 0, 0, 1] };
      return { body, drawable: { ...colliderDrawable(world, twin, def), moving: true } };
    });
    let frame = 0;
    return {
      drawables: [gridDrawable(world, hammock, N, N, 'cloth', 'hammock')],
      colliders: [...posts, ...boxes.map((b) => b.drawable)],
      tunable: [{ world, first: hammock.firstConstraint, count: hammock.constraintCount }],
      // The coupling steps the cloth (its own 1/60 s), hands the impulses to the boxes and steps Rapier.
      step() {
        if (frame % 60 === 30 && frame / 60 < BOXES.length) {
          const k = Math.floor(frame / 60), body = boxes[k].body;
          body.setTranslation({ x: 0.3 * Math.sin(2.4 * k), y: 2, z: 0.3 * Math.cos(2.4 * k) }, true);
          body.setAngvel({ x: 0.5, y: 0.3, z: 0 }, true);
        }
        frame++;
        coupling.step();
        for (const { body, drawable: { def } } of boxes) {
          const t = body.translation(), r = body.rotation();
          def.position = [t.x, t.y, t.z];
          def.rotation = [r.x, r.y, r.z, r.w];
        }
      },
      dispose() {   // the twins go with the coupling: what is left is the hammock on its posts
        for (const { body } of boxes) coupling.removeBody(body);
        rapierWorld.free();
      },
    };
  },
};

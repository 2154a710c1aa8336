// Rapier's rigid bodies in a cloth hammock (pbd-wasm/rapier): eight boxes of 10 to 0.5 kg drop one a second from
// 0.8 m above a 1 kg hammock hung from four posts, push it down and are carried by it, momentum exchanged both ways. What
// rolls off lands on Rapier's floor. The boxes are drawn from their PBD twins, which follow the Rapier bodies.
import RAPIER from '@dimforge/rapier3d-compat';
import { coupleRapier } from 'pbd-wasm/rapier';
import { colliderDrawable, gridDrawable } from './drawables.js';
import { coupledBox, followBodies, rapierWorldWithFloor, uncouple } from './rapier-bodies.js';

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
    const coupling = coupleRapier(world, rapierWorldWithFloor());
    // Parked asleep out of sight, in a row high above; one a second is put over the hammock and woken.
    const boxes = BOXES.map(([half, mass], k) => coupledBox(world, coupling, half, mass, [k - BOXES.length / 2, 30, 0],
      RAPIER.RigidBodyDesc.dynamic().setSleeping(true)));
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
        followBodies(boxes);
      },
      dispose: () => uncouple(coupling, boxes),
    };
  },
};

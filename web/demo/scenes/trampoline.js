// Fifty Rapier boxes (0.2 kg each, 10 kg in all) dropped in a block onto a 2 kg trampoline whose border is pinned
// (pbd-wasm/rapier): the cloth catches them, they tumble into a pile, and the pile comes to rest on it, boxes resting
// on boxes by Rapier's contacts and on the cloth by the coupling.
import { coupleRapier } from 'pbd-wasm/rapier';
import { gridDrawable } from './drawables.js';
import { coupledBox, followBodies, rapierWorldWithFloor, uncouple } from './rapier-bodies.js';

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
    const coupling = coupleRapier(world, rapierWorldWithFloor());
    // A block of 4 × 4 boxes a layer, 0.2 m apart, layers 0.2 m apart from 0.3 m above the cloth.
    const boxes = Array.from({ length: BOXES }, (_, k) => {
      const layer = Math.floor(k / 16), i = k % 16;
      const position = [(i % 4 - 1.5) * PITCH, HEIGHT + 0.3 + PITCH * layer, (Math.floor(i / 4) - 1.5) * PITCH];
      return coupledBox(world, coupling, HALF, BOX_MASS, position);
    });
    return {
      drawables: [gridDrawable(world, trampoline, N, N, 'cloth', 'trampoline')],
      colliders: boxes.map((b) => b.drawable),
      tunable: [{ world, first: trampoline.firstConstraint, count: trampoline.constraintCount }],
      step() {
        coupling.step();
        followBodies(boxes);
      },
      dispose: () => uncouple(coupling, boxes),
    };
  },
};

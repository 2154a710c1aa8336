// The same dense cloth side by side under every solver, with the same frame budget (the panel's substeps x
// iterations for all of them): how far each one gets in converging a rigid 40 x 40 cloth without tethers shows as
// how much it stretches. The panel's solver and method apply to none of these (each keeps its own).
import { gridDrawable } from './drawables.js';

const N = 40;
const WIDTH = 0.8;
/** The lanes, left to right: each label names a world's solver (and, for the last, its method). */
export const LANES = [
  { label: 'Gauss-Seidel', solver: 'gauss-seidel' },
  { label: 'Jacobi', solver: 'jacobi' },
  { label: 'coloured GS', solver: 'coloured-gauss-seidel' },
  { label: 'hierarchical PBD', solver: 'hierarchical' },
  { label: 'Projective Dynamics', solver: 'projective-dynamics' },
  { label: 'Vertex Block Descent', solver: 'vbd' },
  { label: 'PBD (coloured GS)', solver: 'coloured-gauss-seidel', method: 'pbd' },
];

export default {
  title: 'Solvers side by side',
  hint: LANES.map((l) => l.label).join(' · ') + ' (left to right), same substeps × iterations',
  camera: { position: [0, 1.25, 5.8], target: [0, 0.85, 0] },   // the seven lanes and their labels
  params: { substeps: 5, iterations: 2 },
  build({ addWorld }) {
    const drawables = [];
    const tunable = [];
    LANES.forEach((lane, k) => {
      const world = addWorld({ label: lane.label, solver: lane.solver, method: lane.method ?? 'xpbd' });
      const x = (k - (LANES.length - 1) / 2) * (WIDTH + 0.2);
      const cloth = world.addCloth({ columns: N, rows: N, spacing: WIDTH / (N - 1), origin: [x - WIDTH / 2, 1.5, 0],
        axisU: [1, 0, 0], axisV: [0, 0, 1], mass: 0.5, pinned: [0, N - 1] });
      drawables.push(gridDrawable(world, cloth, N, N, k % 2 ? 'cloth2' : 'cloth', lane.label));
      tunable.push({ world, first: cloth.firstConstraint, count: cloth.constraintCount });
    });
    return { drawables, colliders: [], tunable };
  },
};

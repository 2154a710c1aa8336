// A cloth held upright by one edge 30 cm above the ground, leaning 5°, is dropped: it lands on its edge, buckles and
// folds onto itself. Continuous self-collision (point–triangle and edge–edge over each substep, with a failsafe that
// freezes any pair the solve still carried through) keeps its layers apart: they pile up instead of passing through
// each other. The native test of issue #5 (tests/scenes/falling_fold.h) is the same kind of scene at 64².
import { gridDrawable } from './drawables.js';

export const FOLD = {
  n: 32,                        // particles per side
  size: 1,                      // m, side of the square cloth
  lean: (5 * Math.PI) / 180,    // rad, from the vertical, towards +z
  height: 0.3,                  // m, of the lower edge above the ground
  bend: { compliance: 1e-3, stiffness: 1 },  // skip-one bend edges (distance constraints)
};
/** Self-collision thickness, m: 0.45 of the spacing, below the spacing / √2 a flat cloth allows. */
FOLD.thickness = (0.45 * FOLD.size) / (FOLD.n - 1);

/** Adds the cloth to `world`; returns its body range. */
export function addFoldingCloth(world) {
  const { n, size, lean, height, bend, thickness } = FOLD;
  return world.addCloth({ columns: n, rows: n, spacing: size / (n - 1), origin: [-size / 2, height, 0],
    axisU: [1, 0, 0], axisV: [0, Math.cos(lean), Math.sin(lean)], mass: 1, bend,
    continuousSelfCollision: { enabled: true, thickness } });
}

export default {
  title: 'Cloth folding onto itself',
  hint: 'continuous self-collision: the layers never pass through each other; grab the cloth and fold it again',
  camera: { position: [1.5, 1.0, 0.9], target: [0, 0.1, -0.35] },
  build({ addWorld }) {
    const world = addWorld();
    const cloth = addFoldingCloth(world);
    return {
      drawables: [gridDrawable(world, cloth, FOLD.n, FOLD.n, 'cloth', 'cloth')],
      colliders: [],
      tunable: [{ world, first: cloth.firstConstraint, count: cloth.constraintCount }],
    };
  },
};

// A cloth standing on one edge, leaning 20°, falls over and folds onto itself on the ground. Continuous
// self-collision (point–triangle and edge–edge over each substep, with a failsafe that freezes any pair the solve
// still carried through) keeps its layers apart: they pile up instead of passing through each other. The same scene
// as the native test of issue #5 (tests/scenes/falling_fold.h), at a size the page can run live.
import { gridDrawable } from './drawables.js';

export const FOLD = {
  n: 32,                        // particles per side
  size: 1,                      // m, side of the square cloth
  lean: (20 * Math.PI) / 180,   // rad, from the vertical, towards +z
  bend: { compliance: 1e-3, stiffness: 1 },  // skip-one bend edges (distance constraints)
};
/** Self-collision thickness, m: 0.45 of the spacing, below the spacing / √2 a flat cloth allows. */
FOLD.thickness = (0.45 * FOLD.size) / (FOLD.n - 1);

/** Adds the cloth to `world`; returns its body range. */
export function addFoldingCloth(world) {
  const { n, size, lean, bend, thickness } = FOLD;
  return world.addCloth({ columns: n, rows: n, spacing: size / (n - 1), origin: [-size / 2, 0.02, -0.25],
    axisU: [1, 0, 0], axisV: [0, Math.cos(lean), Math.sin(lean)], mass: 1, bend,
    continuousSelfCollision: { enabled: true, thickness } });
}

export default {
  title: 'Cloth folding onto itself',
  hint: 'continuous self-collision: the layers never pass through each other; grab the cloth and fold it again',
  camera: { position: [1.3, 1.0, 1.6], target: [0, 0.15, 0.1] },
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

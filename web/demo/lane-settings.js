// What the label over a lane's body says (labels.js draws it on the page): the lane's name and its world's solver
// settings, read back from the world, so that the label shows what runs, the panel's changes included. No DOM: the
// simulation worker calls it.

/** A setting as a short number: 3 significant digits, no trailing zeros (0.8, 1e-7, 0). */
const short = (x) => String(Number(x.toPrecision(3)));

/**
 * @param world the lane's World.
 * @param lane the lane the scene gave addWorld ({label, solver, method}).
 * @param tunable the world's distance constraints the panel tunes ({first, count}), if any: their strength is shown.
 * @returns {{name: string, settings: string[]} | null} the label's title and its lines of settings; null for a world
 *   without a lane label (a scene of one world draws no labels).
 */
export function describeLane(world, lane, tunable) {
  if (!lane.label) return null;
  const method = world.getMethod();
  const settings = [];
  if (tunable?.count) {
    const { compliance, stiffness } = world.getConstraintStrength('distance', tunable.first);
    settings.push(method === 'pbd' ? `PBD, stiffness ${short(stiffness)}`
      : `XPBD, compliance ${short(compliance)} m/N`);
  } else {
    settings.push(method === 'pbd' ? 'PBD' : 'XPBD');
  }
  settings.push(`${world.getSubsteps()} substeps × ${world.getIterations()} iter.`);
  const solver = world.getSolver();
  if (solver === 'jacobi') settings.push(`relaxation ω = ${short(world.getJacobiRelaxation())}`);
  if (solver === 'hierarchical') {
    const { levels, parents } = world.getHierarchy();
    settings.push(`${levels} levels, ${parents} parents`);
  }
  return { name: lane.label, settings };
}

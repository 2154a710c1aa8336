// Running one solver on one scene: the residual curve of one step from a shared warm state, the stretch after it,
// and step times. Every solver starts from the same bytes (a snapshot), so their curves compare directly.
import { maxStretch, median, splitResiduals, stretchRms } from './metrics.mjs';

export const SOLVERS = ['gauss-seidel', 'jacobi', 'coloured-gauss-seidel', 'hierarchical', 'projective-dynamics'];
export const DT = 1 / 60;

/**
 * Builds `scene` and lets it move for `frames` frames with Projective Dynamics (1 substep x 3 iterations), so that
 * the measured step starts from a moving, hanging state that is nearly inextensible (PD's rigid weight is 1e6 times
 * the inertia). Not with a Gauss-Seidel solver: at 10 substeps x 2 iterations a rigid 128² cloth is stretched
 * 1100% at its pins after 30 frames, a state no solver recovers from in one step.
 * Returns the snapshot and the scene's stretch edges.
 */
export function warmState(pbd, scene, frames) {
  const world = new pbd.World();
  const geometry = scene.build(world);
  world.setSolver('projective-dynamics');
  world.setSubsteps(1);
  world.setIterations(3);
  for (let f = 0; f < frames; f++) world.step(DT);
  const snapshot = world.saveSnapshot().slice();  // a copy: the view dies with the world
  world.delete();
  return { snapshot, geometry, particles: geometry.rest.length };
}

/** A world in the warm state, running `solver` with one substep of `iterations` iterations. */
function worldFor(pbd, warm, solver, iterations) {
  const world = new pbd.World();
  world.loadSnapshot(warm.snapshot);
  world.setSolver(solver);
  world.setSubsteps(1);
  world.setIterations(iterations);
  return world;
}

/**
 * One step of one substep with `iterations` iterations from the warm state: the residual per iteration
 * ({ max, rms }: max |C| and RMS C over the distance constraints) and the worst edge stretch after it.
 */
export function residualCurve(pbd, warm, solver, iterations) {
  const world = worldFor(pbd, warm, solver, iterations);
  world.setRecordResiduals(true);
  world.step(DT);
  const curves = splitResiduals(Array.from(world.residuals()));
  const stretch = maxStretch(world.positions(), warm.geometry.edges, warm.geometry.rest);
  world.delete();
  return { ...curves, stretch };
}

/**
 * The stretch residual (metrics.mjs stretchRms) after one step of `iterations` iterations from the warm state, and
 * its ms; `hierarchy` (World.setHierarchy settings) applies to the hierarchical solver.
 */
export function stretchAfterStep(pbd, warm, solver, iterations, hierarchy) {
  const world = worldFor(pbd, warm, solver, iterations);
  if (hierarchy) world.setHierarchy(hierarchy);
  const t0 = performance.now();
  world.step(DT);
  const ms = performance.now() - t0;
  const rms = stretchRms(world.positions(), warm.geometry.edges, warm.geometry.rest);
  world.delete();
  return { rms, ms };
}

/**
 * Median ms of `runs` steps (one substep, `iterations` iterations) continuing from the warm state. The first step
 * is not timed: it holds the one-off work of a solver switch (PD's factorization, HPBD's hierarchy, colouring).
 */
export function stepTime(pbd, warm, solver, iterations, runs) {
  const world = worldFor(pbd, warm, solver, iterations);
  world.step(DT);
  const ms = [];
  for (let r = 0; r < runs; r++) {
    const t0 = performance.now();
    world.step(DT);
    ms.push(performance.now() - t0);
  }
  world.delete();
  return median(ms);
}

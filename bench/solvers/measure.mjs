// Running one solver on one scene: the residual curve of one step from a shared warm state, the stretch after it,
// and step times. Every solver starts from the same positions and velocities, so their curves compare directly.
import { pairedBlocks } from '../paired-blocks.mjs';
import { maxStretch, median, splitResiduals, stretchRms } from './metrics.mjs';

export const SOLVERS = ['gauss-seidel', 'jacobi', 'coloured-gauss-seidel', 'hierarchical', 'projective-dynamics', 'vbd'];

/** A lane of the benchmark: a solver's name, or 'vbd@ρ' for VBD with Chebyshev acceleration ρ (setChebyshevRho). */
export function chebyshevLane(rho) { return `vbd@${rho}`; }

/** Sets the lane's solver (and ρ) on `world`. */
export function useSolver(world, lane) {
  const [solver, rho] = lane.split('@');
  world.setSolver(solver);
  if (rho !== undefined) world.setChebyshevRho(Number(rho));
}
export const DT = 1 / 60;

/**
 * Builds `scene` and lets it move for `frames` frames with Projective Dynamics (1 substep x 3 iterations), so that
 * the measured step starts from a moving, hanging state that is nearly inextensible (PD's rigid weight is 1e6 times
 * the inertia). Not with a Gauss-Seidel solver: at 10 substeps x 2 iterations a rigid 128² cloth is stretched
 * 1100% at its pins after 30 frames, a state no solver recovers from in one step.
 * Returns the warm positions and velocities (copies), the scene and its stretch edges.
 */
export function warmState(pbd, scene, frames) {
  const world = new pbd.World();
  const geometry = scene.build(world);
  world.setSolver('projective-dynamics');
  world.setSubsteps(1);
  world.setIterations(3);
  for (let f = 0; f < frames; f++) world.step(DT);
  const positions = world.positions().slice(), velocities = world.velocities().slice();  // the views die with the world
  world.delete();
  return { scene, positions, velocities, geometry, particles: geometry.rest.length };
}

/**
 * A world of the scene that has never stepped, running `solver` with one substep of `iterations` iterations. Not a
 * snapshot of the warm world: that one has stepped under Projective Dynamics, so its first step under another solver
 * would settle first (World's doc: a whole extra solve from rest), and every solver would be measured on two.
 */
export function worldFor(pbd, warm, solver, iterations) {
  const world = new pbd.World();
  warm.scene.build(world);
  useSolver(world, solver);
  world.setSubsteps(1);
  world.setIterations(iterations);
  moveToWarmState(world, warm);
  return world;
}

/** The warm positions and velocities, set particle by particle (neither makes the next step settle). */
export function moveToWarmState(world, warm) {
  const p = warm.positions, v = warm.velocities;
  for (let i = 0; i < p.length / 3; i++) {
    world.setPosition(i, p[3 * i], p[3 * i + 1], p[3 * i + 2]);
    world.setVelocity(i, v[3 * i], v[3 * i + 1], v[3 * i + 2]);
  }
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
 * the median ms of `runs` such steps, each from the warm state again in the same world, after an untimed first one
 * that holds the one-off work (colouring, HPBD's hierarchy); `hierarchy` (World.setHierarchy settings) applies to the
 * hierarchical solver. Every step must end in the same bits; a difference throws.
 */
export function stretchAfterStep(pbd, warm, solver, iterations, hierarchy, runs = 3) {
  const world = worldFor(pbd, warm, solver, iterations);
  if (hierarchy) world.setHierarchy(hierarchy);
  const ms = [];
  let rms;
  for (let r = 0; r <= runs; r++) {
    if (r > 0) moveToWarmState(world, warm);
    const t0 = performance.now();
    world.step(DT);
    if (r > 0) ms.push(performance.now() - t0);
    const now = stretchRms(world.positions(), warm.geometry.edges, warm.geometry.rest);
    if (r > 0 && now !== rms) throw new Error(`${solver}: step ${r} from the warm state ended elsewhere than step 0`);
    rms = now;
  }
  world.delete();
  return { rms, ms: median(ms) };
}

/**
 * The fewest fine iterations, in steps of 5 up to `most`, with which hierarchical PBD (World.setHierarchy
 * `hierarchy`) reaches the stretch residual `target` from the warm state: { n, rms, ms } of that step
 * (stretchAfterStep), or null when none does.
 */
export function fewestHpbdIterations(pbd, warm, hierarchy, target, most) {
  for (let n = 5; n <= most; n += 5) {
    const h = stretchAfterStep(pbd, warm, 'hierarchical', n, hierarchy);
    if (h.rms <= target) return { n, ...h };
  }
  return null;
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

/**
 * Coloured Gauss-Seidel's ms per step (one substep, `iterations` iterations) on 1 and on 2 threads, in one world
 * continuing from the warm state: the module's thread count switches between blocks of `frames` steps, `rounds`
 * blocks each, in turn, so that both counts see the machine over the same seconds. A block's first step is not
 * timed (the pool's workers wake from sleep). The thread count changes no bit (the determinism tests), so the two
 * counts step the same motion. Returns the median block of each ({ one, two }, ms per step) and the median of the
 * paired ratios one / two.
 */
export function threadScaling(pbd, warm, iterations, rounds, frames) {
  const world = worldFor(pbd, warm, 'coloured-gauss-seidel', iterations);
  world.step(DT);
  const frame = () => world.step(DT);
  const on = (threads) => ({ enter: () => { pbd.setThreads(threads); world.step(DT); }, frame });
  const { a, b, ratios } = pairedBlocks(on(1), on(2), rounds, frames);
  world.delete();
  return { one: median(a), two: median(b), ratio: median(ratios.map((r) => 1 / r)) };
}

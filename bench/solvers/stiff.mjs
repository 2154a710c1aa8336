// bench:solvers --stiff (issue 53): scenes that favour a solver that handles stiffness and mass ratios, for every
// solver of SOLVERS. The scenes are bench/scenes.mjs STIFF_SCENES; the
// strain, residual and energy arithmetic is metrics.mjs (strainStats, relativeResidual, kineticEnergy).
import { hangingCloth, signedTetVolume, STIFF_SCENES } from '../scenes.mjs';
import { DT, moveToWarmState, SOLVERS, useSolver, warmState, worldFor } from './measure.mjs';
import { kineticEnergy, median, relativeResidual, strainStats } from './metrics.mjs';
import { table } from './report.mjs';
import { maxSpeed } from '../../tests/js/shared/physics/common.js';

export const STIFF = {
  /** Simulated seconds of the 3 s runs (--seconds), at 60 frames/s. */
  seconds: 3,
  /** Substeps x iterations per frame of the hanging cloth and the scrambled block; the first is the 3 s strain's. */
  configs: [{ substeps: 10, iterations: 1 }, { substeps: 1, iterations: 10 }],
  /** The relative residual the convergence columns ask for, and the most iterations tried to reach it. */
  target: 1e-3,
  most: 1000,  // setIterations takes at most 1000
  /** Frames of Projective Dynamics (1 x 3) before the measured step (measure.mjs warmState, as the main mode). */
  warmupFrames: 30,
};

/** A world of `scene` as built (never stepped) running `solver` at substeps x iterations, XPBD. */
function sceneWorld(pbd, scene, solver, { substeps, iterations }) {
  const world = new pbd.World();
  const geometry = scene.build(world);
  world.setMethod('xpbd');
  useSolver(world, solver);
  world.setSubsteps(substeps);
  world.setIterations(iterations);
  return { world, geometry };
}

/** Steps `frames` frames of DT, timing each; counts the steps the NaN guard undid. */
function run(world, frames) {
  const ms = [];
  let rolledBack = 0;
  for (let f = 0; f < frames; f++) {
    const t0 = performance.now();
    world.step(DT);
    ms.push(performance.now() - t0);
    if (world.lastStepReport().rolledBack) rolledBack++;
  }
  return { ms, rolledBack };
}

const allFinite = (...arrays) => arrays.every((a) => a.every(Number.isFinite));

/**
 * Item 1: the scene (the rigid 48² cloth) for `frames` frames at config, `runs` times in a fresh world each. The
 * grid edges' strain at the end of the first run ({ max, mean }), the median ms of all frames of all runs, the
 * steps the NaN guard undid, and whether every run ended in the same bits as the first.
 */
export function hangingRun(pbd, scene, solver, config, frames, runs) {
  const ms = [];
  let first = null, same = true;
  for (let r = 0; r < runs; r++) {
    const { world, geometry } = sceneWorld(pbd, scene, solver, config);
    const result = run(world, frames);
    ms.push(...result.ms);
    const positions = world.positions();
    if (!first) {
      first = { ...strainStats(positions, geometry.edges, geometry.rest), rolledBack: result.rolledBack,
        finite: allFinite(positions, world.velocities()), positions: positions.slice(),
        maxSpeed: maxSpeed(world, 0, positions.length / 3) };
    } else if (!positions.every((x, i) => Object.is(x, first.positions[i]))) same = false;
    world.delete();
  }
  return { ...first, ms: median(ms), same };
}

/**
 * Item 1c: what one iteration costs on bench:peers' hanging n² cloth (hangingCloth: rigid stretch, shear and skip-one
 * bending, gravity, 10 substeps): the median frame at 10 x 1 and at 10 x 2, `runs` alternating rounds of `frames`
 * frames after 30 untimed ones, each in a fresh world; an iteration = (frame at 10 x 2 - frame at 10 x 1) / 10.
 */
export function iterationCost(pbd, solver, n, frames, runs) {
  const frameMs = { 1: [], 2: [] };
  for (let r = 0; r < runs; r++) {
    for (const iterations of [1, 2]) {
      const world = new pbd.World();
      hangingCloth(world, n, { iterations });
      useSolver(world, solver);
      for (let f = 0; f < 30; f++) world.step(DT);
      frameMs[iterations].push(median(run(world, frames).ms));
      world.delete();
    }
  }
  const one = median(frameMs[1]), two = median(frameMs[2]);
  return { one, two, iteration: (two - one) / 10 };
}

/**
 * The relative residual (metrics.mjs relativeResidual over geometry.residual) after ONE step of one substep with
 * `iterations` iterations from the warm state, in a world of the scene that never stepped (measure.mjs worldFor).
 * Infinity if the NaN guard undid the step.
 */
function residualAfter(pbd, warm, solver, iterations) {
  const world = worldFor(pbd, warm, solver, iterations);
  world.step(DT);
  const { edges, rest } = warm.geometry.residual;
  const value = world.lastStepReport().rolledBack ? Infinity : relativeResidual(world.positions(), edges, rest);
  world.delete();
  return Number.isNaN(value) ? Infinity : value;
}

/**
 * The fewest iterations of one step from the warm state that bring the relative residual to `target`: doubling
 * (1, 2, 4 ... up to `most`), then bisection between the last miss and the first hit (it takes the residual to
 * fall with the iteration count; a curve that is not monotone counts the crossing the search meets). Each try is
 * a fresh world (changing the iterations of a world that stepped would make it settle first). Returns { n, value }
 * (n null: not reached in `most`, value the residual after `most`).
 */
export function fewestIterations(pbd, warm, solver, target, most) {
  const seen = new Map();
  const at = (n) => (seen.has(n) ? seen.get(n) : (seen.set(n, residualAfter(pbd, warm, solver, n)), seen.get(n)));
  let miss = 0, hit = null;
  for (let n = 1; ; n = Math.min(2 * n, most)) {
    if (at(n) <= target) { hit = n; break; }
    miss = n;
    if (n === most) return { n: null, value: at(most), first: at(1) };
  }
  while (hit - miss > 1) {
    const mid = (hit + miss) >> 1;
    if (at(mid) <= target) hit = mid; else miss = mid;
  }
  return { n: hit, value: at(hit), first: at(1) };
}

/**
 * Median ms of `runs` steps of one substep with `iterations` iterations, each from the warm state (positions and
 * velocities set again: that makes no step settle), after an untimed first one that holds the one-off work
 * (colouring, PD's factorization, HPBD's hierarchy).
 */
export function warmStepTime(pbd, warm, solver, iterations, runs) {
  const world = worldFor(pbd, warm, solver, iterations);
  world.step(DT);
  const ms = [];
  for (let r = 0; r < runs; r++) {
    moveToWarmState(world, warm);
    const t0 = performance.now();
    world.step(DT);
    ms.push(performance.now() - t0);
  }
  world.delete();
  return median(ms);
}

/** The scene for `frames` frames at config from its built state: the grid edges' strain, guard roll-backs. */
function strainAfter(pbd, scene, solver, config, frames) {
  const { world, geometry } = sceneWorld(pbd, scene, solver, config);
  const { rolledBack } = run(world, frames);
  const p = world.positions();
  const all = strainStats(p, geometry.edges, geometry.rest);
  const out = { all, rolledBack, finite: allFinite(p, world.velocities()) };
  if (geometry.stiff) {
    out.stiff = strainStats(p, geometry.edges, geometry.rest, geometry.stiff);
    out.soft = strainStats(p, geometry.edges, geometry.rest, geometry.stiff.map((s) => 1 - s));
  }
  world.delete();
  return out;
}

/** Item 2c: the scrambled block for `frames` frames at config: finite?, strain, kinetic energy, inverted tets. */
function scrambledRun(pbd, scene, solver, config, frames) {
  const { world, geometry } = sceneWorld(pbd, scene, solver, config);
  const { rolledBack, ms } = run(world, frames);
  const p = world.positions(), v = world.velocities();
  let inverted = 0;
  for (let t = 0; t < geometry.tets.length; t += 4) {
    if (!(signedTetVolume(p, ...geometry.tets.subarray(t, t + 4)) > 0)) inverted++;
  }
  const out = { strain: strainStats(p, geometry.edges, geometry.rest), energy: kineticEnergy(v, world.inverseMasses()),
    inverted, tets: geometry.tets.length / 4, rolledBack, finite: allFinite(p, v), ms: median(ms) };
  world.delete();
  return out;
}

const pct = (x) => (!Number.isFinite(x) ? String(x)
  : Math.abs(x) < 1e3 ? `${(100 * x).toFixed(3)}%` : `${(100 * x).toExponential(2)}%`);
const fmt = (x, digits = 3) => (x === null || x === undefined ? '-' : Number(x).toPrecision(digits));
const cfgName = ({ substeps, iterations }) => `${substeps}x${iterations}`;
const finiteCell = (r) => `${r.finite ? 'yes' : 'NO'}${r.rolledBack ? ` (${r.rolledBack} undone)` : ''}`;

/**
 * One table row per solver: row(solver) gives its cells after the solver's name; a solver that throws (a new one
 * that lacks something a scene needs) gets its error message instead, and the others still run.
 */
function rowsFor(solvers, row, prefix = []) {
  return solvers.map((solver) => {
    try {
      return [solver, ...prefix, ...row(solver)];
    } catch (e) {
      return [solver, ...prefix, `error: ${e.message}`];
    }
  });
}

/** The whole --stiff report, printed. opts: { runs, seconds, solvers (default SOLVERS) }. */
export function stiffReport(pbd, opts) {
  const solvers = opts.solvers ?? SOLVERS;
  const frames = Math.round(opts.seconds * 60);
  console.log(`solvers: ${solvers.join(', ')}`);

  // 1. The rigid hanging cloth.
  const hanging = STIFF_SCENES.hanging48;
  console.log(`\n1. ${hanging.label}: ${frames} frames of 1/60 s from rest; strain of the grid edges (|x_a - x_b| / rest ` +
    `- 1) at the end; ms/frame = the median frame of ${opts.runs} runs, each in a fresh world`);
  const rows1 = STIFF.configs.flatMap((config) => rowsFor(solvers, (solver) => {
    const r = hangingRun(pbd, hanging, solver, config, frames, opts.runs);
    return [pct(r.max), pct(r.mean), r.ms.toFixed(3), finiteCell(r) + (r.same ? '' : ' (runs differ)')];
  }, [cfgName(config)]));
  console.log(table([{ title: 'solver', width: 22, align: 'left' }, { title: 'sub x it', width: 8 },
    { title: 'max strain', width: 11 }, { title: 'mean strain', width: 11 }, { title: 'ms/frame', width: 9 },
    { title: 'finite', width: 6, align: 'left' }], rows1));

  // 1b. The cloth with dihedral bending, at 10 x 1: where VBD gains energy.
  const dihedral = STIFF_SCENES.dihedral32;
  console.log(`\n1b. ${dihedral.label}: ${frames} frames at ${cfgName(STIFF.configs[0])}; at the end the grid edges' ` +
    `strain and the largest particle speed`);
  const rows1b = rowsFor(solvers, (solver) => {
    const r = hangingRun(pbd, dihedral, solver, STIFF.configs[0], frames, opts.runs);
    return [pct(r.max), pct(r.mean), r.maxSpeed.toFixed(2), r.ms.toFixed(3),
      finiteCell(r) + (r.same ? '' : ' (runs differ)')];
  });
  console.log(table([{ title: 'solver', width: 22, align: 'left' }, { title: 'max strain', width: 11 },
    { title: 'mean strain', width: 11 }, { title: 'max m/s', width: 8 }, { title: 'ms/frame', width: 9 },
    { title: 'finite', width: 6, align: 'left' }], rows1b));

  // 1c. What an iteration costs on the 128² cloth, VBD against coloured Gauss-Seidel (issue 53 asks at most 2x).
  const costSolvers = solvers.filter((solver) => ['coloured-gauss-seidel', 'vbd'].includes(solver));
  console.log(`\n1c. bench:peers' hanging 128² cloth (rigid stretch, shear and skip-one bending, g = -9.81, ` +
    `10 substeps): the median frame at 10 x 1 and 10 x 2 over ${opts.runs} rounds of 60 frames; ms/iteration = ` +
    'their difference / 10');
  const costs = new Map(costSolvers.map((solver) => [solver, iterationCost(pbd, solver, 128, 60, opts.runs)]));
  const reference = costs.get('coloured-gauss-seidel');
  const rows1c = costSolvers.map((solver) => {
    const c = costs.get(solver);
    return [solver, c.one.toFixed(3), c.two.toFixed(3), c.iteration.toFixed(4),
      reference ? `${(c.iteration / reference.iteration).toFixed(2)}x` : '-'];
  });
  console.log(table([{ title: 'solver', width: 22, align: 'left' }, { title: 'ms 10x1', width: 8 },
    { title: 'ms 10x2', width: 8 }, { title: 'ms/iteration', width: 12 }, { title: 'vs coloured GS', width: 14 }],
  rows1c));

  // 2a, 2b. Iterations and ms to the relative residual, strain after 3 s at 10 x 1.
  const strainConfig = STIFF.configs[0];
  for (const [key, tag] of [['stiffHalf32', '2a'], ['heavyMass24', '2b']]) {
    const scene = STIFF_SCENES[key];
    const warm = warmState(pbd, scene, STIFF.warmupFrames);
    const { edges, rest } = warm.geometry.residual;
    const edgesOf = key === 'stiffHalf32' ? "the stiff half's stretch and shear edges" : 'every distance constraint';
    console.log(`\n${tag}. ${scene.label}:\n  relative residual = RMS |C| / mean rest length over ${edgesOf} (${edges.length / 2}; ` +
      `warm state ${fmt(relativeResidual(warm.positions, edges, rest))}), after one step of 1 substep x N iterations ` +
      `from the warm state; target ${STIFF.target}, N up to ${STIFF.most}; strain after ${opts.seconds} s at ` +
      `${cfgName(strainConfig)} from rest`);
    const rows = rowsFor(solvers, (solver) => {
      const hit = fewestIterations(pbd, warm, solver, STIFF.target, STIFF.most);
      const ms = hit.n ? warmStepTime(pbd, warm, solver, hit.n, opts.runs) : null;
      const s = strainAfter(pbd, scene, solver, strainConfig, frames);
      const strainCells = s.stiff ? [pct(s.stiff.max), pct(s.soft.max)] : [pct(s.all.max)];
      return [fmt(hit.first), hit.n ?? `>${STIFF.most}`, fmt(hit.value), ms === null ? '-' : ms.toFixed(2), ...strainCells,
        finiteCell(s)];
    });
    const strainColumns = key === 'stiffHalf32'
      ? [{ title: 'max strain stiff', width: 16 }, { title: 'max strain soft', width: 15 }]
      : [{ title: 'max strain', width: 11 }];
    console.log(table([{ title: 'solver', width: 22, align: 'left' }, { title: 'after 1 it', width: 10 }, { title: 'iters', width: 6 },
      { title: 'residual', width: 9 }, { title: 'ms to 1e-3', width: 10 }, ...strainColumns,
      { title: 'finite', width: 6, align: 'left' }], rows));
  }

  // 2c. The scrambled block.
  const scrambled = STIFF_SCENES.scrambledTets4;
  console.log(`\n2c. ${scrambled.label}: ${frames} frames from the scrambled start; at the end: strain of the tet edges, ` +
    `kinetic energy, tets of volume <= 0`);
  const rows2 = STIFF.configs.flatMap((config) => rowsFor(solvers, (solver) => {
    const r = scrambledRun(pbd, scrambled, solver, config, frames);
    return [pct(r.strain.max), pct(r.strain.maxAbs), fmt(r.energy), `${r.inverted}/${r.tets}`, r.ms.toFixed(3),
      finiteCell(r)];
  }, [cfgName(config)]));
  console.log(table([{ title: 'solver', width: 22, align: 'left' }, { title: 'sub x it', width: 8 },
    { title: 'max strain', width: 11 }, { title: 'max |strain|', width: 12 }, { title: 'KE (J)', width: 9 },
    { title: 'inverted', width: 8 }, { title: 'ms/frame', width: 9 }, { title: 'finite', width: 6, align: 'left' }], rows2));
}

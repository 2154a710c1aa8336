// Pure numbers of the solver benchmark: medians, iterations to reach a residual, edge stretch, a pendulum's energy.
// No wasm here, so tests/js/node/solvers-bench.test.js checks them on made-up data.
import { edgeLengths } from '../scenes.mjs';

/** The median of a non-empty list (the upper one of the middle two for an even count). */
export const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/**
 * 1-based count of iterations after which `curve` (one residual per iteration, in order) first is <= level;
 * null when it never is. A curve that is not monotone counts its first crossing.
 */
export function iterationsToReach(curve, level) {
  for (let i = 0; i < curve.length; i++) if (curve[i] <= level) return i + 1;
  return null;
}

/**
 * Splits World.residuals() (pairs: max |r|, RMS r, per projection pass) into two curves.
 * Pass k of a step with one substep is iteration k + 1.
 */
export function splitResiduals(pairs) {
  const max = [], rms = [];
  for (let k = 0; k + 1 < pairs.length; k += 2) max.push(pairs[k]), rms.push(pairs[k + 1]);
  return { max, rms };
}

/**
 * The stretch residual: RMS over edges of max(0, |x_a - x_b| - rest), in m. Only stretching counts: HPBD's coarse
 * levels are unilateral (they resist stretching only), so this is the error they are meant to remove.
 */
export function stretchRms(xyz, edges, rest) {
  const now = edgeLengths(xyz, edges);
  let sum = 0;
  for (let e = 0; e < now.length; e++) sum += Math.max(0, now[e] - rest[e]) ** 2;
  return Math.sqrt(sum / now.length);
}

/** max over edges of |x_a - x_b| / rest - 1: the worst relative stretch (negative if every edge is compressed). */
export function maxStretch(xyz, edges, rest) {
  const now = edgeLengths(xyz, edges);
  let worst = -Infinity;
  for (let e = 0; e < now.length; e++) worst = Math.max(worst, now[e] / rest[e] - 1);
  return worst;
}

/**
 * Mechanical energy (J) of a bob of mass m on a spring of stiffness k (N/m) and rest length L from a pin at the
 * origin, gravity g (m/s², along -y): ½ m |v|² + m g y + ½ k (|x| - L)².
 */
export function springPendulumEnergy(x, v, m, k, L, g) {
  const stretch = Math.hypot(x[0], x[1], x[2]) - L;
  return 0.5 * m * (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]) + m * g * x[1] + 0.5 * k * stretch * stretch;
}

/**
 * Strain of every edge, |x_a - x_b| / rest - 1, summarised: { max, mean, maxAbs } (mean: signed, over all edges;
 * maxAbs: the worst of stretch and compression). `select` (optional, 0/1 per edge) keeps only the edges marked 1.
 */
export function strainStats(xyz, edges, rest, select) {
  const now = edgeLengths(xyz, edges);
  let max = -Infinity, maxAbs = 0, sum = 0, count = 0;
  for (let e = 0; e < now.length; e++) {
    if (select && !select[e]) continue;
    const strain = now[e] / rest[e] - 1;
    max = Math.max(max, strain);
    maxAbs = Math.max(maxAbs, Math.abs(strain));
    sum += strain;
    count++;
  }
  return { max, mean: sum / count, maxAbs };
}

/**
 * The relative residual of issue 53: RMS over the edges of C = |x_a - x_b| - rest, divided by the edges' mean rest
 * length (dimensionless; NaN if a position is not finite).
 */
export function relativeResidual(xyz, edges, rest) {
  const now = edgeLengths(xyz, edges);
  let sumSq = 0, sumRest = 0;
  for (let e = 0; e < now.length; e++) sumSq += (now[e] - rest[e]) ** 2, sumRest += rest[e];
  return Math.sqrt(sumSq / now.length) / (sumRest / now.length);
}

/** Kinetic energy (J) ½ Σ m |v|² over the particles with inverse mass > 0 (pinned ones carry none). */
export function kineticEnergy(velocities, inverseMasses) {
  let sum = 0;
  for (let i = 0; i < inverseMasses.length; i++) {
    const w = inverseMasses[i];
    if (w > 0) sum += (velocities[3 * i] ** 2 + velocities[3 * i + 1] ** 2 + velocities[3 * i + 2] ** 2) / w;
  }
  return 0.5 * sum;
}

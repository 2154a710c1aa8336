// bench:peers' sanity figures: computed the same way from either engine's world-space positions (xyz per particle),
// they show that both engines simulated the scene (bench/scenes.mjs benchSceneDef: clothDef and the other cloth defs,
// cubeDef and the other tet defs) and whether a row's timing compares. No engine code here.
import { signedTetVolume } from '../scenes.mjs';

/** Length / rest length over the pairs: max, 99th percentile and min (min < 1 = compressed, e.g. crumpled). */
function edgeStretch(p, pairs, rest) {
  const r = new Float64Array(pairs.length);
  for (let k = 0; k < pairs.length; k++) {
    const [i, j] = pairs[k];
    r[k] = Math.hypot(p[3 * i] - p[3 * j], p[3 * i + 1] - p[3 * j + 1], p[3 * i + 2] - p[3 * j + 2]) / rest[k];
  }
  r.sort();  // NaN sorts last
  return { max: r[r.length - 1], p99: r[Math.floor(0.99 * (r.length - 1))], min: r[0] };
}

export function restLengths(p, pairs) {
  return pairs.map(([i, j]) => Math.hypot(p[3 * i] - p[3 * j], p[3 * i + 1] - p[3 * j + 1], p[3 * i + 2] - p[3 * j + 2]));
}

const allFinite = (p) => p.every(Number.isFinite);
const maxAbs = (p) => p.reduce((m, x) => Math.max(m, Math.abs(x)), 0);

/**
 * verdict, from the edge length ratios (length / rest) and the positions:
 *   'blew up'   non-finite, or a particle > 10 m from the origin (the scenes span 2 m);
 *   'unstable'  an edge > 3x or < 0.25x its rest length: tangled or crumpled patches, no longer the scene's motion;
 *   'stretched' intact, but under-converged: 1 % of the edges > 1.1x or one > 1.5x;
 *   'ok'.
 * Timings compare only between rows that are 'ok' or 'stretched'.
 */
export const COMPARABLE = ['ok', 'stretched'];
function verdict(finite, extent, e) {
  if (!finite || !(extent <= 10)) return 'blew up';
  if (e.max > 3 || e.min < 0.25) return 'unstable';
  if (e.p99 > 1.1 || e.max > 1.5) return 'stretched';
  return 'ok';
}

/**
 * Over the cloth's stretch edges (the grid edges; the irregular cloth's triangle edges): maxStretch, p99Stretch,
 * minStretch; lowestY and freeCornerY (the corner opposite the pins), m.
 */
export function clothSanity(p, def, stretchRest = restLengths(def.positions, def.stretch)) {
  let lowestY = Infinity;
  for (let i = 1; i < p.length; i += 3) lowestY = Math.min(lowestY, p[i]);
  const finite = allFinite(p), e = edgeStretch(p, def.stretch, stretchRest), extent = maxAbs(p);
  return {
    verdict: verdict(finite, extent, e), finite, lowestY, freeCornerY: p[3 * def.freeCorner + 1],
    maxStretch: e.max, p99Stretch: e.p99, minStretch: e.min,
  };
}

/** Over all tet edges: max/p99/minStretch; lowestY, centroidY, m; volumeRatio: sum of tet volumes / rest. */
export function cubeSanity(p, def, edgeRest = restLengths(def.positions, def.edges)) {
  let lowestY = Infinity, sumY = 0;
  for (let i = 1; i < p.length; i += 3) lowestY = Math.min(lowestY, p[i]), sumY += p[i];
  let volume = 0;
  for (let t = 0; t < def.tets.length; t += 4) {
    volume += signedTetVolume(p, def.tets[t], def.tets[t + 1], def.tets[t + 2], def.tets[t + 3]);
  }
  const finite = allFinite(p), e = edgeStretch(p, def.edges, edgeRest), extent = maxAbs(p);
  const volumeRatio = volume / def.restVolume;
  let v = verdict(finite, extent, e);
  if (COMPARABLE.includes(v) && (Math.abs(volumeRatio - 1) > 0.2 || lowestY < -0.1)) v = 'unstable';
  return {
    verdict: v, finite, lowestY, centroidY: sumY / (p.length / 3), volumeRatio,
    maxStretch: e.max, p99Stretch: e.p99, minStretch: e.min,
  };
}

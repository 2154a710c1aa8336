// Two configurations timed in alternating blocks (A, B, A, B, ...), the ratio taken per pair: on a shared machine
// whose speed drifts, the median of the paired ratios shows a change of a few percent that separate runs cannot.
// Used by paired-threads.mjs, paired-builds.mjs and bench:solvers' 2-thread line (solvers/measure.mjs).

/**
 * `pairs` pairs of blocks, A's then B's, each `frames` calls of its `frame()` after its `enter()` if it has one
 * (untimed: a switch of settings, the pool's workers waking). Returns each block's ms per frame ({ a, b }) and the
 * ratios B/A, pair by pair.
 */
export function pairedBlocks(A, B, pairs, frames) {
  const block = ({ enter, frame }) => {
    enter?.();
    const t0 = performance.now();
    for (let k = 0; k < frames; k++) frame();
    return (performance.now() - t0) / frames;
  };
  const a = [], b = [], ratios = [];
  for (let p = 0; p < pairs; p++) {
    const x = block(A), y = block(B);
    a.push(x), b.push(y), ratios.push(y / x);
  }
  return { a, b, ratios };
}

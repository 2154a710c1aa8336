// The timing loop the per-frame benchmarks share: each config warmed up, then RUNS runs of FRAMES frames, the configs
// interleaved run by run (so a drift of the machine's speed reaches them all alike); per config the median of the
// runs' ms per frame, with the fastest and slowest.
import { performance } from 'node:perf_hooks';
import { median } from './solvers/metrics.mjs';

/**
 * Prints the configs' times as a markdown table, each beside the first config (named `baseName` in the header): its
 * ms per frame with the fastest and slowest run, and the difference to the first in ms and per cent.
 */
export function printTimes(configs, timed, baseName) {
  const f = (x, d = 3) => x.toFixed(d);
  console.log(`| config | ms per frame | beside the ${baseName} |`);
  console.log('|---|---|---|');
  const base = timed[0].ms;
  configs.forEach((c, k) => {
    const { ms, fastest, slowest } = timed[k];
    console.log(`| ${c.name} | ${f(ms)} [${f(fastest)}, ${f(slowest)}] | ` +
      `${k ? `+${f(ms - base)} (${f(100 * (ms - base) / base, 0)} %)` : '-'} |`);
  });
}

/** configs: [{ frame() }]; returns per config { ms, fastest, slowest } (ms per frame). */
export function timeInterleaved(configs, { runs, frames, warmup = 0 }) {
  for (const c of configs) for (let f = 0; f < warmup; f++) c.frame();
  const times = configs.map(() => []);
  for (let r = 0; r < runs; ++r) {
    configs.forEach((c, k) => {
      const start = performance.now();
      for (let f = 0; f < frames; ++f) c.frame();
      times[k].push((performance.now() - start) / frames);
    });
  }
  return times.map((t) => ({ ms: median(t), fastest: Math.min(...t), slowest: Math.max(...t) }));
}

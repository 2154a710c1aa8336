// The Chromium side of `npm run bench:peers --browser`: a module Worker that runs measure.mjs runBench, the same
// code Node runs. Off the page's main thread because the threaded builds (pbd-wasm threaded, Jolt wasm-multithread)
// block on pthreads (Atomics.wait, joins), which a page's main thread must not do; a worker may. Both pbd-wasm builds
// and both Jolt builds load here as published (the page is cross-origin isolated, so SharedArrayBuffer exists).
// Protocol: the page posts run.mjs's options; the worker posts {type: 'progress', line} per measured row, then
// {type: 'done', out: {results, memory, hardwareConcurrency, crossOriginIsolated}} or {type: 'error', message}.
import { loadJolt } from './jolt-scenes.mjs';
import { runBench } from './measure.mjs';

self.onmessage = async ({ data: o }) => {
  try {
    const out = await runBench(o, {
      environment: 'chromium', loadJolt, progress: (line) => self.postMessage({ type: 'progress', line }),
    });
    self.postMessage({ type: 'done', out: {
      ...out, hardwareConcurrency: navigator.hardwareConcurrency, crossOriginIsolated: self.crossOriginIsolated,
    } });
  } catch (e) {
    self.postMessage({ type: 'error', message: String(e?.stack ?? e) });
  }
};

// Loading Jolt Physics in Node (the browser imports the published builds: jolt-scenes.mjs loadJolt).
// In Node 20 'wasm' and 'wasm-compat' load; both multithread builds hang: their glue (1.1.0) decides whether it is a
// pthread with
//   isPthread=await import("node:worker_threads").workerData==="em-pthread"
// which reads .workerData off the import() promise (always undefined), so its pthread workers never start and
// init() never resolves (Node exits with the unsettled top-level await, code 13). loadJoltNode('wasm-multithread')
// therefore loads a copy of that glue with the parentheses fixed, (await import(...)).workerData, written to
// build/peers/jolt-mt/ next to a copy of its .wasm. Nothing else is changed; node_modules is not touched.
// In a browser the same line reads isPthread from globalThis.name only, so the published glue works there.
import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { loadJolt } from './jolt-scenes.mjs';

const require = createRequire(import.meta.url);
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const JOLT_DIST = dirname(require.resolve('jolt-physics/wasm'));
const MT_GLUE = 'jolt-physics.multithread.wasm.js';
const MT_WASM = 'jolt-physics.multithread.wasm.wasm';
const MT_BUG = 'isPthread=await import("node:worker_threads").workerData==="em-pthread"';
const MT_FIX = 'isPthread=(await import("node:worker_threads")).workerData==="em-pthread"';

export const joltVersion = () => require('jolt-physics/package.json').version;

async function patchedMultithreadGlue() {
  const dir = join(ROOT, 'build', 'peers', 'jolt-mt');
  const glue = await readFile(join(JOLT_DIST, MT_GLUE), 'utf8');
  if (!glue.includes(MT_BUG)) {
    throw new Error(`jolt-physics ${joltVersion()}: the multithread glue no longer has the line this bench patches; ` +
      'try importing jolt-physics/wasm-multithread directly');
  }
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'package.json'), '{ "type": "module" }\n');  // the glue is an ES module named .js
  await writeFile(join(dir, MT_GLUE), glue.replace(MT_BUG, MT_FIX));
  await copyFile(join(JOLT_DIST, MT_WASM), join(dir, MT_WASM));
  return pathToFileURL(join(dir, MT_GLUE)).href;
}

/** build: 'wasm' (official single-threaded build, loads as is) or 'wasm-multithread' (SIMD + pthreads, patched). */
export async function loadJoltNode(build = 'wasm') {
  if (build === 'wasm-multithread') return (await import(await patchedMultithreadGlue())).default();
  return loadJolt(build);
}

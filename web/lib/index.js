/**
 * pbd-wasm: position-based dynamics (PBD and XPBD) compiled to WebAssembly.
 *
 * @example
 * import { createPbd } from 'pbd-wasm';
 * const pbd = await createPbd();
 * const world = new pbd.World();
 * world.addCloth({ columns: 32, rows: 32, spacing: 0.03, origin: [-0.5, 1.5, 0], pinned: [0, 31] });
 * world.step(1 / 60);
 * const xyz = world.positions(); // Float32Array view into wasm memory, no copy
 * world.delete();
 *
 * Two builds ship side by side: `threaded` (pthreads + SIMD; needs SharedArrayBuffer, i.e. a cross-origin isolated
 * page) and `single` (SIMD, runs anywhere). createPbd() picks one at run time.
 *
 * Over the Embind bindings: World methods take vectors in any shape and may leave out optional trailing arguments
 * (world-methods.js), options are checked for unknown keys (options.js), and errors are typed (errors.js).
 */

import { InvalidArgumentError, MeshParseError, PbdError, SnapshotError, passThrough, typedError } from './errors.js';
import { checkOptions } from './options.js';
import { isNode } from './environment.js';
import { markWorlds } from './module-of.js';
import { guardModule } from './stack-guard.js';
import { addBodyHandles } from './body-handles.js';
import { addColliderHandles } from './collider-handles.js';
import { addFixedStep } from './fixed-step.js';
import { widenWorld } from './world-methods.js';

export { InvalidArgumentError, MeshParseError, PbdError, SnapshotError };


const VARIANTS = ['threaded', 'single'];
const MAX_THREADS = 64;

/** Cores the solver may use: the browser's hardwareConcurrency (2 in Node, where the bench sets its own). */
const coreCount = () => (isNode ? undefined : globalThis.navigator?.hardwareConcurrency) ?? 2;

/** The most solver threads worth having: beyond 4 the barriers between colours cost more than they save. */
const usefulThreads = () => Math.max(1, Math.min(coreCount(), 4));

/**
 * Solver threads by default. In a browser one core is left to the page: it renders while the solver steps, and a
 * solver thread that loses its core stalls every barrier. In headless Chromium on 2 cores the demo's scenes stepped
 * as fast or faster on 1 solver thread as on 2 (fold 16.5 against 19.7 ms, showcase 12.5–14.2 against 15.0–17.8,
 * `node bench/gallery-bench.mjs --threads 1|2`). Node has no page to render: all useful threads.
 */
function defaultThreadCount() {
  return isNode ? usefulThreads() : Math.max(1, Math.min(coreCount() - 1, 4));
}

/** Which build createPbd() would load here when no variant is forced, and why. */
export function preferredVariant() {
  if (isNode) return { variant: 'threaded', reason: 'Node.js supports SharedArrayBuffer and worker threads' };
  if (globalThis.crossOriginIsolated && typeof SharedArrayBuffer !== 'undefined') {
    return { variant: 'threaded', reason: 'the page is cross-origin isolated' };
  }
  return {
    variant: 'single',
    reason: 'the page is not cross-origin isolated (serve it with COOP: same-origin and COEP: require-corp for threads)',
  };
}

function checkLoaderOptions(options) {
  if (options === null || typeof options !== 'object') {
    throw new InvalidArgumentError('createPbd: options must be an object');
  }
  const { variant, threads } = checkOptions('createPbd', 'CreatePbdOptions', options);
  if (variant !== undefined && !VARIANTS.includes(variant)) {
    throw new InvalidArgumentError(
      `createPbd: options.variant must be 'threaded' or 'single' (got ${JSON.stringify(variant)})`);
  }
  if (threads !== undefined && !(Number.isInteger(threads) && threads >= 1 && threads <= MAX_THREADS)) {
    throw new InvalidArgumentError(
      `createPbd: options.threads must be an integer in [1, ${MAX_THREADS}] (got ${threads})`);
  }
}

async function nodeModuleArgs(variant) {
  const [{ readFile }, { fileURLToPath }, { createRequire }] = await Promise.all([
    import(/* @vite-ignore */ 'node:fs/promises'),
    import(/* @vite-ignore */ 'node:url'),
    import(/* @vite-ignore */ 'node:module'),
  ]);
  const dirUrl = new URL(`./wasm/${variant}/`, import.meta.url);
  // Emscripten 3.1.6's ES6 glue uses these CommonJS globals in its Node branch; Node 20's fetch cannot load file URLs.
  globalThis.__dirname ??= fileURLToPath(dirUrl);
  globalThis.require ??= createRequire(new URL('pbd_wasm.mjs', dirUrl));
  return {
    wasmBinary: await readFile(new URL('pbd_wasm.wasm', dirUrl)),
    locateFile: (file) => fileURLToPath(new URL(file, dirUrl)),
  };
}

async function importVariant(variant) {
  // Two literal imports, so that bundlers (Vite) see and emit both builds.
  const mod = variant === 'threaded'
    ? await import('./wasm/threaded/pbd_wasm.mjs')
    : await import('./wasm/single/pbd_wasm.mjs');
  return mod.default;
}

/**
 * Closed surface -> tet mesh, synchronously (run it in a Worker for big meshes). Progress goes to
 * options.onProgress(fraction); returning false from it, or aborting options.signal, cancels with an AbortError.
 */
function tetrahedralize(M, positions, triangles, options = {}) {
  if (options === null || typeof options !== 'object') {
    throw new InvalidArgumentError('tetrahedralize: options must be an object');
  }
  const { signal, onProgress, ...rest } = checkOptions('tetrahedralize', 'TetrahedralizeOptions', options);
  if (onProgress !== undefined && typeof onProgress !== 'function') {
    throw new InvalidArgumentError('tetrahedralize: options.onProgress must be a function');
  }
  if (signal?.aborted) throw abortError();
  const wrapped = (onProgress || signal)
    ? (fraction) => (callersProgress(onProgress, fraction) !== false) && !signal?.aborted
    : undefined;
  return M.tetrahedralize(positions, triangles, wrapped ? { ...rest, onProgress: wrapped } : rest);
}

/** The caller's onProgress; what it throws is the caller's own error, not the bindings' (errors.js). */
function callersProgress(onProgress, fraction) {
  try {
    return onProgress?.(fraction);
  } catch (error) {
    throw passThrough(error);
  }
}

/**
 * A mesh reader's text arguments, checked here so that everything the C++ reader throws is a MeshParseError.
 * The message is the binding's own (mesh_bindings.cpp textArgument).
 */
function checkText(fn, texts) {
  for (const [name, text] of Object.entries(texts)) {
    if (typeof text !== 'string') throw new InvalidArgumentError(`${fn}: ${name} must be a string (the file's text)`);
  }
}

function abortError() {
  const error = new Error('tetrahedralize: cancelled');
  error.name = 'AbortError';
  return error;
}

/**
 * Loads the WebAssembly module.
 * @param {{variant?: 'threaded'|'single', threads?: number}} [options]
 *   variant: force a build (default: threaded in Node and on cross-origin isolated pages, single otherwise).
 *   threads: solver threads including the calling one (threaded build only; default min(cores − 1, 4) in a
 *   browser, at least 1, and 2 in Node; see defaultThreadCount).
 * @returns {Promise<import('./index').Pbd>}
 */
export async function createPbd(options = {}) {
  checkLoaderOptions(options);
  const variant = options.variant ?? preferredVariant().variant;
  if (variant === 'threaded' && typeof SharedArrayBuffer === 'undefined') {
    throw new PbdError("createPbd: options.variant 'threaded' needs SharedArrayBuffer, which this page does not have " +
      '(serve it with COOP: same-origin and COEP: require-corp)');
  }
  const threads = variant === 'single' ? 1 : (options.threads ?? defaultThreadCount());
  // The pthread pool is spawned at load, with room for every useful thread (setThreads may raise the count up to
  // maxThreads later); never ask the C++ side for more threads than it holds.
  const poolSize = variant === 'threaded' ? Math.max(1, Math.max(threads, usefulThreads()) - 1) : 0;
  const moduleArgs = { pthreadPoolSize: poolSize, ...(isNode ? await nodeModuleArgs(variant) : {}) };
  const factory = await importVariant(variant);
  const raw = await factory(moduleArgs);
  widenWorld(raw.World);                        // reads the bindings' arity: before guardModule wraps the methods
  addFixedStep(raw.World);
  addBodyHandles(raw.World);                    // records that removeBody keeps up to date
  addColliderHandles(raw.World);                // collider numbers that removeCollider does not shift
  const M = guardModule(raw, typedError);       // a failing call must not leak wasm stack (stack-guard.js)
  M.configureThreads(threads, poolSize);
  const pbd = {
    World: M.World,
    Embedding: M.Embedding,
    tetrahedralize: (positions, triangles, options) => tetrahedralize(M, positions, triangles, options),
    readObj(text) {
      checkText('readObj', { text });
      return M.readObj(text);
    },
    weldVertices: (positions, triangles, tolerance = 1e-6) => M.weldVertices(positions, triangles, tolerance),
    reorderSoftBody: (def) => M.reorderSoftBody(def),
    reorderTriangleMesh: (def) => M.reorderTriangleMesh(def),
    readTetGen(nodeText, eleText) {
      checkText('readTetGen', { nodeText, eleText });
      return M.readTetGen(nodeText, eleText);
    },
    variant,
    get threads() { return M.threadCount(); },
    /** The most threads setThreads can give (the pool spawned at load plus the calling thread); 1 when single. */
    maxThreads: poolSize + 1,
    setThreads(n) {
      if (!(Number.isInteger(n) && n >= 1 && n <= MAX_THREADS)) {
        throw new InvalidArgumentError(`setThreads: threads must be an integer in [1, ${MAX_THREADS}] (got ${n})`);
      }
      return M.configureThreads(n, poolSize);
    },
    heapBytesInUse: () => M.heapBytesInUse(),
    /** The wasm memory's buffer (a SharedArrayBuffer in the threaded build): views into it are zero-copy. */
    get memory() { return M.HEAPU8.buffer; },
    /** Stops the pthread workers, so that a Node process can exit. The module is unusable afterwards. */
    terminate() { M.PThread?.terminateAllThreads(); },
    module: M,
  };
  markWorlds(M.World, pbd);   // softBodyFromMesh(world, ...) finds the module's tetrahedralize through its world
  return pbd;
}

export default createPbd;

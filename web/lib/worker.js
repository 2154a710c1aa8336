/**
 * pbd-wasm/worker: a World that lives and steps in a Worker, so that the page's main thread never waits for the
 * solver. Every World method is called as on a World and returns a promise; calls run in the order sent. The page
 * reads the particle positions without asking: a zero-copy view of the Worker's shared wasm memory in the threaded
 * build, a copy the Worker transfers after every call in the single-threaded one.
 *
 * @example
 * import { createWorkerWorld } from 'pbd-wasm/worker';
 * const remote = await createWorkerWorld();
 * const cloth = await remote.world.addCloth({ columns: 32, rows: 32, spacing: 0.03, origin: [0, 1.5, 0] });
 * // every frame: if (remote.pending === 0) remote.world.advance(frameSeconds); draw remote.positions()
 *
 * Code of your own can run in the Worker beside the world (scene set-up, a force every step): a Worker script that
 * calls serveWorld({ functions, beforeStep }), passed to createWorkerWorld, whose WorkerWorld.run calls them.
 *
 * worker-host.js is the Worker's side (worker-default.js its script when none is given); errors cross as their
 * classes (worker-errors.js).
 */
import { InvalidArgumentError, PbdError } from './errors.js';
import { isNode } from './environment.js';
import { reviveError } from './worker-errors.js';

export { serveWorld } from './worker-host.js';

/** A Worker with one interface for the browser's and Node's (worker_threads). */
function wrap(worker) {
  if (typeof worker.on === 'function') return { worker, on: (type, listener) => worker.on(type, listener) };
  return {
    worker,
    on: (type, listener) => worker.addEventListener(type,
      (event) => listener(type === 'message' ? event.data : event.error ?? new Error(event.message))),
  };
}

/** A new Worker running worker-default.js. */
async function spawn() {
  if (isNode) {
    const { Worker } = await import(/* @vite-ignore */ 'node:worker_threads');
    return wrap(new Worker(new URL('./worker-default.js', import.meta.url)));
  }
  // One literal expression, so that bundlers (Vite) find the Worker and build it with its imports.
  return wrap(new Worker(new URL('./worker-default.js', import.meta.url), { type: 'module' }));
}

/** createWorkerWorld's `worker`: a browser Worker or a worker_threads Worker whose script calls serveWorld. */
function checkWorker(worker) {
  const ok = worker !== null && typeof worker === 'object' && typeof worker.postMessage === 'function' &&
    typeof worker.terminate === 'function' &&
    (typeof worker.on === 'function' || typeof worker.addEventListener === 'function');
  if (!ok) {
    throw new InvalidArgumentError('createWorkerWorld: worker must be a Worker (browser or worker_threads) whose ' +
      `script calls serveWorld (got ${worker === null ? 'null' : typeof worker})`);
  }
  return wrap(worker);
}

export class WorkerWorld {
  #spawned;
  #pending = new Map();   // id -> {resolve, reject, what}
  #nextId = 0;
  #positions = new Float32Array(0);
  #failure = null;        // set when the Worker died or was terminated: every later call is rejected with it

  /** Use createWorkerWorld(). */
  constructor(spawned) {
    this.#spawned = spawned;
    spawned.on('message', (message) => this.#receive(message));
    spawned.on('error', (error) => this.#fail(new PbdError(`pbd-wasm/worker: the Worker failed: ${error?.message}`)));
    // Node's worker_threads: a Worker that ends (process.exit in it, or a crash) answers nothing more.
    if (typeof spawned.worker.on === 'function') {
      spawned.on('exit', (code) => this.#fail(new PbdError(`pbd-wasm/worker: the Worker exited (code ${code})`)));
    }
    /** World's methods, each returning a promise of its result. */
    this.world = this.#methods('world');
    /** The module's functions (tetrahedralize, readObj, setThreads...), each returning a promise. */
    this.pbd = this.#methods('pbd');
    /** Called with each value a hosted function passes to context.report (progress of a long call), or null. */
    this.onReport = null;
  }

  /** Calls sent and not answered yet: a render loop sends its next step when this is 0, so steps never queue up. */
  get pending() { return this.#pending.size; }

  /**
   * xyz per particle, m. Threaded build: a view of the Worker's memory, updated in place as it steps (a frame may
   * see a step in progress); single-threaded: the copy sent after the last call. Fetch it again after each call
   * that resolves: it is replaced when the world's arrays move or grow.
   */
  positions() { return this.#positions; }

  /**
   * Calls `name` of the functions the Worker's script passed to serveWorld, there, with ({ pbd, world }, ...args);
   * resolves to its result (awaited there, copied across). An unknown name rejects with an InvalidArgumentError.
   */
  run(name, ...args) { return this.#call('hosted', 'run', [name, ...args]); }

  /** Deletes the world, stops the module's threads and the Worker. Later calls are rejected. */
  async terminate() {
    if (this.#failure) return;
    try {
      await this.#call('world', 'terminate', []);
    } finally {
      this.#fail(new PbdError('pbd-wasm/worker: the WorkerWorld was terminated'));
      await this.#spawned.worker.terminate();
    }
  }

  /** Used by createWorkerWorld: loads the module and makes the world in the Worker. */
  async init(options) {
    Object.assign(this, await this.#call('world', 'init', [options]));
    return this;
  }

  #methods(target) {
    // `then` is no method: the object must not look like a promise to `await`.
    return new Proxy({}, {
      get: (_, method) => (typeof method === 'string' && method !== 'then'
        ? (...args) => this.#call(target, method, args) : undefined),
    });
  }

  #call(target, method, args) {
    const what = target === 'hosted' ? 'WorkerWorld.run' : `${target === 'pbd' ? 'pbd' : 'World'}.${method}`;
    if (this.#failure) return Promise.reject(this.#failure);
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      try {
        this.#spawned.worker.postMessage({ id, target, method, args });
      } catch (error) {   // a function or another value structured cloning cannot send
        reject(new InvalidArgumentError(`${what}: an argument cannot be sent to the Worker (${error.message})`));
        return;
      }
      this.#pending.set(id, { resolve, reject });
    });
  }

  #receive({ id, result, error, positions, report }) {
    if (id === undefined) {   // a hosted function's report, on its way
      this.onReport?.(report);
      return;
    }
    if (positions?.shared) {
      const { buffer, byteOffset, length } = positions.shared;
      this.#positions = new Float32Array(buffer, byteOffset, length);
    } else if (positions?.copy) {
      this.#positions = positions.copy;
    }
    const call = this.#pending.get(id);
    if (!call) return;
    this.#pending.delete(id);
    if (error) call.reject(reviveError(error));
    else call.resolve(result);
  }

  #fail(error) {
    this.#failure ??= error;
    for (const { reject } of this.#pending.values()) reject(this.#failure);
    this.#pending.clear();
  }
}

/**
 * A World in a Worker: a new one, or `worker`, whose script calls serveWorld.
 * @param {import('./index').CreatePbdOptions} [options] createPbd's, applied in the Worker: the threaded build needs
 *   a cross-origin isolated page there too.
 * @param {Worker | import('node:worker_threads').Worker} [worker]
 * @returns {Promise<WorkerWorld>}
 */
export async function createWorkerWorld(options = {}, worker = undefined) {
  const remote = new WorkerWorld(worker === undefined ? await spawn() : checkWorker(worker));
  try {
    return await remote.init(options);
  } catch (error) {
    await remote.terminate().catch(() => {});
    throw error;
  }
}

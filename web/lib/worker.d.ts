import type { CreatePbdOptions, Pbd, World } from './index';

/** T's methods, each returning a promise of what the method returns (run in the Worker, in the order called). */
export type Remote<T> = {
  [K in keyof T as T[K] extends (...args: any[]) => any ? K : never]:
    T[K] extends (...args: infer A) => infer R ? (...args: A) => Promise<Awaited<R>> : never;
};

/**
 * A World that lives and steps in a Worker (a browser Worker, or worker_threads in Node), so that the main thread
 * never waits for the solver. Calls run in the order sent; arguments and results are copied across (structured
 * clone: vectors in any shape, typed arrays; no functions, so no onProgress), and errors keep their classes
 * (InvalidArgumentError, MeshParseError with its line...). A render loop sends its next step when `pending` is 0 and
 * draws `positions()` meanwhile. The threaded build needs a cross-origin isolated page, as createPbd does.
 */
export declare class WorkerWorld {
  /** The build the Worker loaded. */
  readonly variant: 'threaded' | 'single';
  /** Solver threads at creation, the Worker's own included. */
  readonly threads: number;
  /** The most threads pbd.setThreads can give. */
  readonly maxThreads: number;
  /**
   * The World's methods, each returning a promise of its result (views of wasm memory come as copies). Results are
   * structured clones: a body's record here is a copy, not the handle world.removeBody keeps up to date, so remove a
   * body by its index (`record.body`, shifted down by one for each earlier body removed).
   */
  readonly world: Remote<World>;
  /** The module's functions (tetrahedralize, readObj, weldVertices, readTetGen, setThreads, heapBytesInUse...). */
  readonly pbd: Remote<Pbd>;
  /** Calls sent and not answered yet. */
  readonly pending: number;
  /**
   * Called on the page with each value a hosted function passes to {@link WorkerContext.report} while it runs (the
   * progress of a long set-up, say), before the call resolves. Default: null (reports are dropped).
   */
  onReport: ((value: unknown) => void) | null;
  /**
   * xyz per particle, m. Threaded build: a zero-copy view of the Worker's shared wasm memory, updated in place as it
   * steps (a frame may draw a step in progress). Single-threaded: a copy the Worker transfers after every call.
   * Fetch it again after each call that resolves: it is replaced when the world's arrays move or grow.
   */
  positions(): Float32Array;
  /**
   * Calls `name` of the functions the Worker's script passed to {@link serveWorld}, in the Worker, with
   * `({ pbd, world }, ...args)`, in order with the other calls; resolves to its result (awaited there, copied across
   * by structured clone). An unknown name rejects with an InvalidArgumentError listing the names served; an error the
   * function throws rejects with its class.
   */
  run<R = unknown>(name: string, ...args: unknown[]): Promise<Awaited<R>>;
  /** Deletes the world, stops the module's threads and the Worker; later calls reject with a PbdError. */
  terminate(): Promise<void>;
}

/**
 * Starts a Worker (or takes `worker`, whose script calls {@link serveWorld}), loads the module there with
 * createPbd's options, and makes one World in it. Rejects as createPbd would (InvalidArgumentError for bad options;
 * PbdError when the threaded build is asked for without SharedArrayBuffer), and with an InvalidArgumentError naming
 * `worker` when it is not a Worker.
 *
 * @example
 * // sim.worker.js: code of your own beside the world, in the Worker
 * import { serveWorld } from 'pbd-wasm/worker';
 * let wind = 0;   // N per particle, along x
 * serveWorld({
 *   functions: {
 *     hang: ({ world }, n) => world.addCloth({ columns: n, rows: n, spacing: 0.03, origin: [0, 1.5, 0] }),
 *     setWind: (_, force) => { wind = force; },
 *   },
 *   beforeStep: ({ world }) => {
 *     for (let i = 0; i < world.particleCount(); i++) world.setExternalForce(i, [wind, 0, 0]);
 *   },
 * });
 * // main.js
 * const sim = new Worker(new URL('./sim.worker.js', import.meta.url), { type: 'module' });
 * const remote = await createWorkerWorld({}, sim);
 * await remote.run('hang', 32);
 * await remote.run('setWind', 0.002);
 */
export declare function createWorkerWorld(options?: CreatePbdOptions, worker?: WorkerLike): Promise<WorkerWorld>;

/** A browser `Worker` or a Node `worker_threads` Worker: what createWorkerWorld needs of it. */
export interface WorkerLike {
  /** Sends a message to the Worker. */
  postMessage(message: unknown, transfer?: any): void;
  /** Stops the Worker. */
  terminate(): unknown;
}

/** What the functions and the per-step hook of {@link serveWorld} get: the module and the world of this Worker. */
export interface WorkerContext {
  /** The module the Worker loaded with createWorkerWorld's options. */
  pbd: Pbd;
  /** The Worker's World, the one the page's WorkerWorld.world calls. */
  world: World;
  /**
   * Sends `value` to the page now, while the function still runs: WorkerWorld.onReport gets it (copied across by
   * structured clone; views of wasm memory as copies). For progress, which a call's result comes too late to carry.
   */
  report(value: unknown): void;
}

/** What a Worker script serves beside its World (see {@link serveWorld}). */
export interface HostedWorld {
  /** Functions WorkerWorld.run calls by name, each with (context, ...the page's arguments). Default: none. */
  functions?: Record<string, (context: WorkerContext, ...args: any[]) => unknown>;
  /**
   * Runs before every step the page asks for, with its dt in seconds: before `world.step(dt)`, and before each step
   * of `world.advance` unless the page's call brings its own beforeStep. For forces that follow the state (wind on a
   * flag, a motor). Default: none.
   */
  beforeStep?: (context: WorkerContext, dt: number) => void;
}

/**
 * Serves a World to the page that made this Worker: call it once at the top of a Worker script, and pass that Worker
 * to {@link createWorkerWorld}. Throws an InvalidArgumentError naming the option for a malformed `hosted` (an
 * unknown key, a function that is not one), and a PbdError when called twice.
 */
export declare function serveWorld(hosted?: HostedWorld): void;

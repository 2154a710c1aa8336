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
   * xyz per particle, m. Threaded build: a zero-copy view of the Worker's shared wasm memory, updated in place as it
   * steps (a frame may draw a step in progress). Single-threaded: a copy the Worker transfers after every call.
   * Fetch it again after each call that resolves: it is replaced when the world's arrays move or grow.
   */
  positions(): Float32Array;
  /** Deletes the world, stops the module's threads and the Worker; later calls reject with a PbdError. */
  terminate(): Promise<void>;
}

/**
 * Starts a Worker, loads the module there with createPbd's options, and makes one World in it. Rejects as createPbd
 * would (InvalidArgumentError for bad options; PbdError when the threaded build is asked for without
 * SharedArrayBuffer).
 */
export declare function createWorkerWorld(options?: CreatePbdOptions): Promise<WorkerWorld>;

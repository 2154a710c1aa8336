// The Worker side of pbd-wasm/worker (worker.js): loads the module and one World, and runs the calls the page
// sends, in order. Each reply carries the call's result (views over wasm memory copied: the page cannot read this
// side's memory unless it is shared) and, when they changed, the positions the page reads: the shared buffer and
// where the positions sit in it (threaded build), or a copy of them (single-threaded build).
import { PbdError, createPbd } from './index.js';
import { describeError } from './worker-errors.js';

let pbd = null;
let world = null;
let sent = null;   // {buffer, byteOffset, length} of the positions last sent (threaded build)

/** Views over this side's wasm memory become copies; plain objects and arrays are walked. */
function portable(value, depth = 0) {
  if (ArrayBuffer.isView(value)) return value.buffer === pbd.memory ? value.slice() : value;
  if (depth > 3 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v) => portable(v, depth + 1));
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, portable(v, depth + 1)]));
}

/** The positions for the page, when they changed since the last reply (threaded) or always (single). */
function positionsUpdate() {
  if (world === null || world.isDeleted()) return undefined;
  const view = world.positions();
  if (pbd.variant === 'single') return { copy: view.slice() };
  if (sent && sent.buffer === view.buffer && sent.byteOffset === view.byteOffset && sent.length === view.length) {
    return undefined;
  }
  sent = { buffer: view.buffer, byteOffset: view.byteOffset, length: view.length };
  return { shared: sent };
}

async function handle({ id, target, method, args }) {
  if (method === 'init') {
    if (pbd) throw new PbdError('pbd-wasm/worker: this Worker already holds a World');   // the first would leak
    pbd = await createPbd(args[0]);
    world = new pbd.World();
    return { variant: pbd.variant, threads: pbd.threads, maxThreads: pbd.maxThreads };
  }
  if (method === 'terminate') {
    if (world && !world.isDeleted()) world.delete();
    pbd?.terminate();
    return undefined;
  }
  const object = target === 'pbd' ? pbd : world;
  if (typeof object[method] !== 'function' || method === 'delete' || method === 'constructor') {
    throw new TypeError(`${target === 'pbd' ? 'pbd' : 'World'}.${method} is not a function`);
  }
  return portable(await object[method](...args));
}

/**
 * Runs the calls that arrive at `port` one at a time, in the order sent (init's module load is asynchronous: a call
 * waits for the one before it), and replies to each.
 */
function serve(port, listen) {
  let queue = Promise.resolve();
  const reply = (message) => port.postMessage(message, message.positions?.copy ? [message.positions.copy.buffer] : []);
  listen((data) => {
    queue = queue.then(async () => {
      try {
        const result = await handle(data);
        reply({ id: data.id, result, positions: positionsUpdate() });
      } catch (error) {
        reply({ id: data.id, error: describeError(error), positions: positionsUpdate() });
      }
    });
  });
}

// A browser's Worker (listening at once: messages that arrive before a listener are lost), or Node's worker_threads
// (its port holds messages until one listens). No top-level await: bundlers build workers as classic scripts.
if (typeof WorkerGlobalScope !== 'undefined') {
  serve(globalThis, (onMessage) => globalThis.addEventListener('message', (event) => onMessage(event.data)));
} else {
  import(/* @vite-ignore */ 'node:worker_threads')
    .then(({ parentPort }) => serve(parentPort, (onMessage) => parentPort.on('message', onMessage)));
}

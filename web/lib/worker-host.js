// The Worker side of pbd-wasm/worker (worker.js): serveWorld loads the module and one World, and runs the calls the
// page sends, in order, with the functions and the per-step hook of a Worker script of the user's own (hosted). Each
// reply carries the call's result (views over wasm memory copied: the page cannot read this side's memory unless it
// is shared) and, when they changed, the positions the page reads: the shared buffer and where the positions sit in
// it (threaded build), or a copy of them (single-threaded build). worker-default.js serves with nothing hosted.
import { InvalidArgumentError, PbdError, createPbd } from './index.js';
import { unknownOption } from './options.js';
import { describeError } from './worker-errors.js';

let pbd = null;
let world = null;
let sent = null;   // {buffer, byteOffset, length} of the positions last sent (threaded build)
let hosted = { functions: {} };
let serving = false;
let port = null;    // where replies and reports go

/**
 * Views over this side's wasm memory become copies (structured cloning would copy the whole memory, or share it);
 * plain objects and arrays are walked. Anything else (a SharedArrayBuffer, a Map) crosses as structured cloning has it.
 */
function portable(value, depth = 0) {
  if (ArrayBuffer.isView(value)) return value.buffer === pbd.memory ? value.slice() : value;
  if (depth > 3 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v) => portable(v, depth + 1));
  if (Object.getPrototypeOf(value) !== Object.prototype) return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, portable(v, depth + 1)]));
}

/** What hosted functions and beforeStep get: the module, the world, and a way to tell the page something now. */
function context() {
  return { pbd, world, report: (value) => port.postMessage({ report: portable(value) }) };
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

/** WorkerWorld.run: the hosted function `name` with the module and the world, and the page's arguments. */
function runHosted(name, args) {
  const fn = Object.hasOwn(hosted.functions, name) ? hosted.functions[name] : undefined;
  if (typeof fn !== 'function') {
    const names = Object.keys(hosted.functions);
    throw new InvalidArgumentError(`WorkerWorld.run: name ${JSON.stringify(name)} is not a function this Worker ` +
      `serves (${names.length ? names.join(', ') : 'it serves none: pass them to serveWorld'})`);
  }
  return fn(context(), ...args);
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
  if (target === 'hosted') return portable(await runHosted(args[0], args.slice(1)));
  if (hosted.beforeStep && method === 'step') hosted.beforeStep(context(), args[0]);
  if (hosted.beforeStep && method === 'advance' && args[1]?.beforeStep === undefined) {
    args = [args[0], { ...args[1], beforeStep: (dt) => hosted.beforeStep(context(), dt) }];
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
function serve(to, listen) {
  port = to;
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

const HOSTED_KEYS = ['functions', 'beforeStep'];

/** Checks serveWorld's argument: an object with an object of functions and an optional function beforeStep. */
function checkHosted(h) {
  const fail = (argument, what, value) => {
    throw new InvalidArgumentError(`serveWorld: ${argument} ${what} (got ${typeof value === 'function' ? 'a function'
      : JSON.stringify(value) ?? String(value)})`);
  };
  if (h === null || typeof h !== 'object') fail('hosted', 'must be an object', h);
  for (const key of Object.keys(h)) {
    if (!HOSTED_KEYS.includes(key)) throw unknownOption('serveWorld', '', key, HOSTED_KEYS);
  }
  const functions = h.functions ?? {};
  if (functions === null || typeof functions !== 'object') fail('hosted.functions', 'must be an object', functions);
  for (const [name, fn] of Object.entries(functions)) {
    if (typeof fn !== 'function') fail(`hosted.functions.${name}`, 'must be a function', fn);
  }
  if (h.beforeStep !== undefined && typeof h.beforeStep !== 'function') {
    fail('hosted.beforeStep', 'must be a function', h.beforeStep);
  }
  return { functions, beforeStep: h.beforeStep };
}

/**
 * Serves a World to the page that made this Worker: call it once, at the top of a Worker script, and pass the Worker
 * to createWorkerWorld. `hosted.functions` are what WorkerWorld.run calls, each with ({ pbd, world }, ...args);
 * `hosted.beforeStep({ pbd, world }, dt)` runs before every step the page asks for (step, and each step of advance
 * unless the call brings its own beforeStep).
 */
export function serveWorld(h = {}) {
  if (serving) throw new PbdError('serveWorld: this Worker already serves a World (call it once)');
  hosted = checkHosted(h);
  serving = true;
  // A browser's Worker (listening at once: messages that arrive before a listener are lost), or Node's
  // worker_threads (its port holds messages until one listens). No top-level await: bundlers build workers as
  // classic scripts.
  if (typeof WorkerGlobalScope !== 'undefined') {
    serve(globalThis, (onMessage) => globalThis.addEventListener('message', (event) => onMessage(event.data)));
  } else {
    import(/* @vite-ignore */ 'node:worker_threads')
      .then(({ parentPort }) => serve(parentPort, (onMessage) => parentPort.on('message', onMessage)));
  }
}

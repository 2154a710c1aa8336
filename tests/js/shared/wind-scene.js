// A scene whose set-up and per-step force run beside the world: served in a Worker by wind-worker.js
// (pbd-wasm/worker's serveWorld), and run on the test's own thread to compare bits with it.
import { InvalidArgumentError } from '../../../web/lib/index.js';

let wind = 0;    // N per particle along x, scaled by the particle's height: a force that follows the state
let steps = 0;   // beforeStep calls

export const WIND_SCENE = {
  functions: {
    hang: ({ world }, n) => world.addCloth({ columns: n, rows: n, spacing: 0.04, origin: [-0.3, 1.5, 0],
      pinned: [0, n - 1] }),
    setWind: (_, force) => { wind = force; return wind; },
    stepsSeen: () => steps,
    // Reports n values while it runs, then returns how many it sent.
    count: ({ report }, n) => {
      for (let k = 1; k <= n; k++) report({ done: k / n });
      return n;
    },
    // A raw buffer and a view over this side's wasm memory, as a result: the first crosses as itself.
    buffers: ({ world }) => ({ raw: new Uint8Array([1, 2, 3]).buffer, view: world.positions() }),
    fail: () => { throw new InvalidArgumentError('fail: thrown on purpose'); },
    exit: () => globalThis.process.exit(3),   // Node's worker_threads: the Worker ends mid-call
  },
  beforeStep: ({ world }) => {
    steps++;
    const x = world.positions();
    for (let i = 0; i < world.particleCount(); i++) world.setExternalForce(i, [wind * x[3 * i + 1], 0, 0]);
  },
};

// The Worker of world-in-worker.js: the scene is built here, beside the World it fills (serveWorld hosts the
// functions the page calls with remote.run), so the page only draws.
import { serveWorld } from 'pbd-wasm/worker';

serveWorld({
  functions: {
    /** An n x n cloth over a ball; returns the cloth's record. */
    drape({ world }, n) {
      const cloth = world.addCloth({ columns: n, rows: n, spacing: 1.2 / (n - 1), origin: [-0.6, 1.2, -0.6] });
      world.addCollider({ shape: 'sphere', position: [0, 0.5, 0], radius: 0.3, thickness: 0.01 });
      return cloth;
    },
  },
});

// The 'vbd' solver (Vertex Block Descent) through the package: its name round-trips, a spring settles at m g α
// (VBD minimizes the implicit-Euler energy, whose equilibrium is exactly the spring's), a rigid hanging cloth stays
// finite and holds together better than coloured Gauss-Seidel at the same cost settings, a cloth of strain triangles
// (VBD's elements too) hangs bounded, and the bits are the same on 1 and 2 threads.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPbd } from '../../../web/lib/index.js';
import { strainStats } from '../../../bench/solvers/metrics.mjs';
import { settledSpringStretch, SPRING } from '../shared/spring-stretch.js';

let pbd;
beforeAll(async () => { pbd = await createPbd({ threads: 2 }); });
afterAll(() => pbd?.terminate());

/** An n x n cloth 1 m wide, 1 kg, hung by its two first corners; rigid bending unless `options` says otherwise. */
function hangingCloth(solver, n = 24, options = { bend: { compliance: 0 } }) {
  const w = new pbd.World();
  w.setSolver(solver);
  w.setGround({ enabled: false });
  const cloth = w.addCloth({ columns: n, rows: n, spacing: 1 / (n - 1), origin: [-0.5, 1, 0], axisU: [1, 0, 0],
    axisV: [0, 0, 1], mass: 1, pinned: [0, n - 1], ...options });
  return { w, n, cloth };
}

/** The grid edges of an n x n cloth (rows, then columns) and their rest length. */
function gridEdges(n) {
  const edges = [];
  for (let r = 0; r < n; r++) {
    for (let c = 0; c < n; c++) {
      if (c + 1 < n) edges.push(r * n + c, r * n + c + 1);
      if (r + 1 < n) edges.push(r * n + c, (r + 1) * n + c);
    }
  }
  return { edges, rest: new Float64Array(edges.length / 2).fill(1 / (n - 1)) };
}

describe('vertex block descent', () => {
  it('is selected by name and hangs a spring at m g α', () => {
    const { mass, alpha, g } = SPRING;
    expect(Math.abs(settledSpringStretch(pbd, 'vbd') - mass * g * alpha)).toBeLessThan(0.005 * mass * g * alpha);
  });

  it('holds a rigid hanging cloth together at least as well as coloured Gauss-Seidel, finite', () => {
    // The worst grid edge's stretch averaged over the second half of 1.5 s of swinging (one instant would depend on
    // the phase of the swing).
    const stretchOf = (solver) => {
      const { w, n } = hangingCloth(solver);
      const { edges, rest } = gridEdges(n);
      try {
        let sum = 0;
        for (let f = 0; f < 90; f++) {
          w.step(1 / 60);
          if (f >= 45) sum += strainStats(w.positions(), edges, rest).max;
        }
        expect(w.positions().every(Number.isFinite)).toBe(true);
        return sum / 45;
      } finally {
        w.delete();
      }
    };
    expect(stretchOf('vbd')).toBeLessThan(stretchOf('coloured-gauss-seidel'));
  });

  it('hangs a cloth of strain triangles at their default (rigid) strengths bounded, no step undone', () => {
    // The worst grid edge averaged over 2-4 s, the median of five cloths of 0.98 to 1.02 kg, as the native
    // VertexBlockDescent.SolvesStrainTrianglesAsEnergies measures (7.4 % there; default bending). One cloth's figure is
    // chaotic (VBD at one iteration gains energy on this swing), 4 to 15 % as the mass changes by 0.1 %. Projected
    // PBD-style after the vertex steps, as before they were VBD's elements, the cloth blew up.
    const { edges, rest } = gridEdges(16);
    const stretches = [0.98, 0.99, 1, 1.01, 1.02].map((mass) => {
      const { w } = hangingCloth('vbd', 16, { model: 'strain-triangles', mass });
      try {
        let sum = 0;
        for (let f = 0; f < 240; f++) {
          w.step(1 / 60);
          expect(w.lastStepReport().rolledBack).toBe(false);
          if (f >= 120) sum += strainStats(w.positions(), edges, rest).max;
        }
        return sum / 120;
      } finally {
        w.delete();
      }
    }).sort((a, b) => a - b);
    expect(stretches[2]).toBeLessThan(0.1);
  });

  it('takes a Chebyshev ρ that acts from the second iteration on and survives a snapshot', () => {
    const positionsAfter = (iterations, rho) => {
      const { w } = hangingCloth('vbd', 12);
      try {
        w.setIterations(iterations);
        if (rho !== undefined) w.setChebyshevRho(rho);
        for (let f = 0; f < 5; f++) w.step(1 / 60);
        return Array.from(w.positions());
      } finally {
        w.delete();
      }
    };
    expect(positionsAfter(1, 0.7)).toEqual(positionsAfter(1));      // one iteration: nothing to extrapolate
    expect(positionsAfter(4, 0.7)).not.toEqual(positionsAfter(4));   // four: the iterates are extrapolated
    const { w } = hangingCloth('vbd', 12);
    const loaded = new pbd.World();
    try {
      expect(w.getChebyshevRho()).toBe(0);
      w.setChebyshevRho(0.5);
      expect(w.getChebyshevRho()).toBe(0.5);
      loaded.loadSnapshot(w.saveSnapshot());
      expect(loaded.getChebyshevRho()).toBe(0.5);
    } finally {
      w.delete();
      loaded.delete();
    }
  });

  it('gives the same bits on 1 and 2 threads', () => {
    const run = (threads) => {
      pbd.setThreads(threads);
      const { w } = hangingCloth('vbd', 72);  // 5,184 particles: each colour spans several ranges of 256
      try {
        for (let f = 0; f < 10; f++) w.step(1 / 60);
        return Array.from(w.positions());
      } finally {
        w.delete();
        pbd.setThreads(pbd.maxThreads);
      }
    };
    expect(run(2)).toEqual(run(1));
  });

  it('rejects an unknown solver name and keeps the current one', () => {
    const w = new pbd.World();
    try {
      w.setSolver('vbd');
      expect(() => w.setSolver('vertex-block')).toThrow(/'vbd'/);
      expect(w.getSolver()).toBe('vbd');
    } finally {
      w.delete();
    }
  });
});

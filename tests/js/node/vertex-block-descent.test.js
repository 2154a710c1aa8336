// The 'vbd' solver (Vertex Block Descent) through the package: its name round-trips, a spring settles at m g α
// (VBD minimizes the implicit-Euler energy, whose equilibrium is exactly the spring's), a rigid hanging cloth stays
// finite and holds together better than coloured Gauss-Seidel at the same cost settings, and the bits are the same
// on 1 and 2 threads.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPbd } from '../../../web/lib/index.js';
import { settledSpringStretch, SPRING } from '../shared/spring-stretch.js';

let pbd;
beforeAll(async () => { pbd = await createPbd({ threads: 2 }); });
afterAll(() => pbd?.terminate());

function hangingCloth(solver) {
  const w = new pbd.World();
  w.setSolver(solver);
  w.setGround({ enabled: false });
  const n = 24;
  const cloth = w.addCloth({ columns: n, rows: n, spacing: 1 / (n - 1), origin: [-0.5, 1, 0], axisU: [1, 0, 0],
    axisV: [0, 0, 1], mass: 1, pinned: [0, n - 1], bend: { compliance: 0 } });
  return { w, n, cloth };
}

function maxGridStretch(w, n) {
  const x = w.positions(), h = 1 / (n - 1);
  let worst = 0;
  const stretch = (i, j) => Math.hypot(x[3 * i] - x[3 * j], x[3 * i + 1] - x[3 * j + 1], x[3 * i + 2] - x[3 * j + 2]) / h - 1;
  for (let r = 0; r < n; r++) {
    for (let c = 0; c < n; c++) {
      if (c + 1 < n) worst = Math.max(worst, stretch(r * n + c, r * n + c + 1));
      if (r + 1 < n) worst = Math.max(worst, stretch(r * n + c, (r + 1) * n + c));
    }
  }
  return worst;
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
      try {
        let sum = 0;
        for (let f = 0; f < 90; f++) {
          w.step(1 / 60);
          if (f >= 45) sum += maxGridStretch(w, n);
        }
        expect(w.positions().every(Number.isFinite)).toBe(true);
        return sum / 45;
      } finally {
        w.delete();
      }
    };
    expect(stretchOf('vbd')).toBeLessThan(stretchOf('coloured-gauss-seidel'));
  });

  it('gives the same bits on 1 and 2 threads', () => {
    const run = (threads) => {
      pbd.setThreads(threads);
      const { w } = hangingCloth('vbd');
      try {
        for (let f = 0; f < 20; f++) w.step(1 / 60);
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

// World.removeDistanceConstraint through the package: swap-with-last numbering, a removed spring stops pulling
// (physics), the same calls give the same bits on 1 and 2 threads, and a bad index is refused naming the function
// and the argument with the world unchanged.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPbd } from '../../../web/lib/index.js';

let pbd;
beforeAll(async () => { pbd = await createPbd({ threads: 2 }); });
afterAll(() => pbd?.terminate());

/** Two springs of rest 1 m stretched to 2 m, 5 m apart, no gravity: particles 0-1 and 2-3. */
function twoSprings() {
  const w = new pbd.World();
  w.setGravity(0, 0, 0);
  w.addParticles(new Float32Array([0, 0, 0, 2, 0, 0, 0, 5, 0, 2, 5, 0]), undefined);
  const spring = { minLength: 1, maxLength: 1, compliance: 1e-3 };
  w.addDistanceConstraint(0, 1, spring);
  w.addDistanceConstraint(2, 3, spring);
  return w;
}

const gap = (x, i, j) => Math.hypot(x[3 * j] - x[3 * i], x[3 * j + 1] - x[3 * i + 1], x[3 * j + 2] - x[3 * i + 2]);

describe('removeDistanceConstraint', () => {
  it('stops the removed spring pulling while the other (renumbered) one still pulls', () => {
    const w = twoSprings();
    try {
      w.removeDistanceConstraint(0);
      expect(w.distanceConstraintCount()).toBe(1);
      w.step(1 / 60);
      const x = w.positions();
      expect(gap(x, 0, 1)).toBe(2);          // exactly at rest: nothing acts on them
      expect(gap(x, 2, 3)).toBeLessThan(1.99);  // the spring moved into slot 0 still pulls
      w.removeDistanceConstraint(0);
      expect(w.distanceConstraintCount()).toBe(0);
      const before = gap(w.positions(), 2, 3);
      const v = Array.from(w.velocities());
      w.step(1 / 60);
      expect(gap(w.positions(), 2, 3)).toBeCloseTo(before + (v[9] - v[6]) / 60, 5);  // free flight: no more pull
    } finally {
      w.delete();
    }
  });

  it('gives the same bits on 1 and 2 threads after cutting a cloth', () => {
    const run = (threads) => {
      pbd.setThreads(threads);
      const w = new pbd.World();
      try {
        w.setSolver('coloured-gauss-seidel');
        const n = 48;
        w.addCloth({ columns: n, rows: n, spacing: 1 / (n - 1), origin: [-0.5, 1, 0], axisU: [1, 0, 0],
          axisV: [0, 0, 1], pinned: [0, n - 1] });
        for (let f = 0; f < 5; f++) w.step(1 / 60);
        for (let k = w.distanceConstraintCount() - 1; k >= 0; k -= 3) w.removeDistanceConstraint(k);
        for (let f = 0; f < 10; f++) w.step(1 / 60);
        expect(w.lastStepReport().rolledBack).toBe(false);
        return Array.from(w.positions());
      } finally {
        w.delete();
        pbd.setThreads(1);
      }
    };
    expect(run(2)).toEqual(run(1));
  });

  it('refuses a bad index naming the function and the argument, and changes nothing', () => {
    const w = twoSprings();
    try {
      expect(() => w.removeDistanceConstraint(2)).toThrow(/removeDistanceConstraint.*constraint/);
      expect(() => w.removeDistanceConstraint(-1)).toThrow(/removeDistanceConstraint.*constraint/);
      expect(() => w.removeDistanceConstraint(0.5)).toThrow(/removeDistanceConstraint.*constraint/);
      expect(w.distanceConstraintCount()).toBe(2);
      w.step(1 / 60);
      expect(gap(w.positions(), 0, 1)).toBeLessThan(1.99);  // both springs still act
    } finally {
      w.delete();
    }
  });
});

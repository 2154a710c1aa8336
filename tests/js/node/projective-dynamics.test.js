// The 'projective-dynamics' solver through the package: its name round-trips, a spring settles at the stretch the
// PD weight w = 1/α predicts (m g α), and a bad name is rejected naming every solver.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPbd } from '../../../web/lib/index.js';

let pbd;
beforeAll(async () => { pbd = await createPbd({ threads: 2 }); });
afterAll(() => pbd?.terminate());

describe('projective dynamics', () => {
  it('is selected by name and hangs a spring at m g α', () => {
    const w = new pbd.World();
    try {
      w.setSolver('projective-dynamics');
      expect(w.getSolver()).toBe('projective-dynamics');
      w.setSubsteps(4);
      w.setGround({ enabled: false });
      const mass = 2, alpha = 1e-3, g = 9.81;
      const pin = w.addParticle(0, 0, 0, 0);
      const bob = w.addParticle(0, -1, 0, 1 / mass);
      w.addDistanceConstraint(pin, bob, { compliance: alpha });
      let sum = 0, samples = 0;
      for (let f = 0; f < 600; f++) {
        w.step(1 / 60);
        if (f >= 300) { sum += -w.positions()[3 * bob + 1]; samples++; }
      }
      const stretch = sum / samples - 1;
      expect(Math.abs(stretch - mass * g * alpha)).toBeLessThan(0.01 * mass * g * alpha);
    } finally {
      w.delete();
    }
  });

  it('rejects an unknown solver name and keeps the current one', () => {
    const w = new pbd.World();
    try {
      w.setSolver('projective-dynamics');
      expect(() => w.setSolver('projective')).toThrow(/'projective-dynamics'/);
      expect(w.getSolver()).toBe('projective-dynamics');
    } finally {
      w.delete();
    }
  });
});

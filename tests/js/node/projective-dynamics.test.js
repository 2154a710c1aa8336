// The 'projective-dynamics' solver through the package: its name round-trips, a spring settles at the stretch the
// PD weight w = 1/α predicts (m g α), and a bad name is rejected naming every solver.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPbd } from '../../../web/lib/index.js';
import { settledSpringStretch, SPRING } from '../shared/spring-stretch.js';

let pbd;
beforeAll(async () => { pbd = await createPbd({ threads: 2 }); });
afterAll(() => pbd?.terminate());

describe('projective dynamics', () => {
  it('is selected by name and hangs a spring at m g α', () => {
    const { mass, alpha, g } = SPRING;
    expect(Math.abs(settledSpringStretch(pbd, 'projective-dynamics') - mass * g * alpha)).toBeLessThan(0.01 * mass * g * alpha);
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

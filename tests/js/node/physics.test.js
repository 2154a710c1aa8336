// The physics report as tests (issue 51 item 5): every analytic check of tests/js/shared/physics/cases.js, one test
// each, on the threaded and the single-threaded build: |measured − expected| <= tolerance, the expected value from the
// case's formula. `node tests/js/physics-report.mjs` prints the same checks as a table.
//
// Checks that fail on today's build are `it.fails`: they pass while the engine is wrong and turn red the day it is
// fixed, and whoever fixes it must make them plain `it`. Each says why below.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPbd } from '../../../web/lib/index.js';
import { physicsCases } from '../shared/physics/cases.js';

/** Case (function name) -> why it fails today. */
const failsToday = {
  // Issue 51 item 4: a cloth draped on a sphere at the default settings does not come to rest (6.4 cm/s at 3 s).
  // Undamped, its flaps swing as pendulums do; damped (rigid 0.1, or linear 5/s), folds over a box's edge still ring
  // at a few cm/s where the distances' default forward sweep feeds them (with the cloth's particles on the box pinned
  // instead of held by contacts as well). The symmetric sweep stops it (dampedFoldedDrapeSymmetric), at about 1.5
  // times the solve; the defaults have neither it nor damping.
  restingDrape: 'issue 51 item 4',
};
// The momentum cases (issue 51 item 2) are plain: a free body lost 1.9e-3 / 1.4e-3 of its linear / angular momentum
// at 10 substeps, 3.8e-2 / 3.0e-2 at 40 and 8.4e-2 / 5.7e-2 at 64 before the guard gave back what float32 round-off
// of the positions takes (world/internal_momentum.cpp).
// springDamped (issue 51 item 1, XPBD spring with linear damping 5/s at 1 substep resting at m g α) is a plain test:
// it failed (8.3 % short) before the C++ fix that damps the carried-over velocity before adding the forces.
// restUnderRigidDamping is plain: a cloth resting on a box with rigid damping and 4 iterations rocked between two
// positions every substep (±0.25 m/s) before the damping left out the particles contacts hold (world/rigid_damping.h).
// pendulumPeriodBdf2At40 is plain: BDF2's pendulum ran 0.7 % slow at 40 substeps (0.8 % before its prediction
// stopped rounding 4/3 x - 1/3 x⁻ with a bias) before the distance kernel left a C within the rounding of the computed
// length alone (the sweep back projected the satisfied rod again and corrected that rounding with a bias).
// freeFallBdf2 is plain too: BDF2's first substep (implicit Euler, to start the history) stored the velocity after
// that substep's gravity as vⁿ⁻¹, a constant velocity error of g h / 2 (a free fall 8.1 mm behind after 1 s).

describe.each(['threaded', 'single'])('physics report, %s build', (variant) => {
  let pbd;
  beforeAll(async () => { pbd = await createPbd(variant === 'threaded' ? { variant, threads: 2 } : { variant }); });
  afterAll(() => pbd?.terminate());

  for (const run of physicsCases) {
    const test = failsToday[run.name] ? it.fails : it;
    test(run.name, () => {
      const r = run(pbd);
      expect(Math.abs(r.measured - r.expected), `${r.name}: measured ${r.measured} ${r.unit}, expected ` +
        `${r.expected} ± ${r.tolerance} (${r.note})`).toBeLessThanOrEqual(r.tolerance);
    });
  }

  it('knows every case it expects to fail', () => {
    const names = new Set(physicsCases.map((run) => run.name));
    expect(Object.keys(failsToday).filter((name) => !names.has(name))).toEqual([]);
  });
});

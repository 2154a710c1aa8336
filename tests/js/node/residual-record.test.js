// The demo's convergence record (web/demo/residual-record.js): one step in RECORD_EVERY records, a step by hand
// always does, the steps between record nothing (the world's view stays empty: no sweep paid), and the page is sent
// the last recorded curves in between, unchanged, until the next recording step replaces them with its own; a world
// whose flag a snapshot turned off records at its next turn; the ms of the record's sweeps are told apart.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPbd } from '../../../web/lib/index.js';
import { RECORD_EVERY, ResidualRecord } from '../../../web/demo/residual-record.js';

let pbd;
beforeAll(async () => { pbd = await createPbd({ variant: 'single' }); });
afterAll(() => pbd?.terminate?.());

function clothWorld() {
  const world = new pbd.World();
  world.addCloth({ columns: 12, rows: 12, spacing: 1 / 11, origin: [-0.5, 1, 0], axisU: [1, 0, 0],
    axisV: [0, 0, 1], mass: 1, pinned: [0, 11] });
  world.setRecordResiduals(true);  // as buildScene leaves every world
  return world;
}

describe('the demo residual record', () => {
  it('records one step in RECORD_EVERY and a step by hand, and keeps the last curves between', () => {
    const worlds = [{ world: clothWorld() }, { world: clothWorld() }];
    const record = new ResidualRecord(worlds);
    expect(RECORD_EVERY).toBeGreaterThan(1);
    expect(record.curves().map((c) => c.length)).toEqual([0, 0]);  // nothing recorded before the first step
    const pattern = [];
    let curves = null;
    for (let step = 0; step < 3 * RECORD_EVERY + 1; ++step) {
      const byHand = step === 2 * RECORD_EVERY + 1;
      const on = record.beforeStep(byHand);
      pattern.push(on);
      for (const { world } of worlds) world.step(1 / 60);
      const pairs = 2 * worlds[0].world.getSubsteps() * worlds[0].world.getIterations();
      for (const { world } of worlds) expect(world.residuals().length).toBe(on ? pairs : 0);
      record.afterStep();
      const now = record.curves();
      if (on) {
        // The step's own curves, copied out of the wasm memory: another step does not change them.
        expect(now).not.toBe(curves);
        now.forEach((c, k) => expect(Array.from(c)).toEqual(Array.from(worlds[k].world.residuals())));
        expect(now[0].length).toBe(pairs);
        expect(now[0].every(Number.isFinite)).toBe(true);
        curves = now;
      } else {
        expect(now).toBe(curves);
      }
    }
    // A world whose flag changed behind the record's back (a snapshot saved on a step between brings `off`) between
    // two recording steps records at the second all the same.
    while (record.steps % RECORD_EVERY !== 0) record.beforeStep();
    expect(record.beforeStep()).toBe(true);
    worlds[0].world.step(1 / 60);
    worlds[0].world.setRecordResiduals(false);
    expect(record.beforeStep(true)).toBe(true);
    worlds[0].world.step(1 / 60);
    expect(worlds[0].world.residuals().length).toBeGreaterThan(0);
    const expected = pattern.map((_, step) => step % RECORD_EVERY === 0 || step === 2 * RECORD_EVERY + 1);
    expect(pattern).toEqual(expected);
    expect(pattern.filter(Boolean).length).toBe(5);
    for (const { world } of worlds) world.delete();
  });

  it('gives the ms of its own sweeps, for the solver-ms plot to leave out', () => {
    // A 48² cloth at 4 × 4: 16 sweeps over some 13,000 constraints a recording step, long enough for any clock.
    const world = new pbd.World();
    world.setSubsteps(4);
    world.setIterations(4);
    world.addCloth({ columns: 48, rows: 48, spacing: 1 / 47, origin: [-0.5, 1, 0], axisU: [1, 0, 0],
      axisV: [0, 0, 1], mass: 1, pinned: [0, 47] });
    const record = new ResidualRecord([{ world }], 2);
    for (let step = 0; step < 6; ++step) {
      const on = record.beforeStep();
      world.step(1 / 60);
      const timings = world.lastStepTimings();
      expect(timings.totalMs).toBeGreaterThan(0);  // the record turned the step timings on
      const recordMs = record.afterStep();
      expect(recordMs).toBe(timings.residualMs);
      if (on) expect(recordMs).toBeGreaterThan(0);
      else expect(recordMs).toBe(0);
      // What the worker plots, the step less the record, is the solver's stages alone.
      const stages = timings.integrateMs + timings.colliderContactsMs + timings.broadPhaseMs + timings.narrowPhaseMs +
        timings.solveMs;
      expect(timings.totalMs - recordMs).toBeCloseTo(stages, 6);
    }
    world.delete();
  });

  it('names a bad stride', () => {
    for (const every of [0, -1, 1.5, NaN, '4']) {
      expect(() => new ResidualRecord([], every)).toThrow(/ResidualRecord: every must be a positive integer/);
    }
  });
});

// The convergence plot's record (World.setRecordResiduals): a sweep over the distance constraints after every
// projection pass, which adds 15–18 % to a step of the default scene when every step records. The plot reads as
// well refreshed at 15 Hz as at 60, so the demo records one step in RECORD_EVERY and draws the last recorded curves in
// between; a step taken by hand (paused) always records. `node bench/residual-cost.mjs showcase --every=4` measures it.
// The record times its own sweeps (the worlds' step timings, StepTimings.residualMs), so that the solver-ms plot can
// leave them out: with them, every fourth point of the showcase stood some 18 % above the rest, a comb of the record's.
export const RECORD_EVERY = 4;

export class ResidualRecord {
  /**
   * @param worlds the scene's [{world}], as buildScene returns them (each world built recording).
   * @param every records one step in this many (a positive integer).
   */
  constructor(worlds, every = RECORD_EVERY) {
    if (!(Number.isInteger(every) && every >= 1)) {
      throw new Error(`ResidualRecord: every must be a positive integer, not ${every}`);
    }
    this.worlds = worlds;
    this.every = every;
    this.steps = 0;
    this.recording = false;  // whether the step beforeStep last let through records
    this.last = worlds.map(() => new Float32Array(0));
  }

  /**
   * Before a step: the record on for it if its turn has come (or `always`), else off. Returns whether it is on. Set
   * on every world every step, not only on a change: a loaded snapshot brings the flag it was saved with.
   */
  beforeStep(always = false) {
    const on = always || this.steps % this.every === 0;
    this.steps += 1;
    this.recording = on;
    for (const { world } of this.worlds) {
      world.setRecordResiduals(on);
      world.setStepTimings(true);  // a few clock reads a substep; left on (the benches read the stages every step)
    }
    return on;
  }

  /**
   * After the step: copies of the curves it recorded, if it did. Returns the ms the worlds' record sweeps took in
   * that step (0 in a step that did not record), for the solver's time to leave out.
   */
  afterStep() {
    if (!this.recording) return 0;
    this.last = this.worlds.map(({ world }) => world.residuals().slice());
    return this.worlds.reduce((ms, { world }) => ms + world.lastStepTimings().residualMs, 0);
  }

  /** The last recorded curves, one Float32Array of (max, RMS) pairs per world. */
  curves() {
    return this.last;
  }
}

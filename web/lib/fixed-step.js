// world.advance: a render loop's frame time in, whole steps of one fixed size out, the rest carried to the next
// call, so that the simulation runs at real speed on a 60 Hz and a 144 Hz display alike and every step has the same
// dt (the same bits as calling step() yourself). In the manner of cannon-es's fixedStep and of "Fix your timestep"
// (Glenn Fiedler). A frame longer than maxSteps steps (a hidden tab, a breakpoint) drops its excess instead of
// making every later frame catch up.
import { InvalidArgumentError, describeValue as describe } from './errors.js';
import { checkOptions } from './options.js';

const DEFAULT_STEP = 1 / 60;
const DEFAULT_MAX_STEPS = 4;
const MAX_STEPS = 1000;
// Frame times summed in floating point fall a hair short of a whole step (3 × (1/60) = 0.049999…): that much counts.
const ROUNDING = 1e-9;

const carried = new WeakMap();   // world → seconds of real time not stepped yet, in [0, step)

/** Adds World.prototype.advance (a JS method: it calls the bound step()). */
export function addFixedStep(World) {
  World.prototype.advance = function advance(elapsedSeconds, options = {}) {
    if (!(typeof elapsedSeconds === 'number' && Number.isFinite(elapsedSeconds))) {
      throw new InvalidArgumentError(`advance: elapsedSeconds must be a finite number (got ${describe(elapsedSeconds)})`);
    }
    if (options === null || typeof options !== 'object') {
      throw new InvalidArgumentError(`advance: options must be an object (got ${describe(options)})`);
    }
    const { step = DEFAULT_STEP, maxSteps = DEFAULT_MAX_STEPS, beforeStep } = checkOptions('advance', 'AdvanceOptions',
      options);
    if (!(typeof step === 'number' && step > 0 && step <= 1)) {
      throw new InvalidArgumentError(`advance: options.step must be a number in (0, 1] seconds (got ${describe(step)})`);
    }
    if (!(Number.isInteger(maxSteps) && maxSteps >= 1 && maxSteps <= MAX_STEPS)) {
      throw new InvalidArgumentError(
        `advance: options.maxSteps must be an integer in [1, ${MAX_STEPS}] (got ${describe(maxSteps)})`);
    }
    if (!(beforeStep === undefined || typeof beforeStep === 'function')) {
      throw new InvalidArgumentError(`advance: options.beforeStep must be a function (got ${describe(beforeStep)})`);
    }
    // requestAnimationFrame's timestamp is the frame's start, which can precede a performance.now() taken just
    // before: a first frame time a few ms below zero is no time at all, not an error.
    let time = (carried.get(this) ?? 0) + Math.max(elapsedSeconds, 0);
    let steps = 0;
    while (steps < maxSteps && time + ROUNDING >= step) {
      beforeStep?.(step);
      this.step(step);
      time -= step;
      steps++;
      carried.set(this, Math.max(time, 0));   // a step that throws leaves the steps before it accounted for
    }
    carried.set(this, time >= step ? time % step : Math.max(time, 0));
    return steps;
  };
}


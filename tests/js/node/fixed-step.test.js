// world.advance (web/lib/fixed-step.js): a render loop's frame times in, whole fixed steps out. The simulation runs at
// real speed whatever the display rate, each of its steps is step(1/60) to the bit, a long frame drops its excess,
// and bad input is an InvalidArgumentError that leaves the world and its carried time as they were.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvalidArgumentError, createPbd } from '../../../web/lib/index.js';
import { hangingClothWorld } from '../shared/api-fixture.js';

let pbd;
beforeAll(async () => { pbd = await createPbd({ threads: 2 }); });
afterAll(() => pbd?.terminate());

const state = (w) => Array.from(w.saveSnapshot());

/** Steps taken and the world's state after `frames` frames of `frame` seconds each, through advance. */
function run(frame, frames, options) {
  const w = hangingClothWorld(pbd);
  let steps = 0;
  for (let f = 0; f < frames; f++) steps += w.advance(frame, options);
  const result = { steps, state: state(w) };
  w.delete();
  return result;
}

/** The state after `n` calls of step(dt). */
function stepped(n, dt = 1 / 60) {
  const w = hangingClothWorld(pbd);
  for (let k = 0; k < n; k++) w.step(dt);
  const s = state(w);
  w.delete();
  return s;
}

describe('one second of real time', () => {
  it.each([[60, 1], [144, 'about 0.42'], [30, 2], [75, 'about 0.8']])(
    'at %i Hz is 60 steps of 1/60 s, bit for bit (%s per frame)', (hz) => {
      const { steps, state: s } = run(1 / hz, hz);
      expect(steps).toBe(60);
      expect(s).toEqual(stepped(60));
    });

  it('at another step size is as many steps of that size', () => {
    const { steps, state: s } = run(1 / 90, 90, { step: 1 / 120 });
    expect(steps).toBe(120);
    expect(s).toEqual(stepped(120, 1 / 120));
  });
});

it('carries the time left over: frames shorter than a step add up to one', () => {
  const w = hangingClothWorld(pbd);
  expect([0.4, 0.4, 0.4].map((k) => w.advance(k / 60))).toEqual([0, 0, 1]);
  expect(w.advance(0)).toBe(0);
  expect(w.advance(0.8 / 60)).toBe(1);   // 0.2 carried + 0.8
  w.delete();
});

it('takes at most maxSteps steps and drops the rest of a long frame instead of catching up later', () => {
  const w = hangingClothWorld(pbd);
  expect(w.advance(5)).toBe(4);                          // the default: 4
  expect(w.advance(1 / 60)).toBe(1);                     // not 4 more: the 5 s frame's excess is gone
  expect(w.advance(5, { maxSteps: 10 })).toBe(10);
  expect(w.advance(0.5 / 60)).toBe(0);                   // what was kept of it is less than a step
  w.delete();
});

it('counts a negative frame time (a requestAnimationFrame timestamp before the first performance.now()) as none', () => {
  const w = hangingClothWorld(pbd);
  w.advance(0.5 / 60);
  const before = state(w);
  expect(w.advance(-0.005)).toBe(0);
  expect(state(w)).toEqual(before);
  expect(w.advance(0.5 / 60)).toBe(1);                   // the half step carried is still there, not reduced
  w.delete();
});

it('calls beforeStep before each step with its length: a force that follows the state, set every step', () => {
  // A wind-like force that depends on the velocity: through beforeStep it is set anew before every step, exactly as
  // a loop of step() calls that sets it first would (same bits); held over a frame's steps it would differ.
  const push = (w) => { const v = w.velocities(); w.setExternalForce(10, 0.5 - 0.1 * v[30], 0, 0.2); };
  const viaAdvance = hangingClothWorld(pbd), byHand = hangingClothWorld(pbd);
  const calls = [];
  for (const frame of [3.2 / 60, 0.5 / 60, 2 / 60]) {
    viaAdvance.advance(frame, { beforeStep: (dt) => { calls.push(dt); push(viaAdvance); } });
  }
  for (let k = 0; k < 5; k++) { push(byHand); byHand.step(1 / 60); }
  expect(calls).toEqual([1, 1, 1, 1, 1].map(() => 1 / 60));   // 3 + 0 + 2 steps: 0.2 carried, 0.7, then 2.7
  expect(state(viaAdvance)).toEqual(state(byHand));
  const held = hangingClothWorld(pbd);
  push(held);
  held.advance(5 / 60, { maxSteps: 5 });
  expect(state(held)).not.toEqual(state(byHand));
  for (const w of [viaAdvance, byHand, held]) w.delete();
});

it('stops at a beforeStep that throws, with the steps before it counted', () => {
  const w = hangingClothWorld(pbd);
  let k = 0;
  const fail = () => { if (++k === 3) throw new Error('from beforeStep'); };
  expect(() => w.advance(4 / 60, { beforeStep: fail })).toThrow('from beforeStep');
  expect(state(w)).toEqual(stepped(2));
  expect(w.advance(0)).toBe(2);   // the two steps taken are not owed again; the failed one's time and the rest are
  w.delete();
});

describe('bad input', () => {
  const bad = [
    [[Number.NaN], /advance: elapsedSeconds must be a finite number \(got NaN\)/],
    [[Infinity], /elapsedSeconds .*\(got Infinity\)/],
    [['0.016'], /elapsedSeconds .*\(got "0\.016"\)/],
    [[], /elapsedSeconds .*\(got undefined\)/],
    [[1 / 60, null], /advance: options must be an object \(got null\)/],
    [[1 / 60, { step: 0 }], /advance: options\.step must be a number in \(0, 1\] seconds \(got 0\)/],
    [[1 / 60, { step: 2 }], /options\.step .*\(got 2\)/],
    [[1 / 60, { step: Number.NaN }], /options\.step .*\(got NaN\)/],
    [[1 / 60, { maxSteps: 0 }], /advance: options\.maxSteps must be an integer in \[1, 1000\] \(got 0\)/],
    [[1 / 60, { maxSteps: 2.5 }], /options\.maxSteps .*\(got 2\.5\)/],
    [[1 / 60, { maxStep: 2 }], /advance: unknown option 'maxStep' \(did you mean 'maxSteps'\?\)/],
    [[1 / 60, { beforeStep: 1 }], /advance: options\.beforeStep must be a function \(got 1\)/],
  ];
  it.each(bad)('advance(%j) throws %s and changes nothing', (args, message) => {
    const w = hangingClothWorld(pbd);
    w.advance(0.5 / 60);                                 // half a step carried
    const before = state(w);
    const error = (() => { try { w.advance(...args); } catch (e) { return e; } return null; })();
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect(error.message).toMatch(message);
    expect(state(w)).toEqual(before);
    expect(w.advance(0.5 / 60)).toBe(1);                 // the half step is still carried
    w.delete();
  });
});

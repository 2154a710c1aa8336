// Optional trailing arguments may be left out (Embind alone wants every declared argument): every World method with
// one, taken from web/lib/api-shapes.js, gives the same result and the same world whether its optional arguments
// are left out, passed as undefined, or passed as what their defaults are.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WORLD_METHODS, parseSignature } from '../../../web/lib/api-shapes.js';
import { InvalidArgumentError, createPbd } from '../../../web/lib/index.js';
import { hangingClothWorld } from '../shared/api-fixture.js';

let pbd;
beforeAll(async () => { pbd = await createPbd({ threads: 2 }); });
afterAll(() => pbd?.terminate());

/** The hanging cloth and a tet of four particles above it (16-19, positively oriented): something for every call. */
const fixture = () => {
  const w = hangingClothWorld(pbd);
  w.addParticles([0, 2, 0, 0.1, 2, 0, 0, 2.1, 0, 0, 2, 0.1]);
  return w;
};

/** Per method with optional arguments: its required arguments, and its optional ones at their default values. */
const calls = {
  addParticles: { required: [[0, 2, 0, 0.1, 2, 0]], defaults: [[1, 1]] },
  addDistanceConstraint: { required: [4, 10], defaults: [{ compliance: 0, stiffness: 1 }] },
  addDistanceConstraints: { required: [[4, 10, 5, 11]], defaults: [{ compliance: 0, stiffness: 1 }] },
  addTetVolumeConstraints: { required: [[16, 17, 18, 19]], defaults: [{ compliance: 0, stiffness: 1 }] },
  addDihedralConstraint: { required: [0, 5, 1, 4], defaults: [{}] },
  addAttachment: { required: [15, 0.3, 0.8, 0.3], defaults: [{ compliance: 0, stiffness: 1 }] },
  // Particle 15 held to a point under a box collider (setup).
  attachToCollider: {
    setup: (w) => w.addCollider({ shape: 'box', halfExtents: [0.05, 0.05, 0.05], position: [0.3, 1.2, 0.3] }),
    required: [15, 0, 0, -0.3, 0], defaults: [{ compliance: 0, stiffness: 1 }],
  },
  // Particle 15 with a skinned constraint (setup); normals left out keep the ones it has: none yet (all zero).
  setSkinnedTargets: {
    setup: (w) => w.addSkinnedConstraints({ particles: [15], maxDistance: 0.05 }),
    required: [0, [0.3, 0.8, 0.3]], defaults: [[0, 0, 0]],
  },
};

const withOptional = Object.entries(WORLD_METHODS)
  .filter(([, signature]) => parseSignature(signature).some((p) => p.optional))
  .map(([name]) => name);

/** Everything about the world, as the bytes of its snapshot. */
const state = (w) => Array.from(w.saveSnapshot());

it('covers every method that has optional arguments', () => {
  expect(withOptional.length).toBeGreaterThanOrEqual(4);
  expect(Object.keys(calls).sort()).toEqual([...withOptional].sort());
});

describe.each(withOptional)('%s', (name) => {
  it('works without its optional arguments, as with undefined or their defaults', () => {
    const { required, defaults } = calls[name];
    const forms = [required, [...required, ...defaults.map(() => undefined)], [...required, ...defaults]];
    const results = forms.map((args) => {
      const w = fixture();
      calls[name].setup?.(w);
      const returned = w[name](...args);
      for (let f = 0; f < 10; f++) w.step(1 / 60);
      const out = { returned, state: state(w), constraints: w.constraintCount(), particles: w.particleCount() };
      w.delete();
      return out;
    });
    const bare = fixture();
    calls[name].setup?.(bare);
    expect(results[0].state).not.toEqual(state(bare));   // the call did something
    bare.delete();
    expect(results[1]).toEqual(results[0]);
    expect(results[2]).toEqual(results[0]);
  });

  it('still rejects a missing required argument, leaving the world unchanged', () => {
    const w = fixture();
    calls[name].setup?.(w);
    const before = state(w);
    expect(() => w[name](...calls[name].required.slice(0, -1))).toThrow(InvalidArgumentError);
    expect(state(w)).toEqual(before);
    w.delete();
  });
});

it('the README\'s grab line works as written: addAttachment(i, x, y, z)', () => {
  const w = fixture();
  const handle = w.addAttachment(15, 0.3, 1, 0.3);
  for (let f = 0; f < 60; f++) w.step(1 / 60);
  expect(Array.from(w.positions().slice(45, 48))).toEqual([0.3, 1, 0.3].map((v) => expect.closeTo(v, 2)));
  w.removeAttachment(handle);
  w.delete();
});

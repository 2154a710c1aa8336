// Vectors in any shape: every World method that takes a vector (web/lib/api-shapes.js) and every vector option
// leaves the world exactly as the positional numbers / arrays do when given [x, y, z], a Float32Array, {x, y, z} or a
// THREE.Vector3 (a THREE.Quaternion for rotations); anything else is an InvalidArgumentError naming the argument,
// and the world is unchanged.
import { Quaternion, Vector3 } from 'three';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WORLD_METHODS, parseSignature } from '../../../web/lib/api-shapes.js';
import { InvalidArgumentError, createPbd } from '../../../web/lib/index.js';
import { hangingClothWorld } from '../shared/api-fixture.js';

let pbd;
beforeAll(async () => { pbd = await createPbd({ threads: 2 }); });
afterAll(() => pbd?.terminate());

const fixture = () => hangingClothWorld(pbd, { extras: true });

const state = (w) => Array.from(w.saveSnapshot());   // settings, particles, attachments, collider poses

/** The ways to write [x, y, z] (or a quaternion [x, y, z, w]) as one argument. */
function shapes(v) {
  const [x, y, z, w] = v;
  const object = v.length === 3 ? { x, y, z } : { x, y, z, w };
  const three = v.length === 3 ? new Vector3(x, y, z) : new Quaternion(x, y, z, w);
  return { array: [...v], Float32Array: Float32Array.from(v), Float64Array: Float64Array.from(v), object, three };
}

/** Per vector method: its arguments with every vector as an array (another value than the fixture's). */
const calls = {
  setGravity: [[0.5, -4, 1]],
  addParticle: [[0.2, 2, 0.1], 2],
  setVelocity: [9, [1, 2, -1]],
  setPosition: [9, [0.15, 0.95, 0.12]],
  setExternalForce: [9, [0, 3, 0.5]],
  addAttachment: [10, [0.2, 0.9, 0.1], { compliance: 1e-4 }],
  setAttachmentTarget: [0, [0.4, 0.7, 0.2]],
  attachToCollider: [10, 0, [0, -0.1, 0], { compliance: 1e-4 }],
  setColliderPose: [0, [0.1, -4, 0], [0, 0.6, 0, 0.8]],
  setSegmentOrientation: [1, [0, 0.6, 0, 0.8]],
  setSegmentAngularVelocity: [1, [0, 0.5, 2]],
  setSegmentTorque: [1, [0.01, 0, 0.02]],
};

const vectorMethods = Object.entries(WORLD_METHODS)
  .filter(([, signature]) => parseSignature(signature).some((p) => /Like$/.test(p.type ?? '')))
  .map(([name]) => name);

/** The world after `call`, and after 10 more steps. */
function after(call) {
  const w = fixture();
  const returned = call(w);
  const now = state(w);
  for (let f = 0; f < 10; f++) w.step(1 / 60);
  const later = state(w);
  w.delete();
  return { returned, now, later };
}

it('covers every World method that takes a vector', () => {
  expect(vectorMethods.length).toBeGreaterThanOrEqual(8);
  expect(Object.keys(calls).sort()).toEqual([...vectorMethods].sort());
});

describe.each(vectorMethods)('%s', (name) => {
  const args = calls[name];
  const positional = args.flatMap((a) => (Array.isArray(a) ? a : [a]));
  const vectorAt = args.map((a, k) => (Array.isArray(a) ? k : -1)).filter((k) => k >= 0);

  it('gives the same world for the numbers and for every vector shape', () => {
    const expected = after((w) => w[name](...positional));
    expect(expected.now).not.toEqual(after(() => undefined).now);   // the call changed something
    for (const shape of Object.keys(shapes([0, 0, 0]))) {
      const withShape = args.map((a, k) => (vectorAt.includes(k) ? shapes(a)[shape] : a));
      expect(after((w) => w[name](...withShape)), `${name} with ${shape}`).toEqual(expected);
    }
  });

  it('rejects a vector of the wrong shape by name, leaving the world unchanged', () => {
    const param = parseSignature(WORLD_METHODS[name]).find((p) => /Like$/.test(p.type ?? ''));
    for (const bad of [{ x: 1, y: 2 }, [1, 2], null, { x: 1, y: '2', z: 3 }]) {
      const w = fixture();
      const before = state(w);
      const call = args.map((a, k) => (k === vectorAt[0] ? bad : a));
      expect(() => w[name](...call)).toThrow(InvalidArgumentError);
      expect(() => w[name](...call)).toThrow(`${name}: ${param.name} must be`);
      expect(state(w)).toEqual(before);
      w.delete();
    }
  });
});

describe('vector options', () => {
  const options = {
    addCloth: { columns: 3, rows: 3, spacing: 0.1, origin: [0, 2, 0], axisU: [0, 0, 1], axisV: [1, 0, 0],
      pinRegions: [{ shape: 'box', centre: [0, 2, 0], halfExtents: [0.05, 0.05, 0.3] }] },
    addRope: { segments: 3, start: [0, 2, 0], end: [0.5, 2, 0],
      pinRegions: [{ shape: 'sphere', centre: [0, 2, 0], radius: 0.01 }] },
    addCollider: { shape: 'box', position: [1, 0.5, 0], halfExtents: [0.2, 0.3, 0.4], rotation: [0, 0.6, 0, 0.8] },
  };
  /** The options with every vector (an array of 3 or 4 numbers) in the given shape, nested ones included. */
  const reshaped = (value, shape) => {
    if (Array.isArray(value) && value.length >= 3 && value.length <= 4 && value.every((n) => typeof n === 'number')) {
      return shapes(value)[shape];
    }
    if (Array.isArray(value)) return value.map((v) => reshaped(v, shape));
    if (value && typeof value === 'object') {
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, reshaped(v, shape)]));
    }
    return value;
  };

  it.each(Object.keys(options))('%s takes its vectors in every shape', (method) => {
    const expected = after((w) => w[method](options[method]));
    for (const shape of Object.keys(shapes([0, 0, 0]))) {
      const given = reshaped(options[method], shape);
      const copy = structuredClone(given);
      expect(after((w) => w[method](given)), `${method} with ${shape}`).toEqual(expected);
      expect(given, 'the caller\'s options are not changed').toEqual(copy);
    }
  });

  it('rejects a vector option of the wrong shape by its path, leaving the world unchanged', () => {
    const w = fixture();
    const before = state(w);
    expect(() => w.addCloth({ columns: 3, rows: 3, origin: { x: 0, y: 1 } }))
      .toThrow(new InvalidArgumentError('addCloth: origin must be [x, y, z], {x, y, z} or a THREE.Vector3'));
    expect(() => w.addCloth({ columns: 3, rows: 3, pinRegions: [{ centre: null, halfExtents: [1, 1, 1] }] }))
      .toThrow('addCloth: pinRegions[0].centre must be [x, y, z], {x, y, z} or a THREE.Vector3');
    expect(() => w.addCollider({ shape: 'box', rotation: new Vector3(0, 0, 1) }))
      .toThrow('addCollider: rotation must be [x, y, z, w], {x, y, z, w} or a THREE.Quaternion');
    expect(() => w.addCloth({ columns: 3, rows: 3, origin: [0, 0] })).toThrow('addCloth: origin must be an array');
    expect(state(w)).toEqual(before);
    w.delete();
  });
});

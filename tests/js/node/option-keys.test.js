// Unknown option keys and misspelt names are errors that name the function and the key and suggest the valid one,
// and leave the world unchanged. The keys come from web/lib/api-shapes.js (checked against index.d.ts by
// api-shapes.test.js): every key of every options type a World method takes, nested ones included, is misspelt once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPTION_TYPES, WORLD_METHODS, parseSignature } from '../../../web/lib/api-shapes.js';
import { InvalidArgumentError, createPbd } from '../../../web/lib/index.js';
import { hangingClothWorld } from '../shared/api-fixture.js';
import { optionMembers } from '../../../web/lib/options.js';

let pbd;
beforeAll(async () => { pbd = await createPbd({ threads: 2 }); });
afterAll(() => pbd?.terminate());

const fixture = () => hangingClothWorld(pbd, { extras: true });  // with a collider: setColliderBody takes options
const state = (w) => Array.from(w.saveSnapshot());

/** `key` with its 2nd and 3rd letters swapped (or its last one doubled): one slip of the keyboard. */
const misspelt = (key) => (key.length > 2 && key[1] !== key[2]
  ? key[0] + key[2] + key[1] + key.slice(3)
  : key + key.at(-1));

/** A call of `method` with `options` where its options go, and 0 (or a vector of zeros) for every other argument. */
function callWith(method, options) {
  const zero = { Vec3Like: [0, 0, 0], QuatLike: [0, 0, 0, 1] };
  const args = parseSignature(WORLD_METHODS[method]).map((p) => (p.type in OPTION_TYPES ? options : zero[p.type] ?? 0));
  return (w) => w[method](...args);
}

/** Every misspelt key, nested ones at their path: [path, the options holding it, the valid key]. */
function misspellings(type, prefix = '') {
  const out = [];
  for (const m of optionMembers(type)) {
    out.push([`${prefix}${misspelt(m.name)}`, { [misspelt(m.name)]: 1 }, m.name]);
    if (!(m.type in OPTION_TYPES)) continue;
    for (const [path, inner, valid] of misspellings(m.type)) {
      out.push([`${prefix}${m.name}${m.array ? '[0]' : ''}.${path}`, { [m.name]: m.array ? [inner] : inner }, valid]);
    }
  }
  return out;
}

const optionMethods = Object.entries(WORLD_METHODS)
  .map(([method, signature]) => [method, parseSignature(signature).find((p) => p.type in OPTION_TYPES)?.type])
  .filter(([, type]) => type);

describe.each(optionMethods)('%s(%s)', (method, type) => {
  it('names every misspelt key, nested ones by their path, with the key meant, and changes nothing', () => {
    const cases = misspellings(type);
    expect(cases.length).toBeGreaterThanOrEqual(optionMembers(type).length);
    const w = fixture();
    const before = state(w);
    for (const [path, options, valid] of cases) {
      expect(() => callWith(method, options)(w), path)
        .toThrow(new InvalidArgumentError(`${method}: unknown option '${path}' (did you mean '${valid}'?)`));
    }
    expect(state(w)).toEqual(before);
    w.delete();
  });
});

describe('unknown options', () => {
  it('give the messages of the issue: colums and a pin region\'s center', () => {
    const w = fixture();
    const particles = w.particleCount();
    expect(() => w.addCloth({ columns: 4, rows: 4, colums: 3 }))
      .toThrow(new InvalidArgumentError("addCloth: unknown option 'colums' (did you mean 'columns'?)"));
    expect(() => w.addCloth({ columns: 4, rows: 4, pinRegions: [{ center: [0, 1, 0], halfExtents: [1, 1, 1] }] }))
      .toThrow("addCloth: unknown option 'pinRegions[0].center' (did you mean 'centre'?)");
    expect(w.particleCount()).toBe(particles);
    w.delete();
  });

  it('list the valid keys when none is close', () => {
    const w = fixture();
    expect(() => w.setSelfCollision({ enabled: true, colour: 'red' }))
      .toThrow("setSelfCollision: unknown option 'colour' (valid: enabled, radius)");
    expect(w.getSelfCollision().enabled).toBe(false);
    w.delete();
  });

  it('are checked in tetrahedralize and createPbd options too', async () => {
    const tet = [0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1];
    const surface = [0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3];
    expect(() => pbd.tetrahedralize(tet, surface, { resolutoin: 4 }))
      .toThrow(new InvalidArgumentError("tetrahedralize: unknown option 'resolutoin' (did you mean 'resolution'?)"));
    await expect(createPbd({ varient: 'single' })).rejects
      .toThrow(new InvalidArgumentError("createPbd: unknown option 'varient' (did you mean 'variant'?)"));
  });

  it('leave objects without unknown keys as they were: getters round-trip', () => {
    const w = fixture();
    w.setGround(w.getGround());
    w.setSelfCollision(w.getSelfCollision());
    w.setHierarchy(w.getHierarchy());
    w.setBodyMaterial(0, w.getBodyMaterial(0));
    w.setContinuousSelfCollision(0, w.getContinuousSelfCollision(0));
    w.delete();
  });
});

describe('misspelt names', () => {
  const tet = { positions: [0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1], tets: [0, 1, 2, 3] };
  const cases = [
    ['setMethod', (w) => w.setMethod('xbpd'), 'xpbd'],
    ['setSolver', (w) => w.setSolver('jacobbi'), 'jacobi'],
    ['setIntegrator', (w) => w.setIntegrator('bdf-2'), 'bdf2'],
    ['setDistanceSweep', (w) => w.setDistanceSweep('symetric'), 'symmetric'],
    ['setConstraintStrength', (w) => w.setConstraintStrength('distnace', 0, 1, 0, 1), 'distance'],
    ['getConstraintStrength', (w) => w.getConstraintStrength('dihedal', 0), 'dihedral'],
    ['addCloth', (w) => w.addCloth({ columns: 3, rows: 3, model: 'edge' }), 'edges'],
    ['addCloth', (w) => w.addCloth({ columns: 3, rows: 3, bendModel: 'skip_one' }), 'skip-one'],
    ['addCloth', (w) => w.addCloth({ columns: 3, rows: 3, pinned: [0], tethers: 'geodesc' }), 'geodesic'],
    ['addCloth', (w) => w.addCloth({ columns: 3, rows: 3, pinRegions: [{ shape: 'spehre', centre: [0, 0, 0] }] }),
      'sphere'],
    ['addSoftBody', (w) => w.addSoftBody({ ...tet, material: 'neo-hokean' }), 'neo-hookean'],
    ['addCollider', (w) => w.addCollider({ shape: 'capsul' }), 'capsule'],
  ];

  it.each(cases)('%s suggests the name meant, and changes nothing', (method, call, meant) => {
    const w = fixture();
    const before = state(w);
    let error;
    try { call(w); } catch (e) { error = e; }
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect(error.message).toMatch(new RegExp(`^${method}: .* must be .*; did you mean '${meant}'\\?\\)$`));
    expect(state(w)).toEqual(before);
    w.delete();
  });

  it('suggest nothing for a name that is far from every valid one', () => {
    const w = fixture();
    expect(() => w.setMethod('verlet')).toThrow(new InvalidArgumentError(
      "setMethod: method must be 'pbd' or 'xpbd' (got 'verlet')"));
    w.delete();
  });
});

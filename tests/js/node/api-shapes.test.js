// The JS layer's tables of the API's shapes (web/lib/api-shapes.js) say what index.d.ts declares, both ways: every
// options type with exactly its keys and their vector and nested types, every World method that takes a vector, an
// optional argument or options with its vector overload's parameters, and a positional overload beside each vector
// one. The optional arguments are also the ones the C++ binding (wasm/js_world.h) accepts as undefined, and every
// method of the table is registered with Embind with as many arguments as its positional form.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JS_WORLD_METHODS, OPTION_TYPES, POSITIONAL_DEFAULTS, WORLD_METHODS, parseSignature }
  from '../../../web/lib/api-shapes.js';
import { createPbd } from '../../../web/lib/index.js';
import { optionMembers } from '../../../web/lib/options.js';
import { VECTOR_TYPES } from '../../../web/lib/vec3.js';
import { allMembers, readDeclarations } from '../shared/dts-reader.js';

const read = (path) => readFileSync(new URL(`../../../${path}`, import.meta.url), 'utf8');
const { types, aliases, worldMethods, text: declarations } = readDeclarations(read('web/lib/index.d.ts'));
const jsWorld = read('wasm/js_world.h');
const dtsText = read('web/lib/index.d.ts');   // with its doc comments

/** The table's name for a declared type: a vector or options type (with [] for an array of one), else undefined. */
function tableType(declared) {
  const m = /^(\w+)(\[\])?$/.exec(declared);
  if (!m || !(m[1] in VECTOR_TYPES || m[1] in OPTION_TYPES)) return undefined;
  return { type: m[1], array: !!m[2] };
}

/** A member or parameter as the table writes it: 'name?: Type[]'. */
const shown = ({ name, optional, type, array }) =>
  `${name}${optional ? '?' : ''}${type ? `: ${type}${array ? '[]' : ''}` : ''}`;
const declared = (p, optional = p.optional) => shown({ name: p.name, optional, ...tableType(p.type) });
const isVector = (p) => p.type in VECTOR_TYPES;
/** How many binding arguments a table parameter is: a vector's width, a positional record's members, else 1. */
const widthOf = (p) => VECTOR_TYPES[p.type]?.width ?? (p.positional ? optionMembers(p.type).length : 1);
/** Whether a table parameter stands for several positional binding arguments. */
const isSpread = (p) => isVector(p) || p.positional;

describe('OPTION_TYPES', () => {
  it('has every options type of index.d.ts with exactly its keys, vectors and nested options', () => {
    for (const name of Object.keys(OPTION_TYPES)) {
      expect(types.has(name), `index.d.ts declares ${name}`).toBe(true);
      const fromDts = new Set(allMembers(types, name).map((m) => declared(m, false)));   // a union repeats keys
      const fromTable = optionMembers(name).map((m) => shown({ ...m, optional: false }));
      expect(fromTable.sort(), name).toEqual([...fromDts].sort());
    }
  });

  it('has every object type a World method, tetrahedralize or createPbd takes, and every one those contain', () => {
    const reached = new Set();
    const visit = (typeText) => {
      for (const name of typeText.match(/\w+/g) ?? []) {
        if (!types.has(name) || reached.has(name)) continue;
        reached.add(name);
        for (const m of allMembers(types, name)) visit(m.type);
      }
    };
    for (const params of [...worldMethods.values()].flat()) for (const p of params) visit(p.type);
    visit(/tetrahedralize\([^)]*options\?: (\w+)/.exec(declarations)[1]);
    visit(/function createPbd\(options\?: (\w+)/.exec(declarations)[1]);
    expect(reached.size).toBeGreaterThan(10);
    expect([...reached].filter((name) => !(name in OPTION_TYPES)).sort()).toEqual([]);
    expect(aliases.has('Vec3Like') && aliases.has('QuatLike')).toBe(true);
  });
});

/** The overload the table describes: the one with a vector or record parameter, else the only one. */
const vectorOverload = (overloads) => overloads.find((ps) => ps.some(isVector))
  ?? overloads.find((ps) => ps.some((p) => tableType(p.type))) ?? overloads[0];

describe('WORLD_METHODS', () => {
  it('has every World method with a vector, an optional argument or options, as its vector overload declares ' +
    '(with the methods written in JS)', () => {
    const expected = {};
    for (const [name, overloads] of worldMethods) {
      const params = vectorOverload(overloads);
      if (!params.some((p) => p.optional || tableType(p.type))) continue;
      expected[name] = params.map((p) => declared(p)).join(', ');
    }
    const table = Object.fromEntries(Object.entries({ ...WORLD_METHODS, ...JS_WORLD_METHODS })
      .map(([name, signature]) => [name, parseSignature(signature).map(shown).join(', ')]));
    expect(Object.keys(expected).length).toBeGreaterThan(15);
    expect(table).toEqual(expected);
  });

  it('declares beside every vector or record overload one positional overload, with each as numbers', () => {
    let records = 0;
    for (const [name, signature] of Object.entries(WORLD_METHODS)) {
      const params = parseSignature(signature);
      if (!params.some(isSpread)) continue;
      records += params.filter((p) => p.positional).length;
      const described = vectorOverload(worldMethods.get(name));
      const expected = params.flatMap((p) => (isSpread(p)
        ? Array(widthOf(p)).fill('number')
        : [declared(described.find((q) => q.name === p.name))]));
      const positional = worldMethods.get(name).filter((ps) => ps !== described);
      expect(positional, name).toHaveLength(1);
      const vectorSlot = (k) => expected[k] === 'number';
      expect(positional[0].map((p, k) => (vectorSlot(k) ? p.type : declared(p))), name).toEqual(expected);
    }
    expect(records).toBeGreaterThanOrEqual(2);   // the strength setters
  });

  it('gives a positional record\'s left-out members the defaults index.d.ts documents', () => {
    for (const [type, defaults] of Object.entries(POSITIONAL_DEFAULTS)) {
      const body = new RegExp(`export interface ${type} \\{([\\s\\S]*?)\\n\\}`).exec(dtsText)[1];
      expect(Object.keys(defaults).sort(), type).toEqual(allMembers(types, type).map((m) => m.name).sort());
      for (const [key, value] of Object.entries(defaults)) {
        // The member's doc comment ends with "Default <value>." right above the member.
        expect(body, `${type}.${key}`).toMatch(new RegExp(`Default ${value}\\. \\*/\\n\\s*${key}\\?:`));
      }
    }
  });

  it('marks optional exactly the arguments the C++ binding accepts as undefined (wasm/js_world.h)', () => {
    const optionalInCpp = [];
    for (const m of jsWorld.matchAll(/\n {2}[\w:<>]+ (\w+)\(([^)]*)\)(?: const)? \{/g)) {
      const body = bracedBody(jsWorld, m.index + m[0].length - 1);
      for (const param of m[2].split(',').map((p) => p.trim())) {
        const name = /^val (\w+)$/.exec(param)?.[1];
        if (name && body.includes(`${name}.isUndefined()`)) optionalInCpp.push(`${m[1]}(${name})`);
      }
    }
    const optionalInTable = Object.entries(WORLD_METHODS).flatMap(([method, signature]) =>
      parseSignature(signature).filter((p) => p.optional).map((p) => `${method}(${p.name})`));
    expect(optionalInCpp.length).toBeGreaterThan(3);
    expect(optionalInTable.sort()).toEqual(optionalInCpp.sort());
    for (const [method, signature] of Object.entries(WORLD_METHODS)) {   // optional arguments come last
      const flags = parseSignature(signature).map((p) => p.optional);
      expect(flags.slice(flags.indexOf(true)).every(Boolean) || !flags.includes(true), method).toBe(true);
    }
  });
});

function bracedBody(source, open) {
  let depth = 0;
  for (let i = open; i < source.length; i++) {
    if (source[i] === '{') depth++;
    else if (source[i] === '}' && --depth === 0) return source.slice(open, i + 1);
  }
  return source.slice(open);
}

describe('the bindings', () => {
  let pbd;
  beforeAll(async () => { pbd = await createPbd({ threads: 1 }); });
  afterAll(() => pbd?.terminate());

  it('register none of the methods written in JS, which the package adds to World itself', () => {
    const bindings = read('wasm/bindings.cpp');
    for (const name of Object.keys(JS_WORLD_METHODS)) {
      expect(bindings, name).not.toContain(`.function("${name}"`);
      expect(pbd.World.prototype[name], name).toBeTypeOf('function');
      expect('argCount' in pbd.World.prototype[name], name).toBe(false);
    }
  });

  it('register every method of the table, with as many arguments as its positional form', () => {
    const bindings = read('wasm/bindings.cpp');
    for (const [name, signature] of Object.entries(WORLD_METHODS)) {
      expect(bindings, name).toContain(`.function("${name}", &JsWorld::${name})`);
      expect(pbd.World.prototype[name], name).toBeTypeOf('function');
      const arity = parseSignature(signature).reduce((n, p) => n + widthOf(p), 0);
      const header = new RegExp(`\\n {2}[\\w:<>]+ ${name}\\(([^)]*)\\)`).exec(jsWorld);
      expect(header[1].split(',').length, name).toBe(arity);
    }
  });
});

// index.d.ts and what the package really has name the same members, both ways: every method of World and Embedding
// that the Embind bindings register (or the JS layer adds) is declared, every declared one exists, and the object
// createPbd() resolves to has exactly the members of the Pbd interface. A binding added without its declaration, or
// a declaration of a method that was renamed or removed, fails here.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPbd } from '../../../web/lib/index.js';
import { memberNames } from '../shared/dts-reader.js';

const declarations = readFileSync(new URL('../../../web/lib/index.d.ts', import.meta.url), 'utf8');
// What Embind gives every class (ClassHandle): not ours to declare, except delete(), which users must call.
const EMBIND_HANDLE = ['clone', 'isAliasOf', 'isDeleted', 'deleteLater'];

let pbd;
beforeAll(async () => { pbd = await createPbd({ threads: 1 }); });
afterAll(() => pbd?.terminate());

/** Methods on an instance's prototype chain below Object: the bindings' and the JS layer's. */
function methodsOf(Class) {
  const names = new Set();
  for (let proto = Class.prototype; proto && proto !== Object.prototype; proto = Object.getPrototypeOf(proto)) {
    for (const name of Object.getOwnPropertyNames(proto)) {
      if (name !== 'constructor' && typeof Object.getOwnPropertyDescriptor(proto, name).value === 'function') {
        names.add(name);
      }
    }
  }
  return names;
}

const missingFrom = (names, from) => [...names].filter((n) => !from.has(n)).sort();

describe.each(['World', 'Embedding'])('%s', (name) => {
  it('declares every method the module has, and has every method it declares', () => {
    const real = methodsOf(pbd[name]);
    for (const n of EMBIND_HANDLE) real.delete(n);
    const declared = memberNames(declarations, name);
    expect(real.size).toBeGreaterThan(name === 'World' ? 80 : 3);
    expect(missingFrom(real, declared), `${name} methods without a declaration`).toEqual([]);
    expect(missingFrom(declared, real), `declared ${name} members the module lacks`).toEqual([]);
  });
});

it('createPbd() resolves to exactly the members of the Pbd interface', () => {
  const real = new Set(Object.keys(pbd));
  const declared = memberNames(declarations, 'Pbd');
  expect(declared.size).toBeGreaterThan(10);
  expect(missingFrom(real, declared), 'members of the loaded module without a declaration').toEqual([]);
  expect(missingFrom(declared, real), 'declared Pbd members the loaded module lacks').toEqual([]);
});

it('a method the bindings register for World is one the declarations name (read from wasm/bindings.cpp)', () => {
  const bindings = readFileSync(new URL('../../../wasm/bindings.cpp', import.meta.url), 'utf8');
  const world = /class_<JsWorld>[\s\S]*?;\n/.exec(bindings)[0];
  const registered = new Set([...world.matchAll(/\.function\("(\w+)"/g)].map((m) => m[1]));
  expect(registered.size).toBeGreaterThan(80);
  expect(missingFrom(registered, memberNames(declarations, 'World'))).toEqual([]);
});

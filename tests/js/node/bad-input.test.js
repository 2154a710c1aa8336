// Bad input that does not fit in a table row: a request under the size limits that does not fit in the wasm heap.
// Every other rejected input (message naming the function and argument, world unchanged) is a row of
// docs/validation.md, run by validation-table.test.js; the cases that were here moved there.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createPbd } from '../../../web/lib/index.js';

let pbd;
beforeAll(async () => { pbd = await createPbd({ threads: 2 }); });
afterAll(() => pbd?.terminate());

it('an out-of-memory request is an Error, and the module stays usable', () => {
  const w = new pbd.World();
  // 4000 x 4000 particles is under the size limit but does not fit in the 1 GB threaded heap.
  expect(() => w.addCloth({ columns: 4000, rows: 4000, spacing: 0.001 })).toThrow(/addCloth: out of memory/);
  expect(w.particleCount()).toBe(0);
  w.addCloth({ columns: 8, rows: 8, spacing: 0.1 });
  w.step(1 / 60);
  expect(w.particleCount()).toBe(64);
  w.delete();
});

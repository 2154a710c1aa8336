// 1,000 create/fill/step/delete cycles leave the malloc'd heap where it was.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createPbd } from '../../../web/lib/index.js';

let pbd;
beforeAll(async () => { pbd = await createPbd({ threads: 2 }); });
afterAll(() => pbd?.terminate());

function cycle() {
  const w = new pbd.World();
  w.addCloth({ columns: 12, rows: 12, spacing: 0.05, pinned: [0, 11] });
  const a = w.addAttachment(20, 0, 1, 0, undefined);
  w.step(1 / 60);
  w.removeAttachment(a);
  try { w.step(-1); } catch { /* errors must not leak either */ }
  w.delete();
}

it('does not grow the wasm heap over 1,000 create/step/delete cycles', () => {
  for (let i = 0; i < 20; i++) cycle();          // warm-up: allocator bins, embind type tables
  const before = pbd.heapBytesInUse();
  const memoryBefore = pbd.memory.byteLength;
  for (let i = 0; i < 1000; i++) cycle();
  expect(pbd.heapBytesInUse()).toBe(before);
  expect(pbd.memory.byteLength).toBe(memoryBefore);
});

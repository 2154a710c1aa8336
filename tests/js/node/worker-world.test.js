// pbd-wasm/worker in Node (worker_threads; tests/js/browser/worker-world.test.js runs it in a browser Worker): the
// world steps in the Worker and gives the same bits as a World stepped here; positions are a zero-copy view of the
// Worker's shared memory (threaded) or a transferred copy (single); errors keep their classes; the caller's thread
// runs on while the Worker steps.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvalidArgumentError, MeshParseError, PbdError, createPbd } from '../../../web/lib/index.js';
import { createWorkerWorld } from '../../../web/lib/worker.js';

const CLOTH = { columns: 24, rows: 24, spacing: 0.04, origin: [-0.5, 1.5, 0], pinned: [0, 23] };

/** The same scene stepped by a World on this thread: its positions after `frames` steps. */
async function stepHere(options, frames) {
  const pbd = await createPbd(options);
  const world = new pbd.World();
  world.addCloth(CLOTH);
  for (let f = 0; f < frames; f++) world.step(1 / 60);
  const xyz = world.positions().slice();
  world.delete();
  pbd.terminate();
  return xyz;
}

for (const variant of ['threaded', 'single']) {
  describe(`a WorkerWorld, ${variant} build`, () => {
    let remote;
    beforeAll(async () => { remote = await createWorkerWorld({ variant, threads: variant === 'single' ? 1 : 2 }); });
    afterAll(() => remote?.terminate());

    it('steps in the Worker to the bits a World here gives; positions are read without a call', async () => {
      expect(remote.variant).toBe(variant);
      const body = await remote.world.addCloth(CLOTH);
      expect(body.particleCount).toBe(24 * 24);
      const atStart = remote.positions().slice();
      expect(atStart.length).toBe(3 * 24 * 24);
      expect(atStart[3 * 575 + 1]).toBe(1.5);
      for (let f = 0; f < 30; f++) await remote.world.step(1 / 60);
      const view = remote.positions();
      expect(view[3 * 575 + 1]).toBeLessThan(1.4);   // the free corner fell
      if (variant === 'threaded') expect(view.buffer).toBeInstanceOf(SharedArrayBuffer);   // the Worker's memory
      else expect(view.buffer).not.toBeInstanceOf(SharedArrayBuffer);
      expect(Array.from(view)).toEqual(Array.from(await stepHere({ variant, threads: remote.threads }, 30)));
    });

    it('a world that grows gives a new view of the right length', async () => {
      const before = await remote.world.particleCount();
      await remote.world.addCloth({ columns: 150, rows: 150, spacing: 0.01, origin: [5, 1, 0] });
      expect(remote.positions().length).toBe(3 * (before + 150 * 150));
      await remote.world.step(1 / 60);
      expect(remote.positions()[3 * before + 1]).toBeLessThan(1);   // the new cloth's first particle fell
    });

    it('errors keep their class and message; what cannot be sent is an InvalidArgumentError', async () => {
      await expect(remote.world.addCloth({ columns: 4, rows: 4, colums: 3 }))
        .rejects.toThrow(new InvalidArgumentError("addCloth: unknown option 'colums' (did you mean 'columns'?)"));
      const parse = await remote.pbd.readObj('v 1 2 3\nf 1 2 9\n').catch((e) => e);
      expect(parse).toBeInstanceOf(MeshParseError);
      expect(parse.line).toBe(2);
      await expect(remote.world.setVelocity(0, () => 1)).rejects.toThrow(InvalidArgumentError);
      await expect(remote.world.setVelocity(0, () => 1)).rejects.toThrow(/World.setVelocity: an argument cannot be sent/);
      await expect(remote.world.noSuchMethod()).rejects.toThrow(/World.noSuchMethod is not a function/);
      expect(remote.pending).toBe(0);
    });

    it('module functions run there too, and their arrays come back as copies', async () => {
      const cube = [0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0, 0, 0, 1, 1, 0, 1, 1, 1, 1, 0, 1, 1];
      const faces = [0, 2, 1, 0, 3, 2, 4, 5, 6, 4, 6, 7, 0, 1, 5, 0, 5, 4, 2, 3, 7, 2, 7, 6, 1, 2, 6, 1, 6, 5, 0, 4, 7,
        0, 7, 3];
      const mesh = await remote.pbd.tetrahedralize(new Float32Array(cube), new Uint32Array(faces), { resolution: 3 });
      expect(mesh.tets.length % 4).toBe(0);
      expect(mesh.tets.length).toBeGreaterThan(4 * 5);
      expect(mesh.positions.buffer).not.toBeInstanceOf(SharedArrayBuffer);
    });
  });
}

it('the caller\'s thread runs on while the Worker steps', async () => {
  const remote = await createWorkerWorld({ threads: 1 });
  await remote.world.addCloth({ columns: 160, rows: 160, spacing: 0.01, origin: [-0.8, 1.5, 0], pinned: [0, 159] });
  await remote.world.setSubsteps(40);
  let ticks = 0;
  const timer = setInterval(() => { ticks++; }, 2);
  const started = performance.now();
  await remote.world.step(1 / 60);
  const elapsed = performance.now() - started;
  clearInterval(timer);
  console.log(`a step of ${elapsed.toFixed(0)} ms, ${ticks} ticks of a 2 ms timer meanwhile`);
  await remote.terminate();
  expect(elapsed).toBeGreaterThan(20);   // a long step, during which this thread's timer fired (run on this thread,
  expect(ticks).toBeGreaterThan(2);      // the step would have let none fire)
  await expect(remote.world.step(1 / 60)).rejects.toThrow(PbdError);
  await expect(remote.world.step(1 / 60)).rejects.toThrow(/terminated/);
});

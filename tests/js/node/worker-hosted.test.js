// pbd-wasm/worker with code of the caller's in the Worker (serveWorld): its functions run there by name, its
// beforeStep before every step the page asks for, to the bits the same code gives on this thread; errors keep their
// classes; malformed hosts and workers are refused by name.
import { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvalidArgumentError, PbdError, createPbd } from '../../../web/lib/index.js';
import { createWorkerWorld, serveWorld } from '../../../web/lib/worker.js';
import { WIND_SCENE } from '../shared/wind-scene.js';

const N = 16;
const WIND_WORKER = new URL('../shared/wind-worker.js', import.meta.url);

/** The scene on this thread: set-up, 10 steps and 3 advances of 0.05 s with the hook; positions and hook calls. */
async function runHere(wind) {
  const pbd = await createPbd({ variant: 'single' });
  const world = new pbd.World();
  const context = { pbd, world };
  const { functions, beforeStep } = WIND_SCENE;
  functions.hang(context, N);
  functions.setWind(context, wind);
  const before = functions.stepsSeen();
  for (let f = 0; f < 10; f++) {
    beforeStep(context, 1 / 60);
    world.step(1 / 60);
  }
  for (let k = 0; k < 3; k++) world.advance(0.05, { beforeStep: (dt) => beforeStep(context, dt) });
  const xyz = world.positions().slice();
  const hooks = functions.stepsSeen() - before;
  world.delete();
  pbd.terminate();
  return { xyz, hooks };
}

describe('a WorkerWorld serving code of its own', () => {
  let remote;
  beforeAll(async () => { remote = await createWorkerWorld({ variant: 'single' }, new Worker(WIND_WORKER)); });
  afterAll(() => remote?.terminate());

  it('runs the hosted functions and beforeStep in the Worker, to the bits of the same code here', async () => {
    const cloth = await remote.run('hang', N);
    expect(cloth.particleCount).toBe(N * N);
    expect(await remote.run('setWind', 0.02)).toBe(0.02);
    for (let f = 0; f < 10; f++) await remote.world.step(1 / 60);
    for (let k = 0; k < 3; k++) await remote.world.advance(0.05);
    const here = await runHere(0.02);
    expect(await remote.run('stepsSeen')).toBe(here.hooks);
    expect(here.hooks).toBeGreaterThanOrEqual(16);   // every step of step() and of advance()
    expect(Array.from(remote.positions())).toEqual(Array.from(here.xyz));
    // The hook did act: without wind the cloth hangs elsewhere.
    const still = await runHere(0);
    const free = 3 * (N * N - 1);   // the bottom corner
    expect(here.xyz[free] - still.xyz[free]).toBeGreaterThan(0.01);
  });

  it('a hosted function reports to onReport while it runs, in order, before its result', async () => {
    const seen = [];
    remote.onReport = (value) => seen.push(value.done);
    const sent = await remote.run('count', 4);
    remote.onReport = null;
    expect(sent).toBe(4);
    expect(seen).toEqual([0.25, 0.5, 0.75, 1]);
    await remote.run('count', 2);   // no handler: dropped
    expect(seen).toHaveLength(4);
  });

  it('a result keeps its buffers as they are and copies views of wasm memory', async () => {
    const { raw, view } = await remote.run('buffers');
    expect(raw).toBeInstanceOf(ArrayBuffer);   // it was an empty object before: buffers were walked as objects
    expect(Array.from(new Uint8Array(raw))).toEqual([1, 2, 3]);
    expect(view).toBeInstanceOf(Float32Array);
    expect(view.length).toBe(3 * N * N);
    expect(view.buffer.byteLength).toBe(view.byteLength);   // a copy, not the Worker's whole memory
  });

  it('an unknown name rejects with an InvalidArgumentError that lists what the Worker serves', async () => {
    const call = remote.run('hnag', 3);
    await expect(call).rejects.toBeInstanceOf(InvalidArgumentError);
    await expect(remote.run('hnag')).rejects.toThrow(/WorkerWorld\.run: name "hnag" .*hang, setWind, stepsSeen, count, buffers/);
  });

  it("a hosted function's error reaches the page with its class and message", async () => {
    await expect(remote.run('fail')).rejects.toBeInstanceOf(InvalidArgumentError);
    await expect(remote.run('fail')).rejects.toThrow('fail: thrown on purpose');
    expect(await remote.world.particleCount()).toBe(N * N);   // the Worker serves on
  });
});

it('a Worker that exits mid-call rejects that call and every later one, instead of leaving them pending', async () => {
  const remote = await createWorkerWorld({ variant: 'single' }, new Worker(WIND_WORKER));
  await remote.run('hang', 4);
  await expect(remote.run('exit')).rejects.toThrow(/pbd-wasm\/worker: the Worker exited \(code 3\)/);
  await expect(remote.world.step(1 / 60)).rejects.toBeInstanceOf(PbdError);
  expect(remote.pending).toBe(0);
  await remote.terminate();
});

describe('refused by name', () => {
  it('createWorkerWorld: a worker that is not a Worker', async () => {
    await expect(createWorkerWorld({}, {})).rejects.toThrow(/createWorkerWorld: worker must be a Worker/);
    await expect(createWorkerWorld({}, null)).rejects.toBeInstanceOf(InvalidArgumentError);
  });

  it('serveWorld: an unknown key, a function that is not one, a hook that is not one', () => {
    expect(() => serveWorld({ function: {} }))
      .toThrow(new InvalidArgumentError("serveWorld: unknown option 'function' (did you mean 'functions'?)"));
    expect(() => serveWorld({ setup: () => {} })).toThrow(InvalidArgumentError);
    expect(() => serveWorld({ setup: () => {} }))
      .toThrow("serveWorld: unknown option 'setup' (valid: functions, beforeStep)");
    expect(() => serveWorld({ functions: { hang: 1 } }))
      .toThrow(/serveWorld: hosted\.functions\.hang must be a function \(got 1\)/);
    expect(() => serveWorld({ beforeStep: 'wind' })).toThrow(InvalidArgumentError);
    expect(() => serveWorld(null)).toThrow(/serveWorld: hosted must be an object/);
  });
});

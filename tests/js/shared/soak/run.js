// Runs one soak scene: builds it, steps it under the parameter schedule and the grabs, checks it (monitor.js) and
// watches the wasm heap. Shared by `npm run soak` (bench/soak.mjs) and the CI version (tests/js/node/soak.test.js).
import { buildScene } from './scenes.js';
import { Monitor } from './monitor.js';
import { Grabber, PHASES, applyPhase, phaseLabel } from './schedule.js';

/** The long soak's timing; the CI version passes shorter phases and grab periods. */
export const LONG = { steps: 100_000, checkEvery: 10, phaseSteps: 300, grabPeriod: 600, grabHold: 240 };

const DT = 1 / 60;

/**
 * Bytes the heap in use may differ by between two readings without a leak: rebuilding the thread pool (the '2
 * threads'/'1 thread' phase) leaves 0 or 32 B with Emscripten's pthread runtime, alternating, over 400 rebuilds
 * measured. A leak of even 4 B per step crosses it within a cycle.
 */
export const HEAP_SLACK = 64;

/**
 * memory: [heap bytes in use, wasm memory bytes, tears so far] per cycle end; each must match the first reading after
 * the same tears (see runScene). Returns whether any reading was compared with an earlier one.
 */
function checkMemory(memory, cycle, failures) {
  let compared = false;
  memory.forEach(([heap, bytes, tears], c) => {
    const [base, baseBytes] = memory.find((m) => m[2] === tears);
    compared ||= memory.indexOf(memory.find((m) => m[2] === tears)) < c;
    if (heap > base + HEAP_SLACK || bytes !== baseBytes) {
      failures.push({ step: (c + 1) * cycle - 1, kind: 'memory', message: `after cycle ${c + 1}: heap ${heap} B ` +
        `in use, wasm memory ${bytes} B; after the warm-up cycle ${base} B, ${baseBytes} B` });
    }
  });
  return compared;
}

/**
 * Returns { scene, steps, failures: [{step, kind, message}], startEnergy, bound, maxEnergy, maxSpeed, heapStart,
 * heapEnd, memoryStart, memoryEnd, memoryChecked, heapLeak, tears, wallMs }.
 * Memory: the heap is read at every end of a schedule cycle (all phases, whole grabs: the world is in the same state
 * of settings and attachments each time). The first cycle is the warm-up (solver scratch buffers, the attachment
 * list reach their sizes); every later reading must equal it: the wasm memory size exactly, the heap in use within
 * HEAP_SLACK. A tearing scene grows when it tears: a reading is compared with the first one after the same tears
 * (`tears`: steps that tore). Deleting the world must give back everything building it took (within HEAP_SLACK).
 */
export function runScene(pbd, name, options = {}) {
  const o = { ...LONG, ...options };
  const cycle = PHASES.length * o.phaseSteps;
  if (cycle % o.grabPeriod !== 0 || o.grabHold >= o.grabPeriod) {
    throw new Error(`soak: grabPeriod ${o.grabPeriod} must divide the cycle (${cycle} steps) and exceed grabHold`);
  }
  const startThreads = pbd.threads;
  const heapBeforeBuild = pbd.heapBytesInUse();
  const t0 = performance.now();
  const { world, strengthRanges } = buildScene(pbd, name);
  const result = { scene: name, steps: 0, failures: [], tears: 0 };
  try {
    const monitor = new Monitor(world);
    result.failures = monitor.failures;
    const grabber = new Grabber(world, monitor.free, monitor.topY, DT,
      { period: o.grabPeriod, hold: o.grabHold, seed: 7 });
    const memory = [];   // [heap bytes in use, wasm memory bytes] at the end of each cycle
    let phase = '';
    for (let step = 0; step < o.steps && monitor.failures.length === 0; step++) {
      if (step % o.phaseSteps === 0) {
        const p = PHASES[(step / o.phaseSteps) % PHASES.length];
        applyPhase(pbd, world, strengthRanges, p, startThreads);
        phase = phaseLabel(p);
      }
      grabber.update(step);
      world.step(DT);
      monitor.afterStep(step);
      if (world.lastTearCount() > 0) {   // followed, then checked: pins where they were, energy kept by the split
        monitor.followTears(world.lastTears());
        monitor.check(step, phase);
        result.tears += 1;
      }
      if ((step + 1) % o.checkEvery === 0) monitor.check(step, phase);
      if ((step + 1) % cycle === 0) memory.push([pbd.heapBytesInUse(), pbd.memory.byteLength, result.tears]);
      o.onProgress?.(step + 1);
      result.steps = step + 1;
    }
    Object.assign(result, {
      startEnergy: monitor.startEnergy, bound: monitor.bound,
      maxEnergy: monitor.maxEnergy, maxSpeed: monitor.maxSpeed,
      heapStart: memory[0]?.[0], heapEnd: memory.at(-1)?.[0],
      memoryStart: memory[0]?.[1], memoryEnd: memory.at(-1)?.[1],
    });
    result.memoryChecked = checkMemory(memory, cycle, monitor.failures);
  } finally {
    world.delete();
    pbd.setThreads(startThreads);
  }
  result.wallMs = performance.now() - t0;
  result.heapLeak = pbd.heapBytesInUse() - heapBeforeBuild;
  if (result.heapLeak > HEAP_SLACK) {
    result.failures.push({ step: result.steps, kind: 'leak', message: `deleting the world left ${result.heapLeak} B ` +
      'of the heap in use' });
  }
  return result;
}

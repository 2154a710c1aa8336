// A gallery scene on the threaded build at two thread counts in one Node process: two copies of the scene (two module
// instances), stepped as the demo's worker steps them (web/demo/residual-record.js), advanced together past `warm`
// frames, then timed in alternating 30-frame blocks; prints the medians, the median of the paired ratios B/A, and the
// stage means (World.lastStepTimings) of each. Pairing keeps both at the same simulated time on a machine whose speed
// drifts. Usage: node bench/paired-threads.mjs [scene=stack] [threadsA=1] [threadsB=2] [pairs=20] [warm=420]
// A scene id of bench/scenes.mjs (`clothN`, `clothNrest`, `clothNrestP`, `cubeC`: bench:peers' scenes) instead of a
// gallery scene: issue #8's thread scaling, both thread counts timed within the same minute.
import { pairedBlocks } from './paired-blocks.mjs';
import { DT, benchScene, buildBenchScene, galleryScene } from './scenes.mjs';
import { median } from './solvers/metrics.mjs';

const [scene = 'stack', tA = '1', tB = '2', pairsArg = '20', warmArg = '420'] = process.argv.slice(2);
/// The scene at `threads` threads: its worlds and a frame of them (all stepped once, 1/60 s).
async function sceneFrame(threads) {
  const { createPbd } = await import('../web/lib/index.js');
  const pbd = await createPbd({ variant: 'threaded', threads });
  const bench = benchScene(scene);
  if (bench) {
    const world = new pbd.World();
    buildBenchScene(world, bench);
    world.setStepTimings(true);
    return { worlds: [world], frame: () => world.step(DT) };
  }
  const { ResidualRecord } = await import('../web/demo/residual-record.js');
  const built = await galleryScene(pbd, scene);
  const record = new ResidualRecord(built.worlds);  // turns the worlds' step timings on
  const worlds = built.worlds.map(({ world }) => world);
  return { worlds, frame: () => { record.beforeStep(); for (const world of worlds) world.step(1 / 60); } };
}
/// A frame of the scene that also adds each world's stage timings to f.stages.
async function setup(threads) {
  const { worlds, frame } = await sceneFrame(threads);
  const stages = {};
  const f = () => {
    frame();
    for (const world of worlds) {
      for (const [k, v] of Object.entries(world.lastStepTimings())) stages[k] = (stages[k] ?? 0) + v;
    }
  };
  f.stages = stages;
  return f;
}
const A = await setup(Number(tA)), B = await setup(Number(tB));
for (let f = 0; f < Number(warmArg); f++) A(), B();
for (const k in A.stages) A.stages[k] = 0, B.stages[k] = 0;
const { a: ta, b: tb, ratios } = pairedBlocks({ frame: A }, { frame: B }, Number(pairsArg), 30);
console.log(`${scene}: ${tA} thread(s) ${median(ta).toFixed(3)} ms, ${tB} thread(s) ${median(tb).toFixed(3)} ms, ` +
  `median paired ratio ${median(ratios).toFixed(3)}`);
const n = 30 * Number(pairsArg);
for (const [name, F] of [[tA, A], [tB, B]]) {
  const stages = Object.entries(F.stages).map(([k, v]) => `${k.replace(/Ms$/, '')} ${(v / n).toFixed(3)}`);
  console.log(`${name} thread(s): ${stages.join(', ')}`);
}
process.exit(0);

// `npm run soak`: every gallery scene of the demo (gallery:<name>, as the page builds it) plus seven soak scenes
// (demo cloth, cube, bunny, a rope, a pressure balloon with and without bending, a self-colliding cloth), 100,000
// steps each in the wasm build under Node, with periodic grabs and parameter changes, checked for NaN, rollbacks, moving pins,
// energy growth and heap growth (tests/js/shared/soak/). Prints a table; exits non-zero on any failure.
//   node bench/soak.mjs [--steps N] [--scene name[,name...]] [--check-every K] [--variant threaded|single]
//                       [--threads N]
import { createPbd } from '../web/lib/index.js';
import { LONG, runScene } from '../tests/js/shared/soak/run.js';
import { GALLERY_SCENES, SCENES } from '../tests/js/shared/soak/scenes.js';

function sceneName(name) {
  if (name in SCENES || GALLERY_SCENES.includes(name)) return name;
  throw new Error(`soak: unknown scene ${JSON.stringify(name)} (have ${[...Object.keys(SCENES), ...GALLERY_SCENES]
    .join(', ')})`);
}

function parseArgs(argv) {
  const args = { steps: LONG.steps, scenes: [...Object.keys(SCENES), ...GALLERY_SCENES], checkEvery: LONG.checkEvery, variant: undefined,
    threads: undefined };
  const positive = (flag, v) => {
    const n = Number(v);
    if (!Number.isInteger(n) || n < 1) throw new Error(`soak: ${flag} must be a positive integer (got ${v})`);
    return n;
  };
  for (let i = 0; i < argv.length; i += 2) {
    const [flag, value] = [argv[i], argv[i + 1]];
    if (value === undefined) throw new Error(`soak: ${flag} needs a value`);
    if (flag === '--steps') args.steps = positive(flag, value);
    else if (flag === '--scene') args.scenes = value.split(',').map(sceneName);
    else if (flag === '--check-every') args.checkEvery = positive(flag, value);
    else if (flag === '--variant') args.variant = value;
    else if (flag === '--threads') args.threads = positive(flag, value);
    else throw new Error(`soak: unknown option ${flag} (have --steps, --scene, --check-every, --variant, --threads)`);
  }
  return args;
}

const fmt = (x, digits) => (x === undefined ? '-' : x.toFixed(digits));
const mb = (bytes) => (bytes === undefined ? '-' : String(bytes));

let args;
try {
  args = parseArgs(process.argv.slice(2));
} catch (error) {
  console.error(error.message);
  process.exit(2);
}
const pbd = await createPbd({ ...(args.variant && { variant: args.variant }),
  ...(args.threads && { threads: args.threads }) });
console.log(`soak: wasm ${pbd.variant} build, ${pbd.threads} thread(s), ${args.steps} steps of 1/60 s per scene, ` +
  `checks every ${args.checkEvery} steps`);
const header = ['scene', 'steps', 'E start J', 'E max J', 'E bound J', 'max speed m/s', 'heap start B', 'heap end B',
  'memory start B', 'memory end B', 'wall s', 'result'];
console.log(header.join(' | '));
let failed = 0;
for (const name of args.scenes) {
  let lastReport = performance.now();
  const r = runScene(pbd, name, { steps: args.steps, checkEvery: args.checkEvery, onProgress: (step) => {
    if (performance.now() - lastReport < 60_000) return;
    lastReport = performance.now();
    process.stderr.write(`  ${name}: ${step} steps\n`);
  } });
  const ok = r.failures.length === 0;
  failed += ok ? 0 : 1;
  console.log([name, r.steps, fmt(r.startEnergy, 3), fmt(r.maxEnergy, 3), fmt(r.bound, 3), fmt(r.maxSpeed, 2),
    mb(r.heapStart), mb(r.heapEnd), mb(r.memoryStart), mb(r.memoryEnd), fmt(r.wallMs / 1000, 1),
    ok ? (r.memoryChecked ? 'ok' : 'ok (too short for the memory check)') : 'FAILED'].join(' | '));
  for (const f of r.failures) console.log(`  ${f.kind}: ${f.message}`);
}
pbd.terminate();
console.log(failed === 0 ? 'soak: all scenes passed' : `soak: ${failed} scene(s) failed`);
process.exit(failed === 0 ? 0 : 1);

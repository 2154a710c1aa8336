// Two builds of the package side by side in one Node process, for A/B-testing a change on a noisy machine: the same
// cloth in each, 10-frame runs alternated A, B, A, B, ..., and the ratio B/A taken per pair. A machine whose speed
// drifts by 30 % from minute to minute (seen on the 2-core CI machine) moves both halves of a pair together, so the
// median of the paired ratios shows a few-percent change that separate runs cannot. Run it twice with A and B
// swapped: the second of a pair tends to gain 1-3 % (caches, the first one's idle pool worker).
//
// Usage: node bench/paired-builds.mjs DIR_A DIR_B [--variant=single|threaded] [--threads=N] [--n=128] [--gravity=0]
//                                                 [--pairs=40] [--scene=cloth|shuffled|irregular|cube|bunny]
//                                                 [--damping=0] [--maxSpeed=0] [--solver=coloured-gauss-seidel|vbd|...]
// Both builds run on the same thread count: a 1-thread instance beside a 2-thread one in one process measured 45 %
// slower than alone (11.5 against 7.9 ms on the 16³ cube), so thread scaling is not measured here; and two 2-thread
// instances (two pools: three threads on two cores) gave B/A 1.11 one way and 0.88 the other for one pair of builds,
// so a change on two threads is measured in separate processes (bench/peers/run.mjs).
// DIR_A and DIR_B are copies of web/lib (index.js and its wasm/ folder), e.g. `cp -r web/lib /tmp/lib_before` before
// the change and `cp -r web/lib /tmp/lib_after` after `bash .ci/build-wasm.sh`.
// Scene (bench/scenes.mjs): the hanging cloth (n x n, 1 m, 1 kg, 2 corners pinned, XPBD rigid, stretch + shear +
// skip-one bend, 10 substeps x 1 iteration, 1/60 s frames), gravity -9.81 or 0 (the rest variant of bench:peers),
// 120 warm-up frames. --scene=cube: the soft cube of n³ cells (6 tets each, rigid volumes and edges, dropped on the
// ground, gravity -9.81). --scene=shuffled: bench:peers' clothNshuffled (the n x n cloth at rest with its particles
// numbered at random, built through addParticles and addDistanceConstraints). --scene=irregular: bench:peers'
// clothIrregularN (n = 128: clothIrregular). --scene=bunny: bench:peers' bunnyTets (--n is ignored). Both builds are
// driven by this checkout's scene code, so it must suit the older one.
// --damping (1/s) and --maxSpeed (m/s) turn on the cloth's linear damping and speed clamp (0: off, as bench:peers).
// --solver: World.setSolver's name (default: the world's own, coloured Gauss-Seidel). Prints min and median ms per
// frame of each build and the median of B/A.
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { pairedBlocks } from './paired-blocks.mjs';
import {
  DT, GRAVITY, benchScene, benchSceneDef, buildBenchScene, bunnySurface, bunnyTetMesh, hangingCloth, meshCloth,
  shuffledClothDef, softCube,
} from './scenes.mjs';
import { median } from './solvers/metrics.mjs';

function options(argv) {
  const o = { variant: 'single', threads: 1, n: 128, gravity: 0, pairs: 40, scene: 'cloth', damping: 0, maxSpeed: 0,
    solver: '', dirs: [] };
  for (const a of argv) {
    const m = /^--(\w+)=(.*)$/.exec(a);
    if (!m) o.dirs.push(a);
    else if (!(m[1] in o) || m[1] === 'dirs') throw new Error(`paired-builds: unknown option ${a}`);
    else o[m[1]] = ['variant', 'scene', 'solver'].includes(m[1]) ? m[2] : Number(m[2]);
  }
  if (o.dirs.length !== 2) throw new Error('paired-builds: give two package directories (copies of web/lib)');
  if (!['single', 'threaded'].includes(o.variant)) throw new Error(`paired-builds: --variant must be single or threaded`);
  if (!['cloth', 'shuffled', 'irregular', 'cube', 'bunny'].includes(o.scene)) {
    throw new Error(`paired-builds: --scene must be cloth, shuffled, irregular, cube or bunny (got ${o.scene})`);
  }
  if (!(o.n >= 2 && o.pairs >= 1 && o.threads >= 1)) throw new Error('paired-builds: --n >= 2, --pairs >= 1, --threads >= 1');
  return o;
}

async function sceneWorld(dir, o) {
  const { createPbd } = await import(pathToFileURL(resolve(dir, 'index.js')).href);
  const pbd = await createPbd({ variant: o.variant, threads: o.threads });
  const world = new pbd.World();
  if (o.scene === 'cube') softCube(world, o.n);
  else if (o.scene === 'shuffled') meshCloth(world, shuffledClothDef(o.n), { gravity: 0 });
  else if (o.scene === 'irregular') buildBenchScene(world, benchScene(`clothIrregular${o.n}`));
  else if (o.scene === 'bunny') {
    const scene = benchScene('bunnyTets');
    buildBenchScene(world, scene, benchSceneDef(scene, bunnyTetMesh(pbd, await bunnySurface())));
  }
  else hangingCloth(world, o.n, { gravity: o.gravity ? GRAVITY : 0, damping: o.damping, maxSpeed: o.maxSpeed });
  if (o.solver) world.setSolver(o.solver);
  for (let f = 0; f < 120; ++f) world.step(DT);
  return world;
}

const o = options(process.argv.slice(2));
const [a, b] = [await sceneWorld(o.dirs[0], o), await sceneWorld(o.dirs[1], o)];
const step = (world) => () => world.step(DT);
const { a: ta, b: tb, ratios: ratio } = pairedBlocks({ frame: step(a) }, { frame: step(b) }, o.pairs, 10);
const f = (v) => v.toFixed(3);
const what = { cube: `soft cube ${o.n}³ cells`, shuffled: `cloth ${o.n}² shuffled g=0`,
  irregular: `irregular cloth ${o.n}² g=0`, bunny: 'tetrahedralized bunny',
  cloth: `cloth ${o.n}² g=${o.gravity ? GRAVITY : 0}` }[o.scene];
const solver = o.solver ? `, ${o.solver}` : '';
console.log(`${what}${solver}, ${o.variant} build, ${o.threads} thread(s), ${o.pairs} pairs of 10 frames`);
console.log(`A ${o.dirs[0]}: min ${f(Math.min(...ta))} median ${f(median(ta))} ms/frame`);
console.log(`B ${o.dirs[1]}: min ${f(Math.min(...tb))} median ${f(median(tb))} ms/frame`);
console.log(`B/A median of the paired ratios: ${f(median(ratio))}`);
process.exit(0);  // the threaded build's pthreads would keep Node alive

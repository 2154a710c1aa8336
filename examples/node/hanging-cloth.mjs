// The simulation without a browser: a cloth pinned at two corners, stepped for two seconds in Node. Prints the
// lowest point of the cloth each half second and exits non-zero if it never swung down.
import { createPbd } from 'pbd-wasm';

const pbd = await createPbd();   // in Node: the threaded build, 2 threads unless asked for more
const world = new pbd.World();
const cloth = world.addCloth({ columns: 32, rows: 32, spacing: 1 / 31, origin: [-0.5, 1.5, 0], pinned: [0, 31] });

const lowest = () => {
  const xyz = world.positions();   // a view of the world's memory: read it, do not keep it across steps
  let y = Infinity;
  for (let i = cloth.firstParticle; i < cloth.firstParticle + cloth.particleCount; i++) y = Math.min(y, xyz[3 * i + 1]);
  return y;
};
let deepest = Infinity;
for (let frame = 1; frame <= 120; frame++) {
  world.step(1 / 60);
  deepest = Math.min(deepest, lowest());
  if (frame % 30 === 0) console.log(`t = ${(frame / 60).toFixed(1)} s: lowest point y = ${lowest().toFixed(3)} m`);
}
console.log(`deepest: y = ${deepest.toFixed(3)} m`);   // a 1 m cloth swinging from 1.5 m: about 0.5 m
const swung = deepest < 0.7;
world.delete();
pbd.terminate();   // stops the thread pool's workers, so the process can exit
if (!swung) {
  console.error('the cloth did not swing down');
  process.exit(1);
}

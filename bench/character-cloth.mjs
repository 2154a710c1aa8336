// `npm run bench:character`: what character cloth (skinned constraints, PbdSkinnedCloth) costs beside a cloth of the
// same particles. A 32² cape (a 0.62 m PlaneGeometry made a body by world.addTriangleMesh, as PbdSkinnedCloth makes
// it: its edges, dihedral bending; 0.4 kg, 10 substeps × 1 iteration) three ways, per frame of 1/60 s:
//   plain    the same body hanging from its pinned top row (world.step alone);
//   skinned  the cape with a skinned constraint on every particle (the shoulders at maximum distance 0, the hem
//            0.31 m, a backstop plane 2 cm under the skin), its skin a rigid run cycle computed here into typed
//            arrays: world.setSkinnedTargets + world.step;
//   three    the same cape as a three.js SkinnedMesh on a two-bone skeleton, through PbdSkinnedCloth: the bones'
//            update, updateSkin() (three's getVertexPosition per vertex, the normals) and world.step.
// Each config: WARMUP frames, then RUNS runs of FRAMES frames, interleaved; the median of the runs' ms per frame, with
// the fastest and slowest. Node, 1 solver thread.
//
// Options: --runs=N (7) --frames=N (60) --warmup=N (120)
import * as THREE from 'three';
import { createPbd } from '../web/lib/index.js';
import { PbdSkinnedCloth } from '../web/lib/three.js';
import { printTimes, timeInterleaved } from './interleaved-runs.mjs';

const arg = (name, fallback) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback;
const RUNS = Number(arg('runs', 7)), FRAMES = Number(arg('frames', 60)), WARMUP = Number(arg('warmup', 120));
const N = 32, SPACING = 0.02, TOP = 1.5, MASS = 0.4;
const REACH = 0.01;   // m of maximum distance per row below the shoulders

const pbd = await createPbd({ threads: 1 });

/** The character's torso at time t: a sway back and forth, a turn and a bob. */
function torsoMotion(t) {
  return { position: [0.1 * Math.sin(2 * t), 0.05 * Math.sin(6 * t), 0.3 * Math.sin(3 * t)], yaw: 0.8 * Math.sin(2 * t) };
}

/** The cape's sheet: a PlaneGeometry facing −z (away from the body), its top edge at TOP, rows top to bottom. */
function sheet() {
  const geometry = new THREE.PlaneGeometry((N - 1) * SPACING, (N - 1) * SPACING, N - 1, N - 1);
  geometry.rotateY(Math.PI);
  geometry.translate(0, TOP - (N - 1) * SPACING / 2, -0.1);
  return geometry;
}

/** The sheet as world.addTriangleMesh makes it (what PbdSkinnedCloth adds too): the same body in every config. */
function addSheet(world, options = {}) {
  const geometry = sheet();
  const body = world.addTriangleMesh({ positions: geometry.attributes.position.array, triangles: geometry.index.array,
    mass: MASS, ...options });
  return { body, geometry };
}

function plain() {
  const world = new pbd.World();
  addSheet(world, { pinned: Array.from({ length: N }, (_, c) => c) });
  return { name: 'plain', world, frame: () => world.step(1 / 60) };
}

function skinned() {
  const world = new pbd.World();
  const { body } = addSheet(world);
  const rest = Float32Array.from(world.positions().subarray(3 * body.firstParticle, 3 * (body.firstParticle + N * N)));
  const particles = Uint32Array.from({ length: N * N }, (_, k) => body.firstParticle + k);
  const first = world.addSkinnedConstraints({ particles, backstopDistance: 0.02,
    maxDistance: Float32Array.from(particles, (_, k) => REACH * Math.floor(k / N)) });
  const targets = new Float32Array(3 * N * N), normals = new Float32Array(3 * N * N);
  let t = 0;
  return { name: 'skinned', world, frame() {
    t += 1 / 60;
    const { position: [px, py, pz], yaw } = torsoMotion(t);
    const c = Math.cos(yaw), s = Math.sin(yaw);
    for (let k = 0; k < N * N; k++) {
      const x = rest[3 * k], y = rest[3 * k + 1], z = rest[3 * k + 2];
      targets[3 * k] = c * x + s * z + px, targets[3 * k + 1] = y + py, targets[3 * k + 2] = -s * x + c * z + pz;
      normals[3 * k] = -s, normals[3 * k + 1] = 0, normals[3 * k + 2] = -c;   // R (0, 0, −1)
    }
    world.setSkinnedTargets(first, targets, normals);
    world.step(1 / 60);
  } };
}

function three() {
  const world = new pbd.World();
  const geometry = sheet();
  const count = geometry.attributes.position.count;
  geometry.setAttribute('skinIndex', new THREE.Uint16BufferAttribute(new Uint16Array(4 * count).map((_, k) => (k % 4 ? 0 : 1)), 4));
  geometry.setAttribute('skinWeight', new THREE.Float32BufferAttribute(new Float32Array(4 * count).map((_, k) => (k % 4 ? 0 : 1)), 4));
  const root = new THREE.Bone(), torso = new THREE.Bone();
  root.add(torso);
  const mesh = new THREE.SkinnedMesh(geometry, new THREE.MeshBasicMaterial());
  mesh.add(root);
  mesh.bind(new THREE.Skeleton([root, torso]));
  mesh.updateMatrixWorld(true);
  const weights = Float32Array.from({ length: count }, (_, v) => Math.floor(v / N) / (N - 1));
  const cape = new PbdSkinnedCloth(world, mesh, { maxDistance: REACH * (N - 1), weights, backstopDistance: 0.02,
    mass: MASS });
  let t = 0;
  return { name: 'three', world, frame() {
    t += 1 / 60;
    const { position, yaw } = torsoMotion(t);
    root.position.fromArray(position);
    torso.rotation.y = yaw;
    mesh.updateMatrixWorld(true);
    cape.updateSkin();
    world.step(1 / 60);
  } };
}

const list = [plain(), skinned(), three()];
const timed = timeInterleaved(list, { runs: RUNS, frames: FRAMES, warmup: WARMUP });
console.log(`cape ${N}² (${N * N} particles, ${MASS} kg), 10 substeps × 1 iteration; Node ${process.version}, 1 solver ` +
  `thread; ms per frame, median of ${RUNS} runs of ${FRAMES} frames [fastest, slowest]`);
printTimes(list, timed, 'plain cloth');
for (const c of list) c.world.delete();
pbd.terminate();

// The simulation runs here, off the main thread. With the threaded build the page reads the particle positions
// straight out of the shared wasm memory; with the single-threaded build each frame's positions are transferred.
import { createPbd } from '../lib/index.js';
import { CLOTH, COLLIDERS, DEFAULT_PARAMS, SOFT_BUNNY, SOFT_CUBE } from './cloth-scene.js';
import { bunnyMesh } from './bunny-mesh.js';
import { DROP, prepareDroppedMesh } from './dropped-mesh.js';
import { tetCube } from './tet-cube.js';

const FRAME_DT = 1 / 60;

let pbd;
let world;
let cloth;
let softBody;
let bunnyBody;
let bunnyTets = null;       // the bunny's tet mesh, tetrahedralized once at start
const dropped = [];         // meshes dropped on the page: {tets, triangles}; rebuilt with the world on reset
const cubeMesh = tetCube(SOFT_CUBE.cells, SOFT_CUBE.size, SOFT_CUBE.origin);
let params = { ...DEFAULT_PARAMS };
let paused = false;
let grab = null;            // attachment handle while the mouse holds a particle
let sharedBuffer = null;    // the SharedArrayBuffer last sent to the page
let sharedOffset = -1;

function applyParams() {
  world.setMethod(params.method);
  world.setSolver(params.solver);
  world.setIntegrator(params.integrator);
  world.setSelfCollision({ enabled: params.selfCollision, radius: 0.008 });
  world.setSubsteps(params.substeps);
  world.setIterations(params.iterations);
  world.setLinearDamping(params.damping);
  world.setGravity(0, params.gravity, 0);
  // Stretch and shear follow the panel; the skip-one bending edges (the cloth's last family) stay soft.
  const bend = (CLOTH.columns - 2) * CLOTH.rows + CLOTH.columns * (CLOTH.rows - 2);
  world.setDistanceStrength(cloth.firstConstraint, cloth.constraintCount - bend, params.compliance, params.stiffness);
}

function buildWorld() {
  world?.delete();
  world = new pbd.World();
  world.setGround({ height: 0, friction: 0.4, thickness: 0.005 });
  world.setRecordResiduals(true);   // the page plots the convergence of every step
  for (const collider of COLLIDERS) world.addCollider(collider);
  cloth = world.addCloth(CLOTH);
  softBody = world.addSoftBody({ ...cubeMesh, density: SOFT_CUBE.density, edges: SOFT_CUBE.edges, volume: SOFT_CUBE.volume });
  const { scale, offset, resolution, ...material } = SOFT_BUNNY;
  bunnyBody = world.addSoftBody({ positions: bunnyTets.positions, tets: bunnyTets.tets, ...material });
  for (const mesh of dropped) mesh.body = world.addSoftBody({ positions: mesh.tets.positions, tets: mesh.tets.tets, ...material });
  grab = null;
  applyParams();
}

/** Sends the page what it needs to read positions: the shared buffer (threaded) or a copy (single). */
function publish(stats) {
  stats.residuals = world.residuals().slice();   // a few floats per pass: small, and the page keeps them
  const view = world.positions();
  if (pbd.variant === 'threaded') {
    if (view.buffer !== sharedBuffer || view.byteOffset !== sharedOffset) {
      sharedBuffer = view.buffer;
      sharedOffset = view.byteOffset;
      postMessage({ type: 'positions-shared', buffer: sharedBuffer, byteOffset: sharedOffset, length: view.length });
    }
    postMessage({ type: 'frame', ...stats });
  } else {
    const copy = view.slice();
    postMessage({ type: 'frame', ...stats, positions: copy }, [copy.buffer]);
  }
}

function stepOnce() {
  const t0 = performance.now();
  world.step(FRAME_DT);
  const ms = performance.now() - t0;
  const report = world.lastStepReport();
  if (report.rolledBack) {
    postMessage({ type: 'error', message: `A step blew up (particle ${report.particle} went non-finite) and was ` +
      'undone; the cloth was stopped. Try gentler settings.' });
  }
  return ms;
}

let nextTick = 0;
function loop() {
  const solverMs = paused ? 0 : stepOnce();
  publish({ solverMs, paused });
  // Self-timed at 60 Hz: the worker never blocks the page, and a slow step just delays the next one.
  nextTick = Math.max(nextTick + FRAME_DT * 1000, performance.now());
  setTimeout(loop, Math.max(0, nextTick - performance.now()));
}

const handlers = {
  init(msg) {
    start(msg).catch((error) => postMessage({ type: 'error', message: `failed to start: ${error.message}` }));
  },
  params(msg) { params = { ...params, ...msg.params }; applyParams(); },
  pause(msg) { paused = msg.value; },
  step() { publish({ solverMs: stepOnce(), paused }); },
  reset() { buildWorld(); sharedBuffer = null; publish({ solverMs: 0, paused }); },
  grab(msg) {
    if (grab !== null) world.removeAttachment(grab);
    grab = world.addAttachment(msg.index, ...msg.target, { compliance: 0, stiffness: 1 });
  },
  dropMesh(msg) {
    const surface = prepareDroppedMesh(pbd, msg.text);
    const tets = pbd.tetrahedralize(surface.positions, surface.triangles, { resolution: DROP.resolution,
      onProgress: (fraction) => postMessage({ type: 'progress', what: `tetrahedralizing ${msg.name}`, fraction }) });
    const { scale, offset, resolution, ...material } = SOFT_BUNNY;
    const mesh = { tets, triangles: surface.triangles, body: null };
    mesh.body = world.addSoftBody({ positions: tets.positions, tets: tets.tets, ...material });
    dropped.push(mesh);
    sharedBuffer = null;   // the world grew: the page gets the new view first, then the mesh to draw from it
    publish({ solverMs: 0, paused });
    postMessage({ type: 'mesh-added', name: msg.name, body: mesh.body, triangles: surface.triangles,
      tets: tets.tets.length / 4 });
  },
  drag(msg) { if (grab !== null) world.setAttachmentTarget(grab, ...msg.target); },
  release() {
    // The particle followed the target across the substeps, so it keeps the drag's velocity when let go.
    if (grab !== null) world.removeAttachment(grab);
    grab = null;
  },
};

onmessage = (event) => {
  try {
    handlers[event.data.type]?.(event.data);
  } catch (error) {
    postMessage({ type: 'error', message: error.message });
  }
};

/** The bunny's surface to tets, reporting progress to the page (the worker, not the page, waits for it). */
function tetrahedralizeBunny() {
  const { scale, offset, resolution } = SOFT_BUNNY;
  const surface = bunnyMesh(scale, offset[1]);
  for (let i = 0; i < surface.positions.length; i += 3) {
    surface.positions[i] += offset[0];
    surface.positions[i + 2] += offset[2];
  }
  const t0 = performance.now();
  bunnyTets = pbd.tetrahedralize(surface.positions, surface.triangles, {
    resolution, onProgress: (fraction) => postMessage({ type: 'progress', what: 'tetrahedralizing the bunny', fraction }),
  });
  return { surfaceTriangles: surface.triangles, ms: performance.now() - t0 };
}

async function start({ variant }) {
  pbd = await createPbd(variant ? { variant } : {});
  const bunny = tetrahedralizeBunny();
  buildWorld();
  postMessage({ type: 'ready', variant: pbd.variant, threads: pbd.threads, cloth, clothShape: CLOTH, softBody,
    softBodyTets: cubeMesh.tets, bunnyBody, bunnyTriangles: bunny.surfaceTriangles,
    bunnyInfo: { tets: bunnyTets.tets.length / 4, particles: bunnyBody.particleCount, ms: bunny.ms } });
  nextTick = performance.now();
  loop();
}


// The simulation runs here, off the main thread: it builds the gallery scene the page asked for (scene-host.js) and
// steps its worlds at 60 Hz. With the threaded build the page reads the particle positions straight out of the
// shared wasm memory; with the single-threaded build each frame's positions are transferred.
import RAPIER from '@dimforge/rapier3d-compat';
import { createPbd } from 'pbd-wasm';
import { edgesCrossingStroke } from 'pbd-wasm/three';
import { SOFT_BUNNY } from './cloth-scene.js';
import { DROP, prepareDroppedMesh } from './dropped-mesh.js';
import { describeLane } from './lane-settings.js';
import { ResidualRecord } from './residual-record.js';
import { applyParams, buildScene, createAssets, disposeScene, sceneParams } from './scene-host.js';
import { packSnapshots, unpackSnapshots } from './snapshot-file.js';

const FRAME_DT = 1 / 60;

let pbd;
let assets;
let sceneName;
let built = null;           // the scene's worlds and what to draw (scene-host.js)
let residualRecord = null;  // which steps record the convergence plot's residuals (residual-record.js)
let params;
let paused = false;
let time = 0;               // s of simulated time, for scenes that animate (wind)
let grab = null;            // {world, handle} while the mouse holds a particle
const dropped = [];         // meshes dropped on the page: {tets, triangles, name}; rebuilt with the world on reset
const shared = [];          // per world: the buffer and offset last sent to the page
const embeddings = [];      // dropped meshes' render meshes: {embedding, world, firstParticle}
const sharedEmbeddings = [];  // per embedding: the buffer and offset last sent to the page
let cancelFlag = null;      // Int32Array over a SharedArrayBuffer the page sets to 1 to cancel a tetrahedralization
const userPins = new Map(); // "world:particle" -> inverse mass, for particles pinned from the page

const progress = (what, fraction) => postMessage({ type: 'progress', what, fraction });
const plain = ({ world, record, ...rest }) => rest;   // World objects and records stay here; the page gets indices

/**
 * A dropped mesh's soft body in the scene's first world, with the bunny's material, drawn as its render mesh
 * embedded in the tets (an Embedding in wasm memory, updated after every step and read by the page in place).
 */
function addDropped(mesh) {
  const world = built.worlds[0].world;
  const { scale, offset, resolution, ...material } = SOFT_BUNNY;
  const embedding = new pbd.Embedding(mesh.tets.positions, mesh.tets.tets, mesh.render.positions);
  let body;
  try {
    body = world.addSoftBody({ positions: mesh.tets.positions, tets: mesh.tets.tets, ...material });
  } catch (error) {
    embedding.delete();
    throw error;
  }
  embedding.update(world, body.firstParticle);
  const k = embeddings.push({ embedding, world, firstParticle: body.firstParticle }) - 1;
  // Picking uses the body's particles; drawing uses the embedding's vertices.
  return { worldIndex: 0, firstParticle: body.firstParticle, particleCount: body.particleCount, embedding: k,
    vertexCount: embedding.vertexCount(), triangles: mesh.render.triangles, style: 'bunny', label: mesh.name,
    dropped: true };
}

function deleteEmbeddings() {
  for (const { embedding } of embeddings) embedding.delete();
  embeddings.length = 0;
  sharedEmbeddings.length = 0;
}

function build() {
  deleteEmbeddings();
  disposeScene(built);
  built = buildScene(pbd, sceneName, assets);
  residualRecord = new ResidualRecord(built.worlds);
  if (built.scene.acceptsDroppedMeshes) for (const mesh of dropped) built.drawables.push(addDropped(mesh));
  grab = null;
  time = 0;
  shared.length = 0;
  userPins.clear();
  applyParams(built, params);
}

/** Per world, what the label over its bodies says (lane-settings.js), or null: read from the worlds as they are. */
function lanes() {
  return built.worlds.map(({ world, lane }) => describeLane(world, lane, built.tunable.find((t) => t.world === world)));
}

/** What the page needs to draw the scene. */
function describe() {
  const { scene } = built;
  return { scene: sceneName, title: scene.title, hint: scene.hint, camera: scene.camera, params,
    lanes: lanes(), drawables: built.drawables.map(plain),
    colliders: built.colliders.map(plain), info: built.info, acceptsDroppedMeshes: !!scene.acceptsDroppedMeshes };
}

/** Kinetic and gravitational potential energy (J, height from the ground) of every free particle of every world. */
function energy() {
  let kinetic = 0, potential = 0;
  for (const { world } of built.worlds) {
    const x = world.positions(), v = world.velocities(), w = world.inverseMasses();
    for (let i = 0; i < w.length; i++) {
      if (w[i] === 0) continue;
      kinetic += 0.5 * (v[3 * i] ** 2 + v[3 * i + 1] ** 2 + v[3 * i + 2] ** 2) / w[i];
      potential -= params.gravity * x[3 * i + 1] / w[i];
    }
  }
  return { kinetic, potential };
}

/** Sends the page what it needs to read positions: the shared buffers (threaded) or copies (single). */
function publish(stats) {
  stats.residuals = residualRecord.curves();   // a few floats per pass
  stats.energy = energy();
  // Colliders the scene moves (a character's body): their poses as the scene set them for this step.
  stats.colliderPoses = built.colliders.flatMap((c, k) => (c.moving
    ? [{ collider: k, position: c.def.position, rotation: c.def.rotation }] : []));
  // 6 floats per contact, computed on call from this step's state: only while the page draws them.
  if (params.contacts) stats.contacts = built.worlds.map(({ world }) => world.contacts().slice());
  if (pbd.variant === 'threaded') {
    built.worlds.forEach(({ world }, k) => {
      const view = world.positions();
      if (view.buffer !== shared[k]?.buffer || view.byteOffset !== shared[k]?.byteOffset ||
          view.length !== shared[k]?.length) {   // a tear grows the world, in place or elsewhere
        shared[k] = { buffer: view.buffer, byteOffset: view.byteOffset, length: view.length };
        postMessage({ type: 'positions-shared', world: k, buffer: view.buffer, byteOffset: view.byteOffset,
          length: view.length });
      }
    });
    embeddings.forEach(({ embedding }, k) => {
      const view = embedding.positions();
      if (view.buffer !== sharedEmbeddings[k]?.buffer || view.byteOffset !== sharedEmbeddings[k]?.byteOffset) {
        sharedEmbeddings[k] = { buffer: view.buffer, byteOffset: view.byteOffset };
        postMessage({ type: 'positions-shared', embedding: k, buffer: view.buffer, byteOffset: view.byteOffset,
          length: view.length });
      }
    });
    postMessage({ type: 'frame', ...stats });
  } else {
    const copies = built.worlds.map(({ world }) => world.positions().slice());
    const embedded = embeddings.map(({ embedding }) => embedding.positions().slice());
    postMessage({ type: 'frame', ...stats, positions: copies, embedded },
      [...copies, ...embedded].map((c) => c.buffer));
  }
}

/** One frame of every world; `byHand` (the paused page's step button) always records the residuals. */
function stepOnce(byHand = false) {
  const t0 = performance.now();
  residualRecord.beforeStep(byHand);
  built.onFrame?.(time);
  for (const { world, lane } of built.worlds) {
    if (built.step) built.step(); else world.step(FRAME_DT);
    const report = world.lastStepReport();
    if (report.rolledBack) {
      postMessage({ type: 'error', message: `A step${lane.label ? ` (${lane.label})` : ''} blew up (particle ` +
        `${report.particle} went non-finite) and was undone; that body was stopped. Try gentler settings.` });
    }
  }
  for (const { embedding, world, firstParticle } of embeddings) embedding.update(world, firstParticle);
  time += FRAME_DT;
  const ms = performance.now() - t0;
  return ms - residualRecord.afterStep();  // neither the record's sweeps nor its copies are the solver's time
}

/**
 * After a tear (a step's, or a cut's): each drawable takes its body's place and size from the record, a torn one its
 * triangles too, and the page gets the drawables that changed (after the positions they are drawn from).
 */
function followTopology() {
  const changed = [];
  built.drawables.forEach((d, index) => {
    const r = d.record;
    if (!r || d.embedding !== undefined || r.removed) return;
    const torn = r.tornFrom !== undefined && r.particleCount !== d.particleCount;
    if (r.firstParticle === d.firstParticle && !torn) return;
    d.firstParticle = r.firstParticle;
    if (torn) {
      d.particleCount = r.particleCount;
      d.triangles = Uint32Array.from(d.world.bodyTriangles(r), (v) => v - r.firstParticle);
      d.tornFrom = r.tornFrom;
    }
    changed.push({ index, ...plain(d) });
  });
  if (changed.length > 0) postMessage({ type: 'topology', drawables: changed });
}

/** Cuts every tearable drawable's body along the wedge of rays from `origin` between `from` and `to`. */
function cut({ origin, from, to }) {
  for (const d of built.drawables) {
    if (!d.tearable) continue;
    const edges = edgesCrossingStroke(d.world, d.record, origin, from, to);
    if (edges.length > 0) d.world.tearEdges(d.record, edges);
  }
}

let nextTick = 0;
function loop() {
  const solverMs = paused ? 0 : stepOnce();
  publish({ solverMs, paused });
  followTopology();
  // Self-timed at 60 Hz: the worker never blocks the page, and a slow step just delays the next one.
  nextTick = Math.max(nextTick + FRAME_DT * 1000, performance.now());
  setTimeout(loop, Math.max(0, nextTick - performance.now()));
}

const handlers = {
  init(msg) {
    start(msg).catch((error) => postMessage({ type: 'error', message: `failed to start: ${error.message}` }));
  },
  params(msg) {
    params = { ...params, ...msg.params };
    applyParams(built, params);
    if (params.threads > 0 && pbd.variant === 'threaded') pbd.setThreads(params.threads);
    postMessage({ type: 'threads', threads: pbd.threads });
    postMessage({ type: 'lanes', lanes: lanes() });
  },
  pause(msg) { paused = msg.value; },
  step() {
    publish({ solverMs: stepOnce(true), paused });
    followTopology();
  },
  cut(msg) {
    cut(msg);
    publish({ solverMs: 0, paused });
    followTopology();
  },
  reset() {
    build();
    postMessage({ type: 'scene', ...describe() });
    publish({ solverMs: 0, paused });
  },
  grab(msg) {
    if (grab !== null) grab.world.removeAttachment(grab.handle);
    const world = built.worlds[msg.world].world;
    grab = { world, handle: world.addAttachment(msg.index, ...msg.target, { compliance: 0, stiffness: 1 }) };
  },
  drag(msg) { if (grab !== null) grab.world.setAttachmentTarget(grab.handle, ...msg.target); },
  release() {
    // The particle followed the target across the substeps, so it keeps the drag's velocity when let go.
    if (grab !== null) grab.world.removeAttachment(grab.handle);
    grab = null;
  },
  saveSnapshot() {
    const bytes = packSnapshots(sceneName, built.worlds.map(({ world }) => world.saveSnapshot()));
    postMessage({ type: 'snapshot', bytes }, [bytes.buffer]);
  },
  loadSnapshot(msg) {
    const { scene, blobs } = unpackSnapshots(msg.bytes);
    if (scene !== sceneName || blobs.length !== built.worlds.length) {
      throw new Error(`loadSnapshot: the snapshot is of the '${scene}' scene: switch to that scene first`);
    }
    // All worlds or none: each loadSnapshot leaves its world unchanged when it throws, and the ones already loaded
    // are put back. The page draws from the particle arrays, so their sizes must match too (no dropped meshes).
    const backups = built.worlds.map(({ world }) => world.saveSnapshot());
    try {
      built.worlds.forEach(({ world }, k) => {
        const particles = world.particleCount();
        world.loadSnapshot(blobs[k]);
        if (world.particleCount() !== particles) {
          throw new Error(`loadSnapshot: world ${k} of the snapshot has ${world.particleCount()} particles, the ` +
            `scene's ${particles} (meshes dropped since?)`);
        }
      });
    } catch (error) {
      built.worlds.forEach(({ world }, k) => world.loadSnapshot(backups[k]));
      throw error;
    }
    grab = null;            // the snapshots' attachments replaced the worlds'
    userPins.clear();       // and their inverse masses: a pin toggled before belongs to the replaced state
    shared.length = 0;      // new arrays: the page gets the new views
    publish({ solverMs: 0, paused });
    postMessage({ type: 'lanes', lanes: lanes() });   // the snapshots brought their worlds' settings
    postMessage({ type: 'snapshot-loaded', bytes: msg.bytes.length });
  },
  togglePin(msg) {
    // A particle pinned here gets its own inverse mass back; one pinned by the scene gets the world's mean.
    const world = built.worlds[msg.world].world;
    const key = `${msg.world}:${msg.index}`;
    const w = world.inverseMasses();
    if (userPins.has(key)) {
      world.setInverseMass(msg.index, userPins.get(key));
      userPins.delete(key);
    } else if (w[msg.index] > 0) {
      userPins.set(key, w[msg.index]);
      world.setInverseMass(msg.index, 0);
    } else {
      const free = w.filter((x) => x > 0);
      world.setInverseMass(msg.index, free.length ? free.reduce((a, b) => a + b, 0) / free.length : 1);
    }
  },
  moveCollider(msg) {
    const c = built.colliders[msg.collider];
    const q = c.def.rotation ?? [0, 0, 0, 1];
    built.worlds[c.worldIndex].world.setColliderPose(c.index, ...msg.position, ...q);
  },
  dropMesh(msg) {
    if (!built.scene.acceptsDroppedMeshes) throw new Error(`the '${sceneName}' scene takes no dropped meshes`);
    const { surface, render } = prepareDroppedMesh(pbd, msg);
    if (cancelFlag) Atomics.store(cancelFlag, 0, 0);
    const tets = pbd.tetrahedralize(surface.positions, surface.triangles, { resolution: DROP.resolution,
      onProgress: (fraction) => {
        progress(`tetrahedralizing ${msg.name}`, fraction);
        return !cancelFlag || Atomics.load(cancelFlag, 0) === 0;   // false cancels (an AbortError)
      } });
    const mesh = { tets, render, name: msg.name };
    const drawable = addDropped(mesh);
    dropped.push(mesh);
    built.drawables.push(drawable);
    publish({ solverMs: 0, paused });   // the page gets the new views first, then the mesh to draw from them
    postMessage({ type: 'mesh-added', name: msg.name, drawable, tets: tets.tets.length / 4 });
  },
};

onmessage = (event) => {
  try {
    handlers[event.data.type]?.(event.data);
  } catch (error) {
    postMessage({ type: 'error', message: error.message });
  }
};

async function start({ variant, scene, cancel }) {
  cancelFlag = cancel ? new Int32Array(cancel) : null;
  [pbd] = await Promise.all([createPbd(variant ? { variant } : {}), RAPIER.init()]);   // Rapier: the coupled scenes
  assets = createAssets(pbd, progress);
  sceneName = scene;
  params = sceneParams(sceneName);
  build();
  postMessage({ type: 'ready', variant: pbd.variant, threads: pbd.threads, maxThreads: pbd.maxThreads, ...describe() });
  nextTick = performance.now();
  loop();
}

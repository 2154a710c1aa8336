// The simulation runs here, off the main thread, served by pbd-wasm/worker: the page calls these functions by name
// (WorkerWorld.run) and draws what they return. They build the gallery scene (scene-host.js) into worlds of their
// own and step them when the page asks for a frame. With the threaded build the page reads the particle positions
// straight out of the shared wasm memory; with the single-threaded build each result carries copies.
//
// Every function returns an update for the page (main.js applyUpdate): any of
//   ready / scene: what to draw (describe()); views: where each world's positions are (threaded) or their copies
//   (single); frame: this frame's figures; topology: drawables a tear changed; lanes, threads, warnings, and the
//   results of single calls (snapshot, snapshotLoaded, meshAdded).
import RAPIER from '@dimforge/rapier3d-compat';
import { edgesCrossingStroke } from 'pbd-wasm/three';
import { serveWorld } from 'pbd-wasm/worker';
import { SOFT_BUNNY } from './cloth-scene.js';
import { DROP, prepareDroppedMesh } from './dropped-mesh.js';
import { describeLane } from './lane-settings.js';
import { ResidualRecord } from './residual-record.js';
import { applyParams, buildScene, createAssets, disposeScene, sceneParams } from './scene-host.js';
import { packSnapshots, unpackSnapshots } from './snapshot-file.js';

const FRAME_DT = 1 / 60;
const MAX_FRAMES_PER_CALL = 6;   // at most 0.1 s a call: a slow page (a software renderer at 10-20 fps) keeps
                                 // real time, and one that fell further behind slows the simulation

let pbd;
let assets;
let sceneName;
let built = null;           // the scene's worlds and what to draw (scene-host.js)
let residualRecord = null;  // which steps record the convergence plot's residuals (residual-record.js)
let params;
let paused = false;
let time = 0;               // s of simulated time, for scenes that animate (wind)
let owed = 0;               // s of the page's time not simulated yet (frame())
let grab = null;            // {world, handle} while the mouse holds a particle
const dropped = [];         // meshes dropped on the page: {tets, triangles, name}; rebuilt with the world on reset
const shared = [];          // per world: the buffer and offset last sent to the page
const embeddings = [];      // dropped meshes' render meshes: {embedding, world, firstParticle}
const sharedEmbeddings = [];  // per embedding: the buffer and offset last sent to the page
let cancelFlag = null;      // Int32Array over a SharedArrayBuffer the page sets to 1 to cancel a tetrahedralization
let report = () => {};      // the Worker context's report: progress while a call runs
const userPins = new Map(); // "world:particle" -> inverse mass, for particles pinned from the page

const progress = (what, fraction) => report({ what, fraction });
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
  owed = 0;
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

/**
 * Where the page reads positions. Threaded: per world and per embedding, the shared buffer and the view's place in
 * it, only where it changed since last sent (a tear grows a world, in place or elsewhere). Single: copies of all.
 */
function views() {
  if (pbd.variant !== 'threaded') {
    return { copies: built.worlds.map(({ world }) => world.positions()),
      embedded: embeddings.map(({ embedding }) => embedding.positions()) };   // copied by pbd-wasm/worker
  }
  const changed = (view, last) => view.buffer !== last?.buffer || view.byteOffset !== last?.byteOffset ||
    view.length !== last?.length;
  const place = (view) => ({ buffer: view.buffer, byteOffset: view.byteOffset, length: view.length });
  const worlds = [], embedded = [];
  built.worlds.forEach(({ world }, k) => {
    const view = world.positions();
    if (changed(view, shared[k])) worlds.push({ index: k, ...(shared[k] = place(view)) });
  });
  embeddings.forEach(({ embedding }, k) => {
    const view = embedding.positions();
    if (changed(view, sharedEmbeddings[k])) embedded.push({ index: k, ...(sharedEmbeddings[k] = place(view)) });
  });
  return { shared: worlds, embedded };
}

/** This frame's figures for the page's plots and overlays. */
function figures(solverMs, steps) {
  return {
    solverMs,   // the last step's
    steps,      // frames simulated by this call
    paused,
    residuals: residualRecord.curves(),   // a few floats per pass
    energy: energy(),
    // Colliders the scene moves (a character's body): their poses as the scene set them for this step.
    colliderPoses: built.colliders.flatMap((c, k) => (c.moving
      ? [{ collider: k, position: c.def.position, rotation: c.def.rotation }] : [])),
    // 6 floats per contact, computed on call from this step's state: only while the page draws them.
    contacts: params.contacts ? built.worlds.map(({ world }) => world.contacts()) : null,
  };
}

/** One frame of every world; `byHand` (the paused page's step button) always records the residuals. */
function stepOnce(warnings, byHand = false) {
  const t0 = performance.now();
  residualRecord.beforeStep(byHand);
  built.onFrame?.(time);
  for (const { world, lane } of built.worlds) {
    if (built.step) built.step(); else world.step(FRAME_DT);
    const report = world.lastStepReport();
    if (report.rolledBack) {
      warnings.push(`A step${lane.label ? ` (${lane.label})` : ''} blew up (particle ${report.particle} went ` +
        'non-finite) and was undone; that body was stopped. Try gentler settings.');
    }
  }
  for (const { embedding, world, firstParticle } of embeddings) embedding.update(world, firstParticle);
  time += FRAME_DT;
  const ms = performance.now() - t0;
  return ms - residualRecord.afterStep();  // neither the record's sweeps nor its copies are the solver's time
}

/**
 * After a tear (a step's, or a cut's): each drawable takes its body's place and size from the record, a torn one its
 * triangles too; returns the drawables that changed.
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
  return changed;
}

/** What the page redraws after the worlds changed: where positions are, the figures, and torn drawables. */
function update(solverMs, steps, warnings = []) {
  return { views: views(), frame: figures(solverMs, steps), topology: followTopology(), warnings };
}

const functions = {
  /** Loads Rapier and the scene; `cancel` is the page's cancel flag (a SharedArrayBuffer) where it has one. */
  async start(context, { scene, cancel }) {
    report = context.report;
    pbd = context.pbd;
    cancelFlag = cancel ? new Int32Array(cancel) : null;
    await RAPIER.init();   // the coupled scenes
    assets = createAssets(pbd, progress);
    sceneName = scene;
    params = sceneParams(sceneName);
    build();
    return { ready: { variant: pbd.variant, threads: pbd.threads, maxThreads: pbd.maxThreads, ...describe() },
      ...update(0, 0) };
  },
  /**
   * The page's frame: `elapsed` s of its time passed. Steps the 1/60 s frames that time owes (at most
   * MAX_FRAMES_PER_CALL, so a slow page slows the simulation rather than piling up work); none while paused.
   */
  frame(_, elapsed) {
    const warnings = [];
    let solverMs = 0, steps = 0;
    if (!paused) {
      owed = Math.min(owed + elapsed, MAX_FRAMES_PER_CALL * FRAME_DT);
      // Within 1 % of a frame counts as a frame: a 60 Hz page's intervals jitter around 1/60 s.
      for (; owed >= 0.99 * FRAME_DT; owed -= FRAME_DT, steps++) solverMs = stepOnce(warnings);
      owed = Math.max(owed, 0);
    }
    return update(solverMs, steps, warnings);
  },
  setParams(_, values) {
    params = { ...params, ...values };
    applyParams(built, params);
    if (params.threads > 0 && pbd.variant === 'threaded') pbd.setThreads(params.threads);
    return { threads: pbd.threads, lanes: lanes() };
  },
  pause(_, on) {
    paused = on;
    owed = 0;
    return {};
  },
  step() {
    const warnings = [];
    return update(stepOnce(warnings, true), 1, warnings);
  },
  /** Cuts every tearable drawable's body along the wedge of rays from `origin` between `from` and `to`. */
  cut(_, { origin, from, to }) {
    for (const d of built.drawables) {
      if (!d.tearable) continue;
      const edges = edgesCrossingStroke(d.world, d.record, origin, from, to);
      if (edges.length > 0) d.world.tearEdges(d.record, edges);
    }
    return update(0, 0);
  },
  reset() {
    build();
    return { scene: describe(), ...update(0, 0) };
  },
  grab(_, { world: w, index, target }) {
    if (grab !== null) grab.world.removeAttachment(grab.handle);
    const world = built.worlds[w].world;
    grab = { world, handle: world.addAttachment(index, target, { compliance: 0, stiffness: 1 }) };
    return {};
  },
  drag(_, target) {
    if (grab !== null) grab.world.setAttachmentTarget(grab.handle, ...target);
    return {};
  },
  release() {
    // The particle followed the target across the substeps, so it keeps the drag's velocity when let go.
    if (grab !== null) grab.world.removeAttachment(grab.handle);
    grab = null;
    return {};
  },
  saveSnapshot() {
    return { snapshot: packSnapshots(sceneName, built.worlds.map(({ world }) => world.saveSnapshot())) };
  },
  loadSnapshot(_, bytes) {
    const { scene, blobs } = unpackSnapshots(bytes);
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
    // The snapshots brought their worlds' settings.
    return { ...update(0, 0), lanes: lanes(), snapshotLoaded: bytes.length };
  },
  togglePin(_, { world: w, index }) {
    // A particle pinned here gets its own inverse mass back; one pinned by the scene gets the world's mean.
    const world = built.worlds[w].world;
    const key = `${w}:${index}`;
    const inverseMasses = world.inverseMasses();
    if (userPins.has(key)) {
      world.setInverseMass(index, userPins.get(key));
      userPins.delete(key);
    } else if (inverseMasses[index] > 0) {
      userPins.set(key, inverseMasses[index]);
      world.setInverseMass(index, 0);
    } else {
      const free = inverseMasses.filter((x) => x > 0);
      world.setInverseMass(index, free.length ? free.reduce((a, b) => a + b, 0) / free.length : 1);
    }
    return {};
  },
  moveCollider(_, { collider, position }) {
    const c = built.colliders[collider];
    built.worlds[c.worldIndex].world.setColliderPose(c.index, position, c.def.rotation ?? [0, 0, 0, 1]);
    return {};
  },
  /** An OBJ's text, or a glTF's arrays, becomes a soft body (tetrahedralized here, with progress reports). */
  dropMesh(_, mesh) {
    if (!built.scene.acceptsDroppedMeshes) throw new Error(`the '${sceneName}' scene takes no dropped meshes`);
    const { surface, render } = prepareDroppedMesh(pbd, mesh);
    if (cancelFlag) Atomics.store(cancelFlag, 0, 0);
    const tets = pbd.tetrahedralize(surface.positions, surface.triangles, { resolution: DROP.resolution,
      onProgress: (fraction) => {
        progress(`tetrahedralizing ${mesh.name}`, fraction);
        return !cancelFlag || Atomics.load(cancelFlag, 0) === 0;   // false cancels (an AbortError)
      } });
    const drawable = addDropped({ tets, render, name: mesh.name });
    dropped.push({ tets, render, name: mesh.name });
    built.drawables.push(drawable);
    // The page takes the new views first, then the mesh to draw from them.
    return { ...update(0, 0), meshAdded: { name: mesh.name, drawable, tets: tets.tets.length / 4 } };
  },
};

serveWorld({ functions });

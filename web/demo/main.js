// The gallery page: three.js renders what the simulation worker computes. The scene comes from ?scene=... (or the
// panel); panel values can be shared in the URL. The mouse grabs and throws bodies and moves draggable colliders.
import * as THREE from 'three';
import { OrbitControls } from 'three/addons/controls/OrbitControls.js';
import { createWorkerWorld } from 'pbd-wasm/worker';
import { createBodyMesh, createColliderMesh, refreshBodyMesh, repointBodyMesh } from './body-meshes.js';
import { ContactsView } from './contacts-view.js';
import { LaneLabels } from './labels.js';
import { createPanel } from './panel.js';
import { Plots } from './plots.js';
import { Pointer } from './pointer.js';
import { DEFAULT_SCENE, SCENES } from './scenes/index.js';
import { probeRenderer } from './renderer-info.js';
import { enableShadows, fitShadowCamera, shadowCoverage } from './shadows.js';
import { readUrlParams } from './share-link.js';

const $ = (id) => document.getElementById(id);
const url = new URLSearchParams(location.search);
const requestedScene = url.get('scene');
const sceneName = requestedScene in SCENES ? requestedScene : DEFAULT_SCENE;

// --- Rendering ----------------------------------------------------------------------------------------------------
// Drawn in software, every pixel costs CPU time the solver needs too: no multisampling, and half the pixel ratio (a
// quarter of the pixels). node bench/gallery-bench.mjs on 2 cores, 1024 x 640: every scene went from 33-83 ms a
// frame to 16.7. ?pixelRatio=r (0 < r <= 4) sets the ratio.
const drawnBy = probeRenderer();
const renderer = new THREE.WebGLRenderer({ antialias: !drawnBy.software, preserveDrawingBuffer: true });
renderer.setPixelRatio(askedPixelRatio(drawnBy.software ? 0.5 : Math.min(devicePixelRatio, 2)));
renderer.setSize(innerWidth, innerHeight);
$('app').appendChild(renderer.domElement);

const scene = new THREE.Scene();
scene.background = new THREE.Color(0x1d2026);
const camera = new THREE.PerspectiveCamera(45, innerWidth / innerHeight, 0.01, 100);
const controls = new OrbitControls(camera, renderer.domElement);
scene.add(new THREE.HemisphereLight(0xdde8ff, 0x303030, 1.6));
const sun = new THREE.DirectionalLight(0xffffff, 2.2);
// From the camera side, so hanging cloth faces the light, and high, so that shadows fall under the bodies, in view.
sun.position.set(1.5, 5, 4);
scene.add(sun);
const ground = new THREE.Mesh(new THREE.PlaneGeometry(8, 8), new THREE.MeshStandardMaterial({ color: 0x3a3f48 }));
ground.rotation.x = -Math.PI / 2;
scene.add(ground);
scene.add(new THREE.GridHelper(8, 32, 0x555b66, 0x474c55));
scene.add(sun.target);   // moved by fitShadowCamera
enableShadows(renderer, sun, ground, { software: drawnBy.software });
const contactsView = new ContactsView(scene);   // the panel's 'draw contacts' toggle
const laneLabels = new LaneLabels($('app'));      // what each world of a side-by-side scene runs, above its bodies
laneLabels.setSize(innerWidth, innerHeight);

addEventListener('resize', () => {
  camera.aspect = innerWidth / innerHeight;
  camera.updateProjectionMatrix();
  renderer.setSize(innerWidth, innerHeight);
  laneLabels.setSize(innerWidth, innerHeight);
});

// --- The scene's objects, per world -------------------------------------------------------------------------------
const state = { ready: false, variant: null, threads: 0, frames: 0, updates: 0, solverMs: 0, desc: null, info: {} };
let views = [];            // per world: a Float32Array over the shared wasm memory, or the last transferred copy
let embeddingViews = [];   // per embedded render mesh (dropped files): the same, over its vertices
let bodyMeshes = [];       // one per drawable, in order
let colliderMeshes = [];   // one per collider, in order
let copiesOwned = false;   // single-threaded build: `views` are ours, later frames are copied into them
let shadowFitted = false;  // the sun's shadow camera fitted around this scene's bodies (once all are drawn)

/** ?pixelRatio=r where it is a number in (0, 4]; else `fallback` (a bad value is named on the page). */
function askedPixelRatio(fallback) {
  if (!url.has('pixelRatio')) return fallback;
  const asked = Number(url.get('pixelRatio'));
  if (asked > 0 && asked <= 4) return asked;
  showError(`pixelRatio must be a number in (0, 4] (got '${url.get('pixelRatio')}'); using ${fallback}.`);
  return fallback;
}

function showError(message) {
  $('error').textContent = message;
  $('error').style.display = 'block';
}

/** The build line: which build runs, with how many solver threads, and what draws the page if not a GPU. */
function showBuild() {
  const build = state.variant === 'threaded'
    ? `threaded build, ${state.threads} solver threads, zero-copy shared memory`
    : 'single-threaded build (positions transferred per frame)';
  // The whole name is in __pbdDemo.renderer (ANGLE's runs to a hundred characters).
  const drawing = drawnBy.software
    ? ` · drawn in software (${drawnBy.rasterizer}, pixel ratio ${renderer.getPixelRatio()}, no antialiasing): ` +
      'the fps is the CPU\'s'
    : '';
  $('build').textContent = build + drawing;
}

/** Takes a body's or collider's mesh out of the scene and frees its geometry (and a body's own material). */
function disposeObject(object) {
  object.geometry.dispose();
  if (object.userData.drawable) {
    object.material.map?.dispose();   // a fabric's weave (its own clone of the shared canvas)
    object.material.dispose();
  }
  scene.remove(object);
}

function clearScene() {
  for (const object of [...bodyMeshes, ...colliderMeshes]) disposeObject(object);
  bodyMeshes = [];
  colliderMeshes = [];
}

/** A new scene description from the worker (at start and after reset). */
function useScene(desc) {
  clearScene();
  state.desc = desc;
  state.info = desc.info;
  views = [];
  embeddingViews = [];
  copiesOwned = false;
  shadowFitted = false;
  laneLabels.use(desc);
  plots.setLegend(desc.lanes.map((lane) => lane?.name ?? null));
  colliderMeshes = desc.colliders.map(createColliderMesh);
  for (const mesh of colliderMeshes) scene.add(mesh);
  $('title').textContent = desc.title;
  $('hint').textContent = desc.hint ?? '';
  if (desc.info.bunny) {
    $('progress').textContent = `bunny: ${desc.info.bunny.tets} tets, tetrahedralized in ${desc.info.bunny.ms.toFixed(0)} ms`;
  }
}

/**
 * Positions arrived (a shared view, or the first copy) for world k, or with `embedded` for embedded render mesh k:
 * (re)build or re-point the meshes drawn from them.
 */
function useView(k, view, embedded = false) {
  (embedded ? embeddingViews : views)[k] = view;
  state.desc.drawables.forEach((d, i) => {
    if (embedded ? d.embedding !== k : d.worldIndex !== k || d.embedding !== undefined) return;
    if (bodyMeshes[i]) {
      repointBodyMesh(bodyMeshes[i], view);
    } else {
      bodyMeshes[i] = createBodyMesh(d, view);
      scene.add(bodyMeshes[i]);
    }
  });
}

function particle(worldIndex, i, out = new THREE.Vector3()) {
  const v = views[worldIndex];
  return out.set(v[3 * i], v[3 * i + 1], v[3 * i + 2]);
}

// --- The simulation worker (pbd-wasm/worker) ---------------------------------------------------------------------
// sim-worker.js serves its functions beside the worlds; every call returns an update that applyUpdate draws.
let remote = null;
/** Runs the worker's function `name`; its update is drawn and its error shown on the page. */
function call(name, ...args) {
  if (!remote) return Promise.resolve();
  return remote.run(name, ...args).then(applyUpdate, (error) => {
    showError(error.message);
    showProgress(null);
  });
}
// A cancel flag the worker reads while it tetrahedralizes (it cannot take calls then); needs shared memory.
const cancelFlag = crossOriginIsolated ? new Int32Array(new SharedArrayBuffer(4)) : null;
const variant = url.get('variant');
createWorkerWorld(variant ? { variant } : {},
  new Worker(new URL('./sim-worker.js', import.meta.url), { type: 'module' })).then((created) => {
  remote = created;
  remote.onReport = ({ what, fraction }) => {   // the tetrahedralizer's progress
    $('progress').textContent = `${what}: ${(100 * fraction).toFixed(0)} %`;
    showProgress(fraction < 1 ? fraction : null);
  };
  return call('start', { scene: sceneName, cancel: cancelFlag?.buffer });
}, (error) => showError(`failed to start: ${error.message}`));
if (requestedScene !== null && requestedScene !== sceneName) {
  showError(`There is no scene '${requestedScene}'; showing '${sceneName}'. Scenes: ${Object.keys(SCENES).join(', ')}.`);
}

let panel = null;
/** The worker's scene is built: draw it, place the camera, make the panel with the scene's values (and the URL's). */
function useReady(ready) {
  Object.assign(state, { ready: true, variant: ready.variant, threads: ready.threads });
  useScene(ready);
  camera.position.fromArray(ready.camera.position);
  controls.target.fromArray(ready.camera.target);
  controls.update();
  showBuild();
  if (!crossOriginIsolated) {
    $('notice').textContent = 'This page is not cross-origin isolated (no COOP/COEP headers), so it runs the ' +
      'single-threaded build. Serve it with Cross-Origin-Opener-Policy: same-origin and ' +
      'Cross-Origin-Embedder-Policy: require-corp for threads.';
    $('notice').style.display = 'block';
  }
  const params = { ...ready.params, ...readUrlParams(url, ready.params) };
  panel = createPanel({ params, sceneName, scenes: SCENES, call, renderer, snapshots,
    threads: ready.threads, maxThreads: ready.maxThreads });
  call('setParams', params);
}

/**
 * Positions for the page: shared views (threaded: {index, buffer, byteOffset, length} for each world or embedded
 * mesh whose arrays moved) or copies (single-threaded: copied into the arrays the geometries already wrap, so no
 * new attributes per frame).
 */
function useViews({ shared, copies, embedded }) {
  if (shared) {
    for (const { index, buffer, byteOffset, length } of shared) useView(index, new Float32Array(buffer, byteOffset, length));
    for (const { index, buffer, byteOffset, length } of embedded) {
      useView(index, new Float32Array(buffer, byteOffset, length), true);
    }
    return;
  }
  copies.forEach((copy, k) => {
    if (copiesOwned && views[k]?.length === copy.length) views[k].set(copy);
    else useView(k, copy);
  });
  embedded.forEach((copy, k) => {
    if (copiesOwned && embeddingViews[k]?.length === copy.length) embeddingViews[k].set(copy);
    else useView(k, copy, true);
  });
  copiesOwned = true;
}

/** Bodies tore (or moved up past a torn one): their meshes are made again over the same views. */
function useTopology(drawables) {
  for (const { index, ...d } of drawables) {
    state.desc.drawables[index] = d;
    if (!bodyMeshes[index] || !views[d.worldIndex]) continue;
    disposeObject(bodyMeshes[index]);
    bodyMeshes[index] = createBodyMesh(d, views[d.worldIndex]);
    scene.add(bodyMeshes[index]);
  }
}

/** A frame's figures: plots, the contacts drawn, the poses of colliders the scene moves. */
function useFrame(frame) {
  state.frames += frame.steps;
  state.updates++;
  if (frame.steps > 0) {   // a call that stepped nothing (paused, or a fast screen's frame between steps) plots nothing
    state.solverMs = frame.solverMs;
    plots.push(frame);
  }
  contactsView.update(frame.contacts);
  for (const { collider, position, rotation } of frame.colliderPoses) {
    colliderMeshes[collider]?.position.fromArray(position);
    colliderMeshes[collider]?.quaternion.fromArray(rotation);
  }
}

/** A dropped mesh became a soft body: its mesh is drawn over the embedding's view (which came first). */
function useMeshAdded({ drawable, name, tets }) {
  const i = state.desc.drawables.push(drawable) - 1;
  bodyMeshes[i] = createBodyMesh(drawable, embeddingViews[drawable.embedding]);
  scene.add(bodyMeshes[i]);
  shadowFitted = false;   // and around it too
  $('progress').textContent = `${name}: ${tets} tets`;
  showProgress(null);
}

/** Draws what a call to the worker returned (sim-worker.js says what an update holds), in this order. */
function applyUpdate(update) {
  if (update.ready) useReady(update.ready);
  if (update.scene) useScene(update.scene);
  if (update.views) useViews(update.views);
  if (update.topology?.length) useTopology(update.topology);
  if (update.frame) useFrame(update.frame);
  if (update.threads !== undefined) {
    state.threads = update.threads;
    showBuild();
  }
  if (update.lanes) laneLabels.setLanes(update.lanes);   // the worlds' settings changed
  if (update.meshAdded) useMeshAdded(update.meshAdded);
  if (update.snapshot) snapshots.saved(update.snapshot);
  if (update.snapshotLoaded !== undefined) {
    $('progress').textContent = `snapshot loaded (${update.snapshotLoaded} bytes)`;
    $('error').style.display = 'none';
  }
  for (const warning of update.warnings ?? []) showError(warning);
}

// --- Snapshots: save every world of the scene to a .pbdsnap file (and memory), load one back -------------------------
const snapshots = {
  last: null,
  download: true,
  save() { call('saveSnapshot'); },
  saved(bytes) {
    this.last = bytes;
    $('progress').textContent = `snapshot saved (${bytes.length} bytes)`;
    if (!this.download) return;
    const a = document.createElement('a');
    a.href = URL.createObjectURL(new Blob([bytes], { type: 'application/octet-stream' }));
    a.download = `${sceneName}.pbdsnap`;
    a.click();
    setTimeout(() => URL.revokeObjectURL(a.href), 1000);
  },
  loadLast() {
    if (!this.last) return showError('No snapshot saved yet: press save first.');
    call('loadSnapshot', this.last.slice());
  },
  loadFile() {
    const input = document.createElement('input');
    input.type = 'file';
    input.accept = '.pbdsnap';
    input.onchange = async () => {
      const file = input.files?.[0];
      if (file) call('loadSnapshot', new Uint8Array(await file.arrayBuffer()));
    };
    input.click();
  },
};

const pointer = new Pointer({ renderer, camera, controls, call, particle, positions: (worldIndex) => views[worldIndex],
  bodies: () => bodyMeshes.filter(Boolean), colliders: () => colliderMeshes });

// --- Drop an OBJ file on the page: it becomes a soft body ---------------------------------------------------------
addEventListener('dragover', (event) => event.preventDefault());
addEventListener('drop', async (event) => {
  event.preventDefault();
  const file = event.dataTransfer?.files?.[0];
  if (file) await dropFile(file);
});

/** An .obj (read in the worker) or .gltf/.glb (parsed here) file becomes a soft body; errors show on the page. */
async function dropFile(file) {
  try {
    if (!state.desc?.acceptsDroppedMeshes) {
      throw new Error(`Dropped meshes go into the '${DEFAULT_SCENE}' scene; switch to it first.`);
    }
    if (/\.obj$/i.test(file.name)) {
      call('dropMesh', { name: file.name, text: await file.text() });
    } else if (/\.(glb|gltf)$/i.test(file.name)) {
      const { gltfArrays } = await import('./gltf-drop.js');
      const { positions, triangles } = await gltfArrays(file);
      call('dropMesh', { name: file.name, positions, triangles });
    } else {
      throw new Error(`${file.name}: drop an .obj, .gltf or .glb file`);
    }
    $('error').style.display = 'none';
  } catch (error) {
    showError(error.message);
  }
}

/** The tetrahedralizer's progress bar and its cancel button (null hides them). */
function showProgress(fraction) {
  $('progress-bar').style.display = fraction === null ? 'none' : 'inline-block';
  $('progress-bar').value = fraction ?? 0;
  $('cancel').style.display = fraction === null || !cancelFlag ? 'none' : 'inline-block';
}
$('cancel').addEventListener('click', () => { if (cancelFlag) Atomics.store(cancelFlag, 0, 1); });

// --- Frame loop ----------------------------------------------------------------------------------------------------
const plots = new Plots($('residuals'), $('energy'), $('solver-ms'), $('residual-legend'));
let fps = 0;
let lastTime = performance.now();
const frameMs = [];   // the last 120 render-frame intervals, for the bench
const mainMs = [];    // the last 120 frames' main-thread work (ms): meshes refreshed, rendering issued, plots drawn
let lastFrameCall = performance.now();
/** Asks the worker for a frame, with the time since the last (it steps the 1/60 s frames that time owes). */
function requestFrame() {
  const now = performance.now();
  const elapsed = (now - lastFrameCall) / 1000;
  lastFrameCall = now;
  call('frame', elapsed).then(() => {
    // A call that took a frame's time or more: the simulation is behind, so the next goes now, not at the next
    // render frame (a slow software renderer draws at 20-30 fps and would hold it back further).
    if (performance.now() - lastFrameCall >= 1000 / 60 && remote.pending === 0) requestFrame();
  });
}
renderer.setAnimationLoop((time) => {
  const start = performance.now();
  if (state.ready && remote.pending === 0) requestFrame();   // once the last call came back
  fps = 0.9 * fps + 0.1 * (1000 / Math.max(1, time - lastTime));
  frameMs.push(time - lastTime);
  if (frameMs.length > 120) frameMs.shift();
  lastTime = time;
  for (const object of bodyMeshes) if (object) refreshBodyMesh(object);
  if (!shadowFitted && meshesReady()) {
    fitShadowCamera(sun, [...bodyMeshes, ...colliderMeshes], SCENES[sceneName].shadowExtent);
    shadowFitted = true;
  }
  controls.update();
  renderer.render(scene, camera);
  laneLabels.render(camera, (world) => views[world]);
  $('stats').textContent = `${fps.toFixed(0)} fps · solver ${state.solverMs.toFixed(2)} ms per step`;
  plots.draw();
  mainMs.push(performance.now() - start);
  if (mainMs.length > 120) mainMs.shift();
});

/** Whether every drawable of the scene has its mesh (its positions arrived). */
function meshesReady() {
  return state.ready && bodyMeshes.filter(Boolean).length === (state.desc?.drawables.length ?? -1);
}

// --- Hooks for the end-to-end tests (read-only) --------------------------------------------------------------------
/** The first cloth-like drawable: what the tests grab and measure. */
const clothDrawable = () => state.desc?.drawables.find((d) => d.label === 'cloth' || d.grid);
window.__pbdDemo = {
  get ready() { return meshesReady(); },
  get variant() { return state.variant; },
  get threads() { return state.threads; },
  /** What draws the page: {name, software, rasterizer} (renderer-info.js), the pixel ratio it draws at, and
   * whether it multisamples. */
  get renderer() {
    return { ...drawnBy, pixelRatio: renderer.getPixelRatio(),
      antialias: renderer.getContext().getContextAttributes().antialias };
  },
  /** Frames simulated (1/60 s each). */
  get frames() { return state.frames; },
  /** Updates drawn from the worker (one per render frame, paused or not, and one per call that changed the worlds). */
  get updates() { return state.updates; },
  /** Recent render-frame intervals, main-thread work per frame and solver times per step (ms), for the bench. */
  get timings() { return { frameMs: [...frameMs], mainMs: [...mainMs], solverMs: [...plots.ms] }; },
  get scene() { return state.desc?.scene; },
  get scenes() { return Object.keys(SCENES); },
  get worlds() { return views.length; },
  /** The labels over the worlds of a side-by-side scene: name, settings lines, whether shown, page rect (CSS px). */
  get labels() { return laneLabels.shown; },
  /** The residual plot's legend ({name, colour, world} an entry) and the curves last drawn ({world, colour}). */
  get residualLegend() {
    return { entries: [...$('residual-legend').children].map((e) => ({ name: e.textContent, colour: e.dataset.colour,
      world: Number(e.dataset.world) })), curves: plots.drawnCurves };
  },
  /**
   * The shadow setup: map on and its type, the sun casting (map size, camera fitted), what casts and receives, and
   * the fraction of every world's particles inside the sun's shadow camera (`covered`).
   */
  get shadows() {
    return { enabled: renderer.shadowMap.enabled, type: renderer.shadowMap.type, sunCasts: sun.castShadow,
      mapSize: sun.shadow.mapSize.x, fitted: shadowFitted, covered: shadowCoverage(sun, views),
      groundReceives: ground.receiveShadow, bodiesCast: bodyMeshes.filter(Boolean).every((m) => m.castShadow),
      collidersCast: colliderMeshes.every((m) => m.castShadow),
      bodiesReceive: [...bodyMeshes, ...colliderMeshes].filter(Boolean).every((m) => m.receiveShadow) };
  },
  /** Contacts drawn now (0 while the panel's 'draw contacts' is off). */
  get contactsDrawn() { return contactsView.count; },
  /** Drops OBJ text as if a file had been dropped on the page. */
  dropMesh(name, text) { call('dropMesh', { name, text }); },
  /** Drops a file (e.g. a glTF/GLB File built by a test) as if it had been dropped on the page. */
  dropFile,
  /** Saves a snapshot into memory (no download) and resolves when it arrived; loadSnapshot() loads it back. */
  saveSnapshot() {
    snapshots.download = false;
    snapshots.last = null;
    snapshots.save();
    return new Promise((resolve) => {
      const poll = () => (snapshots.last ? resolve(snapshots.last.length) : setTimeout(poll, 20));
      poll();
    });
  },
  loadSnapshot() { snapshots.loadLast(); },
  /** Loads arbitrary bytes as a snapshot (for tests of the error path). */
  loadSnapshotBytes(bytes) { call('loadSnapshot', new Uint8Array(bytes)); },
  /** Sets the solver threads (threaded build), as the panel's slider does; the `threads` getter follows. */
  setThreads(n) { call('setParams', { threads: n }); },
  /** Pauses or resumes the simulation, as the panel's checkbox does. */
  pause(on) { call('pause', on); },
  /** Presses the cancel button of a running tetrahedralization. */
  cancel() { $('cancel').click(); },
  /** Soft bodies from dropped files. */
  get droppedCount() { return state.desc?.drawables.filter((d) => d.dropped).length ?? 0; },
  /** The bunny's tetrahedralization figures, once ready. */
  get bunny() { return state.info.bunny; },
  /** Cloth particle index (relative to the cloth) of the last grab, or undefined. */
  get grabbed() { return pointer.grabbed && pointer.grabbed.particle - clothDrawable().firstParticle; },
  /** Position of particle i of the cloth. */
  particle(i) { const d = clothDrawable(); return particle(d.worldIndex, d.firstParticle + i).toArray(); },
  /** Screen position (CSS pixels) of cloth particle i, or of particle i of drawable `drawable`. */
  screenOf(i, drawable) {
    const d = drawable === undefined ? clothDrawable() : state.desc.drawables[drawable];
    const v = particle(d.worldIndex, d.firstParticle + i).project(camera);
    const rect = renderer.domElement.getBoundingClientRect();
    return { x: rect.left + (v.x + 1) / 2 * rect.width, y: rect.top + (1 - v.y) / 2 * rect.height };
  },
  /** A copy of world k's positions (xyz per particle). */
  positions(k) { return Array.from(views[k]); },
  /** Drawables of the scene: world index, first particle and particle count each. */
  get drawables() { return state.desc.drawables.map(({ worldIndex, firstParticle, particleCount, label }) =>
    ({ worldIndex, firstParticle, particleCount, label })); },
  /** What each body mesh draws: its vertices (particles) and the highest vertex its triangles name. */
  get drawn() {
    return bodyMeshes.map(({ geometry }) => ({ vertices: geometry.attributes.position.count,
      highestIndex: geometry.index ? Math.max(...geometry.index.array) : -1 }));
  },
  /** Sets panel values as a user would (the worker applies them). */
  setParams(values) { panel.set(values); },
  /**
   * The rendered canvas at 160 x 120: distinct colours, cloth-coloured (reddish) pixels, contact-coloured (yellow)
   * pixels, and what the bodies add: the scene is rendered again without the body meshes, and bodyPixels counts the
   * pixels that differ, bodyColours the distinct colours among them (shading: a flat or missing body has few). So a
   * canvas showing only the ground and the grid, or bodies drawn in one flat colour, is caught.
   */
  canvasStats() {
    const c = document.createElement('canvas');
    c.width = 160;
    c.height = 120;
    const ctx = c.getContext('2d', { willReadFrequently: true });
    const read = () => {
      renderer.render(scene, camera);
      ctx.drawImage(renderer.domElement, 0, 0, c.width, c.height);
      return ctx.getImageData(0, 0, c.width, c.height).data;
    };
    const data = read();
    const bodies = bodyMeshes.filter(Boolean);
    for (const mesh of bodies) mesh.visible = false;
    const bare = read();
    for (const mesh of bodies) mesh.visible = true;
    renderer.render(scene, camera);
    const quantize = (k) => (data[k] >> 3) << 10 | (data[k + 1] >> 3) << 5 | (data[k + 2] >> 3);
    const colours = new Set(), bodyColours = new Set();
    let cloth = 0, contact = 0, body = 0;
    for (let k = 0; k < data.length; k += 4) {
      colours.add(quantize(k));
      if (data[k] > data[k + 1] + 40 && data[k] > data[k + 2] + 40) cloth++;
      if (data[k] > 200 && data[k + 1] > 160 && data[k + 2] < 110) contact++;
      const diff = Math.abs(data[k] - bare[k]) + Math.abs(data[k + 1] - bare[k + 1]) + Math.abs(data[k + 2] - bare[k + 2]);
      if (diff > 24) {
        body++;
        bodyColours.add(quantize(k));
      }
    }
    const bareColours = new Set();
    for (let k = 0; k < bare.length; k += 4) bareColours.add((bare[k] >> 3) << 10 | (bare[k + 1] >> 3) << 5 | (bare[k + 2] >> 3));
    return { distinctColours: colours.size, clothPixels: cloth, contactPixels: contact, bodyPixels: body,
      bodyColours: bodyColours.size, bareColours: bareColours.size };
  },
};

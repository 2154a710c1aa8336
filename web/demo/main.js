// The cloth demo page: three.js renders what the simulation worker computes; the mouse grabs and throws the cloth.
import * as THREE from 'three';
import { OrbitControls } from 'three/addons/controls/OrbitControls.js';
import GUI from 'lil-gui';
import { createClothGeometry, createMeshGeometry, createSoftBodyGeometry, refreshGeometry, setGeometryPositions }
  from '../lib/three.js';
import { COLLIDERS, DEFAULT_PARAMS } from './cloth-scene.js';

const app = document.getElementById('app');
const buildLabel = document.getElementById('build');
const statsLabel = document.getElementById('stats');
const progressLabel = document.getElementById('progress');

// --- Rendering ----------------------------------------------------------------------------------------------------
const renderer = new THREE.WebGLRenderer({ antialias: true, preserveDrawingBuffer: true });
renderer.setPixelRatio(Math.min(devicePixelRatio, 2));
renderer.setSize(innerWidth, innerHeight);
app.appendChild(renderer.domElement);

const scene = new THREE.Scene();
scene.background = new THREE.Color(0x1d2026);
const camera = new THREE.PerspectiveCamera(45, innerWidth / innerHeight, 0.01, 100);
camera.position.set(0, 1.6, 3.2);
const controls = new OrbitControls(camera, renderer.domElement);
controls.target.set(0, 0.9, 0.4);
controls.update();

scene.add(new THREE.HemisphereLight(0xdde8ff, 0x303030, 1.6));
const sun = new THREE.DirectionalLight(0xffffff, 2.2);
sun.position.set(1.5, 3, 4);  // from the camera side, so the hanging cloth faces the light
scene.add(sun);
const ground = new THREE.Mesh(new THREE.PlaneGeometry(8, 8), new THREE.MeshStandardMaterial({ color: 0x3a3f48 }));
ground.rotation.x = -Math.PI / 2;
scene.add(ground);
scene.add(new THREE.GridHelper(8, 32, 0x555b66, 0x474c55));

// The colliders, drawn slightly smaller than their collision thickness so the cloth visibly rests on them.
const colliderMaterial = new THREE.MeshStandardMaterial({ color: 0x8fa3b8, roughness: 0.5 });
for (const c of COLLIDERS) {
  const geometry = c.shape === 'sphere' ? new THREE.SphereGeometry(c.radius, 48, 24)
    : c.shape === 'box' ? new THREE.BoxGeometry(2 * c.halfExtents[0], 2 * c.halfExtents[1], 2 * c.halfExtents[2])
      : new THREE.CapsuleGeometry(c.radius, 2 * c.halfHeight, 12, 32);
  const mesh = new THREE.Mesh(geometry, colliderMaterial);
  mesh.position.fromArray(c.position);
  if (c.rotation) mesh.quaternion.fromArray(c.rotation);
  scene.add(mesh);
}

const clothMaterial = new THREE.MeshStandardMaterial({ color: 0xd9603b, side: THREE.DoubleSide, roughness: 0.8 });
const softMaterial = new THREE.MeshStandardMaterial({ color: 0x4fb58a, roughness: 0.6, flatShading: true });
const bunnyMaterial = new THREE.MeshStandardMaterial({ color: 0xe8d9b0, roughness: 0.7 });
let clothMesh = null;
let softMesh = null;
let bunnyMesh = null;
const droppedMeshes = [];   // soft bodies from files dropped on the page

addEventListener('resize', () => {
  camera.aspect = innerWidth / innerHeight;
  camera.updateProjectionMatrix();
  renderer.setSize(innerWidth, innerHeight);
});

// --- The simulation worker ----------------------------------------------------------------------------------------
const worker = new Worker(new URL('./sim-worker.js', import.meta.url), { type: 'module' });
const forcedVariant = new URLSearchParams(location.search).get('variant') ?? undefined;
worker.postMessage({ type: 'init', variant: forcedVariant });

const state = { ready: false, variant: null, threads: 0, frames: 0, solverMs: 0, cloth: null, shape: null, residuals: null };
let positions = null;   // Float32Array: a view on the shared wasm memory, or the last transferred copy
let positionsAreCopies = false;  // single-threaded build: `positions` is ours, later frames are copied into it

function usePositions(view) {
  positions = view;
  if (!clothMesh) {
    const geometry = createClothGeometry(view, state.cloth, state.shape.columns, state.shape.rows);
    clothMesh = new THREE.Mesh(geometry, clothMaterial);
    scene.add(clothMesh);
    softMesh = new THREE.Mesh(createSoftBodyGeometry(view, state.softBody, state.softBodyTets), softMaterial);
    scene.add(softMesh);
    // The tet mesh's first vertices are the bunny's surface vertices, in order: its triangles index them directly.
    const surface = { firstParticle: state.bunnyBody.firstParticle, particleCount: state.bunnyTriangles.reduce((a, b) => Math.max(a, b), 0) + 1 };
    bunnyMesh = new THREE.Mesh(createMeshGeometry(view, surface, state.bunnyTriangles), bunnyMaterial);
    scene.add(bunnyMesh);
  } else {
    for (const mesh of [clothMesh, softMesh, bunnyMesh, ...droppedMeshes]) setGeometryPositions(mesh.geometry, view);
  }
}

worker.onmessage = ({ data }) => {
  switch (data.type) {
    case 'ready':
      Object.assign(state, { ready: true, variant: data.variant, threads: data.threads, cloth: data.cloth,
        shape: data.clothShape, softBody: data.softBody, softBodyTets: data.softBodyTets, bunnyBody: data.bunnyBody,
        bunnyTriangles: data.bunnyTriangles, bunnyInfo: data.bunnyInfo });
      progressLabel.textContent = `bunny: ${data.bunnyInfo.tets} tets, tetrahedralized in ` +
        `${data.bunnyInfo.ms.toFixed(0)} ms`;
      buildLabel.textContent = data.variant === 'threaded'
        ? `threaded build, ${data.threads} solver threads, zero-copy shared memory`
        : 'single-threaded build (positions transferred per frame)';
      if (!crossOriginIsolated) {
        const notice = document.getElementById('notice');
        notice.textContent = 'This page is not cross-origin isolated (no COOP/COEP headers), so it runs the ' +
          'single-threaded build. Serve it with Cross-Origin-Opener-Policy: same-origin and ' +
          'Cross-Origin-Embedder-Policy: require-corp for threads.';
        notice.style.display = 'block';
      }
      break;
    case 'mesh-added': {
      // Its surface vertices are the tet mesh's first vertices, in order, so the welded triangles draw it.
      const surface = { firstParticle: data.body.firstParticle, particleCount: data.triangles.reduce((a, b) => Math.max(a, b), 0) + 1 };
      const mesh = new THREE.Mesh(createMeshGeometry(positions, surface, data.triangles), bunnyMaterial);
      droppedMeshes.push(mesh);
      scene.add(mesh);
      progressLabel.textContent = `${data.name}: ${data.tets} tets`;
      break;
    }
    case 'progress':
      progressLabel.textContent = `${data.what}: ${(100 * data.fraction).toFixed(0)} %`;
      break;
    case 'positions-shared':
      usePositions(new Float32Array(data.buffer, data.byteOffset, data.length));
      break;
    case 'frame':
      state.frames++;
      state.solverMs = data.solverMs;
      if (data.residuals?.length) state.residuals = data.residuals;
      if (data.positions) {
        // Single-threaded build: copy into the arrays the geometries already wrap (no new attributes per frame).
        if (positionsAreCopies && positions.length === data.positions.length) {
          positions.set(data.positions);
        } else {
          usePositions(data.positions);
          positionsAreCopies = true;
        }
      }
      break;
    case 'error': {
      const box = document.getElementById('error');
      box.textContent = data.message;
      box.style.display = 'block';
      break;
    }
  }
};

// --- Mouse: grab the particle under the cursor, drag it on a camera-facing plane, throw it on release ------------
const raycaster = new THREE.Raycaster();
const pointer = new THREE.Vector2();
const dragPlane = new THREE.Plane();
const hitPoint = new THREE.Vector3();
let dragging = false;

function setPointer(event) {
  const rect = renderer.domElement.getBoundingClientRect();
  pointer.set(((event.clientX - rect.left) / rect.width) * 2 - 1, -((event.clientY - rect.top) / rect.height) * 2 + 1);
  raycaster.setFromCamera(pointer, camera);
}

function particlePosition(i, out = new THREE.Vector3()) {
  const k = 3 * (state.cloth.firstParticle + i);
  return out.set(positions[k], positions[k + 1], positions[k + 2]);
}

renderer.domElement.addEventListener('pointerdown', (event) => {
  if (!clothMesh || event.button !== 0) return;
  setPointer(event);
  const hit = raycaster.intersectObject(clothMesh)[0];   // the cloth can be grabbed (the cube only collides)
  if (!hit) return;
  // The face's vertex nearest to the hit is the particle to grab.
  const candidates = [hit.face.a, hit.face.b, hit.face.c];
  const index = candidates.reduce((best, i) =>
    (particlePosition(i).distanceTo(hit.point) < particlePosition(best).distanceTo(hit.point) ? i : best));
  const p = particlePosition(index);
  event.stopImmediatePropagation();   // the grab owns this drag: OrbitControls must not rotate the camera
  dragPlane.setFromNormalAndCoplanarPoint(camera.getWorldDirection(new THREE.Vector3()).negate(), p);
  dragging = true;
  controls.enabled = false;
  renderer.domElement.setPointerCapture(event.pointerId);
  state.grabbed = index;
  worker.postMessage({ type: 'grab', index: state.cloth.firstParticle + index, target: p.toArray() });
}, { capture: true });  // capture: runs before OrbitControls' own pointerdown listener on the same element

renderer.domElement.addEventListener('pointermove', (event) => {
  if (!dragging) return;
  setPointer(event);
  if (raycaster.ray.intersectPlane(dragPlane, hitPoint)) {
    hitPoint.y = Math.max(hitPoint.y, 0);
    worker.postMessage({ type: 'drag', target: hitPoint.toArray() });
  }
});

function endDrag() {
  if (!dragging) return;
  dragging = false;
  controls.enabled = true;
  worker.postMessage({ type: 'release' });
}
renderer.domElement.addEventListener('pointerup', endDrag);
renderer.domElement.addEventListener('pointercancel', endDrag);

// --- Drop an OBJ file on the page: it becomes a soft body --------------------------------------------------------
addEventListener('dragover', (event) => event.preventDefault());
addEventListener('drop', async (event) => {
  event.preventDefault();
  const file = event.dataTransfer?.files?.[0];
  if (file) worker.postMessage({ type: 'dropMesh', name: file.name, text: await file.text() });
});

// --- Panel ---------------------------------------------------------------------------------------------------------
const params = { ...DEFAULT_PARAMS, paused: false };
const gui = new GUI({ title: 'Simulation' });
const send = () => worker.postMessage({ type: 'params', params: { ...params, paused: undefined } });
gui.add(params, 'method', { 'PBD (stiffness)': 'pbd', 'XPBD (compliance)': 'xpbd' }).onChange(send);
gui.add(params, 'solver', { 'Gauss-Seidel': 'gauss-seidel', 'Jacobi': 'jacobi',
  'coloured Gauss-Seidel (parallel)': 'coloured-gauss-seidel' }).onChange(send);
gui.add(params, 'integrator', { 'implicit Euler': 'implicit-euler', 'BDF2 (second order)': 'bdf2' }).onChange(send);
gui.add(params, 'selfCollision').name('self-collision').onChange(send);
gui.add(params, 'substeps', 1, 50, 1).onChange(send);
gui.add(params, 'iterations', 1, 50, 1).onChange(send);
gui.add(params, 'stiffness', 0, 1, 0.01).name('stiffness (PBD)').onChange(send);
gui.add(params, 'compliance', 0, 0.01, 0.00001).name('compliance (XPBD, m/N)').onChange(send);
gui.add(params, 'damping', 0, 5, 0.01).name('damping (1/s)').onChange(send);
gui.add(params, 'gravity', -30, 0, 0.01).name('gravity (m/s²)').onChange(send);
gui.add(params, 'paused').onChange((value) => worker.postMessage({ type: 'pause', value }));
gui.add({ step: () => worker.postMessage({ type: 'step' }) }, 'step').name('single step');
gui.add({ reset: () => worker.postMessage({ type: 'reset' }) }, 'reset');

// --- Convergence plot: RMS residual of the stretch/shear/bend constraints after every pass of the last step ------
const plot = document.getElementById('residuals');
const plotContext = plot.getContext('2d');
function drawResiduals(r) {
  if (!r) return;
  const { width, height } = plot;
  plotContext.clearRect(0, 0, width, height);
  const passes = r.length / 2;
  const rms = Array.from({ length: passes }, (_, k) => Math.log10(Math.max(r[2 * k + 1], 1e-12)));
  const lo = Math.min(...rms) - 0.2, hi = Math.max(...rms) + 0.2;
  plotContext.strokeStyle = '#7fd4ff';
  plotContext.beginPath();
  rms.forEach((y, k) => {
    const px = passes > 1 ? (k / (passes - 1)) * (width - 8) + 4 : width / 2;
    const py = height - 14 - ((y - lo) / (hi - lo || 1)) * (height - 22);
    k ? plotContext.lineTo(px, py) : plotContext.moveTo(px, py);
  });
  plotContext.stroke();
  plotContext.fillStyle = '#ccd';
  plotContext.fillText(`RMS residual per pass (log), last ${r[r.length - 1].toExponential(1)} m`, 4, height - 3);
}

// --- Frame loop ----------------------------------------------------------------------------------------------------
let fps = 0;
let lastTime = performance.now();
renderer.setAnimationLoop((time) => {
  fps = 0.9 * fps + 0.1 * (1000 / Math.max(1, time - lastTime));
  lastTime = time;
  if (clothMesh) refreshGeometry(clothMesh.geometry);
  if (softMesh) refreshGeometry(softMesh.geometry);
  if (bunnyMesh) refreshGeometry(bunnyMesh.geometry);
  for (const mesh of droppedMeshes) refreshGeometry(mesh.geometry);
  controls.update();
  renderer.render(scene, camera);
  statsLabel.textContent = `${fps.toFixed(0)} fps · solver ${state.solverMs.toFixed(2)} ms per step`;
  drawResiduals(state.residuals);
});

// --- Hooks for the end-to-end tests (read-only) --------------------------------------------------------------------
window.__pbdDemo = {
  get ready() { return state.ready && positions !== null; },
  get variant() { return state.variant; },
  get threads() { return state.threads; },
  get frames() { return state.frames; },
  /** Drops OBJ text as if a file had been dropped on the page. */
  dropMesh(name, text) { worker.postMessage({ type: 'dropMesh', name, text }); },
  /** Soft bodies from dropped files. */
  get droppedCount() { return droppedMeshes.length; },
  /** The bunny's tetrahedralization figures, once ready. */
  get bunny() { return state.bunnyInfo; },
  /** Cloth particle index of the last grab, or undefined. */
  get grabbed() { return state.grabbed; },
  particle(i) { return particlePosition(i).toArray(); },
  /** Screen position (CSS pixels) of cloth particle i. */
  screenOf(i) {
    const v = particlePosition(i).project(camera);
    const rect = renderer.domElement.getBoundingClientRect();
    return { x: rect.left + (v.x + 1) / 2 * rect.width, y: rect.top + (1 - v.y) / 2 * rect.height };
  },
  /** Distinct colours and cloth-coloured pixels in the rendered canvas. */
  canvasStats() {
    const c = document.createElement('canvas');
    c.width = 160;
    c.height = 120;
    const ctx = c.getContext('2d');
    ctx.drawImage(renderer.domElement, 0, 0, c.width, c.height);
    const data = ctx.getImageData(0, 0, c.width, c.height).data;
    const colours = new Set();
    let cloth = 0;
    for (let k = 0; k < data.length; k += 4) {
      colours.add((data[k] >> 3) << 10 | (data[k + 1] >> 3) << 5 | (data[k + 2] >> 3));
      if (data[k] > data[k + 1] + 40 && data[k] > data[k + 2] + 40) cloth++;
    }
    return { distinctColours: colours.size, clothPixels: cloth };
  },
};

// A cloth hanging from two corners: press on it to grab the nearest particle, drag, let go to throw it.
// The camera orbits when the press misses the cloth.
import * as THREE from 'three';
import { OrbitControls } from 'three/addons/controls/OrbitControls.js';
import { createPbd } from 'pbd-wasm';
import { PbdCloth, PbdDragControls } from 'pbd-wasm/three';
import { animate, createStage } from './stage.js';

const stage = createStage({ background: 0xdde4ec, ground: 0xb8c4a8, cameraAt: [0, 1.2, 3], lookAt: [0, 1, 0] });
const { scene, camera, renderer } = stage;

const pbd = await createPbd();
const world = new pbd.World();   // 10 substeps x 1 iteration, gravity, a ground at y = 0
const cloth = new PbdCloth(world, {
  columns: 40, rows: 40, spacing: 1 / 39,
  origin: [-0.5, 1.6, -0.5],   // level (rows along +z): it swings down about its pinned corners
  pinned: [0, 39],
  bend: { compliance: 1e-3 },
}, { material: new THREE.MeshStandardMaterial({ color: 0xc0504d, side: THREE.DoubleSide, roughness: 0.9 }) });
scene.add(cloth);

const orbit = new OrbitControls(camera, renderer.domElement);
orbit.target.set(0, 1, 0);
orbit.update();
const drag = new PbdDragControls([cloth], camera, renderer.domElement);   // before OrbitControls sees a grab
drag.addEventListener('drag', (event) => { event.point.y = Math.max(event.point.y, 0.01); });   // not underground

animate(stage, world, [cloth]);

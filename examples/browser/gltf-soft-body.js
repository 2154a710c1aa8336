// A soft body from a glTF model: GLTFLoader loads a closed mesh (public/rounded-cube.glb, written by make-model.mjs),
// softBodyFromMesh fills it with tetrahedra and simulates them, drawing the model's own geometry and material
// embedded in them. It drops onto the ground; grab it to squash and throw it. The camera orbits when a press misses.
import { GLTFLoader } from 'three/addons/loaders/GLTFLoader.js';
import { OrbitControls } from 'three/addons/controls/OrbitControls.js';
import { createPbd } from 'pbd-wasm';
import { PbdDragControls, softBodyFromMesh } from 'pbd-wasm/three';
import { animate, createStage } from './stage.js';

const stage = createStage({ background: 0xeae6dc, ground: 0xb9ae98, cameraAt: [0, 0.9, 1.8], lookAt: [0, 0.4, 0] });
const { scene, camera, renderer } = stage;

const [pbd, gltf] = await Promise.all([createPbd(), new GLTFLoader().loadAsync('./rounded-cube.glb')]);
const world = new pbd.World();
world.setLinearDamping(1);   // 1/s, like air drag: the jelly bounces less high, and comes to rest where it lands
const model = gltf.scene.getObjectByProperty('isMesh', true);   // the file's (first) mesh
// Its geometry is read in world coordinates: place (and tilt) the model where the body starts.
model.position.set(0, 1.3, 0);
model.rotation.set(0.6, 0.3, 0.4);
model.updateMatrixWorld();
const body = softBodyFromMesh(world, model, {
  resolution: 4,                     // interior points on a grid of 4 cells along the longest side
  density: 300,                      // kg/m³
  edges: { compliance: 1e-4 },       // tet edges a little soft: it wobbles like jelly
  contact: { friction: 0.6 },
}, { material: model.material });    // the glTF material
scene.add(body);

const orbit = new OrbitControls(camera, renderer.domElement);
orbit.target.set(0, 0.4, 0);
orbit.update();
const drag = new PbdDragControls([body], camera, renderer.domElement, { strength: { compliance: 1e-4 } });
drag.addEventListener('drag', (event) => { event.point.y = Math.max(event.point.y, 0.01); });   // not underground

animate(stage, world, [body]);

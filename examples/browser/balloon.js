// Balloons: closed three.js meshes made into cloth with an inner pressure (clothFromMesh with `pressure`), dropped
// onto the ground and onto each other. Grab one and throw it.
import * as THREE from 'three';
import { createPbd } from 'pbd-wasm';
import { PbdDragControls, clothFromMesh } from 'pbd-wasm/three';
import { animate, createStage } from './stage.js';

const stage = createStage({ background: 0xe8e4f0, ground: 0xa8b4c4, cameraAt: [0, 1.2, 3.2], lookAt: [0, 0.6, 0] });

const pbd = await createPbd();
const world = new pbd.World();
world.setSelfCollision({ enabled: true, radius: 0.015 });   // particles of different balloons keep 3 cm apart
const balloons = [];
const colours = [0xe15759, 0x4e79a7, 0xf28e2b, 0x59a14f];
for (let k = 0; k < 4; k++) {
  // Any closed mesh works; its geometry is read in world coordinates, so place the mesh where the body starts.
  const mesh = new THREE.Mesh(new THREE.IcosahedronGeometry(0.25, 3));
  mesh.position.set(0.3 * Math.sin(2.1 * k), 0.4 + 0.55 * k, 0.3 * Math.cos(2.1 * k));
  mesh.updateMatrixWorld();
  const balloon = clothFromMesh(world, mesh, {
    mass: 0.2,
    pressure: 1.2,                     // keeps 1.2 times the volume it was built with: taut
    stretch: { compliance: 1e-4 },     // a little rubbery
    contact: { friction: 0.4, restitution: 0.3 },
  }, { material: new THREE.MeshStandardMaterial({ color: colours[k], roughness: 0.35 }) });
  stage.scene.add(balloon);
  balloons.push(balloon);
}
const drag = new PbdDragControls(balloons, stage.camera, stage.renderer.domElement, { strength: { compliance: 1e-3 } });
drag.addEventListener('drag', (event) => { event.point.y = Math.max(event.point.y, 0.01); });

animate(stage, world, balloons);

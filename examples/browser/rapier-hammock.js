// Rapier boxes of 0.5 to 10 kg drop into a 1 kg hammock, one every second, and it carries them (pbd-wasm/rapier: the
// cloth and Rapier's rigid bodies push each other both ways). The hammock hangs from four fixed posts; what rolls off
// lands on Rapier's floor.
import RAPIER from '@dimforge/rapier3d-compat';
import * as THREE from 'three';
import { createPbd } from 'pbd-wasm';
import { coupleRapier } from 'pbd-wasm/rapier';
import { PbdCloth } from 'pbd-wasm/three';
import { createStage } from './stage.js';

const stage = createStage({ background: 0xe8e4ee, ground: 0xbfc6b8, cameraAt: [0, 2.4, 3], lookAt: [0, 0.8, 0] });
const { scene, camera, renderer } = stage;

await RAPIER.init();
const pbd = await createPbd();
const world = new pbd.World();
world.setSubsteps(20);   // at 10, a 10 kg box landing at 4 m/s pushes through the cloth
world.setIterations(4);
world.setLinearDamping(0.5);
const n = 32;
const cloth = new PbdCloth(world, { columns: n, rows: n, spacing: 1.4 / (n - 1), origin: [-0.7, 1.2, -0.7], mass: 1,
  pinned: [0, n - 1, n * (n - 1), n * n - 1] },
{ material: new THREE.MeshStandardMaterial({ color: 0x2a9d8f, side: THREE.DoubleSide, roughness: 0.9 }) });
scene.add(cloth);
const wood = new THREE.MeshStandardMaterial({ color: 0x8d6e63 });
for (const [x, z] of [[-0.7, -0.7], [0.7, -0.7], [-0.7, 0.7], [0.7, 0.7]]) {
  const post = new THREE.Mesh(new THREE.CylinderGeometry(0.03, 0.03, 1.2), wood);
  post.position.set(x, 0.6, z);
  scene.add(post);
}

const rapierWorld = new RAPIER.World({ x: 0, y: -9.81, z: 0 });   // the same gravity as the cloth's
rapierWorld.timestep = 1 / 60;
const floor = rapierWorld.createRigidBody(RAPIER.RigidBodyDesc.fixed().setTranslation(0, -0.5, 0));
rapierWorld.createCollider(RAPIER.ColliderDesc.cuboid(5, 0.5, 5), floor);
const coupling = coupleRapier(world, rapierWorld);

// A box every second, over the hammock, up to eight; each drawn from its Rapier body.
const boxes = [];
const colours = [0xe76f51, 0xf4a261, 0xe9c46a, 0x264653];
function dropBox(k) {
  const half = 0.08 + 0.04 * (k % 3), mass = [0.5, 2, 10][k % 3];
  const body = rapierWorld.createRigidBody(RAPIER.RigidBodyDesc.dynamic()
    .setTranslation(0.3 * Math.sin(2.4 * k), 2, 0.3 * Math.cos(2.4 * k)).setAngvel({ x: 0.5, y: 0.3, z: 0 }));
  rapierWorld.createCollider(RAPIER.ColliderDesc.cuboid(half, half, half).setDensity(mass / (8 * half ** 3))
    .setFriction(0.6), body);
  coupling.addBody(body);
  const mesh = new THREE.Mesh(new THREE.BoxGeometry(2 * half, 2 * half, 2 * half),
    new THREE.MeshStandardMaterial({ color: colours[k % colours.length] }));
  scene.add(mesh);
  boxes.push({ body, mesh });
}

let frame = 0;
renderer.setAnimationLoop(() => {
  if (frame % 60 === 0 && boxes.length < 8) dropBox(boxes.length);
  coupling.step();   // the cloth's step, the impulses to the boxes, Rapier's step: one fixed 1/60 s step a frame
  frame++;
  for (const { body, mesh } of boxes) {
    mesh.position.copy(body.translation());
    mesh.quaternion.copy(body.rotation());
  }
  cloth.update();
  renderer.render(scene, camera);
});

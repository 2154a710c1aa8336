// A cloth falls onto a box and a capsule; a sphere follows the mouse (a kinematic collider: the world sweeps it
// from its last pose to the new one across the step, so it pushes the cloth instead of jumping into it).
import * as THREE from 'three';
import { createPbd } from 'pbd-wasm';
import { PbdCloth } from 'pbd-wasm/three';
import { animate, createStage } from './stage.js';

const stage = createStage({ background: 0xe4ece4, ground: 0xc4c0a8, cameraAt: [0, 2.2, 2.6], lookAt: [0, 0.3, 0] });
const { scene, camera, renderer } = stage;

const pbd = await createPbd();
const world = new pbd.World();
world.setGround({ thickness: 0.005 });   // the cloth rests just above the surfaces it lies on, so it draws over them
const grey = new THREE.MeshStandardMaterial({ color: 0x8a8f99 });
// Each collider and the three.js mesh that shows it, at the same pose.
world.addCollider({ shape: 'box', position: [-0.35, 0.2, 0], halfExtents: [0.2, 0.2, 0.2], thickness: 0.01 });
const box = new THREE.Mesh(new THREE.BoxGeometry(0.4, 0.4, 0.4), grey);
box.position.set(-0.35, 0.2, 0);
const tilt = new THREE.Quaternion().setFromEuler(new THREE.Euler(0, 0, Math.PI / 2));   // the capsule's axis along x
world.addCollider({ shape: 'capsule', position: [0.4, 0.15, 0], rotation: tilt, radius: 0.15, halfHeight: 0.2,
  thickness: 0.01 });
const capsule = new THREE.Mesh(new THREE.CapsuleGeometry(0.15, 0.4, 8, 24), grey);
capsule.position.set(0.4, 0.15, 0);
capsule.quaternion.copy(tilt);
const sphereAt = new THREE.Vector3(0, 0.25, 0.6);
const sphere = world.addCollider({ shape: 'sphere', position: sphereAt, radius: 0.2, thickness: 0.01 });
const ball = new THREE.Mesh(new THREE.SphereGeometry(0.2, 32, 16), new THREE.MeshStandardMaterial({ color: 0x4e79a7 }));
ball.position.copy(sphereAt);
scene.add(box, capsule, ball);

const cloth = new PbdCloth(world, { columns: 48, rows: 48, spacing: 1.2 / 47, origin: [-0.6, 1, -0.6] },
  { material: new THREE.MeshStandardMaterial({ color: 0xe9c46a, side: THREE.DoubleSide, roughness: 0.9 }) });
scene.add(cloth);

// The mouse moves the sphere on the level plane through its centre.
const raycaster = new THREE.Raycaster();
const level = new THREE.Plane(new THREE.Vector3(0, 1, 0), -sphereAt.y);
renderer.domElement.addEventListener('pointermove', (event) => {
  const ndc = new THREE.Vector2(event.clientX / innerWidth * 2 - 1, 1 - event.clientY / innerHeight * 2);
  raycaster.setFromCamera(ndc, camera);
  if (raycaster.ray.intersectPlane(level, sphereAt)) ball.position.copy(sphereAt);
});

animate(stage, world, [cloth], { beforeFrame: () => world.setColliderPose(sphere, sphereAt, [0, 0, 0, 1]) });

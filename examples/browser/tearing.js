// Tearing cloth: a ball dropped on a drum of cloth stretches it until it rips open and falls through; beside it a
// curtain hangs from a rail. Drag the curtain hard and it tears where you pull (PbdDragControls); hold Shift and
// drag across either cloth to cut it (cutAlongStroke). Each PbdCloth follows its body's tears at update().
import * as THREE from 'three';
import { OrbitControls } from 'three/addons/controls/OrbitControls.js';
import { createPbd } from 'pbd-wasm';
import { PbdCloth, PbdDragControls, cutAlongStroke } from 'pbd-wasm/three';
import { animate, createStage } from './stage.js';

const stage = createStage({ background: 0xe3e6ea, ground: 0xa8b39c, cameraAt: [0.2, 2.2, 3.4], lookAt: [0.2, 0.9, 0] });
const { scene, camera, renderer } = stage;

const pbd = await createPbd();
const world = new pbd.World();   // 10 substeps x 1 iteration, gravity, a ground at y = 0
const fabric = (color) => new THREE.MeshStandardMaterial({ color, side: THREE.DoubleSide, roughness: 0.9 });

// The drum: 1.2 m square, pinned all round its border at 0.8 m; an edge tears past half again its rest length.
const N = 32, W = 1.2;
const border = [];
for (let r = 0; r < N; r++) for (let c = 0; c < N; c++) if (r % (N - 1) === 0 || c % (N - 1) === 0) border.push(r * N + c);
const drum = new PbdCloth(world, { columns: N, rows: N, spacing: W / (N - 1), origin: [-1.4, 0.8, -W / 2],
  pinned: border, mass: 0.4, tearing: { strain: 0.5 } }, { material: fabric(0xd98c3b) });

// The curtain: hung from a rail by its top row; it tears past 30 % stretch.
const C = 36, R = 30, CW = 1.4;
const curtain = new PbdCloth(world, { columns: C, rows: R, spacing: CW / (C - 1), origin: [0.3, 1.9, 0],
  axisV: [0, -1, 0], pinned: Array.from({ length: C }, (_, c) => c), mass: 0.5, bendModel: 'dihedral',
  bend: { compliance: 1e-2 }, tearing: { strain: 0.3 } }, { material: fabric(0x3b6fd9) });
scene.add(drum, curtain);

// A 15 cm ball falls onto the drum from 1.5 m (moved by the page, kinematic: it pushes the cloth and is not slowed).
const ball = { shape: 'sphere', radius: 0.15, position: [-0.8, 1.5, 0] };
const ballIndex = world.addCollider(ball);
const ballMesh = new THREE.Mesh(new THREE.SphereGeometry(ball.radius * 0.97, 32, 16),
  new THREE.MeshStandardMaterial({ color: 0x555a60, roughness: 0.4 }));
scene.add(ballMesh);
let ballSpeed = 0;

const orbit = new OrbitControls(camera, renderer.domElement);
orbit.target.set(0.2, 0.9, 0);
orbit.update();
const drag = new PbdDragControls([drum, curtain], camera, renderer.domElement);

// Shift + drag cuts: each pointer move tears the edges its stroke crossed. Registered in the capture phase, so it
// runs before the drag and orbit controls, which it keeps out of a cut.
let stroke = null;
const ndc = (event) => {
  const r = renderer.domElement.getBoundingClientRect();
  return [((event.clientX - r.left) / r.width) * 2 - 1, -((event.clientY - r.top) / r.height) * 2 + 1];
};
renderer.domElement.addEventListener('pointerdown', (event) => {
  if (!event.shiftKey) return;
  stroke = ndc(event);
  drag.enabled = orbit.enabled = false;
}, { capture: true });
renderer.domElement.addEventListener('pointermove', (event) => {
  if (!stroke) return;
  const next = ndc(event);
  for (const cloth of [drum, curtain]) cutAlongStroke(world, cloth.body, camera, stroke, next);
  stroke = next;
});
addEventListener('pointerup', () => {
  if (!stroke) return;
  stroke = null;
  drag.enabled = orbit.enabled = true;
});

animate(stage, world, [drum, curtain], {
  beforeStep: (dt) => {
    ballSpeed -= 9.81 * dt;
    ball.position[1] = Math.max(ball.radius, ball.position[1] + ballSpeed * dt);
    world.setColliderPose(ballIndex, ball.position, [0, 0, 0, 1]);
    ballMesh.position.fromArray(ball.position);
  },
});

// The world in a Worker (pbd-wasm/worker): the solver steps off the main thread, which only draws, so the page
// stays smooth however long a step takes. The scene is built in the Worker by drape.worker.js. Threaded build: the
// page reads the positions straight from the Worker's shared memory; single-threaded: the Worker sends a copy after
// each step.
import * as THREE from 'three';
import { createWorkerWorld } from 'pbd-wasm/worker';
import { createClothGeometry, refreshGeometry, setGeometryPositions } from 'pbd-wasm/three';
import { createStage } from './stage.js';

const stage = createStage({ background: 0xe0e8f0, ground: 0xb4bcc8, cameraAt: [0.9, 1.1, 1.5], lookAt: [0, 0.4, 0] });

const sim = new Worker(new URL('./drape.worker.js', import.meta.url), { type: 'module' });
const remote = await createWorkerWorld({}, sim);
const N = 64;   // 4096 particles; every call below runs in the Worker and returns a promise
const body = await remote.run('drape', N);

const geometry = createClothGeometry(remote.positions(), body, N, N);   // over the positions, no copy
const cloth = new THREE.Mesh(geometry, new THREE.MeshStandardMaterial({ color: 0x76b7b2, side: THREE.DoubleSide }));
const ball = new THREE.Mesh(new THREE.SphereGeometry(0.3, 48, 24), new THREE.MeshStandardMaterial({ color: 0x9c755f }));
ball.position.set(0, 0.5, 0);
stage.scene.add(cloth, ball);

let last = performance.now(), owed = 0, drawn = remote.positions();
stage.renderer.setAnimationLoop((now) => {
  owed += (now - last) / 1000;
  last = now;
  if (remote.pending === 0) {   // the next step goes once the last one is done: steps never queue up
    remote.world.advance(owed);
    owed = 0;
  }
  // A new array after a step (single-threaded) or when the world grew; else the same memory, changed in place.
  if (remote.positions() !== drawn) setGeometryPositions(geometry, drawn = remote.positions());
  else refreshGeometry(geometry);
  stage.renderer.render(stage.scene, stage.camera);
});

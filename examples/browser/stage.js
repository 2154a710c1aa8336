// What every example page shares, so that each shows only its physics: a full-window renderer, a camera, lights, a
// ground drawn at y = 0 (where the world's ground is), resizing with the window; and the loop that steps the world
// at real speed and redraws its bodies.
import * as THREE from 'three';

/**
 * @param {{background: number, ground: number, cameraAt: number[], lookAt: number[]}} look colours (0xRRGGBB) and
 *   the camera's position and target, m.
 */
export function createStage({ background, ground, cameraAt, lookAt }) {
  const renderer = new THREE.WebGLRenderer({ antialias: true });
  renderer.setSize(innerWidth, innerHeight);
  renderer.setPixelRatio(devicePixelRatio);
  document.body.append(renderer.domElement);
  const scene = new THREE.Scene();
  scene.background = new THREE.Color(background);
  const camera = new THREE.PerspectiveCamera(45, innerWidth / innerHeight, 0.1, 100);
  camera.position.fromArray(cameraAt);
  camera.lookAt(...lookAt);
  const sun = new THREE.DirectionalLight(0xffffff, 2);
  sun.position.set(2, 4, 3);
  const floor = new THREE.Mesh(new THREE.PlaneGeometry(10, 10), new THREE.MeshStandardMaterial({ color: ground }));
  floor.rotation.x = -Math.PI / 2;
  scene.add(new THREE.HemisphereLight(0xffffff, 0x667777, 2), sun, floor);
  addEventListener('resize', () => {
    camera.aspect = innerWidth / innerHeight;
    camera.updateProjectionMatrix();
    renderer.setSize(innerWidth, innerHeight);
  });
  return { renderer, scene, camera };
}

/**
 * Every frame: `beforeFrame()`, then whole fixed steps of `world` for the time since the last frame (world.advance:
 * the same speed on a 60 Hz and a 144 Hz screen), each after `beforeStep(dt)`, then each body's update() and a render.
 */
export function animate({ renderer, scene, camera }, world, bodies, { beforeFrame, beforeStep } = {}) {
  let last = performance.now();
  renderer.setAnimationLoop((now) => {
    beforeFrame?.();
    world.advance((now - last) / 1000, { beforeStep });
    last = now;
    for (const body of bodies) body.update();
    renderer.render(scene, camera);
  });
}

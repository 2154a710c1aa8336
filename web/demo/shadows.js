// Soft shadows of the bodies on the ground: the sun (a directional light) casts them through a shadow map whose
// orthographic camera is fitted around the scene's bodies, so that its texels go to where the bodies are.
// three r187 filters a PCFShadowMap with light.shadow.radius (a 5-tap Vogel disk, rotated per pixel): that is its
// soft shadow; PCFSoftShadowMap was removed from it and falls back to PCF with a console warning.
import * as THREE from 'three';

const MARGIN = 0.5;   // m around the bodies' starting extent: they swing, fall and drape beyond it
let bodiesReceive = true;   // whether bodies and colliders show shadows too, or only the ground (enableShadows)

/**
 * Turns shadows on: `light` casts, `ground` receives, and bodies as shadowed() flags them. Drawn in software, every
 * shadow texel and every shadow lookup costs CPU, so such a page gets a 512² map (not 2048²) and shadows on the
 * ground only. Measured paused in headless Chromium (SwiftShader, 1024 x 640 at pixel ratio 0.5, on 2 cores shared
 * with other jobs, medians of four 3 s means), ms a frame without shadows / ground only / bodies receiving too:
 * drape 44 / 49 / 56, solvers 38 / 49 / 54, stack 17 / 26 / 29; a 1024² map added some 10 ms more.
 */
export function enableShadows(renderer, light, ground, { software = false } = {}) {
  bodiesReceive = !software;
  renderer.shadowMap.enabled = true;
  renderer.shadowMap.type = THREE.PCFShadowMap;
  light.castShadow = true;
  const size = software ? 512 : 2048;
  light.shadow.mapSize.set(size, size);
  light.shadow.radius = 4;           // texels of the filter's disk: a penumbra of 4 texels (over the solver
                                     // comparison's 7 m, some 5 cm from the 512² map, 1.4 cm from 2048²)
  light.shadow.bias = -0.0005;
  light.shadow.normalBias = 0.01;    // m: no shadow acne on the lit side of the cloth
  ground.receiveShadow = true;
}

/** A body's or collider's mesh: it casts a shadow, and shows others' and its own folds' (not drawn in software). */
export function shadowed(object) {
  object.castShadow = true;
  object.receiveShadow = bodiesReceive;
  return object;
}

const corner = new THREE.Vector3();

/**
 * Fits the light's shadow camera around `objects` as they are now (their bounds, MARGIN wider, down to the ground)
 * and their shadows on the ground y = 0: the light keeps its direction and is moved to look at their middle.
 * `extent` ([[x, y, z], [x, y, z]], optional): a box the scene's bodies keep to, for bodies that travel (a runner).
 * Returns the world box fitted, or null when there is nothing to fit (the camera is left as it was).
 */
export function fitShadowCamera(light, objects, extent = null) {
  const box = new THREE.Box3();
  for (const object of objects) {
    object.geometry.computeBoundingBox();   // bounds change every frame: the cached ones are stale
    box.expandByObject(object);
  }
  if (extent) for (const point of extent) box.expandByPoint(new THREE.Vector3().fromArray(point));
  if (box.isEmpty()) return null;
  box.min.x -= MARGIN; box.min.z -= MARGIN;
  box.max.x += MARGIN; box.max.z += MARGIN; box.max.y += MARGIN;
  box.min.y = 0;
  const centre = box.getCenter(new THREE.Vector3());
  const direction = light.position.clone().sub(light.target.position).normalize();
  const distance = box.getSize(new THREE.Vector3()).length() + 1;
  light.target.position.copy(centre);
  light.position.copy(centre).addScaledVector(direction, distance);
  light.updateMatrixWorld();
  light.target.updateMatrixWorld();
  const shadow = light.shadow;
  shadow.updateMatrices(light);   // the shadow camera placed at the light, looking at the target
  // The box's corners, and its top corners' shadows on the ground, in the shadow camera's frame.
  const lo = new THREE.Vector3(Infinity, Infinity, Infinity), hi = new THREE.Vector3(-Infinity, -Infinity, -Infinity);
  for (let k = 0; k < 12; k++) {
    corner.set(k & 1 ? box.max.x : box.min.x, k & 2 ? box.max.y : box.min.y, k & 4 ? box.max.z : box.min.z);
    if (k >= 8) corner.set(k & 1 ? box.max.x : box.min.x, box.max.y, k & 2 ? box.max.z : box.min.z)
      .addScaledVector(direction, -box.max.y / direction.y);
    corner.applyMatrix4(shadow.camera.matrixWorldInverse);
    lo.min(corner);
    hi.max(corner);
  }
  Object.assign(shadow.camera, { left: lo.x, right: hi.x, bottom: lo.y, top: hi.y, near: Math.max(0.01, -hi.z - 0.1),
    far: -lo.z + 0.1 });
  shadow.camera.updateProjectionMatrix();
  return box;
}

/**
 * The fraction of the points (xyz arrays, e.g. every world's particle positions) that the light's shadow camera
 * sees: what casts a shadow now. For the tests.
 */
export function shadowCoverage(light, arrays) {
  const { camera } = light.shadow;
  camera.updateMatrixWorld();
  const frustum = new THREE.Frustum().setFromProjectionMatrix(
    new THREE.Matrix4().multiplyMatrices(camera.projectionMatrix, camera.matrixWorldInverse));
  let inside = 0, total = 0;
  for (const x of arrays) {
    for (let i = 0; i < x.length; i += 3) {
      total++;
      if (frustum.containsPoint(corner.set(x[i], x[i + 1], x[i + 2]))) inside++;
    }
  }
  return total ? inside / total : 0;
}

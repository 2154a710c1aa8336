// Character cloth: a cape, skinned to a character's torso bone, runs in circles with it and swings behind
// (pbd-wasm/three's PbdSkinnedCloth). Its shoulders follow the skin exactly; lower down each vertex may swing further
// from where the animation puts it (the clothWeight attribute: 0 at the shoulders, 1 at the hem, times maxDistance),
// and never passes behind the backstop under the skin, so it cannot fold into the body.
import * as THREE from 'three';
import { createPbd } from 'pbd-wasm';
import { PbdSkinnedCloth } from 'pbd-wasm/three';
import { animate, createStage } from './stage.js';

const stage = createStage({ background: 0xdfe7ef, ground: 0xb8c4a8, cameraAt: [0, 2.2, 4.2], lookAt: [0, 1, 0] });
const pbd = await createPbd();
const world = new pbd.World();
world.setSubsteps(8);

// The character: a root bone that runs a circle, a torso bone that leans and turns with the stride.
const root = new THREE.Bone(), torso = new THREE.Bone();
torso.position.set(0, 1.0, 0);
root.add(torso);
const skin = new THREE.MeshStandardMaterial({ color: 0x6d597a });
const body = new THREE.Mesh(new THREE.CapsuleGeometry(0.17, 0.5), skin);
body.position.set(0, 0.2, 0);
const head = new THREE.Mesh(new THREE.SphereGeometry(0.12), skin);
head.position.set(0, 0.65, 0);
torso.add(body, head);
const legs = [-0.09, 0.09].map((x) => {   // hips at 0.8 m, swinging with the stride
  const hip = new THREE.Group();
  hip.position.set(x, 0.8, 0);
  const leg = new THREE.Mesh(new THREE.CapsuleGeometry(0.07, 0.6), skin);
  leg.position.set(0, -0.38, 0);
  hip.add(leg);
  root.add(hip);
  return hip;
});

// The cape: a 0.6 × 0.8 m sheet behind the shoulders (front faces away from the body, towards −z), skinned to the torso.
const columns = 16, rows = 20, width = 0.6, height = 0.8, top = 1.45;
const geometry = new THREE.PlaneGeometry(width, height, columns - 1, rows - 1);
geometry.rotateY(Math.PI);
geometry.translate(0, top - height / 2, -0.2);
const count = geometry.attributes.position.count;
geometry.setAttribute('skinIndex', new THREE.Uint16BufferAttribute(new Uint16Array(4 * count).map((_, k) => (k % 4 === 0 ? 1 : 0)), 4));
geometry.setAttribute('skinWeight', new THREE.Float32BufferAttribute(new Float32Array(4 * count).map((_, k) => (k % 4 === 0 ? 1 : 0)), 4));
geometry.setAttribute('clothWeight', new THREE.Float32BufferAttribute(
  Float32Array.from({ length: count },
    (_, v) => Math.min(1, Math.max(0, (top - geometry.attributes.position.getY(v)) / height))), 1));
const capeSkin = new THREE.SkinnedMesh(geometry, new THREE.MeshBasicMaterial());
root.updateMatrixWorld(true);   // bound in this pose: the cape's geometry is where the torso is now
capeSkin.bind(new THREE.Skeleton([root, torso]));
capeSkin.visible = false;   // the cloth draws the cape; the skinned mesh only animates it
stage.scene.add(root, capeSkin);   // the bones (and the body on them) drawn; the skin not

const cape = new PbdSkinnedCloth(world, capeSkin, { maxDistance: 0.5, weights: 'clothWeight', mass: 0.4,
  backstopDistance: 0.02, bend: { compliance: 1e-3 } },
{ material: new THREE.MeshStandardMaterial({ color: 0xc1121f, side: THREE.DoubleSide, roughness: 0.7 }) });
stage.scene.add(cape);

let time = 0;
animate(stage, world, [cape], {
  beforeStep(dt) {
    time += dt;
    const angle = 1.6 * time;   // a 1.2 m circle at about 2 m/s
    root.position.set(1.2 * Math.cos(angle), 0.04 * Math.abs(Math.sin(8 * time)), -1.2 * Math.sin(angle));
    root.rotation.y = angle + Math.PI;   // facing along the circle, the cape trailing
    torso.rotation.set(0.25, 0.2 * Math.sin(4 * time), 0);
    legs.forEach((hip, k) => { hip.rotation.x = 0.6 * Math.sin(8 * time + k * Math.PI); });
    root.updateMatrixWorld(true);
    cape.updateSkin();
  },
});

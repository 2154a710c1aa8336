// A flag in the wind: a three.js PlaneGeometry made into cloth with clothFromMesh, pinned along its edge at the pole.
// The wind is a force per particle, set before each step: the pressure of the air's velocity relative to the cloth
// on its normal, f = ½ ρ (u·n)|u·n| n A with u = wind − v, plus a little drag along u. Gusts travel down the flag,
// so it ripples and flaps. Press and drag to look around.
import * as THREE from 'three';
import { OrbitControls } from 'three/addons/controls/OrbitControls.js';
import { createPbd } from 'pbd-wasm';
import { clothFromMesh } from 'pbd-wasm/three';
import { animate, createStage } from './stage.js';

const stage = createStage({ background: 0xcfe3f3, ground: 0x9fb98a, cameraAt: [2.4, 1.5, 2.4], lookAt: [0.5, 1.1, 0] });
const { scene, camera, renderer } = stage;
const [WIDTH, HEIGHT, TOP] = [1.2, 0.8, 2];   // m; the flag's pole edge is at x = 0, its top edge at y = TOP
const MASS = 0.15;                            // kg: light fabric, 156 g/m²

const pole = new THREE.Mesh(new THREE.CylinderGeometry(0.02, 0.025, TOP + 0.1, 16),
  new THREE.MeshStandardMaterial({ color: 0xd8d8d8, metalness: 0.6, roughness: 0.3 }));
pole.position.set(-0.022, (TOP + 0.1) / 2, 0);
const knob = new THREE.Mesh(new THREE.SphereGeometry(0.04, 16, 8), new THREE.MeshStandardMaterial({ color: 0xd4a017 }));
knob.position.set(-0.022, TOP + 0.12, 0);
scene.add(pole, knob);

// Three stripes and a disc, drawn on a canvas: PlaneGeometry's uvs carry over to the cloth.
const canvas = Object.assign(document.createElement('canvas'), { width: 300, height: 200 });
const paint = canvas.getContext('2d');
['#1d3557', '#f1faee', '#e63946'].forEach((colour, k) => {
  paint.fillStyle = colour;
  paint.fillRect(0, (k * 200) / 3, 300, 200 / 3);
});
paint.fillStyle = '#f4a261';
paint.arc(110, 100, 45, 0, 2 * Math.PI);
paint.fill();
const map = new THREE.CanvasTexture(canvas);
map.colorSpace = THREE.SRGBColorSpace;

const pbd = await createPbd();
const world = new pbd.World();
const mesh = new THREE.Mesh(new THREE.PlaneGeometry(WIDTH, HEIGHT, 24, 16));   // in the x-y plane, facing +z
mesh.position.set(WIDTH / 2, TOP - HEIGHT / 2, 0);
mesh.updateMatrixWorld();   // the geometry is read in world coordinates
const flag = clothFromMesh(world, mesh, {
  mass: MASS,
  pinRegions: [{ centre: [0, TOP - HEIGHT / 2, 0], halfExtents: [1e-3, HEIGHT / 2 + 1e-3, 1e-3] }],   // the pole edge
}, { material: new THREE.MeshStandardMaterial({ map, side: THREE.DoubleSide, roughness: 0.8 }) });
scene.add(flag);

const orbit = new OrbitControls(camera, renderer.domElement);
orbit.target.set(0.5, 1.1, 0);
orbit.update();

/** The wind in m/s at time t (s) and a point (x, y): a breeze along +x that swells, and gusts across it. */
const wind = (t, x, y) => [6 + 1.5 * Math.sin(0.7 * t), 0, 4 * Math.sin(7 * t - 6 * x + 1.5 * y)];
const AIR = 0.5 * 1.2;                         // ½ ρ, air at 1.2 kg/m³
const AREA_PER_KG = (WIDTH * HEIGHT) / MASS;   // mass is spread by area: a particle's area is its mass times this
const SKIN = 0.05;                             // drag along the flow, against 1 on the normal

/** Sets each particle's wind force for a step at time t, from the cloth's normals (n) as its last update() left them. */
function blow(t) {
  const x = world.positions(), v = world.velocities(), w = world.inverseMasses();
  const n = flag.geometry.attributes.normal.array, first = flag.range.firstParticle;
  for (let i = 0; i < flag.range.particleCount; i++) {
    const p = 3 * (first + i);
    if (w[first + i] === 0) continue;   // pinned
    const [wx, wy, wz] = wind(t, x[p], x[p + 1]);
    const ux = wx - v[p], uy = wy - v[p + 1], uz = wz - v[p + 2];   // the air relative to the cloth
    const un = ux * n[3 * i] + uy * n[3 * i + 1] + uz * n[3 * i + 2];
    const k = (AIR * AREA_PER_KG) / w[first + i];   // ½ ρ A of this particle
    const normal = k * Math.abs(un) * un, along = k * SKIN * Math.hypot(ux, uy, uz);
    world.setExternalForce(first + i,
      normal * n[3 * i] + along * ux, normal * n[3 * i + 1] + along * uy, normal * n[3 * i + 2] + along * uz);
  }
}

// The force depends on the cloth's velocity and normals, so it is set anew before every step (one force held over a
// long frame's several steps would overshoot).
let time = 0;
animate(stage, world, [flag], { beforeStep: (dt) => { flag.update(); blow((time += dt)); } });

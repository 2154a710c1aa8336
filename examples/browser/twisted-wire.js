// Cosserat rods with PbdRod: a copper wire clamped at both ends is twisted at its right end while the ends close in;
// past Greenhill's critical twist it coils out of its plane into a helix (the stripe shows the twist winding along
// it). Beside it, strands of hair hang from a bar; drag to look around.
import { OrbitControls } from 'three/addons/controls/OrbitControls.js';
import { createPbd } from 'pbd-wasm';
import { PbdRod } from 'pbd-wasm/three';
import { animate, createStage } from './stage.js';

const stage = createStage({ background: 0xdfe7ee, ground: 0xa9b4a0, cameraAt: [0.3, 1.3, 1.8], lookAt: [0, 1, 0] });
const { scene, camera, renderer } = stage;

const pbd = await createPbd();
const world = new pbd.World();

// The wire: 1.2 m of copper-coloured wire, 4 mm thick, clamped at both ends (two particles pinned and the end
// segment's frame held, at each end).
const N = 60, LENGTH = 1.2, E = 1e8, G = 4e7;
const points = [];
for (let k = 0; k <= N; k++) points.push(-0.6 + (LENGTH * k) / N, 1.2 + 1e-3 * Math.sin((Math.PI * k) / N), 0);
const wire = new PbdRod(world, { points, radius: 0.004, youngsModulus: E, shearModulus: G,
  pinned: [0, 1, N - 1, N], clampedSegments: [0, N - 1] }, { radialSegments: 12 });

// Hair: soft strands pinned and clamped at the top.
const strands = [];
for (let k = 0; k < 6; k++) {
  const hair = [];
  for (let j = 0; j <= 40; j++) hair.push(-0.2 + 0.08 * k, 1.6 - (0.6 * j) / 40, -0.4);
  strands.push(new PbdRod(world, { points: hair, radius: 0.0015, density: 1300, youngsModulus: 4e9, shearModulus: 1.5e9,
    pinned: [0, 1], clampedSegments: [0] }, { colour: 0x4a3728, stripe: 0x4a3728, radialSegments: 6 }));
}
scene.add(wire, ...strands);

const orbit = new OrbitControls(camera, renderer.domElement);
orbit.target.set(0, 1, 0);
orbit.update();

// The right end: turned about the wire's axis to 1.6 times the critical twist 1.43 π E / G (Greenhill, clamped ends),
// and moved 0.2 m in, over 6 s.
const last = wire.body.firstSegment + N - 1, TWIST = 1.6 * 1.43 * Math.PI * (E / G);
const rest = Array.from(world.segmentOrientations().subarray(4 * last, 4 * last + 4));
const ends = [N - 1, N].map((i) => world.positions()[3 * (wire.body.firstParticle + i)]);
let time = 0;
animate(stage, world, [wire, ...strands], {
  beforeStep: (dt) => {
    time += dt;
    const ramp = Math.min(1, time / 6), half = (TWIST * ramp) / 2, [x, y, z, w] = rest;
    const s = Math.sin(half), c = Math.cos(half);
    world.setSegmentOrientation(last, [c * x + s * w, c * y - s * z, c * z + s * y, c * w - s * x]);
    ends.forEach((x0, k) => world.setPosition(wire.body.firstParticle + N - 1 + k, [x0 - 0.2 * ramp, 1.2, 0]));
  },
});

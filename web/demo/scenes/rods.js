// Cosserat rods: a wire clamped at both ends with slack (it hangs in a bow between its clamps, 1.2 m of wire over
// 1 m), twisted at one end: it turns out of its plane and coils, as a phone cord does. Beside it, strands of hair hang
// from a bar and swing. Each is a rod of addRod: particles plus one frame per segment, with stretch, shear, bending and
// twist from its material.
import { ropeDrawable } from './drawables.js';

const WIRE = { segments: 60, span: 1, rise: -0.28, radius: 0.004, youngsModulus: 1e8, shearModulus: 4e7 };
const TWIST = 6 * Math.PI, RAMP = 6;   // rad and s: how far the right end turns, and how long it takes

/** The wire's rest shape: a bow from (x0, y0, z) over `span` m, y0 + rise/2 (1 − cos 2πs): level at both clamps. */
function bow([x0, y0, z], { segments, span, rise }) {
  const points = [];
  for (let k = 0; k <= segments; k++) {
    const s = k / segments;
    points.push(x0 + span * s, y0 + (rise / 2) * (1 - Math.cos(2 * Math.PI * s)), z);
  }
  return points;
}

/** A strand of `count` particles `spacing` apart, hanging down from (x, top, z). */
function strand(x, top, z, count, spacing) {
  return Array.from({ length: 3 * count }, (_, k) => [x, top - spacing * Math.floor(k / 3), z][k % 3]);
}

/** q turned by `angle` about x, as [x, y, z, w]. */
function turnedAboutX([x, y, z, w], angle) {
  const s = Math.sin(angle / 2), c = Math.cos(angle / 2);
  return [c * x + s * w, c * y - s * z, c * z + s * y, c * w - s * x];
}

export default {
  title: 'Cosserat rods: a wire twisted into a coil, and hair',
  hint: 'the wire\'s right end turns three times and the wire coils; grab a strand of hair and swing it',
  camera: { position: [0.3, 1.4, 2.4], target: [0.1, 1.1, 0] },
  shadowExtent: [[-1, 0, -0.8], [1.2, 1.8, 0.8]],   // the coil and the swinging hair stay in it
  params: { substeps: 10 },
  build({ addWorld }) {
    const world = addWorld();
    const n = WIRE.segments;
    const wire = world.addRod({ points: bow([-0.6, 1.3, -0.2], WIRE), radius: WIRE.radius,
      youngsModulus: WIRE.youngsModulus, shearModulus: WIRE.shearModulus, pinned: [0, 1, n - 1, n],
      clampedSegments: [0, n - 1] });
    const lastSegment = wire.firstSegment + n - 1;
    const rest = Array.from(world.segmentOrientations().subarray(4 * lastSegment, 4 * lastSegment + 4));
    const drawables = [ropeDrawable(world, wire, 'rope2', 'twisted wire')];
    for (let k = 0; k < 6; k++) {
      const hair = world.addRod({ points: strand(0.3 + 0.07 * k, 1.6, 0.3, 40, 0.0175), radius: 0.0008, density: 1300,
        youngsModulus: 4e9, shearModulus: 1.5e9, pinned: [0, 1], clampedSegments: [0] });
      drawables.push(ropeDrawable(world, hair, 'rope', k === 0 ? 'hair' : undefined));
    }
    /** The wire's right end at time t: turned by up to TWIST about its axis over RAMP seconds. */
    const turnWire = (t) => world.setSegmentOrientation(lastSegment, turnedAboutX(rest, TWIST * Math.min(1, t / RAMP)));
    return { drawables, colliders: [], tunable: [], onFrame: (t) => turnWire(t + 1 / 60) };
  },
};

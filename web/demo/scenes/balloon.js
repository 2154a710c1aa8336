// Pressure balloons: closed triangle meshes (icospheres, welded from a three.js geometry) whose enclosed volume is a
// constraint, C = V − p·V0. One keeps its volume, one is inflated to 1.4 V0 (p = 1.4), one may only grow (a
// balloon whose skin can go slack but never be squeezed below its volume).
import { IcosahedronGeometry } from 'three';
import { kindParams } from '../constraint-params.js';
import { colliderDrawable, surfaceDrawable } from './drawables.js';

const BALLOONS = [
  { x: -0.9, pressure: 1.0, volumeOnlyResistsCompression: false, style: 'balloon' },
  { x: 0, pressure: 1.4, volumeOnlyResistsCompression: false, style: 'balloon2' },
  { x: 0.9, pressure: 1.0, volumeOnlyResistsCompression: true, style: 'balloon3' },
];
const BEND = { compliance: 1, stiffness: 0.02 };    // dihedral bending, as built (and the panel's start)
const VOLUME = { compliance: 0, stiffness: 1 };     // the enclosed-volume constraint: exactly p V0
const POST = { shape: 'capsule', position: [0, 0.35, 0], radius: 0.12, halfHeight: 0.25, thickness: 0.01, friction: 0.3 };

export default {
  title: 'Pressure balloons',
  hint: 'left: volume kept; middle: inflated to 1.4 V0; right: may only grow. Squeeze them with the mouse',
  camera: { position: [0.5, 1.6, 3.8], target: [0.4, 0.6, 0] },
  params: { ...kindParams('dihedral', BEND), ...kindParams('surfaceVolume', VOLUME) },
  build({ addWorld }) {
    const world = addWorld();
    const colliders = [colliderDrawable(world, world.addCollider(POST), POST)];
    const drawables = [];
    const tunable = [];
    for (const { x, pressure, volumeOnlyResistsCompression, style } of BALLOONS) {
      const sphere = new IcosahedronGeometry(0.3, 4).translate(x, 1.3, 0);
      const positions = sphere.attributes.position.array;
      const triangles = Uint32Array.from({ length: positions.length / 3 }, (_, i) => i);   // non-indexed: welded
      const body = world.addTriangleMesh({ positions, triangles, mass: 0.2, pressure, volumeOnlyResistsCompression,
        stretch: { compliance: 1e-4, stiffness: 0.5 }, bend: BEND, volume: VOLUME });
      drawables.push(surfaceDrawable(world, body, triangles, style, 'balloon', body.renderToParticle));
      tunable.push({ world, first: body.firstConstraint, count: body.constraintCount });
      sphere.dispose();
    }
    return { drawables, colliders, tunable };
  },
};

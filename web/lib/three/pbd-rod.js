/**
 * PbdRod: a Cosserat rod added to a World (world.addRod), drawn as a three.js tube around its particles. Each ring of
 * the tube turns with the rod's frames (the mean of the two segments' orientations at a particle), and a stripe runs
 * along the frames' first axis, so twist shows as the stripe winding round the tube.
 */
import { BufferAttribute, BufferGeometry, Color } from 'three';
import { PbdBodyMesh } from './body-mesh.js';

const DEFAULT_RADIUS = 0.005;   // RodOptions.radius's default

/** A tube of `rings` rings of `sides` vertices (positions, normals and colours filled by update()), closed round. */
function tubeGeometry(rings, sides, colour, stripe) {
  const geometry = new BufferGeometry();
  const vertices = rings * sides;
  geometry.setAttribute('position', new BufferAttribute(new Float32Array(3 * vertices), 3));
  geometry.setAttribute('normal', new BufferAttribute(new Float32Array(3 * vertices), 3));
  const colours = new Float32Array(3 * vertices);
  for (let v = 0; v < vertices; v++) (v % sides === 0 ? stripe : colour).toArray(colours, 3 * v);
  geometry.setAttribute('color', new BufferAttribute(colours, 3));
  const index = new Uint32Array(6 * (rings - 1) * sides);
  let k = 0;
  for (let r = 0; r + 1 < rings; r++) {
    for (let s = 0; s < sides; s++) {
      const a = r * sides + s, b = r * sides + ((s + 1) % sides), c = a + sides, d = b + sides;
      index.set([a, b, c, b, d, c], k);
      k += 6;
    }
  }
  geometry.setIndex(new BufferAttribute(index, 1));
  return geometry;
}

export class PbdRod extends PbdBodyMesh {
  /**
   * @param {object} world a pbd World.
   * @param {import('../index').RodOptions} options what world.addRod takes.
   * @param {{material?: import('three').Material, radialSegments?: number, colour?: number, stripe?: number}} [view]
   *   the tube's material (default: a standard material with the vertex colours), its sides (default 8), and the
   *   colours (0xRRGGBB) of the tube and of its stripe.
   */
  constructor(world, options, view = {}) {
    const record = world.addRod(options);
    const sides = view.radialSegments ?? 8;
    const geometry = tubeGeometry(record.particleCount, sides, new Color(view.colour ?? 0xb87333),
      new Color(view.stripe ?? 0xf4f1de));
    super(world, record, geometry, view.material);
    if (view.material === undefined) this.material.vertexColors = true;
    /** What world.addRod returned (with firstSegment and segmentCount). */
    this.body = record;
    this.radius = options.radius ?? DEFAULT_RADIUS;
    this.sides = sides;
    this.update();
  }

  /** Call once per rendered frame: lays the tube's rings around the particles, turned with the frames. */
  update() {
    this.checkAlive('update');
    this.followRecord('update');
    const x = this.world.positions(), q = this.world.segmentOrientations();
    const { firstParticle, particleCount } = this.range, firstSegment = this.record.firstSegment;
    const position = this.geometry.attributes.position, normal = this.geometry.attributes.normal;
    const frame = [0, 0, 0, 0];
    for (let i = 0; i < particleCount; i++) {
      // The frame at a particle: its two segments' quaternions averaged (the nearer sign), normalized.
      const before = Math.max(0, i - 1), after = Math.min(particleCount - 2, i);
      const a = 4 * (firstSegment + before), b = 4 * (firstSegment + after);
      const sign = q[a] * q[b] + q[a + 1] * q[b + 1] + q[a + 2] * q[b + 2] + q[a + 3] * q[b + 3] < 0 ? -1 : 1;
      for (let c = 0; c < 4; c++) frame[c] = q[a + c] + sign * q[b + c];
      const length = Math.hypot(...frame);
      const [fx, fy, fz, fw] = frame.map((c) => c / length);
      // d1 = q e1 q̄, d2 = q e2 q̄.
      const d1 = [1 - 2 * (fy * fy + fz * fz), 2 * (fx * fy + fw * fz), 2 * (fx * fz - fw * fy)];
      const d2 = [2 * (fx * fy - fw * fz), 1 - 2 * (fx * fx + fz * fz), 2 * (fy * fz + fw * fx)];
      const p = 3 * (firstParticle + i);
      for (let s = 0; s < this.sides; s++) {
        const angle = (2 * Math.PI * s) / this.sides, cos = Math.cos(angle), sin = Math.sin(angle);
        const v = i * this.sides + s;
        for (let c = 0; c < 3; c++) {
          const n = cos * d1[c] + sin * d2[c];
          normal.array[3 * v + c] = n;
          position.array[3 * v + c] = x[p + c] + this.radius * n;
        }
      }
    }
    position.needsUpdate = true;
    normal.needsUpdate = true;
    this.geometry.computeBoundingSphere();
    this.geometry.computeBoundingBox();
  }
}

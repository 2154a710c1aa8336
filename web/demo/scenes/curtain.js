// A curtain hanging from a rail in a gusty wind. The wind acts per particle as the pressure of the relative air
// velocity on the cloth's local normal, f = ½ ρ C_d |u·n| (u·n) n A with u = wind − v, so a curtain that turns
// edge-on to the wind is pushed less, and a curtain moving with the wind feels none.
import { kindParams } from '../constraint-params.js';
import { colliderDrawable, gridDrawable } from './drawables.js';

const COLUMNS = 48, ROWS = 36, WIDTH = 2, TOP = 2.0;
const BEND = { compliance: 1e-2, stiffness: 0.1 };   // dihedral bending, as built (and the panel's start)
const SPACING = WIDTH / (COLUMNS - 1);   // m, square cells: 1.49 m tall
const RING_EVERY = 4, GATHER = 0.75;     // a ring every 4 columns; rings 0.75 of the cloth's width apart in all
const AIR = 0.5 * 1.2 * 1.0;          // ½ ρ C_d: air density 1.2 kg/m³, drag coefficient of a flat sheet ≈ 1
const CELL_AREA = SPACING * SPACING;  // m², the cloth area per particle

/**
 * The wind in m/s along +z at time t (s) and position (x, y) (m): a steady breeze with slow gusts, and eddies that
 * travel across the curtain at different heights, so that it billows and ripples instead of swinging as a board.
 */
function wind(t, x, y) {
  return 1.0 + 0.6 * Math.sin(0.8 * t) + 0.45 * Math.sin(2.1 * t - 2.5 * x + 1.3 * y)
    + 0.35 * Math.sin(3.4 * t + 3.1 * x - 2.6 * y);
}

export default {
  title: 'Curtain in the wind',
  hint: 'gusts push the curtain; drag it with the mouse',
  camera: { position: [2.2, 1.5, 3.0], target: [0, 1.1, 0.3] },
  params: { damping: 0.02, ...kindParams('dihedral', BEND) },
  build({ addWorld }) {
    const world = addWorld();
    // Hung by rings: every RING_EVERY-th top particle is pinned, and the rings are drawn together to GATHER of the
    // cloth's width, so the curtain falls in pleats between them instead of hanging as one flat sheet.
    const rings = Array.from({ length: Math.floor((COLUMNS - 1) / RING_EVERY) + 1 }, (_, k) => k * RING_EVERY);
    const curtain = world.addCloth({ columns: COLUMNS, rows: ROWS, spacing: SPACING,
      origin: [-WIDTH / 2, TOP, 0], axisU: [1, 0, 0], axisV: [0, -1, 0],
      mass: 0.6, pinned: rings, bendModel: 'dihedral', bend: BEND });
    for (const c of rings) {
      const x = (-WIDTH / 2 + c * SPACING) * GATHER;
      world.setPosition(curtain.firstParticle + c, [x, TOP, 0.04 * (c / RING_EVERY % 2 ? 1 : -1)]);
    }
    const rail = { shape: 'capsule', position: [0, TOP + 0.03, 0], rotation: [0, 0, 0.7071068, 0.7071068],
      radius: 0.02, halfHeight: GATHER * WIDTH / 2 + 0.1, thickness: 0 };
    const colliders = [colliderDrawable(world, world.addCollider(rail), rail)];
    const first = curtain.firstParticle;
    return {
      drawables: [gridDrawable(world, curtain, COLUMNS, ROWS, 'curtain', 'curtain')],
      colliders,
      tunable: [{ world, first: curtain.firstConstraint, count: curtain.constraintCount }],
      onFrame(t) {
        const x = world.positions(), v = world.velocities(), w = world.inverseMasses();
        const at = (r, c, k) => x[3 * (first + r * COLUMNS + c) + k];
        for (let r = 0; r < ROWS; r++) {
          for (let c = 0; c < COLUMNS; c++) {
            const i = first + r * COLUMNS + c;
            if (w[i] === 0) continue;
            // The normal from the grid neighbours (central differences, one-sided at the border).
            const c0 = Math.max(c - 1, 0), c1 = Math.min(c + 1, COLUMNS - 1);
            const r0 = Math.max(r - 1, 0), r1 = Math.min(r + 1, ROWS - 1);
            const ux = at(r, c1, 0) - at(r, c0, 0), uy = at(r, c1, 1) - at(r, c0, 1), uz = at(r, c1, 2) - at(r, c0, 2);
            const vx = at(r1, c, 0) - at(r0, c, 0), vy = at(r1, c, 1) - at(r0, c, 1), vz = at(r1, c, 2) - at(r0, c, 2);
            const nx = uy * vz - uz * vy, ny = uz * vx - ux * vz, nz = ux * vy - uy * vx;
            const length = Math.hypot(nx, ny, nz) || 1;
            const ax = -v[3 * i], ay = -v[3 * i + 1], az = wind(t, x[3 * i], x[3 * i + 1]) - v[3 * i + 2];   // air relative to cloth
            const un = (ax * nx + ay * ny + az * nz) / length;
            const f = AIR * Math.abs(un) * un * CELL_AREA / length;
            world.setExternalForce(i, f * nx, f * ny, f * nz);
          }
        }
      },
    };
  },
};

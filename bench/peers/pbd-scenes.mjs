// The peer benchmark's scenes (scene-defs.mjs) built in pbd-wasm. Each builder returns the same small handle as its
// twin in jolt-scenes.mjs: step() advances one frame, positions() copies world-space xyz, delete() frees the world.
import { createPbd } from '../../web/lib/index.js';
import { CLOTH_GROUND_Y, CUBE_DENSITY, CUBE_FRICTION, GRAVITY, SUBSTEPS, DT, clothDef, cubeDef } from './scene-defs.mjs';

/** Loads a pbd-wasm build: variant 'single' or 'threaded', threads including the caller. */
export function loadPbd({ variant, threads = 1 }) {
  return createPbd({ variant, threads });
}

function configure(world, groundY, gravity = GRAVITY, substeps = SUBSTEPS) {
  world.setMethod('xpbd');
  world.setSubsteps(substeps);
  world.setIterations(1);
  world.setGravity(0, gravity, 0);
  world.setLinearDamping(0);
  world.setGround({ height: groundY, friction: CUBE_FRICTION, restitution: 0, thickness: 0 });
}

// constraintCount: every constraint of the body (BodyRange.constraintCount counts its distance constraints only).
function handle(world, def, body) {
  return {
    def,
    world,
    particleCount: body.particleCount,
    constraintCount: body.constraintCount + body.volumeCount + body.dihedralCount + body.tetherCount,
    step: () => world.step(DT),
    positions: () => world.positions().slice(),
    delete: () => world.delete(),
  };
}

/** The hanging cloth, exactly tests/scenes/scenes.h hangingCloth (addCloth builds clothDef(n)'s constraint set). */
export function pbdCloth(pbd, n, { gravity = GRAVITY, substeps = SUBSTEPS } = {}) {
  const def = clothDef(n);
  const world = new pbd.World();
  configure(world, CLOTH_GROUND_Y, gravity, substeps);
  const body = world.addCloth({ columns: n, rows: n, spacing: def.spacing, origin: [-0.5, 1, 0], axisU: [1, 0, 0], axisV: [0, 0, 1],
    mass: def.mass, pinned: def.pinned, stretch: { compliance: 0 }, shear: { compliance: 0 },
    bend: { compliance: 0, stiffness: 1 }, bendModel: 'skip-one', tethers: 'none' });
  if (body.constraintCount !== def.constraintCount || body.tetherCount !== 0) {
    throw new Error(`pbdCloth: ${body.constraintCount} constraints, scene-defs expects ${def.constraintCount}`);
  }
  return handle(world, def, body);
}

/** The soft cube: volume constraint per tet, distance constraint per tet edge, all rigid; ground at y = 0. */
export function pbdCube(pbd, cells) {
  const def = cubeDef(cells);
  const world = new pbd.World();
  configure(world, 0);
  const body = world.addSoftBody({ positions: def.positions, tets: def.tets, density: CUBE_DENSITY, material: 'volume',
    edgeConstraints: true, edges: { compliance: 0 }, volume: { compliance: 0 } });
  if (body.constraintCount !== def.edges.length || body.volumeCount !== def.tets.length / 4) {
    throw new Error('pbdCube: constraint counts differ from scene-defs');
  }
  return handle(world, def, body);
}

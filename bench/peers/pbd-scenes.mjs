// The peer benchmark's scenes (bench/scenes.mjs) built in pbd-wasm. Each builder returns the same small handle as its
// twin in jolt-scenes.mjs: step() advances one frame, positions() copies world-space xyz, delete() frees the world.
import { createPbd } from '../../web/lib/index.js';
import { DT, GRAVITY, SUBSTEPS, benchScene, benchSceneDef, buildBenchScene, clothDef, cubeDef } from '../scenes.mjs';

/** Loads a pbd-wasm build: variant 'single' or 'threaded', threads including the caller. */
export function loadPbd({ variant, threads = 1 }) {
  return createPbd({ variant, threads });
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

/**
 * Any benchScene() (bench/scenes.mjs buildBenchScene: the grid cloth by addCloth, the other cloths by addParticles
 * + addDistanceConstraints, the tet meshes by addSoftBody). def: benchSceneDef(scene), required for bunnyTets; poolUse:
 * World.setPoolUse's argument (default: the package's own).
 */
export function pbdScene(pbd, scene, def = benchSceneDef(scene), poolUse = undefined) {
  const world = new pbd.World();
  if (poolUse) world.setPoolUse(poolUse);
  try {
    return handle(world, def, buildBenchScene(world, scene, def));
  } catch (e) {
    world.delete();
    throw e;
  }
}

/** The hanging cloth (bench/scenes.mjs hangingCloth, exactly tests/scenes/scenes.h hangingCloth). */
export function pbdCloth(pbd, n, { gravity = GRAVITY, substeps = SUBSTEPS } = {}) {
  return pbdScene(pbd, { ...benchScene(`cloth${n}`), gravity, substeps }, clothDef(n));
}

/** The soft cube: volume constraint per tet, distance constraint per tet edge, all rigid; ground at y = 0. */
export function pbdCube(pbd, cells) {
  return pbdScene(pbd, benchScene(`cube${cells}`), cubeDef(cells));
}

// The peer benchmark's scenes (bench/scenes.mjs) built in pbd-wasm. Each builder returns the same small handle as its
// twin in jolt-scenes.mjs: step() advances one frame, positions() copies world-space xyz, delete() frees the world.
import { createPbd } from '../../web/lib/index.js';
import { DT, GRAVITY, SUBSTEPS, clothDef, cubeDef, hangingCloth, softCube } from '../scenes.mjs';

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

/** The hanging cloth (bench/scenes.mjs hangingCloth, exactly tests/scenes/scenes.h hangingCloth). */
export function pbdCloth(pbd, n, { gravity = GRAVITY, substeps = SUBSTEPS } = {}) {
  const world = new pbd.World();
  return handle(world, clothDef(n), hangingCloth(world, n, { gravity, substeps }));
}

/** The soft cube: volume constraint per tet, distance constraint per tet edge, all rigid; ground at y = 0. */
export function pbdCube(pbd, cells) {
  const world = new pbd.World();
  return handle(world, cubeDef(cells), softCube(world, cells));
}

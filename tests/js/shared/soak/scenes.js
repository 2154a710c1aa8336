// The soak scenes: every demo scene (web/demo) plus a rope, a pressure balloon and a self-colliding cloth, each built
// into a fresh World. A scene returns what the soak driver needs beside the world: the distance-constraint ranges whose
// strength the parameter schedule changes, with their sane values.
import RAPIER from '@dimforge/rapier3d-compat';
import { CLOTH, COLLIDERS, SOFT_BUNNY, SOFT_CUBE } from '../../../../web/demo/cloth-scene.js';
import { bunnyMesh } from '../../../../web/demo/bunny-mesh.js';
import { tetCube } from '../../../../web/demo/tet-cube.js';
import { uvSphere } from '../uv-sphere.js';
import { applyParams, buildScene as buildGalleryScene, createAssets, sceneParams }
  from '../../../../web/demo/scene-host.js';
import { SCENES as GALLERY } from '../../../../web/demo/scenes/index.js';

/** Every scene's ground: the plane y = 0 (the energy's zero of potential, see monitor.js). */
export const GROUND = { enabled: true, height: 0, friction: 0.4, thickness: 0.005 };

/** A distance-constraint range [first, first + count) and its sane strength (compliance m/N, stiffness [0, 1]). */
const range = (first, count, compliance, stiffness) => ({ first, count, compliance, stiffness });

function demoCloth(pbd, world) {
  for (const collider of COLLIDERS) world.addCollider(collider);
  const cloth = world.addCloth(CLOTH);
  // As the demo panel does: stretch and shear follow the settings, the skip-one bend edges (the last family) stay soft.
  const bend = (CLOTH.columns - 2) * CLOTH.rows + CLOTH.columns * (CLOTH.rows - 2);
  return [range(cloth.firstConstraint, cloth.constraintCount - bend, 0, 1)];
}

function softBody(world, mesh, material) {
  const { edges, ...rest } = material;
  const body = world.addSoftBody({ positions: mesh.positions, tets: mesh.tets, edges, ...rest });
  return [range(body.firstConstraint, body.constraintCount, edges.compliance, edges.stiffness)];
}

function softCube(pbd, world) {
  const { cells, size, origin, ...material } = SOFT_CUBE;
  return softBody(world, tetCube(cells, size, origin), material);
}

const bunnyTets = new WeakMap();   // per loaded module: the tet mesh is the same every time, tetrahedralize once

function softBunny(pbd, world) {
  const { scale, offset, resolution, ...material } = SOFT_BUNNY;
  if (!bunnyTets.has(pbd)) {
    const surface = bunnyMesh(scale, offset[1]);
    bunnyTets.set(pbd, pbd.tetrahedralize(surface.positions, surface.triangles, { resolution }));
  }
  return softBody(world, bunnyTets.get(pbd), material);
}

/** 2 m of rope pinned at one end 1.5 m up, falling across a sphere: it swings, wraps and piles on the ground. */
function rope(pbd, world) {
  world.addCollider({ shape: 'sphere', position: [0.3, 0.5, 0], radius: 0.25, thickness: 0.01, friction: 0.5 });
  const body = world.addRope({ segments: 60, start: [-0.5, 1.5, 0], end: [1.5, 1.5, 0], mass: 0.5, pinned: [0] });
  return [range(body.firstConstraint, body.constraintCount, 0, 1)];
}

/**
 * A three.js-style UV sphere (welded at seam and poles) inflated to 1.05 x its volume, dropped onto a box; with
 * `bending` its dihedral bending is on (balloon-bending). Edge compliance 1e-3.
 */
function balloon(pbd, world, bending = false) {
  world.addCollider({ shape: 'box', position: [0.2, 0.1, 0], halfExtents: [0.3, 0.1, 0.3], thickness: 0.005,
    friction: 0.5 });
  const { positions, triangles } = uvSphere(24, 16, 0.25, [0, 0.8, 0]);
  const body = world.addTriangleMesh({ positions, triangles, mass: 0.3, pressure: 1.05, bending,
    stretch: { compliance: 1e-3, stiffness: 1 }, volume: { compliance: 1e-6 } });
  return [range(body.firstConstraint, body.constraintCount, 1e-3, 1)];
}

/** The balloon with its default dihedral bending. Under Jacobi it went from 3 m/s to 15,000 m/s in one frame on the
 * box edge until the dihedral kernel got its trust region (src/constraints/dihedral.h). */
const balloonWithBending = (pbd, world) => balloon(pbd, world, true);

/**
 * 1 m of cloth hung by one corner 0.9 m up: its far half piles onto the ground and folds on itself. Skip-one bending.
 */
function selfCollidingCloth(pbd, world) {
  world.setSelfCollision({ enabled: true, radius: 0.006 });
  const n = 24;
  const cloth = world.addCloth({ columns: n, rows: n, spacing: 1 / (n - 1), origin: [-0.5, 0.9, -0.5], mass: 0.4,
    pinned: [0], bend: { compliance: 1e-3, stiffness: 0.2 } });
  const bend = (n - 2) * n * 2;   // the skip-one bend edges come last: they keep their strength
  return [range(cloth.firstConstraint, cloth.constraintCount - bend, 0, 1)];
}

/** name -> build(pbd, world) returning the strength ranges. */
export const SCENES = {
  cloth: demoCloth,
  cube: softCube,
  bunny: softBunny,
  rope,
  balloon,
  'balloon-bending': balloonWithBending,
  selfcloth: selfCollidingCloth,
};

/**
 * The demo page's gallery scenes, as the page builds them (web/demo/scene-host.js, with the scene's own panel values,
 * e.g. self-collision), under the names 'gallery:<scene>'. A scene with several worlds (the solver comparison) is
 * soaked in its first; per-frame drivers (the curtain's wind, a coupled scene's Rapier step) are off, since the energy
 * bound counts no external work.
 */
export const GALLERY_SCENES = Object.keys(GALLERY).map((name) => `gallery:${name}`);
await RAPIER.init();   // the coupled scenes make a Rapier world (the soak steps their PBD world alone)
const galleryAssets = new WeakMap();   // per loaded module: the bunny is tetrahedralized once

function buildGallery(pbd, name) {
  if (!galleryAssets.has(pbd)) galleryAssets.set(pbd, createAssets(pbd));
  const built = buildGalleryScene(pbd, name, galleryAssets.get(pbd));
  applyParams(built, sceneParams(name));
  const [{ world }, ...others] = built.worlds;
  for (const other of others) other.world.delete();
  built.dispose?.();   // a coupled scene's Rapier world and the bodies' twins: the soak steps the cloth alone
  world.setGround(GROUND);
  // Read when applied: a tearing scene's ranges move as it tears (its tunable entries read the records).
  const strengthRanges = built.tunable.filter((t) => t.world === world)
    .map((t) => ({ get first() { return t.first; }, get count() { return t.count; }, compliance: 0, stiffness: 1 }));
  return { world, strengthRanges };
}

/** A fresh world holding the scene, with the ground set; the caller deletes it. */
export function buildScene(pbd, name) {
  if (name.startsWith('gallery:') && name.slice(8) in GALLERY) return buildGallery(pbd, name.slice(8));
  const build = SCENES[name];
  if (!build) {
    throw new Error(`soak: unknown scene ${JSON.stringify(name)} (have ${Object.keys(SCENES).join(', ')})`);
  }
  const world = new pbd.World();
  try {
    world.setGround(GROUND);
    return { world, strengthRanges: build(pbd, world) };
  } catch (error) {
    world.delete();
    throw error;
  }
}

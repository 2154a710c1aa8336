// Builds a gallery scene into fresh worlds and applies the panel's parameters to them. No DOM and no messaging: the
// simulation worker wraps it (sim-worker.js), and the soak runs the same scenes through it in Node.
import { bunnyMesh } from './bunny-mesh.js';
import { applyConstraintParams } from './constraint-params.js';
import { DEFAULT_PARAMS, SOFT_BUNNY } from './cloth-scene.js';
import { SCENES } from './scenes/index.js';

/** The ground of every scene: the plane y = 0. */
export const GROUND = { height: 0, friction: 0.4, thickness: 0.005 };

/**
 * Shared inputs that cost time to make, computed on first use and kept across scene switches and resets.
 * onProgress(what, fraction) reports the tetrahedralizer's progress.
 */
export function createAssets(pbd, onProgress = () => {}) {
  let bunny = null;
  return {
    /** The bunny of the showcase (SOFT_BUNNY's scale, offset and resolution), as tets + its surface triangles. */
    bunnyTets() {
      if (bunny) return bunny;
      const { scale, offset, resolution } = SOFT_BUNNY;
      const surface = bunnyMesh(scale, offset[1]);
      for (let i = 0; i < surface.positions.length; i += 3) {
        surface.positions[i] += offset[0];
        surface.positions[i + 2] += offset[2];
      }
      const t0 = performance.now();
      const tets = pbd.tetrahedralize(surface.positions, surface.triangles, {
        resolution, onProgress: (fraction) => onProgress('tetrahedralizing the bunny', fraction) });
      bunny = { tets, surfaceTriangles: surface.triangles, ms: performance.now() - t0 };
      return bunny;
    },
    /** The bunny's surface, scale x the npm bunny's units, its lowest point at y = floor. */
    bunnySurface(scale, floor) { return bunnyMesh(scale, floor); },
  };
}

/** The scene's starting panel values: the defaults with the scene's own on top. */
export function sceneParams(name) {
  return { ...DEFAULT_PARAMS, ...SCENES[name].params };
}

/**
 * Builds scene `name`: returns { scene, worlds: [{world, lane}], drawables, colliders, tunable, onFrame, info }, with
 * every world reference in drawables/colliders/tunable also given as `worldIndex`.
 */
export function buildScene(pbd, name, assets) {
  const scene = SCENES[name];
  if (!scene) throw new Error(`unknown scene '${name}' (scenes: ${Object.keys(SCENES).join(', ')})`);
  const worlds = [];
  const addWorld = (lane = {}) => {
    const world = new pbd.World();
    world.setGround(GROUND);
    world.setRecordResiduals(true);   // the page plots the convergence (residual-record.js: one step in four)
    worlds.push({ world, lane });
    return world;
  };
  let built;
  try {
    built = scene.build({ pbd, addWorld, assets });
  } catch (error) {
    for (const { world } of worlds) world.delete();
    throw error;
  }
  const indexOf = (world) => worlds.findIndex((w) => w.world === world);
  for (const list of [built.drawables, built.colliders ?? [], built.tunable ?? []]) {
    for (const item of list) item.worldIndex = indexOf(item.world);
  }
  return { scene, worlds, drawables: built.drawables, colliders: built.colliders ?? [], tunable: built.tunable ?? [],
    materials: built.materials ?? [], onFrame: built.onFrame ?? null, step: built.step ?? null,
    dispose: built.dispose ?? null, info: built.info ?? {} };
}

/** Applies the panel's values to every world of a built scene; a world's lane keeps its own solver and method. */
export function applyParams(built, params) {
  for (const { world, lane } of built.worlds) {
    world.setMethod(lane.method ?? params.method);
    world.setSolver(lane.solver ?? params.solver);
    world.setIntegrator(params.integrator);
    world.setSelfCollision({ enabled: params.selfCollision, radius: built.scene.selfCollisionRadius ?? 0.008 });
    world.setSubsteps(params.substeps);
    world.setIterations(params.iterations);
    world.setLinearDamping(params.damping);
    world.setGravity(0, params.gravity, 0);
    world.setGround({ ...GROUND, friction: params.friction, staticFriction: params.staticFriction ?? -1,
      restitution: params.restitution });
  }
  for (const { world, first, count } of built.tunable) {
    world.setDistanceStrength(first, count, params.compliance, params.stiffness);
  }
  applyConstraintParams(built.worlds.map(({ world }) => world), built.materials, params);
}

/** Frees a built scene's worlds. */
export function disposeScene(built) {
  built?.dispose?.();
  for (const { world } of built?.worlds ?? []) world.delete();
}

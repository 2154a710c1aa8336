// The peer benchmark's scenes (bench/scenes.mjs benchSceneDef: clothDef and the other cloths, cubeDef and the other
// tet meshes) built in Jolt Physics (npm jolt-physics) soft bodies. Each builder returns the same small handle as its
// twin in pbd-scenes.mjs: step() advances one frame, positions() copies world-space xyz, delete() frees the world.
//
// Builds: jolt-physics ships 'wasm' (one thread, no SIMD), 'wasm-compat' (the same with the wasm inlined as
// base64), 'asm' and, with SIMD and pthreads, 'wasm-multithread' / 'wasm-compat-multithread'. loadJolt() imports
// the published builds as they are, which works in the browser (both builds) and in Node ('wasm' only: Node needs
// a patched multithread glue, jolt-node.mjs). No Node-only imports here: headless Chromium loads this file too.
import {
  CLOTH_GROUND_Y, CUBE_FRICTION, GRAVITY, SUBSTEPS, DT, benchSceneDef, clothDef, cubeDef,
} from '../scenes.mjs';

/** build: 'wasm' (official single-threaded build) or 'wasm-multithread' (SIMD + pthreads; not in Node). */
export async function loadJolt(build = 'wasm') {
  if (build === 'wasm') return (await import('jolt-physics/wasm')).default();
  if (build === 'wasm-multithread') {
    if (globalThis.process?.versions?.node) throw new Error('loadJolt: in Node use jolt-node.mjs loadJoltNode');
    return (await import('jolt-physics/wasm-multithread')).default();
  }
  throw new Error(`loadJolt: unknown build ${build}`);
}

const LAYER_STATIC = 0, LAYER_MOVING = 1;

// The pieces below are exported for bench/setup-cost.mjs, which times Jolt's set-up of these scenes step by step.

/**
 * A PhysicsSystem with two object layers, gravity -9.81 and a static floor box whose top is at y = floorY.
 * threads: Jolt's job system threads including the caller (only the multithread build has a pool; the
 * single-threaded build ignores it).
 */
export function createSystem(J, { threads, floorY, gravity: gy = GRAVITY }) {
  const objectFilter = new J.ObjectLayerPairFilterTable(2);
  objectFilter.EnableCollision(LAYER_STATIC, LAYER_MOVING);
  objectFilter.EnableCollision(LAYER_MOVING, LAYER_MOVING);
  const bpInterface = new J.BroadPhaseLayerInterfaceTable(2, 2);
  bpInterface.MapObjectToBroadPhaseLayer(LAYER_STATIC, new J.BroadPhaseLayer(0));
  bpInterface.MapObjectToBroadPhaseLayer(LAYER_MOVING, new J.BroadPhaseLayer(1));
  const settings = new J.JoltSettings();
  settings.mMaxWorkerThreads = threads - 1;
  settings.mObjectLayerPairFilter = objectFilter;
  settings.mBroadPhaseLayerInterface = bpInterface;
  settings.mObjectVsBroadPhaseLayerFilter = new J.ObjectVsBroadPhaseLayerFilterTable(bpInterface, 2, objectFilter, 2);
  const jolt = new J.JoltInterface(settings);
  J.destroy(settings);
  const system = jolt.GetPhysicsSystem();
  const gravity = new J.Vec3(0, gy, 0);
  system.SetGravity(gravity);
  J.destroy(gravity);
  const bodies = system.GetBodyInterface();

  const halfExtent = new J.Vec3(50, 0.5, 50);
  const position = new J.RVec3(0, floorY - 0.5, 0);
  const rotation = new J.Quat(0, 0, 0, 1);
  const floorSettings = new J.BodyCreationSettings(new J.BoxShape(halfExtent, 0.05, null), position, rotation,
    J.EMotionType_Static, LAYER_STATIC);
  floorSettings.mFriction = CUBE_FRICTION;
  floorSettings.mRestitution = 0;
  const floor = bodies.CreateBody(floorSettings);
  bodies.AddBody(floor.GetID(), J.EActivation_DontActivate);
  J.destroy(floorSettings);
  J.destroy(halfExtent);
  J.destroy(position);
  J.destroy(rotation);
  return { jolt, system, bodies };
}

export function addVertices(J, shared, positions, inverseMasses) {
  const v = new J.SoftBodySharedSettingsVertex();
  for (let i = 0; i < inverseMasses.length; i++) {
    v.mPosition.x = positions[3 * i];
    v.mPosition.y = positions[3 * i + 1];
    v.mPosition.z = positions[3 * i + 2];
    v.mInvMass = inverseMasses[i];
    shared.mVertices.push_back(v);
  }
  J.destroy(v);
}

function addFaces(J, shared, triangles) {
  const f = new J.SoftBodySharedSettingsFace(0, 0, 0, 0);
  for (let t = 0; t < triangles.length; t += 3) {
    f.set_mVertex(0, triangles[t]);
    f.set_mVertex(1, triangles[t + 1]);
    f.set_mVertex(2, triangles[t + 2]);
    shared.AddFace(f);
  }
  J.destroy(f);
}

export function addEdges(J, shared, pairs, compliance) {
  const e = new J.SoftBodySharedSettingsEdge(0, 0, compliance);
  for (const [i, j] of pairs) {
    e.set_mVertex(0, i);
    e.set_mVertex(1, j);
    shared.mEdgeConstraints.push_back(e);
  }
  J.destroy(e);
}

/**
 * Adds the soft body: vertex positions are given in world space with the body at the origin, so world position =
 * body position + local vertex (Jolt re-centres the body on its vertices every step; rotation stays identity).
 */
export function addSoftBody(J, sys, shared, def, { pinnedToWorld = false, substeps = SUBSTEPS } = {}) {
  const position = new J.RVec3(0, 0, 0);
  const rotation = new J.Quat(0, 0, 0, 1);
  const cs = new J.SoftBodyCreationSettings(shared, position, rotation, LAYER_MOVING);
  // A Jolt soft-body "iteration" is a substep: SoftBodyMotionProperties::InitializeUpdateContext sets
  // mSubStepDeltaTime = dt / mNumIterations, and every iteration integrates velocities and positions over that
  // substep, applies each constraint once (XPBD, alpha = compliance / substep²), resolves collisions and recomputes
  // velocities, exactly the substep loop of pbd-wasm (Macklin et al. 2019, "Small Steps in Physics Simulation").
  // What differs: Jolt finds collision planes once per step (per frame) and reuses them in all substeps; pbd-wasm
  // tests the ground plane every substep.
  cs.mNumIterations = substeps;
  cs.mLinearDamping = 0;          // Jolt's default is 0.1 1/s; pbd-wasm's is 0
  cs.mGravityFactor = 1;
  cs.mFriction = CUBE_FRICTION;   // combined with the floor's as sqrt(f1 f2) = 0.5
  cs.mRestitution = 0;
  cs.mVertexRadius = 0;
  cs.mAllowSleeping = false;      // a sleeping body costs nothing and would flatter the timings
  cs.mPressure = 0;
  // Jolt's default mUpdatePosition = true re-centres the body on its vertices every step; for a cloth pinned to the
  // world that makes the pinned vertices' local positions drift with round-off until a rigid cloth at rest explodes
  // (issue #8). Off for the cloth, as Jolt advises for soft bodies attached to the world.
  cs.mUpdatePosition = !pinnedToWorld;
  const body = sys.bodies.CreateSoftBody(cs);
  sys.bodies.AddBody(body.GetID(), J.EActivation_Activate);
  J.destroy(cs);
  J.destroy(position);
  J.destroy(rotation);
  const motion = J.castObject(body.GetMotionProperties(), J.SoftBodyMotionProperties);
  const vertices = motion.GetVertices();
  const count = vertices.size();
  const counts = {
    edges: shared.mEdgeConstraints.size(),
    volumes: shared.mVolumeConstraints.size(),
    lras: shared.mLRAConstraints.size(),
  };

  // positions(): read the vertices straight from the wasm heap (SoftBodyVertexTraits gives mPosition's offset).
  const base = J.getPointer(vertices.at(0));
  const stride = count > 1 ? J.getPointer(vertices.at(1)) - base : 0;
  const offset = J.SoftBodyVertexTraits.prototype.mPositionOffset;
  const positions = () => {
    const out = new Float32Array(3 * count);
    const bodyPos = body.GetPosition();
    const bx = bodyPos.GetX(), by = bodyPos.GetY(), bz = bodyPos.GetZ();
    const heap = J.HEAPF32;
    for (let i = 0; i < count; i++) {
      const k = (base + i * stride + offset) >> 2;
      out[3 * i] = heap[k] + bx;
      out[3 * i + 1] = heap[k + 1] + by;
      out[3 * i + 2] = heap[k + 2] + bz;
    }
    return out;
  };
  return {
    def,
    particleCount: count,
    constraintCount: counts.edges + counts.volumes + counts.lras,
    step: () => sys.jolt.Step(DT, 1),  // one collision step per frame
    positions,
    delete: () => J.destroy(sys.jolt),
  };
}

/**
 * Any benchScene() (bench/scenes.mjs): the cloths with joltClothDef, the tet meshes with joltTets. def:
 * benchSceneDef(scene), required for bunnyTets. threads: Jolt's threads incl. the caller; layout: joltClothDef's.
 */
export function joltScene(J, scene, def = benchSceneDef(scene), { threads = 1, layout = 'same' } = {}) {
  return scene.kind === 'cloth'
    ? joltClothDef(J, def, { threads, layout, gravity: scene.gravity, substeps: scene.substeps })
    : joltTets(J, def, { threads, gravity: scene.gravity, substeps: scene.substeps });
}

/** The hanging cloth of clothDef(n) (joltClothDef). */
export function joltCloth(J, n, options = {}) {
  return joltClothDef(J, clothDef(n), options);
}

/**
 * A cloth def (bench/scenes.mjs clothDef, shuffledClothDef, irregularClothDef; pinned to the world by its zero
 * inverse masses). layout 'same' (default): exactly pbd-wasm's constraint set (the def's stretch, shear and bend,
 * all compliance 0) added as Jolt edge constraints. layout 'jolt': the constraints Jolt's own
 * SoftBodySharedSettings::CreateConstraints derives from the def's triangles, as a Jolt user would build this cloth:
 * stretch = triangle edges, shear = the other diagonal of each quad-like triangle pair, bend = a distance constraint
 * across every other shared edge (EBendType_Distance: between the two vertices opposite that edge, a knight's move on
 * the grid rather than skip-one), all compliance 0; on the grid 0.3-1 % fewer constraints than pbd-wasm's set (5766
 * vs 5826 at 32x32, 23814 vs 23938 at 64x64). Either way Optimize() then sorts the constraints into independent
 * groups for Jolt's Gauss-Seidel.
 */
export function joltClothDef(J, def, { threads = 1, layout = 'same', gravity = GRAVITY, substeps = SUBSTEPS } = {}) {
  const sys = createSystem(J, { threads, floorY: CLOTH_GROUND_Y, gravity });
  const shared = new J.SoftBodySharedSettings();
  addVertices(J, shared, def.positions, def.inverseMasses);
  addFaces(J, shared, def.triangles);
  if (layout === 'jolt') {
    const a = new J.SoftBodySharedSettingsVertexAttributes();
    a.mCompliance = 0;
    a.mShearCompliance = 0;
    a.mBendCompliance = 0;
    a.mLRAType = J.SoftBodySharedSettings_ELRAType_None;
    shared.CreateConstraints(a, 1, J.SoftBodySharedSettings_EBendType_Distance);
    J.destroy(a);
  } else if (layout === 'same') {
    addEdges(J, shared, [...def.stretch, ...def.shear, ...def.bend], 0);
    shared.CalculateEdgeLengths();
  } else {
    throw new Error(`joltCloth: unknown layout ${layout}`);
  }
  shared.Optimize();
  const h = addSoftBody(J, sys, shared, def, { pinnedToWorld: true, substeps });
  if (layout === 'same' && h.constraintCount !== def.constraintCount) {
    throw new Error(`joltCloth: ${h.constraintCount} constraints, the def has ${def.constraintCount}`);
  }
  return h;
}

/**
 * A tet def's shared settings (bench/scenes.mjs cubeDef, tetMeshDef): vertices, faces, an edge constraint per tet
 * edge and a volume constraint per tet, compliance 0; not yet optimized.
 */
export function cubeSharedSettings(J, def) {
  const shared = new J.SoftBodySharedSettings();
  addVertices(J, shared, def.positions, def.inverseMasses);
  addFaces(J, shared, def.triangles);
  addEdges(J, shared, def.edges, 0);
  shared.CalculateEdgeLengths();
  const vol = new J.SoftBodySharedSettingsVolume(0, 0, 0, 0, 0);
  for (let t = 0; t < def.tets.length; t += 4) {
    for (let k = 0; k < 4; k++) vol.set_mVertex(k, def.tets[t + k]);
    shared.mVolumeConstraints.push_back(vol);
  }
  J.destroy(vol);
  shared.CalculateVolumeConstraintVolumes();
  return shared;
}

/** A tet def (cubeDef, tetMeshDef): cubeSharedSettings' body on a floor at y = 0. */
export function joltTets(J, def, { threads = 1, gravity = GRAVITY, substeps = SUBSTEPS } = {}) {
  const sys = createSystem(J, { threads, floorY: 0, gravity });
  const shared = cubeSharedSettings(J, def);
  shared.Optimize();
  const h = addSoftBody(J, sys, shared, def, { substeps });
  if (h.constraintCount !== def.edges.length + def.tets.length / 4) throw new Error('joltTets: constraint counts differ');
  return h;
}

/** The soft cube of cubeDef(cells) (joltTets). */
export function joltCube(J, cells, options = {}) {
  return joltTets(J, cubeDef(cells), options);
}

/**
 * pbd-wasm/rapier: two-way coupling with Rapier's rigid bodies (`@dimforge/rapier3d-compat` or `@dimforge/rapier3d`,
 * an optional peer dependency of this entry only). Rapier itself is not touched.
 *
 * @example
 * import RAPIER from '@dimforge/rapier3d-compat';
 * import { createPbd } from 'pbd-wasm';
 * import { coupleRapier } from 'pbd-wasm/rapier';
 * await RAPIER.init();
 * const pbd = await createPbd();
 * const world = new pbd.World();
 * const rapierWorld = new RAPIER.World({ x: 0, y: -9.81, z: 0 });
 * const box = rapierWorld.createRigidBody(RAPIER.RigidBodyDesc.dynamic().setTranslation(0, 2, 0));
 * rapierWorld.createCollider(RAPIER.ColliderDesc.cuboid(0.2, 0.2, 0.2), box);
 * world.addCloth({ columns: 24, rows: 24, spacing: 0.05, origin: [-0.6, 1, -0.6], pinned: [0, 23, 552, 575] });
 * const coupling = coupleRapier(world, rapierWorld);
 * coupling.addBody(box);
 * // every frame: coupling.step();
 *
 * How a step goes: Rapier steps first; each coupled collider's PBD twin then moves from its old pose to the body's
 * new one across the PBD substeps (a kinematic collider to the cloth), and the impulses the particles' contacts gave
 * it (World.colliderImpulse: minus what the particles received) are applied to the body, so that momentum is
 * exchanged, not created. The body feels them in Rapier's next step: one step of lag, which a rigid body far heavier
 * than the particles it touches does not notice, and which keeps Rapier's solver untouched.
 */
import { InvalidArgumentError, describeValue } from './errors.js';

// Rapier's ShapeType numbers (the same in rapier3d and rapier3d-compat).
const BALL = 0, CUBOID = 1, CAPSULE = 2, TRIMESH = 6, CONVEX_POLYHEDRON = 9;
const SHAPE_NAMES = ['ball', 'cuboid', 'capsule', 'segment', 'polyline', 'triangle', 'trimesh', 'heightfield',
  'compound', 'convex polyhedron', 'cylinder', 'cone', 'round cuboid', 'round triangle', 'round cylinder',
  'round cone', 'round convex polyhedron', 'half-space', 'voxels'];

const cross = (a, b) => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const xyz = (v) => [v.x, v.y, v.z];

/**
 * The PBD collider options that stand for one Rapier collider at its current pose: its shape, friction and
 * restitution. Throws for a shape the core has no twin for, naming it.
 */
export function colliderOptionsOf(collider, fn = 'coupleRapier') {
  const type = collider.shapeType();
  const t = collider.translation(), r = collider.rotation();
  const pose = { position: [t.x, t.y, t.z], rotation: [r.x, r.y, r.z, r.w] };
  const material = { friction: collider.friction(), restitution: collider.restitution() };
  switch (type) {
    case BALL: return { shape: 'sphere', radius: collider.radius(), ...pose, ...material };
    case CUBOID: return { shape: 'box', halfExtents: xyz(collider.halfExtents()), ...pose, ...material };
    case CAPSULE:  // both along the local Y axis
      return { shape: 'capsule', radius: collider.radius(), halfHeight: collider.halfHeight(), ...pose, ...material };
    case TRIMESH:
    case CONVEX_POLYHEDRON: {
      const indices = collider.indices();
      if (indices) return { shape: 'mesh', positions: collider.vertices(), indices, ...pose, ...material };
      break;  // a convex polyhedron built from points only has no faces to mirror
    }
    default: break;
  }
  throw new InvalidArgumentError(`${fn}: collider has shape ${describeValue(SHAPE_NAMES[type] ?? type)}, which ` +
    "has no PBD twin (supported: ball, cuboid, capsule, trimesh, and convex polyhedra with faces)");
}

/** A Rapier rigid body mirrored into the PBD world: its colliders' twins. */
class CoupledBody {
  constructor(body, twins) {
    this.body = body;
    this.twins = twins;  // [{ collider: Rapier collider, handle: PBD collider handle }]
  }
}

/** Couples a PBD World to a Rapier World; see the module's comment for the order of a step. */
export class RapierCoupling {
  /**
   * @param {import('./index').World} world the PBD world.
   * @param {object} rapierWorld a Rapier `World`; its `timestep` is the step of both.
   */
  constructor(world, rapierWorld) {
    if (!world || typeof world.colliderImpulse !== 'function') {
      throw new InvalidArgumentError(`coupleRapier: world must be a pbd-wasm World (got ${describeValue(world)})`);
    }
    if (!rapierWorld || typeof rapierWorld.step !== 'function' || typeof rapierWorld.timestep !== 'number') {
      throw new InvalidArgumentError(`coupleRapier: rapierWorld must be a Rapier World (got ${describeValue(rapierWorld)})`);
    }
    this.world = world;
    this.rapierWorld = rapierWorld;
    this.bodies = [];
  }

  /**
   * Mirrors a Rapier rigid body: each of its colliders gets a PBD twin (sensors are left out). A dynamic body then
   * receives the particles' impulses; a fixed or kinematic one only moves its twins. Everything is checked before
   * anything is added. Returns the twins' PBD collider handles.
   */
  addBody(body) {
    const fn = 'RapierCoupling.addBody';
    if (!body || typeof body.numColliders !== 'function' || typeof body.isValid !== 'function' || !body.isValid()) {
      throw new InvalidArgumentError(`${fn}: body must be a live Rapier RigidBody (got ${describeValue(body)})`);
    }
    if (this.bodies.some((b) => b.body.handle === body.handle)) {
      throw new InvalidArgumentError(`${fn}: body ${body.handle} is coupled already`);
    }
    const colliders = [];
    for (let i = 0; i < body.numColliders(); ++i) {
      const collider = body.collider(i);
      if (!collider.isSensor()) colliders.push([collider, colliderOptionsOf(collider, fn)]);
    }
    const twins = colliders.map(([collider, options]) => ({ collider, handle: this.world.addCollider(options) }));
    this.bodies.push(new CoupledBody(body, twins));
    return twins.map((t) => t.handle);
  }

  /** Stops mirroring a body: its twins leave the PBD world. */
  removeBody(body) {
    const k = this.bodies.findIndex((b) => b.body === body || b.body.handle === body?.handle);
    if (k < 0) throw new InvalidArgumentError(`RapierCoupling.removeBody: body is not coupled (got ${describeValue(body)})`);
    for (const twin of this.bodies[k].twins) this.world.removeCollider(twin.handle);
    this.bodies.splice(k, 1);
  }

  /**
   * One step of both worlds, of Rapier's `timestep`: Rapier's step, the twins moved to the bodies' new poses, the
   * PBD step, then each dynamic body given the impulses its twins received. A body removed from Rapier while
   * coupled throws before anything steps (remove it from the coupling first).
   */
  step() {
    for (const { body } of this.bodies) {
      if (!body.isValid()) {
        throw new InvalidArgumentError(`RapierCoupling.step: body ${body.handle} was removed from the Rapier world ` +
          'while coupled (call removeBody first)');
      }
    }
    this.rapierWorld.step();
    for (const { twins } of this.bodies) {
      for (const { collider, handle } of twins) {
        const t = collider.translation(), r = collider.rotation();
        this.world.setColliderPose(handle, t.x, t.y, t.z, r.x, r.y, r.z, r.w);
      }
    }
    this.world.step(this.rapierWorld.timestep);
    for (const { body, twins } of this.bodies) {
      if (!body.isDynamic()) continue;
      const impulse = this.impulseOf(body, twins);
      body.applyImpulse({ x: impulse.linear[0], y: impulse.linear[1], z: impulse.linear[2] }, true);
      body.applyTorqueImpulse({ x: impulse.angular[0], y: impulse.angular[1], z: impulse.angular[2] }, true);
    }
  }

  /**
   * What the particles gave a coupled body over the last step: linear (N·s) and angular about its centre of mass
   * (N·m·s), summed over its twins.
   */
  bodyImpulse(body) {
    const coupled = this.bodies.find((b) => b.body === body || b.body.handle === body?.handle);
    if (!coupled) throw new InvalidArgumentError(`RapierCoupling.bodyImpulse: body is not coupled (got ${describeValue(body)})`);
    return this.impulseOf(coupled.body, coupled.twins);
  }

  impulseOf(body, twins) {
    const com = xyz(body.worldCom());
    const linear = [0, 0, 0], angular = [0, 0, 0];
    for (const { collider, handle } of twins) {
      const j = this.world.colliderImpulse(handle);
      const t = collider.translation();
      const arm = cross([t.x - com[0], t.y - com[1], t.z - com[2]], j.linear);  // from the twin's position to c
      for (let a = 0; a < 3; ++a) linear[a] += j.linear[a], angular[a] += j.angular[a] + arm[a];
    }
    return { linear, angular };
  }
}

/** Couples `world` to `rapierWorld` (see RapierCoupling); add the bodies to mirror with addBody. */
export function coupleRapier(world, rapierWorld) {
  return new RapierCoupling(world, rapierWorld);
}

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
 * How a step goes: the PBD world steps first, over the interval Rapier's step will then cover. A dynamic body with
 * one collider centred on its centre of mass (and, unless its inertia is isotropic, along its principal axes: a
 * ball, a cuboid or a capsule made with a density) gets a dynamic twin (World.setColliderBody): put at the body's
 * pose with its mass, inertia and velocities, it moves across the PBD substeps under gravity and slows by what the
 * particles' contacts take from it, substep by substep. Any other body's twins are kinematic: swept to where
 * Rapier's step will take them (a kinematic position-based body's next pose; otherwise its velocities carried on).
 * Then each dynamic body gets the impulses the contacts gave its twins (World.colliderImpulse: minus what the
 * particles received), so that momentum is exchanged, not created, and Rapier steps, integrating them with its
 * own joints and contacts. Give both worlds the same gravity.
 */
import { InvalidArgumentError, describeValue } from './errors.js';
import { vectorComponents } from './vec3.js';

// Rapier's ShapeType numbers (the same in rapier3d and rapier3d-compat).
const BALL = 0, CUBOID = 1, CAPSULE = 2, TRIMESH = 6, CONVEX_POLYHEDRON = 9;
const SHAPE_NAMES = ['ball', 'cuboid', 'capsule', 'segment', 'polyline', 'triangle', 'trimesh', 'heightfield',
  'compound', 'convex polyhedron', 'cylinder', 'cone', 'round cuboid', 'round triangle', 'round cylinder',
  'round cone', 'round convex polyhedron', 'half-space', 'voxels'];

const KINEMATIC_POSITION_BASED = 2;  // Rapier's RigidBodyType
const REVOLUTE = 0;   // Rapier's JointType

const cross = (a, b) => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const xyz = (v) => [v.x, v.y, v.z];
const xyzw = (q) => [q.x, q.y, q.z, q.w];
/** Quaternion product a b, [x, y, z, w]. */
const multiply = (a, b) => [
  a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1],
  a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0],
  a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3],
  a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2]];
/** v rotated by the unit quaternion q: q [v, 0] q*. */
const rotate = (q, v) => multiply(multiply(q, [...v, 0]), [-q[0], -q[1], -q[2], q[3]]).slice(0, 3);

/** The world point of a body-local point at the body's pose (position, rotation [x, y, z, w]). */
const atPose = ({ position, rotation }, local) => rotate(rotation, local).map((x, a) => x + position[a]);
const poseOf = (body) => ({ position: xyz(body.translation()), rotation: xyzw(body.rotation()) });

/**
 * The joint holding `body` to the fixed world, as World.setColliderBody takes it ({ joint, jointPivot, jointAxis }):
 * when its only joint is one revolute impulse joint to a fixed body (its limits and motors are left out). Otherwise
 * null: free, or held in a way its twin cannot know (rapier3d-compat 0.21 reports a spherical joint as a generic one,
 * whose free axes it does not give).
 */
function fixedJointOf(rapierWorld, body) {
  const joints = [];
  rapierWorld.impulseJoints.forEachJointHandleAttachedToRigidBody(body.handle,
    (handle) => joints.push(rapierWorld.impulseJoints.get(handle)));
  let multibody = false;
  rapierWorld.multibodyJoints.forEachJointHandleAttachedToRigidBody(body.handle, () => { multibody = true; });
  if (multibody || joints.length !== 1) return null;
  const [joint] = joints, type = joint.type();
  const second = joint.body2().handle === body.handle;   // then the fixed body is the joint's first
  const fixed = second ? joint.body1() : joint.body2();
  if (!fixed.isFixed() || type !== REVOLUTE) return null;
  const pose = poseOf(fixed);
  const jointPivot = atPose(pose, xyz(second ? joint.anchor1() : joint.anchor2()));
  // A revolute joint's free axis is its frame's x axis, the frame given in each body's own.
  const frame = xyzw(second ? joint.frameX1() : joint.frameX2());
  return { joint: 'hinge', jointPivot, jointAxis: rotate(pose.rotation, rotate(frame, [1, 0, 0])) };
}

/**
 * Where `body` (or, given, its collider) will be after Rapier's next step of dt: a kinematic position-based body at
 * its next kinematic pose, any other body moved on by its velocities (q ← q + ½ dt [ω, 0] q, normalized).
 */
function predictedPose(body, collider, dt) {
  let position, rotation;
  if (body.bodyType() === KINEMATIC_POSITION_BASED) {
    position = xyz(body.nextTranslation()), rotation = xyzw(body.nextRotation());
  } else {
    const v = xyz(body.linvel()), w = xyz(body.angvel()), q = xyzw(body.rotation());
    position = xyz(body.translation()).map((x, a) => x + dt * v[a]);
    const spin = multiply([...w, 0], q);
    rotation = q.map((c, a) => c + 0.5 * dt * spin[a]);
    const length = Math.hypot(...rotation);
    rotation = rotation.map((c) => c / length);
  }
  if (!collider) return { position, rotation };
  const offset = collider.translationWrtParent(), turn = collider.rotationWrtParent();
  if (!offset || !turn) return { position, rotation };
  const arm = rotate(rotation, xyz(offset));
  return { position: position.map((x, a) => x + arm[a]), rotation: multiply(rotation, xyzw(turn)) };
}

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
    this.inertia = dynamicTwinInertia(body, twins);  // the twin's principal moments, or null: kinematic twins
  }
}

const near = (a, b, tolerance) => Math.abs(a - b) <= tolerance;

/** Throws unless `body` is a live Rapier rigid body. */
function checkLiveBody(fn, body) {
  if (!body || typeof body.numColliders !== 'function' || typeof body.isValid !== 'function' || !body.isValid()) {
    throw new InvalidArgumentError(`${fn}: body must be a live Rapier RigidBody (got ${describeValue(body)})`);
  }
}

/**
 * The inertia of a dynamic twin along its collider's axes, or null when the body cannot have one: not dynamic, not
 * exactly one collider, a mesh, a collider off the centre of mass, or principal axes other than the collider's.
 */
function dynamicTwinInertia(body, twins) {
  if (!body.isDynamic() || twins.length !== 1) return null;
  const { collider } = twins[0];
  if (![BALL, CUBOID, CAPSULE].includes(collider.shapeType())) return null;  // mesh colliders are kinematic only
  const offset = collider.translationWrtParent(), com = body.localCom();
  if (!offset || !near(offset.x, com.x, 1e-6) || !near(offset.y, com.y, 1e-6) || !near(offset.z, com.z, 1e-6)) return null;
  const moments = xyz(body.principalInertia());
  if (!moments.every((m) => m > 0)) return null;
  const largest = Math.max(...moments);
  if (moments.every((m) => near(m, largest, 1e-6 * largest))) return moments;  // isotropic: any axes
  const a = body.principalInertiaLocalFrame(), b = collider.rotationWrtParent();
  const dot = b ? a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w : 0;
  return near(Math.abs(dot), 1, 1e-6) ? moments : null;
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
    this.attachments = [];  // [{ handle, body, anchor: body-local point }]
  }

  /**
   * Attaches a particle to a point of a Rapier body (`anchor`, m, in the body's frame; default its origin), with a
   * strength as World.addAttachment takes (default rigid). A free body mirrored by addBody with a dynamic twin is
   * pulled within the substeps: the attachment follows the twin (World.attachToCollider), which moves with what it
   * gives the particle; so does a body hinged to a fixed body (its twin turns about the hinge).
   * Otherwise (a body held by other joints, one not mirrored) the target follows the point to where Rapier's step
   * takes it, and the body is pulled once a frame (World.attachmentImpulse). Returns the attachment's handle.
   */
  attach(particle, body, anchor = [0, 0, 0], strength = { compliance: 0 }) {
    const fn = 'RapierCoupling.attach';
    checkLiveBody(fn, body);
    const local = vectorComponents(anchor, 3);
    if (!local || !local.every(Number.isFinite)) {
      throw new InvalidArgumentError(`${fn}: anchor must be 3 finite numbers (got ${describeValue(anchor)})`);
    }
    // A free body's twin stands for it within the substeps, and a hinged one's (its twin knows the hinge); one held
    // otherwise would not (its joints are Rapier's alone).
    const mirror = this.bodies.find((b) => b.body.handle === body.handle && b.inertia);
    if (mirror && (!this.jointed(body) || fixedJointOf(this.rapierWorld, body))) {
      // The anchor in the twin's frame: the collider's, on the body at translationWrtParent, rotationWrtParent.
      const { collider, handle: twin } = mirror.twins[0];
      const t = collider.translationWrtParent() ?? { x: 0, y: 0, z: 0 };
      const r = collider.rotationWrtParent() ?? { x: 0, y: 0, z: 0, w: 1 };
      const offset = [local[0] - t.x, local[1] - t.y, local[2] - t.z];
      const inTwin = rotate([-r.x, -r.y, -r.z, r.w], offset);
      const handle = this.world.attachToCollider(particle, twin, inTwin, strength);
      this.attachments.push({ handle, body, anchor: local, twin });
      return handle;
    }
    const handle = this.world.addAttachment(particle, atPose(poseOf(body), local), strength);
    this.attachments.push({ handle, body, anchor: local });
    return handle;
  }

  /** Removes an attachment made by attach. */
  detach(handle) {
    const k = this.attachments.findIndex((a) => a.handle === handle);
    if (k < 0) throw new InvalidArgumentError(`RapierCoupling.detach: attachment ${describeValue(handle)} was not made by attach`);
    this.world.removeAttachment(handle);
    this.attachments.splice(k, 1);
  }

  /**
   * Mirrors a Rapier rigid body: each of its colliders gets a PBD twin (sensors are left out). A dynamic body then
   * receives the particles' impulses; a fixed or kinematic one only moves its twins. Everything is checked before
   * anything is added. Returns the twins' PBD collider handles.
   */
  addBody(body) {
    const fn = 'RapierCoupling.addBody';
    checkLiveBody(fn, body);
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

  /** Stops mirroring a body: its twins leave the PBD world, and its attachments are removed. */
  removeBody(body) {
    const { coupled, attached } = this.partsOf('RapierCoupling.removeBody', body);
    for (const { handle } of attached) this.detach(handle);   // first: removeCollider would take a twin's along
    if (coupled) {
      for (const twin of coupled.twins) this.world.removeCollider(twin.handle);
      this.bodies.splice(this.bodies.indexOf(coupled), 1);
    }
  }

  /**
   * Whether a Rapier joint holds `body` (then, unless its twin knows the joint, the twin moves without gravity: the
   * joint carries its weight).
   */
  jointed(body) {
    let held = false;
    this.rapierWorld.impulseJoints.forEachJointHandleAttachedToRigidBody(body.handle, () => { held = true; });
    if (!held) this.rapierWorld.multibodyJoints.forEachJointHandleAttachedToRigidBody(body.handle, () => { held = true; });
    return held;
  }

  /** Body's mirror (or undefined) and attachments; throws when it has neither. A removed body is found by handle. */
  partsOf(fn, body) {
    const same = (b) => b === body || b.handle === body?.handle;
    const coupled = this.bodies.find((b) => same(b.body));
    const attached = this.attachments.filter((a) => same(a.body));
    if (!coupled && !attached.length) {
      throw new InvalidArgumentError(`${fn}: body is not coupled (got ${describeValue(body)})`);
    }
    return { coupled, attached };
  }

  /** Every Rapier body the coupling touches: the mirrored ones and those with attachments, once each. */
  touchedBodies() {
    const bodies = this.bodies.map((b) => b.body);
    for (const { body } of this.attachments) if (!bodies.includes(body)) bodies.push(body);
    return bodies;
  }

  /**
   * One step of both worlds over the same interval, of Rapier's `timestep`: the twins set from their bodies (see
   * the module's comment), the PBD step, each dynamic body given the impulses its twins received, then Rapier's
   * step, which integrates them with its own joints and contacts. A body removed from Rapier while coupled throws
   * before anything steps (remove it from the coupling first).
   */
  step() {
    for (const body of this.touchedBodies()) {
      if (!body.isValid()) {
        throw new InvalidArgumentError(`RapierCoupling.step: body ${body.handle} was removed from the Rapier world ` +
          'while coupled (call removeBody first)');
      }
      const state = [...xyz(body.translation()), ...xyzw(body.rotation()), ...xyz(body.linvel()), ...xyz(body.angvel())];
      if (!state.every(Number.isFinite)) {
        throw new InvalidArgumentError(`RapierCoupling.step: body ${body.handle} has a non-finite pose or velocity ` +
          `(got ${state.map(describeValue).join(', ')})`);
      }
    }
    const dt = this.rapierWorld.timestep;
    for (const { body, twins, inertia } of this.bodies) {
      for (const { collider, handle } of twins) {
        if (inertia) {  // moves itself from the body's state, a dynamic twin: free, about a joint it knows, or
          // without gravity when a joint it does not know holds it
          const joint = fixedJointOf(this.rapierWorld, body);
          this.world.setColliderBody(handle, { mass: body.mass(), inertia, linearVelocity: xyz(body.linvel()),
            angularVelocity: xyz(body.angvel()), gravity: !!joint || !this.jointed(body), ...joint });
          const t = collider.translation(), r = collider.rotation();
          this.world.setColliderPose(handle, t.x, t.y, t.z, r.x, r.y, r.z, r.w);
        } else {  // swept across the substeps to where Rapier's step will take it
          const { position: p, rotation: q } = predictedPose(body, collider, dt);
          this.world.setColliderPose(handle, p[0], p[1], p[2], q[0], q[1], q[2], q[3]);
        }
      }
    }
    for (const { handle, body, anchor, twin } of this.attachments) {
      if (twin === undefined) this.world.setAttachmentTarget(handle, atPose(predictedPose(body, null, dt), anchor));
    }
    this.world.step(dt);
    for (const body of this.touchedBodies()) {
      if (!body.isDynamic()) continue;
      const impulse = this.bodyImpulse(body);
      body.applyImpulse({ x: impulse.linear[0], y: impulse.linear[1], z: impulse.linear[2] }, true);
      body.applyTorqueImpulse({ x: impulse.angular[0], y: impulse.angular[1], z: impulse.angular[2] }, true);
    }
    this.rapierWorld.step();
  }

  /**
   * What the particles gave a coupled body over the last step: linear (N·s) and angular about its centre of mass
   * (N·m·s), summed over its twins' contacts and its attachments (each at its anchor where the body is now).
   */
  bodyImpulse(body) {
    const { coupled, attached } = this.partsOf('RapierCoupling.bodyImpulse', body);
    const com = xyz(body.worldCom());
    const linear = [0, 0, 0], angular = [0, 0, 0];
    for (const { handle } of coupled?.twins ?? []) {
      const j = this.world.colliderImpulse(handle);
      const moment = cross(com, j.linear);  // the angular impulse is about the origin: moved to the centre of mass
      for (let a = 0; a < 3; ++a) linear[a] += j.linear[a], angular[a] += j.angular[a] - moment[a];
    }
    const pose = poseOf(body);
    for (const { handle, anchor, twin } of attached) {
      if (twin !== undefined) continue;   // booked as its twin's (World.attachToCollider)
      const j = this.world.attachmentImpulse(handle);
      const point = atPose(pose, anchor);
      const moment = cross([point[0] - com[0], point[1] - com[1], point[2] - com[2]], j);
      for (let a = 0; a < 3; ++a) linear[a] += j[a], angular[a] += moment[a];
    }
    return { linear, angular };
  }
}

/** Couples `world` to `rapierWorld` (see RapierCoupling); add the bodies to mirror with addBody. */
export function coupleRapier(world, rapierWorld) {
  return new RapierCoupling(world, rapierWorld);
}

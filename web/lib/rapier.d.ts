import type { Collider, RigidBody, World as RapierWorld } from '@dimforge/rapier3d-compat';
import type { ColliderImpulse, ColliderOptions, Strength, Vec3Like, World } from './index';

/**
 * Two-way coupling of a pbd-wasm World with a Rapier World (`@dimforge/rapier3d-compat` or `@dimforge/rapier3d`, an
 * optional peer dependency of this entry only). Each coupled rigid body's colliders get PBD twins. A step runs the
 * PBD step over the interval Rapier's step will then cover: a dynamic body with one collider on its centre of mass
 * (along its principal axes, unless its inertia is isotropic: a ball, cuboid or capsule made with a density) gets a
 * dynamic twin (World.setColliderBody) that moves from the body's state across the PBD substeps and slows by what
 * the particles' contacts take from it; other bodies' twins sweep to where Rapier's step will take them. Then each
 * dynamic body is given the impulses the contacts gave its twins (World.colliderImpulse), so that momentum is
 * exchanged, not created, and Rapier steps. Give both worlds the same gravity. A 10 kg box comes to rest in a 1 kg
 * hammock.
 */
export declare class RapierCoupling {
  /** Throws an InvalidArgumentError unless `world` is a pbd-wasm World and `rapierWorld` a Rapier World. */
  constructor(world: World, rapierWorld: RapierWorld);
  /** The PBD world. */
  readonly world: World;
  /** The Rapier world; its `timestep` (s) is the step of both. */
  readonly rapierWorld: RapierWorld;
  /**
   * Mirrors a Rapier rigid body: each of its colliders that is not a sensor gets a PBD twin (ball → sphere, cuboid →
   * box, capsule → capsule, trimesh and convex polyhedra with faces → mesh), with its friction and restitution. A
   * dynamic body receives the particles' impulses; a fixed or kinematic one only moves its twins. Throws an
   * InvalidArgumentError, adding nothing, for a body that is not live, is coupled already, or has a collider of
   * another shape (named in the message). Returns the twins' PBD collider handles.
   */
  addBody(body: RigidBody): number[];
  /**
   * Stops coupling a body (also one already removed from Rapier): its twins leave the PBD world and its attachments
   * are removed. Throws an InvalidArgumentError for a body neither mirrored nor attached to.
   */
  removeBody(body: RigidBody): void;
  /**
   * Attaches a particle to a point of a Rapier body: `anchor` in m in the body's frame (default its origin),
   * `strength` as World.addAttachment takes it (default rigid). A free body (no joint) mirrored by addBody with a
   * dynamic twin is pulled within the substeps: the attachment follows the twin (World.attachToCollider). Otherwise
   * the target follows the point to where Rapier's step takes it, and the body is pulled at the point once a frame by
   * what the attachment gave it (World.attachmentImpulse): a cloth hung from a body weighs on it. That pull comes a
   * frame late: keep what hangs from a swinging jointed body light beside the body's own inertia there (a 0.2 kg
   * cloth rigidly at the end of a 1 kg hinged rod of 1 m feeds back and blows up; a fixed or heavy body is fine).
   * Throws an InvalidArgumentError for a body that is not live or an anchor that is not 3 finite numbers. Returns the
   * attachment's handle.
   */
  attach(particle: number, body: RigidBody, anchor?: Vec3Like, strength?: Strength): number;
  /** Removes an attachment made by attach (an InvalidArgumentError for any other handle). */
  detach(attachment: number): void;
  /**
   * One step of both worlds, of `rapierWorld.timestep` seconds: the PBD step, the impulses, Rapier's step. Throws
   * an InvalidArgumentError, before either world moves, if a coupled body was removed from the Rapier world (call
   * removeBody first) or has a non-finite pose or velocity.
   */
  step(): void;
  /**
   * What the particles gave a coupled body over the last step, summed over its twins' contacts and its attachments:
   * `linear` in N·s, `angular` in N·m·s about its centre of mass, both in the world frame.
   */
  bodyImpulse(body: RigidBody): ColliderImpulse;
}

/** Couples `world` to `rapierWorld`; add the bodies to mirror with addBody. */
export declare function coupleRapier(world: World, rapierWorld: RapierWorld): RapierCoupling;

/**
 * The collider options of the PBD twin of one Rapier collider at its current pose. Throws an InvalidArgumentError
 * naming the shape for one without a twin (cylinders, cones, round shapes, height fields, half-spaces, ...).
 */
export declare function colliderOptionsOf(collider: Collider, fn?: string): ColliderOptions;

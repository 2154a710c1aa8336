// Static or kinematic collision shapes that particles cannot enter.
#pragma once

#include <Eigen/Geometry>
#include <cstdint>
#include <span>

#include "pbd/contact_material.h"
#include "pbd/real.h"

namespace pbd {

/// A rotation, as a unit quaternion (x, y, z, w).
using Quat = Eigen::Quaternion<Real, Eigen::DontAlign>;

enum class ColliderShape {
  Sphere,   ///< radius around the position.
  Capsule,  ///< radius around the segment from -halfHeight to +halfHeight on the local Y axis.
  Box,      ///< halfExtents along the local axes.
  TriangleMesh,  ///< meshPositions / meshTriangles in the local frame, with continuous collision (the
                 ///< contact model: src/collision/mesh_collider.h).
  Plane,    ///< An infinite plane through the position with outward normal local +Y (rotate it to tilt it); the
            ///< half-space below it is inside. Unlike the ground (SolverSettings::ground), it can be tilted and moved.
};

/// A collider. Its pose can be changed every frame (World::setColliderPose); it then moves linearly across the
/// substeps of the next step, and its velocity drags touching particles along through friction.
struct ColliderDef {
  ColliderShape shape = ColliderShape::Sphere;
  Vec3 position{0, 0, 0};              ///< m, centre (plane: a point of its surface).
  Quat rotation = Quat::Identity();    ///< Orientation; normalized by the world.
  Real radius = 0.5f;                  ///< m, > 0 (sphere, capsule).
  Real halfHeight = 0.5f;              ///< m, >= 0 (capsule: half the length of its axis segment).
  Vec3 halfExtents{0.5f, 0.5f, 0.5f};  ///< m, each > 0 (box).
  Real thickness = 0;                  ///< m, >= 0: particles are kept this far outside the surface (their radius).
  Real friction = 0.5f;                ///< Dynamic Coulomb coefficient μ_d >= 0, on the velocity relative to it.
  Real staticFriction = kSameAsFriction;  ///< Static coefficient μ_s >= 0 (holds a contact in place while its slip
                                          ///< < μ_s × normal correction); -1 (the default) = `friction`.
  Real restitution = 0;                ///< [0,1], of the relative approach speed (above the world's threshold).
  /// TriangleMesh: xyz per vertex in the local frame (m), finite. A view: addCollider copies it, the caller keeps it.
  std::span<const Real> meshPositions;
  /// TriangleMesh: 3 vertex indices per triangle, each in range, no degenerate triangle. A closed, consistently
  /// oriented mesh (every edge on exactly 2 triangles, once each way) has an inside that particles are pushed out
  /// of; an open one (a wall, a terrain) is two-sided: particles stay on the side they come from. A view, copied.
  std::span<const uint32_t> meshTriangles;
};

/// How another engine holds a dynamic collider's body to the fixed world (ColliderBody::joint): within the step the
/// world then moves the body only as that joint lets it, and weighs the particles' pull against the body's inertia
/// about the joint, as the other engine's solver will.
enum class BodyJoint {
  None,   ///< Free: it moves and turns as gravity and the particles push it.
  Ball,   ///< Turns about the fixed point jointPivot (a spherical joint to a fixed body).
  Hinge,  ///< Turns about the fixed axis jointAxis through jointPivot (a revolute joint to a fixed body).
};

/// The rigid body a collider stands for, when another engine simulates it (two-way coupling; World::setColliderBody).
/// With a mass the collider is dynamic within each step: from its pose and these velocities it moves substep by
/// substep under gravity, and after each substep's contacts it takes minus the momentum they gave the particles. So a
/// heavy body pressing on a cloth slows within the step, where a kinematic one would push through it until the
/// impulses reach its engine a step later. Its engine still receives the step's impulse (World::colliderImpulse),
/// and should then own the pose and velocities again.
struct ColliderBody {
  Real mass = 0;                        ///< kg, >= 0. 0 (the default): kinematic, moved only by setColliderPose.
  Vec3 inertia = Vec3::Zero();          ///< kg m², each > 0 when mass > 0: the principal moments about the
                                        ///< collider's position (its centre of mass), along its local axes.
  Vec3 linearVelocity = Vec3::Zero();   ///< m/s, world frame, of the position.
  Vec3 angularVelocity = Vec3::Zero();  ///< rad/s, world frame.
  bool gravity = true;                  ///< The world's gravity moves it across the substeps (a free body). false: a
                                        ///< body held by joints or supports this world does not know, which moves
                                        ///< with its velocities alone and by what the particles give it.
  BodyJoint joint = BodyJoint::None;    ///< The joint that holds it to the fixed world, if the world is told of it.
  Vec3 jointPivot = Vec3::Zero();       ///< m, world frame: the joint's fixed point (Ball, Hinge).
  Vec3 jointAxis{0, 0, 1};              ///< Hinge: the fixed axis, world frame, non-zero; normalized by the world.
};

/// What the particles gave a collider over the last step: the reaction to every contact with it (normal pushes,
/// static and dynamic friction, restitution), summed over the substeps. Applied to the rigid body the collider stands
/// for (World::colliderImpulse; pbd-wasm/rapier does it for Rapier's bodies), momentum is exchanged, not created:
/// `linear` is exactly minus what the contacts gave the particles, `angular` minus their moment.
struct ColliderImpulse {
  Vec3 linear = Vec3::Zero();   ///< N·s, world frame.
  Vec3 angular = Vec3::Zero();  ///< N·m·s, world frame, about the world's origin. About a body's centre of mass c:
                                ///< angular - c × linear.
};

}  // namespace pbd

// World::Impl's colliders and the contacts of the current substep, with the particle boxes the scans use.
#pragma once

#include <cstdint>
#include <vector>

#include "collision/mesh_collider.h"
#include "collision/particle_boxes.h"
#include "pbd/colliders.h"
#include "pbd/world.h"

namespace pbd {

/// The collider index of a contact with the ground plane.
inline constexpr uint32_t kGroundCollider = ~0u;

/// Contact::energy of a contact that is projected whole.
inline constexpr uint32_t kNotEnergy = ~0u;

/// A contact of the current substep, with the ground or a collider.
struct Contact {
  uint32_t particle;   ///< Particle index.
  uint32_t collider;   ///< Collider index, or kGroundCollider.
  Real approachSpeed;  ///< m/s, relative normal velocity when the contact was generated (negative = approaching).
  Real normalPush;     ///< m, total normal correction applied this substep (the normal impulse times h/m).
  Vec3 normal;         ///< Outward surface normal at the last projection (world frame).
  Real margin = 0;  ///< m, the particle's body's thickness (ContactMaterial::thickness), kept on top of the surface's.
  Vec3 point =
      Vec3::Zero();  ///< m, triangle-mesh contacts only: the contact plane's surface point (world frame, at
                     ///< the substep's end pose); with `normal` it fixes C(p) = (p - point)·normal - thickness.
  Vec3 kineticShift = Vec3::Zero();  ///< m, the tangential correction dynamic friction has made this substep (the
                                     ///< position-level part of μ_d d; contacts.cpp holdStaticFriction).
  uint32_t energy = kNotEnergy;  ///< Vertex Block Descent: its index in SolverData::vbdContacts, whose vertex steps
                                 ///< solve its normal part as an energy (then only friction is projected here)
};

/// Collider::mesh of the shapes that are not triangle meshes.
inline constexpr uint32_t kNoMesh = ~0u;

/// A collider and its poses: `def` holds the pose at the end of the step; the substep poses are interpolated.
struct Collider {
  ColliderDef def;
  Vec3 startPosition;  ///< Pose at the start of the step.
  Quat startRotation;
  Vec3 subStartPosition, subEndPosition;  ///< Pose at the start and end of the current substep.
  Quat subStartRotation, subEndRotation;
  uint32_t mesh = kNoMesh;  ///< TriangleMesh: index into CollisionState::meshShapes; kNoMesh otherwise.
};

/// The momentum a collider's contacts gave the particles over the step (World::colliderImpulse is minus it), in
/// double: summed over every contact of every substep.
struct ContactMomentum {
  Eigen::Vector3d linear = Eigen::Vector3d::Zero();  ///< N·s, Σ J.
  Eigen::Vector3d moment = Eigen::Vector3d::Zero();  ///< N·m·s, Σ p × J about the world's origin.
};

/// A dynamic collider's motion within the step (World::setColliderBody), beside its Collider.
struct ColliderMotion {
  ColliderBody body;                 // mass 0: kinematic, the rest unused
  ContactMomentum substepStart;      // contactMomenta at the substep's start: the substep's share is the difference
  Vec3 savedPosition = Vec3::Zero();  // pose and velocities at the step's start, for the non-finite guard's rollback
  Quat savedRotation = Quat::Identity();
  Vec3 savedLinear = Vec3::Zero(), savedAngular = Vec3::Zero();
  // This substep's share of the attachments solved with the body (projectAttachmentToBody): how far they moved and
  // turned it, and the momentum they booked, which the push after the substep must not apply again.
  Eigen::Vector3d moved = Eigen::Vector3d::Zero(), turned = Eigen::Vector3d::Zero();
  ContactMomentum solved;
};

/// Colliders, contacts and the particle boxes that find them.
struct CollisionState {
  std::vector<Collider> colliders;
  std::vector<ContactMomentum> contactMomenta;  // per collider, this step's; capacity kept with the colliders
  std::vector<ColliderMotion> motions;           // per collider, the same length
  Real contactInvH = 0;                         // 1/h of the substep, for position changes made by contacts
  bool contactBdf2 = false;                     // the substep commits by BDF2 (recordContactMomentum)
  bool countContactPushes = true;               // this iteration's contact moves stay in the result (step.cpp)
  bool bodiesInSolve = false;                   // dynamic colliders move with their attachments (step.cpp)
  std::vector<MeshShape> meshShapes;       // the triangle meshes of TriangleMesh colliders (Collider::mesh)
  std::vector<Contact> contacts;           // capacity reserved (see reserveContacts), so step() never allocates
  std::vector<ParticleBox> particleBoxes;  // per kBoxParticles particles: the bounds of their p, for the
                                           // ground and collider scans (set by the prediction, by the coloured
                                           // pass's last copy out or by boundAllParticles; kept growing by the
                                           // late pass's pushes)
  bool solveBoundParticles = false;        // this substep's solve left particleBoxes bounding p as it left it

  /// Collider k is dynamic (World::setColliderBody gave it a mass).
  bool dynamicCollider(uint32_t k) const { return k < motions.size() && motions[k].body.mass > 0; }
  /// Some collider is dynamic.
  bool anyDynamicCollider() const {
    for (uint32_t k = 0; k < motions.size(); ++k)
      if (dynamicCollider(k)) return true;
    return false;
  }
};

}  // namespace pbd

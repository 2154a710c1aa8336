// Dynamic colliders (World::setColliderBody): a rigid body of another engine, moved across the step's substeps
// by the world itself, so that the particles it touches slow it within the step. Each substep the body moves freely
// under gravity (symplectic Euler, the rotation by q ← q + ½ h [ω, 0] q, normalized; Müller et al. 2020, "Detailed
// rigid body simulation with extended position based dynamics", Algorithm 2), the contacts are solved against
// that motion as against a kinematic collider's, and then the body takes minus the momentum they gave the
// particles: Δv = −ΔP / m, Δω = −I⁻¹ ΔL (ΔL about its position, I⁻¹ = R diag(1/I) Rᵀ in the world frame). The
// exchange is explicit per substep: its lag is a substep, not a frame.
#include "world/world_state.h"

namespace pbd {

void World::Impl::saveDynamicColliders() {
  for (size_t k = 0; k < collision.colliders.size(); ++k) {
    ColliderMotion& motion = collision.motions[k];
    if (motion.body.mass == 0) continue;
    motion.savedPosition = collision.colliders[k].def.position;
    motion.savedRotation = collision.colliders[k].def.rotation;
    motion.savedLinear = motion.body.linearVelocity;
    motion.savedAngular = motion.body.angularVelocity;
  }
}

void World::Impl::moveDynamicColliders(Real h) {
  for (size_t k = 0; k < collision.colliders.size(); ++k) {
    ColliderMotion& motion = collision.motions[k];
    if (motion.body.mass == 0) continue;
    Collider& c = collision.colliders[k];
    ColliderBody& body = motion.body;
    body.linearVelocity += h * settings.gravity;
    c.subStartPosition = c.def.position, c.subStartRotation = c.def.rotation;
    c.def.position += h * body.linearVelocity;
    if (body.angularVelocity != Vec3::Zero()) {  // a body that does not turn keeps its rotation to the bit
      const Quat spin(0, body.angularVelocity.x(), body.angularVelocity.y(), body.angularVelocity.z());
      c.def.rotation.coeffs() += Real(0.5) * h * (spin * c.def.rotation).coeffs();
      c.def.rotation.normalize();
    }
    c.subEndPosition = c.def.position, c.subEndRotation = c.def.rotation;
    motion.substepStart = collision.contactMomenta[k];
  }
}

void World::Impl::pushDynamicColliders() {
  for (size_t k = 0; k < collision.colliders.size(); ++k) {
    ColliderMotion& motion = collision.motions[k];
    if (motion.body.mass == 0) continue;
    const Collider& c = collision.colliders[k];
    const ContactMomentum& now = collision.contactMomenta[k];
    const Eigen::Vector3d given = now.linear - motion.substepStart.linear;
    const Eigen::Vector3d centre = c.def.position.cast<double>();
    const Eigen::Vector3d turned = now.moment - motion.substepStart.moment - centre.cross(given);
    const Eigen::Matrix3d rotation = c.def.rotation.cast<double>().toRotationMatrix();
    const Eigen::Vector3d inverseInertia = motion.body.inertia.cast<double>().cwiseInverse();
    const Eigen::Vector3d spinChange = rotation * inverseInertia.cwiseProduct(rotation.transpose() * turned);
    motion.body.linearVelocity -= (given / double(motion.body.mass)).cast<Real>();
    motion.body.angularVelocity -= spinChange.cast<Real>();
    motion.substepStart = now;
  }
}

void World::Impl::restoreDynamicColliders() {
  for (size_t k = 0; k < collision.colliders.size(); ++k) {
    ColliderMotion& motion = collision.motions[k];
    if (motion.body.mass == 0) continue;
    Collider& c = collision.colliders[k];
    c.def.position = c.startPosition = motion.savedPosition;
    c.def.rotation = c.startRotation = motion.savedRotation;
    motion.body.linearVelocity = motion.savedLinear;
    motion.body.angularVelocity = motion.savedAngular;
  }
}

}  // namespace pbd

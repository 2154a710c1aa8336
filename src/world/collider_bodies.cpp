// Dynamic colliders (World::setColliderBody): a rigid body of another engine, moved across the step's substeps
// by the world itself, so that the particles it touches (or hang from it) slow it within the step. Each substep the body
// moves freely under gravity (unless ColliderBody::gravity is off) (symplectic Euler, the rotation by q ← q + ½ h [ω, 0] q, normalized; Müller et al. 2020, "Detailed
// rigid body simulation with extended position based dynamics", Algorithm 2), the contacts are solved against
// that motion as against a kinematic collider's, and then the body takes minus the momentum they gave the
// particles: Δv = −ΔP / m, Δω = −I⁻¹ ΔL (ΔL about its position, I⁻¹ = R diag(1/I) Rᵀ in the world frame). The
// exchange is explicit per substep: its lag is a substep, not a frame.
#include "constraints/multiplier.h"
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
    if (body.gravity) body.linearVelocity += h * settings.gravity;
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

/// Attachment `a` of a particle to a dynamic collider's point, solved with the body as an XPBD positional constraint
/// between two bodies (Müller et al. 2020, eq. 2–3, 6–9): C = |p − t|, t = c + r the point (r = R anchor), n the
/// direction from t to p, w_body = 1/m + (r × n)ᵀ I⁻¹ (r × n) with I⁻¹ = R diag(1/I) Rᵀ; Δλ as any XPBD step with
/// w_particle + w_body; then p += w_particle Δλ n, and the body moves by −Δλ n / m and turns by I⁻¹ (r × −Δλ n).
/// Linear momentum is exchanged exactly; angular to first order in h (the body's pose moves within the substep, as in
/// XPBD's rigid bodies, so its lever is not the particle's booked one).
/// The body takes the reaction within the projection, not after the substep: a cloth as heavy as the body hung from
/// it stays stable (exchanged after the substep, the pull fed back and grew every substep).
void World::Impl::projectAttachmentToBody(size_t a, bool xpbd, Real invH2) {
  const Attachment& at = constraints.attachments[a];
  Collider& c = collision.colliders[at.collider];
  ColliderMotion& motion = collision.motions[at.collider];
  Vec3* P = asVec3(particles.p);
  const Vec3 from = P[at.particle];
  const Real wParticle = particles.w[at.particle];
  const Vec3 r = c.def.rotation * at.anchor;
  const Vec3 delta = from - (c.def.position + r);
  const Real C = delta.norm();
  if (wParticle == 0 || !(C > Real(1e-12))) return;
  const Vec3 n = delta / C;
  const Eigen::Matrix3f rotation = c.def.rotation.toRotationMatrix();
  const Vec3 inverseInertia = motion.body.inertia.cwiseInverse();
  auto inverseInertiaTimes = [&](const Vec3& v) { return Vec3(rotation * inverseInertia.cwiseProduct(rotation.transpose() * v)); };
  const Vec3 rn = r.cross(n);
  const Real wBody = 1 / motion.body.mass + rn.dot(inverseInertiaTimes(rn));
  const Real dLambda = multiplierStep(C, wParticle + wBody, xpbd, at.kPrime, at.compliance * invH2,
                                      constraints.attachmentLambda[a]);
  constraints.attachmentLambda[a] += dLambda;
  P[at.particle] += (wParticle * dLambda) * n;
  const Vec3 impulse = -dLambda * n;  // the positional impulse on the body
  const Vec3 shift = impulse / motion.body.mass, turn = inverseInertiaTimes(r.cross(impulse));
  c.def.position += shift;
  const Quat spin(0, turn.x(), turn.y(), turn.z());
  c.def.rotation.coeffs() += Real(0.5) * (spin * c.def.rotation).coeffs();
  c.def.rotation.normalize();
  c.subEndPosition = c.def.position, c.subEndRotation = c.def.rotation;  // where the contacts see it
  motion.moved += shift.cast<double>(), motion.turned += turn.cast<double>();
  // Booked as every attachment's and contact's (colliderImpulse, attachmentImpulse), and as solved here.
  const ContactMomentum before = collision.contactMomenta[at.collider];
  recordContactMomentum(at.collider, at.particle, from, false);
  const ContactMomentum& after = collision.contactMomenta[at.collider];
  motion.solved.linear += after.linear - before.linear, motion.solved.moment += after.moment - before.moment;
  constraints.attachmentMomenta[a] += momentumOfMove(at.particle, from, false);
}

void World::Impl::pushDynamicColliders() {
  for (size_t k = 0; k < collision.colliders.size(); ++k) {
    ColliderMotion& motion = collision.motions[k];
    if (motion.body.mass == 0) continue;
    const Collider& c = collision.colliders[k];
    const ContactMomentum& now = collision.contactMomenta[k];
    // What the attachments solved with the body gave it is already in its pose: as velocity, not again as momentum.
    const Eigen::Vector3d given = now.linear - motion.substepStart.linear - motion.solved.linear;
    const Eigen::Vector3d centre = c.def.position.cast<double>();
    const Eigen::Vector3d turned = now.moment - motion.substepStart.moment - motion.solved.moment - centre.cross(given);
    const Eigen::Matrix3d rotation = c.def.rotation.cast<double>().toRotationMatrix();
    const Eigen::Vector3d inverseInertia = motion.body.inertia.cast<double>().cwiseInverse();
    const Eigen::Vector3d spinChange = rotation * inverseInertia.cwiseProduct(rotation.transpose() * turned);
    motion.body.linearVelocity -= (given / double(motion.body.mass)).cast<Real>();
    motion.body.angularVelocity -= spinChange.cast<Real>();
    motion.body.linearVelocity += (motion.moved * double(collision.contactInvH)).cast<Real>();
    motion.body.angularVelocity += (motion.turned * double(collision.contactInvH)).cast<Real>();
    motion.moved.setZero(), motion.turned.setZero(), motion.solved = ContactMomentum{};
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

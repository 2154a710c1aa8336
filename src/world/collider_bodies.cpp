// Dynamic colliders (World::setColliderBody): a rigid body of another engine, moved across the step's substeps
// by the world itself, so that the particles it touches (or hang from it) slow it within the step. Each substep the body
// moves freely under gravity (unless ColliderBody::gravity is off) (symplectic Euler, the rotation by q ← q + ½ h [ω, 0] q, normalized; Müller et al. 2020, "Detailed
// rigid body simulation with extended position based dynamics", Algorithm 2), the contacts are solved against
// that motion as against a kinematic collider's, and then the body takes minus the momentum they gave the
// particles: Δv = −ΔP / m, Δω = −I⁻¹ ΔL (ΔL about its position, I⁻¹ = R diag(1/I) Rᵀ in the world frame). The
// exchange is explicit per substep: its lag is a substep, not a frame.
// A body held by a joint to the fixed world (ColliderBody::joint) only turns about the pivot (ball) or the axis (hinge):
// an impulse J with moment L about its position c changes its spin by I_p⁻¹ L_p, L_p = L + d × J the moment about the
// pivot (d = c − pivot) and I_p = I + m (|d|² 1 − d dᵀ) its inertia there (parallel axes); a hinge keeps the axis's
// part, a (a · L_p) / (aᵀ I_p a). Its position follows, Δv = Δω × d: the joint's own reaction is the other engine's.
#include "constraints/multiplier.h"
#include "world/world_state.h"

namespace pbd {
namespace {

struct BodyResponse {
  Eigen::Vector3d linear, angular;  // Δv (m/s) of the position and Δω (rad/s)
};

/// What an impulse J (N s) with moment L (N m s) about the position gives the body: a free one Δv = J / m,
/// Δω = R diag(1/I) Rᵀ L; a jointed one as the top of the file says.
BodyResponse bodyResponse(const ColliderBody& body, const Collider& c, const Eigen::Vector3d& J,
                          const Eigen::Vector3d& L) {
  const Eigen::Matrix3d R = c.def.rotation.cast<double>().toRotationMatrix();
  const double m = body.mass;
  if (body.joint == BodyJoint::None) {
    return {J / m, R * body.inertia.cast<double>().cwiseInverse().cwiseProduct(R.transpose() * L)};
  }
  const Eigen::Vector3d d = (c.def.position - body.jointPivot).cast<double>();
  const Eigen::Matrix3d inertia = R * body.inertia.cast<double>().asDiagonal() * R.transpose() +
                                  m * (d.squaredNorm() * Eigen::Matrix3d::Identity() - d * d.transpose());
  const Eigen::Vector3d aboutPivot = L + d.cross(J);
  Eigen::Vector3d spin;
  if (body.joint == BodyJoint::Hinge) {
    const Eigen::Vector3d a = body.jointAxis.cast<double>();
    spin = a * (a.dot(aboutPivot) / a.dot(inertia * a));
  } else {
    spin = inertia.ldlt().solve(aboutPivot);
  }
  return {spin.cross(d), spin};
}

}  // namespace

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
    const bool jointed = body.joint != BodyJoint::None;
    if (body.gravity && jointed) {
      const BodyResponse fall = bodyResponse(body, c, (double(body.mass) * h) * settings.gravity.cast<double>(),
                                                Eigen::Vector3d::Zero());
      body.angularVelocity += fall.angular.cast<Real>();
    } else if (body.gravity) {
      body.linearVelocity += h * settings.gravity;
    }
    c.subStartPosition = c.def.position, c.subStartRotation = c.def.rotation;
    if (!jointed) c.def.position += h * body.linearVelocity;
    if (body.angularVelocity != Vec3::Zero()) {  // a body that does not turn keeps its rotation to the bit
      const Quat spin(0, body.angularVelocity.x(), body.angularVelocity.y(), body.angularVelocity.z());
      c.def.rotation.coeffs() += Real(0.5) * h * (spin * c.def.rotation).coeffs();
      c.def.rotation.normalize();
    }
    if (jointed) {  // carried round the pivot by the same turn: it stays at its distance from it
      const Vec3 arm = c.subStartPosition - body.jointPivot;
      c.def.position = body.jointPivot + (c.def.rotation * c.subStartRotation.conjugate()) * arm;
      body.linearVelocity = body.angularVelocity.cross(c.def.position - body.jointPivot);
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
  // A free body's weight in float, as it always was; a jointed body's through bodyResponse.
  const bool jointed = motion.body.joint != BodyJoint::None;
  // A jointed body's response to a unit impulse along n at r: its point there moves by w_body along n.
  const BodyResponse unit = jointed ? bodyResponse(motion.body, c, n.cast<double>(), rn.cast<double>())
                                    : BodyResponse{};
  const Real wBody = jointed ? Real(n.cast<double>().dot(unit.linear + unit.angular.cross(r.cast<double>())))
                             : 1 / motion.body.mass + rn.dot(inverseInertiaTimes(rn));
  const Real dLambda = multiplierStep(C, wParticle + wBody, xpbd, at.kPrime, at.compliance * invH2,
                                      constraints.attachmentLambda[a]);
  constraints.attachmentLambda[a] += dLambda;
  P[at.particle] += (wParticle * dLambda) * n;
  const Vec3 impulse = -dLambda * n;  // the positional impulse on the body
  const Vec3 shift = jointed ? Vec3((-dLambda) * unit.linear.cast<Real>()) : Vec3(impulse / motion.body.mass);
  const Vec3 turn = jointed ? Vec3((-dLambda) * unit.angular.cast<Real>()) : inverseInertiaTimes(r.cross(impulse));
  const Quat was = c.def.rotation;
  const Quat spin(0, turn.x(), turn.y(), turn.z());
  c.def.rotation.coeffs() += Real(0.5) * (spin * c.def.rotation).coeffs();
  c.def.rotation.normalize();
  if (jointed) {  // turned round the pivot: shift is that turn's first order
    const Vec3 arm = c.def.position - motion.body.jointPivot;
    c.def.position = motion.body.jointPivot + (c.def.rotation * was.conjugate()) * arm;
  } else {
    c.def.position += shift;
  }
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
    const BodyResponse taken = bodyResponse(motion.body, c, given, turned);
    motion.body.linearVelocity -= taken.linear.cast<Real>();
    motion.body.angularVelocity -= taken.angular.cast<Real>();
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

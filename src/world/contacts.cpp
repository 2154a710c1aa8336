// Contacts with the ground plane and the colliders: generation (stage 8 of Algorithm 1), projection within the
// iterations, the late pass that guarantees nothing ends inside, and the velocity pass (stage 16).
#include <algorithm>
#include <cmath>

#include "base/growth.h"
#include "collision/shape_distance.h"
#include "constraints/plane_contact.h"
#include "math/wide_float.h"
#include "world/collider_motion.h"
#include "world/world_state.h"

namespace pbd {
namespace {

const Vec3 kUp(0, 1, 0);

/// Calls visit(begin, end, margin) for the parts of every body that lie in one run of particles (particleBoxes)
/// whose box boxInReach(box, margin) finds in reach, with the body's contact thickness, in particle order.
template <class Impl, class BoxInReach, class Visit>  // Impl: World::Impl (private; deduced)
void forEachRunInReach(const Impl& m, BoxInReach boxInReach, Visit visit) {
  const ParticleBox* boxes = m.collision.particleBoxes.data();
  for (size_t b = 0; b < m.particles.bodies.size(); ++b) {
    const Real margin = m.particles.bodyMaterials[b].thickness;
    const uint32_t end = m.particles.bodies[b].end;
    for (uint32_t i = m.particles.bodies[b].begin; i < end;) {
      const uint32_t run = i / kBoxParticles, runEnd = std::min(end, (run + 1) * kBoxParticles);
      if (boxInReach(boxes[run], margin)) visit(i, runEnd, margin);
      i = runEnd;
    }
  }
}

/// Calls visit(i, p_i, distance, margin) for every free particle of `m.p` inside collider c (closer than its
/// thickness plus the particle's body's margin), in particle order. Broad phase: the runs' boxes, then each
/// particle, against the collider's bounding sphere.
template <class Impl, class Visit>
void forEachPenetration(const Impl& m, const Collider& c, Visit visit) {
  const Real centre[3] = {c.subEndPosition.x(), c.subEndPosition.y(), c.subEndPosition.z()};
  const Real radius = boundingRadius(c.def) + c.def.thickness;
  auto boxInReach = [&](const ParticleBox& box, Real margin) { return boxWithinReach(box, centre, radius + margin); };
  forEachRunInReach(m, boxInReach, [&](uint32_t begin, uint32_t end, Real margin) {
    const Real reach = radius + margin;
    for (uint32_t i = begin; i < end; ++i) {
      if (m.particles.w[i] == 0) continue;
      const Vec3 pi = particleAt(m.particles.p, i);
      if ((pi - c.subEndPosition).squaredNorm() > reach * reach) continue;
      const ShapeDistance d = worldDistance(c, pi);
      if (d.phi < c.def.thickness + margin) visit(i, pi, d, margin);
    }
  });
}

/// Calls test(i) for every particle i in [begin, end) whose height p[3i + 1] is not >= limit (below it, or NaN), in
/// particle order, until a test returns false; returns false then, true otherwise. Four heights at a time: a block
/// of four that is above (no NaN either, as limit <= NaN is false) needs no per-particle test.
template <class Test>
bool forEachBelow(const Real* p, Real limit, uint32_t begin, uint32_t end, Test test) {
  const Float4 limit4 = Float4::splat(limit);
  uint32_t i = begin;
  for (; i + 4 <= end; i += 4) {
    const Real* y = p + 3 * size_t(i) + 1;
    if (all(limit4 <= Float4::gather(y, y + 3, y + 6, y + 9))) continue;
    for (uint32_t k = i; k < i + 4; ++k) {
      if (!(p[3 * size_t(k) + 1] >= limit) && !test(k)) return false;
    }
  }
  for (; i < end; ++i) {
    if (!(p[3 * size_t(i) + 1] >= limit) && !test(i)) return false;
  }
  return true;
}

/// Calls visit(i, margin) for every free particle of `m.p` below the ground's surface plus its body's margin (a
/// NaN height counts as below), in particle order, looking only at the runs whose box reaches below it. Through
/// raw pointers: with the members, every contact pushed made the compiler load them again, which cost more than the
/// test.
template <class Impl, class Visit>
void forEachBelowGround(const Impl& m, Visit visit) {
  const Real surface = m.groundSurface();
  const Real* p = m.particles.p.data();
  const Real* w = m.particles.w.data();
  auto boxInReach = [&](const ParticleBox& box, Real margin) { return !(box.lo[1] >= surface + margin); };
  forEachRunInReach(m, boxInReach, [&](uint32_t begin, uint32_t end, Real margin) {
    forEachBelow(p, surface + margin, begin, end, [&](uint32_t k) {
      if (w[k] != 0) visit(k, margin);
      return true;
    });
  });
}

}  // namespace

void World::Impl::reserveContacts(size_t particles, size_t colliderCount) {
  const size_t runs = (particles + kBoxParticles - 1) / kBoxParticles;
  collision.particleBoxes.reserve(grownRoom(runs, collision.particleBoxes.capacity()));
  // Each particle can touch the ground and every collider, and the late pass can add as many again.
  collision.contacts.reserve(grownRoom(2 * particles * (colliderCount + 1), collision.contacts.capacity()));
  for (MeshShape& m :
       collision.meshShapes) {  // new particles: their inside flags exist before they do, and are unknown
    if (m.inside.size() < particles) m.resizeParticles(particles), m.insideUnknown = true;
  }
}

// A collider that does not turn keeps its rotation exactly: slerp between two equal rotations rounds, and the
// substeps' poses would then differ by ~1e-8, a surface motion that friction would drag resting particles with.
void World::Impl::updateColliderPoses(Real fractionStart, Real fractionEnd) {
  for (Collider& c : collision.colliders) {
    c.subStartPosition = c.startPosition + fractionStart * (c.def.position - c.startPosition);
    c.subEndPosition = c.startPosition + fractionEnd * (c.def.position - c.startPosition);
    const bool turning = c.startRotation.coeffs() != c.def.rotation.coeffs();
    c.subStartRotation = turning ? Quat(c.startRotation.slerp(fractionStart, c.def.rotation)) : c.def.rotation;
    c.subEndRotation = turning ? Quat(c.startRotation.slerp(fractionEnd, c.def.rotation)) : c.def.rotation;
  }
}

bool World::Impl::scansParticles() const {
  if (settings.ground.enabled) return true;
  for (const Collider& c : collision.colliders) {
    if (c.mesh == kNoMesh) return true;
  }
  return false;
}

void World::Impl::boundAllParticles() {
  forEachParticleRangeWithBoxes(true, [&](size_t begin, size_t end, ParticleBox* boxes) {
    boundParticles(particles.p.data(), begin, end, boxes);
  });
}

/// Collider k's contact changed particle i's position from `from` to p_i as stored (or, with `velocity`, its
/// velocity from `from` to v_i): the momentum that gave the particle is added to the collider's sum, with its moment
/// about the origin. Under Euler the commit makes v = (p − x)/h, so a move Δp gives m Δp/h of momentum and
/// m x × Δp/h of angular momentum, exactly (internal_momentum.cpp); a velocity change, m Δv at the committed x.
/// BDF2 is a two-step method: free motion keeps Q = (3 Pⁿ − Pⁿ⁻¹)/2, not P (vⁿ⁺¹ = 4/3 vⁿ − 1/3 vⁿ⁻¹), and the
/// momentum goes to Q in a few substeps. A velocity change adds 3/2 m Δv to Q, a move (3/2)² m Δp/h
/// (vⁿ⁺¹ = (3/2 p − 2x + 1/2 x⁻)/h), at the lever ℓ = (4x − x⁻)/3. Δ from the stored floats, so that the sum is
/// what the particle got.
Eigen::Vector3d World::Impl::momentumOfMove(uint32_t i, const Vec3& from, bool velocity) const {
  const std::vector<Real>& now = velocity ? particles.v : particles.p;
  Eigen::Vector3d delta;
  for (int a = 0; a < 3; ++a) delta[a] = double(now[3 * size_t(i) + a]) - double(from[a]);
  const double scale = (velocity ? 1.0 : double(collision.contactInvH)) *
                       (collision.contactBdf2 ? (velocity ? 1.5 : 2.25) : 1.0);
  return delta * (scale / double(particles.w[i]));
}

void World::Impl::recordContactMomentum(uint32_t k, uint32_t i, const Vec3& from, bool velocity) {
  if (k == kGroundCollider || (!velocity && !collision.countContactPushes)) return;
  bookContactMomentum(k, i, momentumOfMove(i, from, velocity), velocity);
}

void World::Impl::bookContactMomentum(uint32_t k, uint32_t i, const Eigen::Vector3d& momentum, bool velocity) {
  Eigen::Vector3d at;
  for (int a = 0; a < 3; ++a) {
    const size_t j = 3 * size_t(i) + a;
    at[a] = !velocity && collision.contactBdf2 ? (4 * double(particles.x[j]) - double(particles.xPrev[j])) / 3
                                               : double(particles.x[j]);
  }
  ContactMomentum& sum = collision.contactMomenta[k];
  sum.linear += momentum;
  sum.moment += at.cross(momentum);
}

void World::Impl::resetContactMomenta() {
  collision.contactMomenta.assign(collision.colliders.size(), ContactMomentum{});
  std::fill(constraints.attachmentMomenta.begin(), constraints.attachmentMomenta.end(), Eigen::Vector3d::Zero());
  constraints.attachmentMomentaMeasured = settings.solver != Solver::VertexBlockDescent;
}

void World::Impl::moveInLatePass(uint32_t i, const Vec3& to, uint32_t collider) {
  const Vec3 from = particleAt(particles.p, i);
  for (int a = 0; a < 3; ++a) particles.p[3 * size_t(i) + a] = to[a];
  recordContactMomentum(collider, i, from, false);
  if (i / kBoxParticles >= collision.particleBoxes.size()) return;  // no scan bounded the particles this substep
  ParticleBox& box = collision.particleBoxes[i / kBoxParticles];
  for (int a = 0; a < 3; ++a) box.lo[a] = std::min(box.lo[a], to[a]), box.hi[a] = std::max(box.hi[a], to[a]);
}

/// (8) generateCollisionConstraints: a contact for every free particle predicted inside the ground or a collider.
void World::Impl::generateContacts(Real h) {
  collision.contacts.clear();
  if (settings.ground.enabled) {  // the prediction bounded the particles as it wrote p
    forEachBelowGround(*this, [&](uint32_t i, Real margin) {
      collision.contacts.push_back({i, kGroundCollider, particles.v[3 * i + 1], 0, kUp, margin});
    });
  }
  for (uint32_t k = 0; k < collision.colliders.size(); ++k) {
    const Collider& c = collision.colliders[k];
    if (c.mesh != kNoMesh) {
      generateMeshContacts(k, h);
      continue;
    }
    forEachPenetration(*this, c, [&](uint32_t i, const Vec3& pi, const ShapeDistance& d, Real margin) {
      const Vec3 relative = particleAt(particles.v, i) - colliderVelocity(c, pi, 1 / h);
      collision.contacts.push_back({i, k, d.n.dot(relative), 0, d.n, margin});
    });
  }
}

/// The dynamic Coulomb coefficient of a contact: the particle's body material mixed with the surface's
/// (contact_material.h).
Real World::Impl::contactFriction(const Contact& c) const {
  const ContactMaterial& body = particles.bodyMaterials[bodyOf(c.particle)];
  return mixFriction(body.friction, c.collider == kGroundCollider ? settings.ground.friction
                                                                  : collision.colliders[c.collider].def.friction);
}

/// The static coefficient: each side's μ_s (its μ_d where unset), mixed by the same rule. With every staticFriction at
/// its default this is exactly contactFriction (mixFriction(-1, μ) returns μ untouched).
Real World::Impl::contactStaticFriction(const Contact& c) const {
  const ContactMaterial& body = particles.bodyMaterials[bodyOf(c.particle)];
  const bool ground = c.collider == kGroundCollider;
  const Real surfaceStatic =
      ground ? settings.ground.staticFriction : collision.colliders[c.collider].def.staticFriction;
  const Real surface = ground ? settings.ground.friction : collision.colliders[c.collider].def.friction;
  return mixFriction(staticOrDynamic(body.staticFriction, body.friction), staticOrDynamic(surfaceStatic, surface));
}

/// Friction at position level (Müller et al. 2020, "Detailed rigid body simulation with XPBD", sec. 3.5): the
/// particle's tangential displacement over the substep relative to the surface,
///   Δp = (p - x) - (surface point's displacement),  Δp_t = Δp - (Δp·n) n,
/// is undone when |Δp_t| < μ_s d, d = the normal correction the contact has applied this substep (μ_s d bounds the
/// tangential correction a static friction impulse may make, as Coulomb's cone bounds the force). Otherwise the
/// contact slides, and its path is shortened by μ_d d (dynamic friction, the same bound), counted from the path
/// before any such shortening this substep (c.kineticShift) so that iterations do not apply it twice; the velocity
/// pass then brakes only by what is left of μ_d d. Without the hold a held particle creeps by the prediction's
/// g sin θ h² every substep, which the velocity pass stops but does not undo. Without the shortening a slipping
/// particle of a rigid patch moves its whole Δp_t in that substep, its neighbours' constraints pull it back and
/// push them on the next, and the patch creeps by stick-slip even where μ_s > tan θ (any asymmetry starts it).
void World::Impl::holdStaticFriction(Contact& c) {
  if (!(c.normalPush > 0)) return;
  const Vec3 pi = particleAt(particles.p, c.particle);
  const Vec3 surfaceMotion =
      c.collider == kGroundCollider ? Vec3::Zero() : colliderVelocity(collision.colliders[c.collider], pi, 1);
  const Vec3 delta = pi - particleAt(particles.x, c.particle) - surfaceMotion;
  const Vec3 tangential = delta - delta.dot(c.normal) * c.normal;
  const Real muStatic = contactStaticFriction(c);
  Vec3 shift = tangential;  // held: all of it
  if (!(tangential.squaredNorm() < muStatic * muStatic * c.normalPush * c.normalPush)) {
    const Vec3 path = tangential + c.kineticShift;  // as it would be without the shortening
    const Real length = path.norm(), allowed = contactFriction(c) * c.normalPush;
    shift = length > allowed ? Vec3(tangential - path * (1 - allowed / length)) : tangential;
    c.kineticShift += shift;
  }
  const Vec3 moved = pi - shift;
  for (int a = 0; a < 3; ++a) particles.p[3 * c.particle + a] = moved[a];
  recordContactMomentum(c.collider, c.particle, pi, false);
}

/// Moves the contact's particle from pi by `push` (m, > 0) along the surface normal n, and records both.
void World::Impl::pushOut(Contact& c, const Vec3& pi, Real push, const Vec3& n) {
  const Vec3 corrected = pi + push * n;
  for (int a = 0; a < 3; ++a) particles.p[3 * c.particle + a] = corrected[a];
  recordContactMomentum(c.collider, c.particle, pi, false);
  c.normalPush += push;
  c.normal = n;
}

/// One projection of every contact (unilateral, rigid): the particle is put back on the surface, and held in place
/// along it if static friction can.
void World::Impl::projectContacts() {
  const Real surface = groundSurface();
  for (Contact& c : collision.contacts) {
    if (c.energy != kNotEnergy) {  // pushed by its particle's vertex step (Vertex Block Descent): friction only
      c.normalPush = solverData.vbdContacts[c.energy].push;
      holdStaticFriction(c);
      continue;
    }
    if (c.collider == kGroundCollider) {
      c.normalPush += projectGroundContact(particles.p[3 * c.particle + 1], surface + c.margin);
      holdStaticFriction(c);
      continue;
    }
    const Collider& col = collision.colliders[c.collider];
    const Vec3 pi = particleAt(particles.p, c.particle);
    if (col.mesh != kNoMesh) {  // a fixed plane: C(p) = (p - q)·n - thickness >= 0
      const Real push = col.def.thickness + c.margin - (pi - c.point).dot(c.normal);
      if (push > 0) pushOut(c, pi, push, c.normal);
      holdStaticFriction(c);  // also when this iteration had nothing to push: other constraints may have slid it
      continue;
    }
    const ShapeDistance d = worldDistance(col, pi);
    if (d.phi < col.def.thickness + c.margin) pushOut(c, pi, col.def.thickness + c.margin - d.phi, d.n);
    holdStaticFriction(c);
  }
}

/// Particles pushed inside by other constraints after contact generation get a contact now, so that no particle
/// ends a substep inside the ground or a collider. Contacts beyond the reserved capacity are still projected,
/// just not kept for the velocity pass (step() never allocates).
void World::Impl::addLateContacts(Real h) {
  collision.countContactPushes = true;  // nothing undoes the late pass
  auto keep = [&](const Contact& c) {
    if (collision.contacts.size() < collision.contacts.capacity())
      collision.contacts.push_back(c);
    else
      ++diagnostics.report.droppedContacts;
  };
  if (scansParticles() && !collision.solveBoundParticles) boundAllParticles();
  if (settings.ground.enabled) {
    const Real surface = groundSurface();
    forEachBelowGround(*this, [&](uint32_t i, Real margin) {
      Vec3 to = particleAt(particles.p, i);
      const Real push = projectGroundContact(to.y(), surface + margin);
      moveInLatePass(i, to, kGroundCollider);
      keep({i, kGroundCollider, particles.v[3 * i + 1], push, kUp, margin});
    });
  }
  for (uint32_t k = 0; k < collision.colliders.size(); ++k) {
    const Collider& c = collision.colliders[k];
    if (c.mesh != kNoMesh) {
      addLateMeshContacts(k, h);
      continue;
    }
    forEachPenetration(*this, c, [&](uint32_t i, const Vec3& pi, const ShapeDistance& d, Real margin) {
      const Real push = c.def.thickness + margin - d.phi;
      moveInLatePass(i, pi + push * d.n, k);
      keep({i, k, d.n.dot(particleAt(particles.v, i) - colliderVelocity(c, pi, 1 / h)), push, d.n, margin});
    });
  }
}

/// (16) velocityUpdate, relative to the surface's own velocity: Coulomb friction reduces the tangential part by at
/// most mu * (normal velocity change) = mu * normalPush / h, less what the position-level dynamic friction already
/// took (holdStaticFriction); restitution restores e times the approach speed.
/// mu and e combine the particle's body material with the surface's (pbd/contact_material.h).
void World::Impl::updateContactVelocities(Real h) {
  const Real invH = 1 / h;
  const Real threshold = settings.ground.restitutionThreshold;
  for (const Contact& c : collision.contacts) {
    const bool ground = c.collider == kGroundCollider;
    const ContactMaterial& body = particles.bodyMaterials[bodyOf(c.particle)];
    const Real friction = contactFriction(c);
    const Real restitution = mixRestitution(
        body.restitution, ground ? settings.ground.restitution : collision.colliders[c.collider].def.restitution);
    const Vec3 surfaceVelocity =
        ground ? Vec3::Zero()
               : colliderVelocity(collision.colliders[c.collider], particleAt(particles.p, c.particle), invH);
    const Vec3 relative = particleAt(particles.v, c.particle) - surfaceVelocity;
    const Real vn = relative.dot(c.normal);
    Vec3 tangential = relative - vn * c.normal;
    const Real vt = tangential.norm();
    const Real brake = std::max(Real(0), friction * c.normalPush - c.kineticShift.norm()) * invH;  // what is left
    if (vt > 0) tangential *= std::max(Real(0), vt - brake) / vt;
    Real newNormal = vn;
    if (restitution > 0 && -c.approachSpeed > threshold) newNormal = std::max(vn, -restitution * c.approachSpeed);
    const Vec3 result = surfaceVelocity + newNormal * c.normal + tangential;
    const Vec3 before = particleAt(particles.v, c.particle);
    for (int a = 0; a < 3; ++a) particles.v[3 * c.particle + a] = result[a];
    recordContactMomentum(c.collider, c.particle, before, true);
  }
}

}  // namespace pbd

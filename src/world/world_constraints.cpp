// The World's constraints and bodies: distances, dihedrals and attachments one by one, and whole bodies from the
// builders (bodies/body_builders.h), each validated before anything changes.
#include "pbd/world.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "base/checks.h"
#include "base/growth.h"
#include "bodies/body_builders.h"
#include "constraints/multiplier.h"
#include "mesh/mesh_checks.h"
#include "world/body_materials.h"
#include "world/symmetric_sweep.h"
#include "world/world_state.h"

namespace pbd {
namespace {

Vec3 load3(const std::vector<Real>& a, uint32_t i) { return Vec3(a[3 * i], a[3 * i + 1], a[3 * i + 2]); }

void checkStrength(const char* fn, const Strength& s) {
  check::atLeast(fn, "compliance", s.compliance, 0);
  check::inRange(fn, "stiffness", s.stiffness, 0, 1);
}

void checkDistance(const char* fn, const DistanceConstraintDef& d, const std::vector<Real>& x) {
  const uint32_t particleCount = uint32_t(x.size() / 3);
  check::index(fn, "i", d.i, particleCount);
  check::index(fn, "j", d.j, particleCount);
  if (d.i == d.j) check::fail(fn, "j", "must differ from i", d.j);
  if (d.minLength != -1) check::atLeast(fn, "minLength", d.minLength, 0);
  // minLength -1 resolves to the current distance, which maxLength must not undercut either.
  const Real resolvedMin = d.minLength == -1 ? (load3(x, d.i) - load3(x, d.j)).norm() : d.minLength;
  if (d.maxLength != -1) check::atLeast(fn, "maxLength", d.maxLength, resolvedMin);
  checkStrength(fn, d.strength);
}

}  // namespace

void World::Impl::reserveDistances(size_t extra) {
  const size_t total = constraints.distances.size() + extra;
  if (total > kMaxConstraints) check::fail("addDistanceConstraint", "constraint count", "would exceed the limit", total);
  const size_t room = std::min(grownRoom(total, constraints.distances.capacity()), size_t(kMaxConstraints));
  constraints.distances.reserve(room);
  constraints.distanceLambda.reserve(room);
  constraints.distanceColour.reserve(room);
  solverData.schedule.constraints.reserve(room);
  solverData.schedule.lambda.reserve(room);
  solverData.schedule.blocks.reserve(count(), room);
  solverData.volumeSweep.reserve(count(), room, constraints.volumes.capacity());
}

void World::Impl::appendDistance(const DistanceConstraintDef& d) {
  const Real current = (load3(particles.x, d.i) - load3(particles.x, d.j)).norm();
  const Real lo = d.minLength == -1 ? current : d.minLength;
  const Real hi = d.maxLength == -1 ? lo : d.maxLength;
  constraints.distances.push_back({d.i, d.j, lo, hi, d.strength.compliance, d.strength.stiffness,
                                   correctedStiffness(d.strength.stiffness, settings.iterations)});
  constraints.distanceLambda.push_back(0);
  constraints.distanceColour.push_back(solverData.colouring.add(d.i, d.j));
  solverData.schedule.dirty = true;
  islands.islandsDirty = true;
}

/// Appends a body's particles and constraints in one step: validated and reserved before anything changes.
BodyRange World::Impl::appendBody(const char* fn, const BodyBlueprint& b, const ContactMaterial& contact) {
  check::contactMaterial(fn, "contact", contact);
  const size_t n = b.inverseMasses.size();
  reserveDistances(b.constraints.size());
  constraints.tethers.reserve(constraints.tethers.size() + b.tethers.size());
  constraints.dihedrals.reserve(constraints.dihedrals.size() + b.dihedrals.size());
  constraints.volumes.reserve(constraints.volumes.size() + b.volumes.size());
  constraints.volumeLambda.reserve(constraints.volumes.size() + b.volumes.size());
  constraints.neoHookeans.reserve(constraints.neoHookeans.size() + b.neoHookeans.size());
  constraints.neoHookeanLambda.reserve(2 * (constraints.neoHookeans.size() + b.neoHookeans.size()));
  if (!b.surface.empty()) {
    constraints.surfaceVolumes.reserve(constraints.surfaceVolumes.size() + 1);
    constraints.surfaceVolumeLambda.reserve(constraints.surfaceVolumes.size() + 1);
    constraints.surfaceVertices.reserve(constraints.surfaceVertices.size() + b.positions.size() / 3);
    constraints.surfaceTriangles.reserve(constraints.surfaceTriangles.size() + b.surface.size());
    constraints.volumeGradient.reserve(std::max(constraints.volumeGradient.size(), b.positions.size() / 3));
  }
  constraints.dihedralLambda.reserve(constraints.dihedrals.size() + b.dihedrals.size());
  reserveTriangleStrains(fn, b.triangleStrains.size());
  reserveElementOrders(count() + n);  // after the triangles' room, which it reads
  reserveShapeMatching(fn, b.shapeMatching);
  const uint32_t firstConstraint = uint32_t(constraints.distances.size());
  const uint32_t first = appendParticles(fn, b.positions.data(), b.inverseMasses.data(), n);
  for (DistanceConstraintDef d : b.constraints) {
    d.i += first;
    d.j += first;
    appendDistance(d);
  }
  for (const Tether& t : b.tethers) constraints.tethers.push_back({t.particle + first, t.anchor + first, t.maxLength});
  const uint32_t firstDihedral = uint32_t(constraints.dihedrals.size());
  for (const DihedralConstraintDef& d : b.dihedrals) {
    Real rest = 0;
    Vec3 grad[4];
    const uint32_t p0 = d.p0 + first, p1 = d.p1 + first, p2 = d.p2 + first, p3 = d.p3 + first;
    if (!evalDihedral(load3(particles.x, p0), load3(particles.x, p1), load3(particles.x, p2), load3(particles.x, p3),
                      rest, grad))
      continue;
    constraints.dihedrals.push_back({p0, p1, p2, p3, rest, d.strength.compliance, d.strength.stiffness,
                                     symmetricSweepKPrime(d.strength.stiffness, settings.iterations)});
    constraints.dihedralLambda.push_back(0);
  }
  const uint32_t firstVolume = uint32_t(constraints.volumes.size());
  for (TetVolumeConstraint t : b.volumes) {
    for (uint32_t& q : t.p) q += first;
    t.kPrime = symmetricSweepKPrime(t.stiffness, settings.iterations);
    constraints.volumes.push_back(t);
    constraints.volumeLambda.push_back(0);
  }
  for (NeoHookeanTet e : b.neoHookeans) {
    for (uint32_t& q : e.p) q += first;
    e.deviatoricKPrime = symmetricSweepKPrime(e.deviatoricStiffness, settings.iterations);
    e.hydrostaticKPrime = symmetricSweepKPrime(e.hydrostaticStiffness, settings.iterations);
    constraints.neoHookeans.push_back(e);
    constraints.neoHookeanLambda.insert(constraints.neoHookeanLambda.end(), {Real(0), Real(0)});
  }
  solverData.elementOrdersDirty = true;
  appendSurfaceVolume(b, first);
  appendTriangleStrains(b, first);
  appendShapeMatching(b.shapeMatching, first);
  particles.bodyMaterials.back() = contact;
  return {first,
          uint32_t(n),
          firstConstraint,
          uint32_t(b.constraints.size()),
          uint32_t(b.tethers.size()),
          firstDihedral,
          uint32_t(constraints.dihedrals.size()) - firstDihedral,
          firstVolume,
          uint32_t(b.volumes.size()),
          uint32_t(particles.bodies.size() - 1)};
}

uint32_t World::addDistanceConstraint(const DistanceConstraintDef& def) {
  Impl& m = *impl_;
  checkDistance("addDistanceConstraint", def, m.particles.x);
  m.reserveDistances(1);
  m.appendDistance(def);
  return uint32_t(m.constraints.distances.size() - 1);
}

uint32_t World::addDistanceConstraints(std::span<const uint32_t> pairs, std::span<const Real> restLengths,
                                       const Strength& strength) {
  Impl& m = *impl_;
  const char* fn = "addDistanceConstraints";
  if (pairs.size() % 2 != 0) check::fail(fn, "pairs", "length must be even (two particles per constraint)", pairs.size());
  const size_t n = pairs.size() / 2;
  if (!restLengths.empty() && restLengths.size() != n) {
    check::fail(fn, "restLengths", ("length must equal the pair count " + std::to_string(n)).c_str(), restLengths.size());
  }
  checkStrength(fn, strength);
  const uint32_t count = m.count();
  auto element = [](const char* array, size_t k) { return std::string(array) + "[" + std::to_string(k) + "]"; };
  for (size_t k = 0; k < n; ++k) {  // names are formatted only for a bad value: a string per element was slow
    const uint32_t i = pairs[2 * k], j = pairs[2 * k + 1];
    if (i >= count) check::index(fn, element("pairs", 2 * k), i, count);
    if (j >= count) check::index(fn, element("pairs", 2 * k + 1), j, count);
    if (i == j) check::fail(fn, element("pairs", 2 * k + 1), "must differ from the particle before it", j);
    if (!restLengths.empty() && !(std::isfinite(restLengths[k]) && restLengths[k] >= 0)) {
      check::atLeast(fn, element("restLengths", k), restLengths[k], 0);
    }
  }
  m.reserveDistances(n);
  const uint32_t first = uint32_t(m.constraints.distances.size());
  for (size_t k = 0; k < n; ++k) {
    const Real rest = restLengths.empty() ? Real(-1) : restLengths[k];
    m.appendDistance({pairs[2 * k], pairs[2 * k + 1], rest, rest, strength});
  }
  return first;
}

uint32_t World::addTetVolumeConstraints(std::span<const uint32_t> tets, const Strength& strength) {
  Impl& m = *impl_;
  const char* fn = "addTetVolumeConstraints";
  if (tets.size() % 4 != 0) {
    check::fail(fn, "tets", "length must be a multiple of 4 (four particles a tet)", tets.size());
  }
  checkStrength(fn, strength);
  const size_t n = tets.size() / 4;
  if (m.constraints.volumes.size() + n > kMaxConstraints) {
    check::fail(fn, "tets", "would pass the constraint limit", m.constraints.volumes.size() + n);
  }
  // Each tet checked as addSoftBody checks it (check::tet), named "tets[t]" as there.
  std::vector<Real> rest(n);
  auto point = [&m](uint32_t i) { return load3(m.particles.x, i); };
  for (size_t t = 0; t < n; ++t) rest[t] = check::tet(fn, t, &tets[4 * t], m.count(), point);
  const size_t room = grownRoom(m.constraints.volumes.size() + n, m.constraints.volumes.capacity());
  m.constraints.volumes.reserve(room);
  m.constraints.volumeLambda.reserve(room);
  m.reserveElementOrders(m.count());
  const uint32_t first = uint32_t(m.constraints.volumes.size());
  const Real kPrime = symmetricSweepKPrime(strength.stiffness, m.settings.iterations);
  for (size_t k = 0; k < n; ++k) {
    const uint32_t* q = &tets[4 * k];
    m.constraints.volumes.push_back(
        {{q[0], q[1], q[2], q[3]}, rest[k], strength.compliance, strength.stiffness, kPrime, false});
    m.constraints.volumeLambda.push_back(0);
  }
  m.solverData.elementOrdersDirty = true;
  m.islands.islandsDirty = true;
  return first;
}

uint32_t World::addDihedralConstraint(const DihedralConstraintDef& def) {
  Impl& m = *impl_;
  const char* fn = "addDihedralConstraint";
  const uint32_t ids[4] = {def.p0, def.p1, def.p2, def.p3};
  for (int k = 0; k < 4; ++k) check::index(fn, std::string("p") + char('0' + k), ids[k], m.count());
  for (int a = 0; a < 4; ++a)
    for (int b = a + 1; b < 4; ++b)
      if (ids[a] == ids[b]) check::fail(fn, std::string("p") + char('0' + b), "must differ from the other particles", ids[b]);
  checkStrength(fn, def.strength);
  Real rest = def.restAngle;
  if (rest != -10) {
    check::inRange(fn, "restAngle", rest, -M_PI, M_PI);
  } else {
    Vec3 grad[4];
    if (!evalDihedral(load3(m.particles.x, def.p0), load3(m.particles.x, def.p1), load3(m.particles.x, def.p2),
                      load3(m.particles.x, def.p3), rest, grad)) {
      check::fail(fn, "triangles", "are degenerate (zero area or zero-length edge) at the current positions", 0);
    }
  }
  if (m.constraints.dihedrals.size() >= kMaxConstraints)
    check::fail(fn, "constraint count", "is at the limit", m.constraints.dihedrals.size());
  const size_t room = grownRoom(m.constraints.dihedrals.size() + 1, m.constraints.dihedrals.capacity());
  m.constraints.dihedrals.reserve(room);
  m.constraints.dihedralLambda.reserve(room);
  m.reserveElementOrders(m.count());
  m.solverData.elementOrdersDirty = true;
  m.islands.islandsDirty = true;
  m.constraints.dihedrals.push_back({def.p0, def.p1, def.p2, def.p3, rest, def.strength.compliance,
                                     def.strength.stiffness,
                                     symmetricSweepKPrime(def.strength.stiffness, m.settings.iterations)});
  m.constraints.dihedralLambda.push_back(0);
  return uint32_t(m.constraints.dihedrals.size() - 1);
}

uint32_t World::dihedralConstraintCount() const { return uint32_t(impl_->constraints.dihedrals.size()); }

DistanceConstraintDef World::distanceConstraint(uint32_t constraint) const {
  check::index("distanceConstraint", "constraint", constraint, impl_->constraints.distances.size());
  const DistanceConstraint& c = impl_->constraints.distances[constraint];
  DistanceConstraintDef d;
  d.i = c.i;
  d.j = c.j;
  d.minLength = c.minLength;
  d.maxLength = c.maxLength;
  d.strength = Strength{c.compliance, c.stiffness};
  return d;
}

uint32_t World::distanceConstraintColour(uint32_t constraint) const {
  check::index("distanceConstraintColour", "constraint", constraint, impl_->constraints.distances.size());
  return impl_->constraints.distanceColour[constraint];
}

void World::setDistanceStrength(uint32_t first, uint32_t count, const Strength& strength) {
  impl_->setStrength("setDistanceStrength", ConstraintKind::Distance, first, count, strength);  // strength_setters.cpp
}

void World::removeDistanceConstraint(uint32_t constraint) {
  Impl& m = *impl_;
  check::index("removeDistanceConstraint", "constraint", constraint, m.constraints.distances.size());
  const DistanceConstraint& gone = m.constraints.distances[constraint];
  m.solverData.colouring.remove(gone.i, gone.j, m.constraints.distanceColour[constraint]);
  // Swap-with-last keeps the other constraints' numbers and colours; the moved one keeps its colour (its particles'
  // masks are unchanged). The schedule regroups at the next step; nothing here allocates or throws.
  const size_t last = m.constraints.distances.size() - 1;
  m.constraints.distances[constraint] = m.constraints.distances[last];
  m.constraints.distanceLambda[constraint] = m.constraints.distanceLambda[last];
  m.constraints.distanceColour[constraint] = m.constraints.distanceColour[last];
  m.constraints.distances.pop_back();
  m.constraints.distanceLambda.pop_back();
  m.constraints.distanceColour.pop_back();
  m.solverData.schedule.dirty = true;  // also rebuilds the hierarchy; PD sees the changed elements and refactors
  m.islands.islandsDirty = true;
}

uint32_t World::addAttachment(const AttachmentDef& def) {
  Impl& m = *impl_;
  const char* fn = "addAttachment";
  check::index(fn, "particle", def.particle, m.count());
  check::finite(fn, "target", def.target);
  checkStrength(fn, def.strength);
  if (def.collider != kNoCollider) {
    check::index(fn, "collider", def.collider, m.collision.colliders.size());
    check::finite(fn, "anchor", def.anchor);
  }
  const Attachment a{def.particle, def.target, def.target, def.strength.compliance, def.strength.stiffness,
                     correctedStiffness(def.strength.stiffness, m.settings.iterations), true, def.collider,
                     def.collider == kNoCollider ? Vec3::Zero() : def.anchor};
  m.solverData.vbd.dirty = true;  // its particle gains an element
  if (!m.constraints.freeAttachments.empty()) {
    const uint32_t handle = m.constraints.freeAttachments.back();
    m.constraints.freeAttachments.pop_back();
    m.constraints.attachments[handle] = a;
    m.constraints.attachmentMomenta[handle].setZero();
    return handle;
  }
  if (m.constraints.attachments.size() >= kMaxConstraints)
    check::fail(fn, "attachment count", "is at the limit", m.constraints.attachments.size());
  const size_t room = grownRoom(m.constraints.attachments.size() + 1, m.constraints.attachments.capacity());
  m.constraints.attachments.reserve(room);
  m.constraints.attachmentLambda.reserve(room);
  m.constraints.attachmentMomenta.reserve(room);
  m.constraints.freeAttachments.reserve(room);  // so removeAttachment never allocates
  m.constraints.attachments.push_back(a);
  m.constraints.attachmentLambda.push_back(0);
  m.constraints.attachmentMomenta.push_back(Eigen::Vector3d::Zero());
  return uint32_t(m.constraints.attachments.size() - 1);
}

namespace {
void checkAttachmentHandle(const char* fn, const std::vector<Attachment>& attachments, uint32_t handle) {
  check::index(fn, "attachment", handle, attachments.size());
  if (!attachments[handle].active) check::fail(fn, "attachment", "was removed", handle);
}
}  // namespace

void World::setAttachmentTarget(uint32_t attachment, const Vec3& target) {
  checkAttachmentHandle("setAttachmentTarget", impl_->constraints.attachments, attachment);
  check::finite("setAttachmentTarget", "target", target);
  const uint32_t collider = impl_->constraints.attachments[attachment].collider;
  if (collider != kNoCollider)
    check::fail("setAttachmentTarget", "attachment", ("follows collider " + std::to_string(collider)).c_str(), attachment);
  impl_->constraints.attachments[attachment].target = target;
}

Vec3 World::attachmentImpulse(uint32_t attachment) const {
  const char* fn = "attachmentImpulse";
  checkAttachmentHandle(fn, impl_->constraints.attachments, attachment);
  if (!impl_->constraints.attachmentMomentaMeasured && impl_->hasStepped)
    check::fail(fn, "solver", "is 'vbd', whose vertex steps do not tell an attachment's push apart", 0);
  return (-impl_->constraints.attachmentMomenta[attachment]).cast<Real>();
}

void World::removeAttachment(uint32_t attachment) {
  checkAttachmentHandle("removeAttachment", impl_->constraints.attachments, attachment);
  Attachment& a = impl_->constraints.attachments[attachment];
  a.active = false, a.collider = kNoCollider, a.anchor = Vec3::Zero();
  impl_->constraints.freeAttachments.push_back(attachment);
}

BodyRange World::addCloth(const ClothDef& def) {
  return impl_->appendSurfaceBody("addCloth", buildCloth(def), def.contact, def.continuousSelfCollision, def.tearing);
}
BodyRange World::addSoftBody(const SoftBodyDef& def) {
  return impl_->appendBody("addSoftBody", buildSoftBody(def), def.contact);
}
uint32_t World::tetVolumeCount() const { return uint32_t(impl_->constraints.volumes.size()); }
BodyRange World::addRope(const RopeDef& def) { return impl_->appendBody("addRope", buildRope(def), def.contact); }

MeshBody World::addTriangleMesh(const TriangleMeshDef& def) {
  const BodyBlueprint b = buildTriangleMesh(def);
  MeshBody body{{}, b.renderToParticle};  // copied before appending: a failed allocation leaves the world as it was
  body.range = impl_->appendSurfaceBody("addTriangleMesh", b, def.contact, def.continuousSelfCollision, def.tearing);
  for (uint32_t& particle : body.renderToParticle) particle += body.range.firstParticle;
  return body;
}

}  // namespace pbd

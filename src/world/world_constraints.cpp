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
  const size_t total = distances.size() + extra;
  if (total > kMaxConstraints) check::fail("addDistanceConstraint", "constraint count", "would exceed the limit", total);
  const size_t room = std::min(grownRoom(total, distances.capacity()), size_t(kMaxConstraints));
  distances.reserve(room);
  distanceLambda.reserve(room);
  distanceColour.reserve(room);
  schedule.constraints.reserve(room);
  schedule.lambda.reserve(room);
  schedule.blocks.reserve(count(), room);
}

void World::Impl::appendDistance(const DistanceConstraintDef& d) {
  const Real current = (load3(x, d.i) - load3(x, d.j)).norm();
  const Real lo = d.minLength == -1 ? current : d.minLength;
  const Real hi = d.maxLength == -1 ? lo : d.maxLength;
  distances.push_back({d.i, d.j, lo, hi, d.strength.compliance, d.strength.stiffness,
                       correctedStiffness(d.strength.stiffness, settings.iterations)});
  distanceLambda.push_back(0);
  distanceColour.push_back(colouring.add(d.i, d.j));
  schedule.dirty = true;
  islandsDirty = true;
}

/// Appends a body's particles and constraints in one step: validated and reserved before anything changes.
BodyRange World::Impl::appendBody(const char* fn, const BodyBlueprint& b, const ContactMaterial& contact) {
  check::contactMaterial(fn, "contact", contact);
  const size_t n = b.inverseMasses.size();
  reserveDistances(b.constraints.size());
  tethers.reserve(tethers.size() + b.tethers.size());
  dihedrals.reserve(dihedrals.size() + b.dihedrals.size());
  volumes.reserve(volumes.size() + b.volumes.size());
  volumeLambda.reserve(volumes.size() + b.volumes.size());
  neoHookeans.reserve(neoHookeans.size() + b.neoHookeans.size());
  neoHookeanLambda.reserve(2 * (neoHookeans.size() + b.neoHookeans.size()));
  if (!b.surface.empty()) {
    surfaceVolumes.reserve(surfaceVolumes.size() + 1);
    surfaceVolumeLambda.reserve(surfaceVolumes.size() + 1);
    surfaceVertices.reserve(surfaceVertices.size() + b.positions.size() / 3);
    surfaceTriangles.reserve(surfaceTriangles.size() + b.surface.size());
    volumeGradient.reserve(std::max(volumeGradient.size(), b.positions.size() / 3));
  }
  dihedralLambda.reserve(dihedrals.size() + b.dihedrals.size());
  reserveElementOrders(count() + n);
  reserveTriangleStrains(fn, b.triangleStrains.size());
  reserveShapeMatching(fn, b.shapeMatching);
  const uint32_t firstConstraint = uint32_t(distances.size());
  const uint32_t first = appendParticles(fn, b.positions.data(), b.inverseMasses.data(), n);
  for (DistanceConstraintDef d : b.constraints) {
    d.i += first;
    d.j += first;
    appendDistance(d);
  }
  for (const Tether& t : b.tethers) tethers.push_back({t.particle + first, t.anchor + first, t.maxLength});
  const uint32_t firstDihedral = uint32_t(dihedrals.size());
  for (const DihedralConstraintDef& d : b.dihedrals) {
    Real rest = 0;
    Vec3 grad[4];
    const uint32_t p0 = d.p0 + first, p1 = d.p1 + first, p2 = d.p2 + first, p3 = d.p3 + first;
    if (!evalDihedral(load3(x, p0), load3(x, p1), load3(x, p2), load3(x, p3), rest, grad)) continue;
    dihedrals.push_back({p0, p1, p2, p3, rest, d.strength.compliance, d.strength.stiffness,
                         symmetricSweepKPrime(d.strength.stiffness, settings.iterations)});
    dihedralLambda.push_back(0);
  }
  const uint32_t firstVolume = uint32_t(volumes.size());
  for (TetVolumeConstraint t : b.volumes) {
    for (uint32_t& q : t.p) q += first;
    t.kPrime = symmetricSweepKPrime(t.stiffness, settings.iterations);
    volumes.push_back(t);
    volumeLambda.push_back(0);
  }
  for (NeoHookeanTet e : b.neoHookeans) {
    for (uint32_t& q : e.p) q += first;
    e.deviatoricKPrime = symmetricSweepKPrime(e.deviatoricStiffness, settings.iterations);
    e.hydrostaticKPrime = symmetricSweepKPrime(e.hydrostaticStiffness, settings.iterations);
    neoHookeans.push_back(e);
    neoHookeanLambda.insert(neoHookeanLambda.end(), {Real(0), Real(0)});
  }
  elementOrdersDirty = true;
  appendSurfaceVolume(b, first);
  appendTriangleStrains(b, first);
  appendShapeMatching(b.shapeMatching, first);
  bodyMaterials.back() = contact;
  return {first, uint32_t(n), firstConstraint, uint32_t(b.constraints.size()), uint32_t(b.tethers.size()),
          firstDihedral, uint32_t(dihedrals.size()) - firstDihedral, firstVolume, uint32_t(b.volumes.size()),
          uint32_t(bodies.size() - 1)};
}

uint32_t World::addDistanceConstraint(const DistanceConstraintDef& def) {
  Impl& m = *impl_;
  checkDistance("addDistanceConstraint", def, m.x);
  m.reserveDistances(1);
  m.appendDistance(def);
  return uint32_t(m.distances.size() - 1);
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
  const uint32_t first = uint32_t(m.distances.size());
  for (size_t k = 0; k < n; ++k) {
    const Real rest = restLengths.empty() ? Real(-1) : restLengths[k];
    m.appendDistance({pairs[2 * k], pairs[2 * k + 1], rest, rest, strength});
  }
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
    if (!evalDihedral(load3(m.x, def.p0), load3(m.x, def.p1), load3(m.x, def.p2), load3(m.x, def.p3), rest, grad)) {
      check::fail(fn, "triangles", "are degenerate (zero area or zero-length edge) at the current positions", 0);
    }
  }
  if (m.dihedrals.size() >= kMaxConstraints) check::fail(fn, "constraint count", "is at the limit", m.dihedrals.size());
  const size_t room = grownRoom(m.dihedrals.size() + 1, m.dihedrals.capacity());
  m.dihedrals.reserve(room);
  m.dihedralLambda.reserve(room);
  m.reserveElementOrders(m.count());
  m.elementOrdersDirty = true;
  m.islandsDirty = true;
  m.dihedrals.push_back({def.p0, def.p1, def.p2, def.p3, rest, def.strength.compliance, def.strength.stiffness,
                         symmetricSweepKPrime(def.strength.stiffness, m.settings.iterations)});
  m.dihedralLambda.push_back(0);
  return uint32_t(m.dihedrals.size() - 1);
}

uint32_t World::dihedralConstraintCount() const { return uint32_t(impl_->dihedrals.size()); }

DistanceConstraintDef World::distanceConstraint(uint32_t constraint) const {
  check::index("distanceConstraint", "constraint", constraint, impl_->distances.size());
  const DistanceConstraint& c = impl_->distances[constraint];
  DistanceConstraintDef d;
  d.i = c.i;
  d.j = c.j;
  d.minLength = c.minLength;
  d.maxLength = c.maxLength;
  d.strength = Strength{c.compliance, c.stiffness};
  return d;
}

uint32_t World::distanceConstraintColour(uint32_t constraint) const {
  check::index("distanceConstraintColour", "constraint", constraint, impl_->distances.size());
  return impl_->distanceColour[constraint];
}

void World::setDistanceStrength(uint32_t first, uint32_t count, const Strength& strength) {
  impl_->setStrength("setDistanceStrength", ConstraintKind::Distance, first, count, strength);  // strength_setters.cpp
}

void World::removeDistanceConstraint(uint32_t constraint) {
  Impl& m = *impl_;
  check::index("removeDistanceConstraint", "constraint", constraint, m.distances.size());
  const DistanceConstraint& gone = m.distances[constraint];
  m.colouring.remove(gone.i, gone.j, m.distanceColour[constraint]);
  // Swap-with-last keeps the other constraints' numbers and colours; the moved one keeps its colour (its particles'
  // masks are unchanged). The schedule regroups at the next step; nothing here allocates or throws.
  const size_t last = m.distances.size() - 1;
  m.distances[constraint] = m.distances[last];
  m.distanceLambda[constraint] = m.distanceLambda[last];
  m.distanceColour[constraint] = m.distanceColour[last];
  m.distances.pop_back();
  m.distanceLambda.pop_back();
  m.distanceColour.pop_back();
  m.schedule.dirty = true;  // also rebuilds the hierarchy; PD sees the changed elements and refactors
  m.islandsDirty = true;
}

uint32_t World::addAttachment(const AttachmentDef& def) {
  Impl& m = *impl_;
  const char* fn = "addAttachment";
  check::index(fn, "particle", def.particle, m.count());
  check::finite(fn, "target", def.target);
  checkStrength(fn, def.strength);
  const Attachment a{def.particle, def.target, def.target, def.strength.compliance, def.strength.stiffness,
                     correctedStiffness(def.strength.stiffness, m.settings.iterations), true};
  if (!m.freeAttachments.empty()) {
    const uint32_t handle = m.freeAttachments.back();
    m.freeAttachments.pop_back();
    m.attachments[handle] = a;
    return handle;
  }
  if (m.attachments.size() >= kMaxConstraints) check::fail(fn, "attachment count", "is at the limit", m.attachments.size());
  const size_t room = grownRoom(m.attachments.size() + 1, m.attachments.capacity());
  m.attachments.reserve(room);
  m.attachmentLambda.reserve(room);
  m.freeAttachments.reserve(room);  // so removeAttachment never allocates
  m.attachments.push_back(a);
  m.attachmentLambda.push_back(0);
  return uint32_t(m.attachments.size() - 1);
}

namespace {
void checkAttachmentHandle(const char* fn, const std::vector<Attachment>& attachments, uint32_t handle) {
  check::index(fn, "attachment", handle, attachments.size());
  if (!attachments[handle].active) check::fail(fn, "attachment", "was removed", handle);
}
}  // namespace

void World::setAttachmentTarget(uint32_t attachment, const Vec3& target) {
  checkAttachmentHandle("setAttachmentTarget", impl_->attachments, attachment);
  check::finite("setAttachmentTarget", "target", target);
  impl_->attachments[attachment].target = target;
}

void World::removeAttachment(uint32_t attachment) {
  checkAttachmentHandle("removeAttachment", impl_->attachments, attachment);
  impl_->attachments[attachment].active = false;
  impl_->freeAttachments.push_back(attachment);
}

BodyRange World::addCloth(const ClothDef& def) {
  return impl_->appendSurfaceBody("addCloth", buildCloth(def), def.contact, def.continuousSelfCollision);
}
BodyRange World::addSoftBody(const SoftBodyDef& def) {
  return impl_->appendBody("addSoftBody", buildSoftBody(def), def.contact);
}
uint32_t World::tetVolumeCount() const { return uint32_t(impl_->volumes.size()); }
BodyRange World::addRope(const RopeDef& def) { return impl_->appendBody("addRope", buildRope(def), def.contact); }

MeshBody World::addTriangleMesh(const TriangleMeshDef& def) {
  const BodyBlueprint b = buildTriangleMesh(def);
  MeshBody body{{}, b.renderToParticle};  // copied before appending: a failed allocation leaves the world as it was
  body.range = impl_->appendSurfaceBody("addTriangleMesh", b, def.contact, def.continuousSelfCollision);
  for (uint32_t& particle : body.renderToParticle) particle += body.range.firstParticle;
  return body;
}

}  // namespace pbd

#include "pbd/world.h"

#include <algorithm>
#include <optional>
#include <vector>

#include "constraints/multiplier.h"
#include "bodies/body_builders.h"
#include "world/body_materials.h"
#include "world/symmetric_sweep.h"
#include "base/checks.h"
#include "world/world_state.h"

namespace pbd {
namespace {

Vec3 load3(const std::vector<Real>& a, uint32_t i) { return Vec3(a[3 * i], a[3 * i + 1], a[3 * i + 2]); }
void store3(std::vector<Real>& a, uint32_t i, const Vec3& v) {
  a[3 * i] = v[0];
  a[3 * i + 1] = v[1];
  a[3 * i + 2] = v[2];
}

void checkStrength(const char* fn, const Strength& s) {
  check::atLeast(fn, "compliance", s.compliance, 0);
  check::inRange(fn, "stiffness", s.stiffness, 0, 1);
}

/// The hierarchical solver's settings; `names` are the arguments as the caller calls them (levels, parents, passes).
void checkHierarchy(const char* fn, int levels, int parents, int coarseIterations, const char* const (&names)[3]) {
  check::inRange(fn, names[0], levels, 1, 16);
  check::inRange(fn, names[1], parents, 1, 16);
  check::inRange(fn, names[2], coarseIterations, 1, 1000);
}

void checkSettings(const char* fn, const SolverSettings& s) {
  check::finite(fn, "gravity", s.gravity);
  check::inRange(fn, "substeps", s.substeps, 1, 1000);
  check::inRange(fn, "iterations", s.iterations, 1, 1000);
  check::atLeast(fn, "linearDamping", s.linearDamping, 0);
  check::inRange(fn, "rigidDamping", s.rigidDamping, 0, 1);
  check::finite(fn, "ground.height", s.ground.height);
  check::atLeast(fn, "ground.thickness", s.ground.thickness, 0);
  check::atLeast(fn, "ground.friction", s.ground.friction, 0);
  check::staticFriction(fn, "ground.staticFriction", s.ground.staticFriction);
  check::inRange(fn, "ground.restitution", s.ground.restitution, 0, 1);
  check::atLeast(fn, "ground.restitutionThreshold", s.ground.restitutionThreshold, 0);
  if (s.method != Method::Pbd && s.method != Method::Xpbd) check::fail(fn, "method", "is unknown", int(s.method));
  if (s.integrator != Integrator::ImplicitEuler && s.integrator != Integrator::Bdf2) {
    check::fail(fn, "integrator", "is unknown", int(s.integrator));
  }
  if (s.solver != Solver::GaussSeidel && s.solver != Solver::Jacobi && s.solver != Solver::ColouredGaussSeidel &&
      s.solver != Solver::Hierarchical && s.solver != Solver::ProjectiveDynamics) {
    check::fail(fn, "solver", "is unknown", int(s.solver));
  }
  checkHierarchy(fn, s.hierarchyLevels, s.hierarchyParents, s.coarseIterations,
                 {"hierarchyLevels", "hierarchyParents", "coarseIterations"});
  check::positive(fn, "selfCollision.radius", s.selfCollision.radius);
  check::atLeast(fn, "maxSpeed", s.maxSpeed, 0);
  check::finite(fn, "jacobiRelaxation", s.jacobiRelaxation);
  if (!(s.jacobiRelaxation > 0 && s.jacobiRelaxation < 2)) check::fail(fn, "jacobiRelaxation", "must be in (0, 2)", s.jacobiRelaxation);
}

}  // namespace

uint32_t World::Impl::appendParticles(const char* fn, const Real* xyz, const Real* invMass, size_t n) {
  if (n == 0) check::fail(fn, "count", "must be > 0", n);
  if (n > kMaxParticles || count() + n > kMaxParticles) {
    check::fail(fn, "count", ("would exceed the particle limit " + std::to_string(kMaxParticles)).c_str(), n);
  }
  // The argument's name is formatted only for a bad value: a string per element made large meshes slow to add.
  for (size_t i = 0; i < 3 * n; ++i) {
    if (!std::isfinite(xyz[i])) check::finite(fn, "positions[" + std::to_string(i) + "]", xyz[i]);
  }
  for (size_t i = 0; invMass && i < n; ++i) {  // +Inf passes >= 0: finiteness is asked for separately
    if (!(invMass[i] >= 0) || !std::isfinite(invMass[i])) {
      check::inverseMass(fn, "inverseMasses[" + std::to_string(i) + "]", invMass[i]);
    }
  }
  // Reserve everything first (may throw, nothing changed yet), then append without throwing.
  const size_t newCount = count() + n;
  for (auto* a : {&x, &p, &inertial, &v, &force, &jacobiDelta, &savedX, &savedV, &restX, &xPrev, &vPrev}) {
    a->reserve(3 * newCount);
  }
  if (settings.selfCollision.enabled) reserveSelfCollision(newCount);
  w.reserve(newCount);
  paddedP.reserve(4 * (newCount + BlockSchedule::kMaxBlocks));
  reserveContacts(newCount, colliders.size());
  schedule.constraintsPerParticle.reserve(newCount);
  schedule.blocks.reserve(newCount, distances.capacity());
  colouring.reserveParticles(newCount);
  reserveElementOrders(newCount);
  bodies.reserve(bodies.size() + 1);
  bodyMaterials.reserve(bodies.size() + 1);
  reserveIslands(bodies.size() + 1, newCount);
  const uint32_t first = count();
  x.insert(x.end(), xyz, xyz + 3 * n);
  p.insert(p.end(), xyz, xyz + 3 * n);
  inertial.insert(inertial.end(), xyz, xyz + 3 * n);
  restX.insert(restX.end(), xyz, xyz + 3 * n);
  xPrev.insert(xPrev.end(), xyz, xyz + 3 * n);
  vPrev.insert(vPrev.end(), 3 * n, Real(0));
  historyValid = false;
  v.insert(v.end(), 3 * n, Real(0));
  force.insert(force.end(), 3 * n, Real(0));
  jacobiDelta.insert(jacobiDelta.end(), 3 * n, Real(0));
  if (invMass) w.insert(w.end(), invMass, invMass + n);
  else w.insert(w.end(), n, Real(1));
  colouring.resizeParticles(newCount);
  bodies.push_back({first, uint32_t(newCount)});
  bodyMaterials.push_back({});
  schedule.dirty = true;
  islandsDirty = true;
  return first;
}

void World::Impl::reserveDistances(size_t extra) {
  const size_t total = distances.size() + extra;
  if (total > kMaxConstraints) check::fail("addDistanceConstraint", "constraint count", "would exceed the limit", total);
  distances.reserve(total);
  distanceLambda.reserve(total);
  distanceColour.reserve(total);
  schedule.constraints.reserve(total);
  schedule.lambda.reserve(total);
  schedule.blocks.reserve(count(), total);
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

void World::Impl::reserveResiduals(int substeps, int iterations) {
  if (recordResiduals) residuals.reserve(2 * size_t(substeps) * size_t(iterations));
}

namespace {

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
    globalVolumes.reserve(globalVolumes.size() + 1);
    globalVolumeLambda.reserve(globalVolumes.size() + 1);
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
  appendGlobalVolume(b, first);
  appendTriangleStrains(b, first);
  appendShapeMatching(b.shapeMatching, first);
  bodyMaterials.back() = contact;
  return {first, uint32_t(n), firstConstraint, uint32_t(b.constraints.size()), uint32_t(b.tethers.size()),
          firstDihedral, uint32_t(dihedrals.size()) - firstDihedral, firstVolume, uint32_t(b.volumes.size()),
          uint32_t(bodies.size() - 1)};
}

World::World(TaskSystem* tasks) : impl_(std::make_unique<Impl>()) { setTaskSystem(tasks); }
World::~World() = default;
World::World(World&&) noexcept = default;
World& World::operator=(World&&) noexcept = default;

const SolverSettings& World::settings() const { return impl_->settings; }

void World::setSettings(const SolverSettings& s) {
  checkSettings("setSettings", s);
  impl_->reserveResiduals(s.substeps, s.iterations);
  if (s.selfCollision.enabled) impl_->reserveSelfCollision(impl_->count());
  impl_->settings = s;
}

void World::setGravity(const Vec3& g) {
  check::finite("setGravity", "gravity", g);
  impl_->settings.gravity = g;
}

void World::setMethod(Method m) {
  if (m != Method::Pbd && m != Method::Xpbd) check::fail("setMethod", "method", "is unknown", int(m));
  impl_->settings.method = m;
}

void World::setSubsteps(int n) {
  check::inRange("setSubsteps", "substeps", n, 1, 1000);
  impl_->reserveResiduals(n, impl_->settings.iterations);
  impl_->settings.substeps = n;
}

void World::setIterations(int n) {
  check::inRange("setIterations", "iterations", n, 1, 1000);
  impl_->reserveResiduals(impl_->settings.substeps, n);
  impl_->settings.iterations = n;
}

void World::setSolver(Solver solver) {
  SolverSettings s = impl_->settings;
  s.solver = solver;
  checkSettings("setSolver", s);
  impl_->settings = s;
}

void World::setHierarchy(int levels, int parents, int coarseIterations) {
  checkHierarchy("setHierarchy", levels, parents, coarseIterations, {"levels", "parents", "coarseIterations"});
  impl_->settings.hierarchyLevels = levels;
  impl_->settings.hierarchyParents = parents;
  impl_->settings.coarseIterations = coarseIterations;
}

void World::setJacobiRelaxation(Real omega) {
  SolverSettings s = impl_->settings;
  s.jacobiRelaxation = omega;
  checkSettings("setJacobiRelaxation", s);
  impl_->settings = s;
}

void World::setRecordResiduals(bool record) {
  Impl& m = *impl_;
  const bool was = m.recordResiduals;
  m.recordResiduals = record;
  try {
    m.reserveResiduals(m.settings.substeps, m.settings.iterations);
  } catch (...) {
    m.recordResiduals = was;
    throw;
  }
  if (!record) m.residuals.clear();
}

const Real* World::residuals() const { return impl_->residuals.data(); }
uint32_t World::residualCount() const { return uint32_t(impl_->residuals.size() / 2); }

void World::setIntegrator(Integrator integrator) {
  SolverSettings s = impl_->settings;
  s.integrator = integrator;
  checkSettings("setIntegrator", s);
  if (s.integrator != impl_->settings.integrator) impl_->historyValid = false;
  impl_->settings = s;
}

void World::setSelfCollision(const SelfCollisionSettings& selfCollision) {
  SolverSettings s = impl_->settings;
  s.selfCollision = selfCollision;
  checkSettings("setSelfCollision", s);
  if (s.selfCollision.enabled) impl_->reserveSelfCollision(impl_->count());
  impl_->settings = s;
}

uint32_t World::selfCollisionPairCount() const { return uint32_t(impl_->selfCollisionPairs.size()); }

void World::setLinearDamping(Real perSecond) {
  check::atLeast("setLinearDamping", "linearDamping", perSecond, 0);
  impl_->settings.linearDamping = perSecond;
}

void World::setRigidDamping(Real k) {
  check::inRange("setRigidDamping", "rigidDamping", k, 0, 1);
  impl_->settings.rigidDamping = k;
}

void World::setGround(const GroundSettings& ground) {
  SolverSettings s = impl_->settings;
  s.ground = ground;
  checkSettings("setGround", s);
  impl_->settings = s;
}

void World::setTaskSystem(TaskSystem* tasks) { impl_->tasks = tasks ? tasks : &impl_->serial; }

uint32_t World::addParticle(const Vec3& position, Real inverseMass, const Vec3& velocity) {
  check::finite("addParticle", "position", position);
  check::inverseMass("addParticle", "inverseMass", inverseMass);
  check::finite("addParticle", "velocity", velocity);
  const uint32_t i = impl_->appendParticles("addParticle", position.data(), &inverseMass, 1);
  if (inverseMass != 0) store3(impl_->v, i, velocity);
  return i;
}

uint32_t World::addParticles(const Real* xyz, const Real* inverseMasses, size_t count) {
  if (count == 0) check::fail("addParticles", "count", "must be > 0", count);
  if (!xyz) check::fail("addParticles", "positions", "must not be null", 0);
  return impl_->appendParticles("addParticles", xyz, inverseMasses, count);
}

void World::setInverseMass(uint32_t particle, Real inverseMass) {
  check::index("setInverseMass", "particle", particle, impl_->count());
  check::inverseMass("setInverseMass", "inverseMass", inverseMass);
  if ((impl_->w[particle] == 0) != (inverseMass == 0)) impl_->hierarchy.dirty = true;  // it keeps pinned particles
  impl_->w[particle] = inverseMass;
  if (inverseMass == 0) store3(impl_->v, particle, Vec3::Zero());
  impl_->historyValid = false;
}

void World::setVelocity(uint32_t particle, const Vec3& velocity) {
  check::index("setVelocity", "particle", particle, impl_->count());
  check::finite("setVelocity", "velocity", velocity);
  if (impl_->w[particle] != 0) store3(impl_->v, particle, velocity);
  impl_->historyValid = false;
}

void World::setPosition(uint32_t particle, const Vec3& position) {
  check::index("setPosition", "particle", particle, impl_->count());
  check::finite("setPosition", "position", position);
  store3(impl_->x, particle, position);
  impl_->historyValid = false;
  impl_->markMeshInsideUnknown();  // a teleport may land inside a closed mesh
}

void World::setExternalForce(uint32_t particle, const Vec3& f) {
  check::index("setExternalForce", "particle", particle, impl_->count());
  check::finite("setExternalForce", "force", f);
  store3(impl_->force, particle, f);
}

uint32_t World::addDistanceConstraint(const DistanceConstraintDef& def) {
  Impl& m = *impl_;
  checkDistance("addDistanceConstraint", def, m.x);
  m.reserveDistances(1);
  m.appendDistance(def);
  return uint32_t(m.distances.size() - 1);
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
  m.dihedrals.reserve(m.dihedrals.size() + 1);
  m.dihedralLambda.reserve(m.dihedrals.size() + 1);
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
  m.attachments.reserve(m.attachments.size() + 1);
  m.attachmentLambda.reserve(m.attachments.size() + 1);
  m.freeAttachments.reserve(m.attachments.size() + 1);  // so removeAttachment never allocates
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

namespace {

/// Validates a collider's shape and material; returns its rotation normalized.
Quat checkCollider(const char* fn, const ColliderDef& def) {
  if (def.shape != ColliderShape::Sphere && def.shape != ColliderShape::Capsule && def.shape != ColliderShape::Box &&
      def.shape != ColliderShape::TriangleMesh && def.shape != ColliderShape::Plane) {
    check::fail(fn, "shape", "is unknown", int(def.shape));
  }
  check::finite(fn, "position", def.position);
  for (int a = 0; a < 4; ++a) check::finite(fn, std::string("rotation.") + "xyzw"[a], def.rotation.coeffs()[a]);
  if (!(def.rotation.norm() > Real(1e-6))) check::fail(fn, "rotation", "must be a non-zero quaternion", def.rotation.norm());
  check::positive(fn, "radius", def.radius);
  check::atLeast(fn, "halfHeight", def.halfHeight, 0);
  for (int a = 0; a < 3; ++a) check::positive(fn, std::string("halfExtents.") + "xyz"[a], def.halfExtents[a]);
  check::atLeast(fn, "thickness", def.thickness, 0);
  check::atLeast(fn, "friction", def.friction, 0);
  check::staticFriction(fn, "staticFriction", def.staticFriction);
  check::inRange(fn, "restitution", def.restitution, 0, 1);
  return def.rotation.normalized();
}

}  // namespace

uint32_t World::addCollider(const ColliderDef& def) {
  Impl& m = *impl_;
  const Quat rotation = checkCollider("addCollider", def);
  if (m.colliders.size() >= 4096) check::fail("addCollider", "collider count", "is at the limit 4096", m.colliders.size());
  std::optional<MeshShape> mesh;  // validated and built before anything changes (mesh_colliders.cpp)
  if (def.shape == ColliderShape::TriangleMesh) mesh.emplace(m.buildMeshShape("addCollider", def));
  m.reserveContacts(m.count(), m.colliders.size() + 1);
  m.colliders.reserve(m.colliders.size() + 1);
  m.meshShapes.reserve(m.meshShapes.size() + (mesh ? 1 : 0));
  Collider c{def, def.position, rotation, def.position, def.position, rotation, rotation};
  c.def.rotation = rotation;
  c.def.meshPositions = {};  // views of the caller's arrays: the world's copy is meshShapes[c.mesh]
  c.def.meshTriangles = {};
  if (mesh) {
    c.mesh = uint32_t(m.meshShapes.size());
    m.meshShapes.push_back(std::move(*mesh));
  }
  m.colliders.push_back(c);
  return uint32_t(m.colliders.size() - 1);
}

void World::setColliderPose(uint32_t collider, const Vec3& position, const Quat& rotation) {
  const char* fn = "setColliderPose";
  check::index(fn, "collider", collider, impl_->colliders.size());
  ColliderDef def = impl_->colliders[collider].def;
  def.position = position;
  def.rotation = rotation;
  impl_->colliders[collider].def.rotation = checkCollider(fn, def);
  impl_->colliders[collider].def.position = position;
}

uint32_t World::colliderCount() const { return uint32_t(impl_->colliders.size()); }

void World::removeCollider(uint32_t collider) {
  Impl& m = *impl_;
  check::index("removeCollider", "collider", collider, m.colliders.size());
  const uint32_t mesh = m.colliders[collider].mesh;
  if (mesh != kNoMesh) {
    m.meshShapes.erase(m.meshShapes.begin() + mesh);
    for (Collider& c : m.colliders) {
      if (c.mesh != kNoMesh && c.mesh > mesh) --c.mesh;
    }
  }
  m.colliders.erase(m.colliders.begin() + collider);
  m.contacts.clear();  // they name colliders by index
}

BodyRange World::addCloth(const ClothDef& def) {
  return impl_->appendSurfaceBody("addCloth", buildCloth(def), def.contact, def.continuousSelfCollision);
}
BodyRange World::addSoftBody(const SoftBodyDef& def) {
  return impl_->appendBody("addSoftBody", buildSoftBody(def), def.contact);
}
uint32_t World::volumeConstraintCount() const { return uint32_t(impl_->volumes.size()); }
BodyRange World::addRope(const RopeDef& def) { return impl_->appendBody("addRope", buildRope(def), def.contact); }

MeshBody World::addTriangleMesh(const TriangleMeshDef& def) {
  const BodyBlueprint b = buildTriangleMesh(def);
  MeshBody body{{}, b.renderToParticle};  // copied before appending: a failed allocation leaves the world as it was
  body.range = impl_->appendSurfaceBody("addTriangleMesh", b, def.contact, def.continuousSelfCollision);
  for (uint32_t& particle : body.renderToParticle) particle += body.range.firstParticle;
  return body;
}

void World::step(Real dt) {
  check::finite("step", "dt", dt);
  if (!(dt > 0) || dt > 1) check::fail("step", "dt", "must be in (0, 1] seconds", dt);
  // α̃ = α/h² (BDF2: 9α/(4h²)) must fit in a float: a tiny positive dt (1e-40) would otherwise give Inf or NaN
  // multipliers and roll every step back. Any dt above ~1e-19 s per substep passes.
  const double h = double(dt) / impl_->settings.substeps;
  check::derivedFinite("step", "dt", "is too small for the substep count (9/(4 h^2) overflows float)", 9 / (4 * h * h), dt);
  impl_->step(dt);
}

const StepReport& World::lastStepReport() const { return impl_->report; }
void World::setStepTimings(bool on) {
  impl_->clock.enabled = on;
  impl_->timings = StepTimings{};
}
const StepTimings& World::lastStepTimings() const { return impl_->timings; }
const Real* World::positions() const { return impl_->x.data(); }
const Real* World::velocities() const { return impl_->v.data(); }
const Real* World::inverseMasses() const { return impl_->w.data(); }
uint32_t World::particleCount() const { return impl_->count(); }
uint32_t World::distanceConstraintCount() const { return uint32_t(impl_->distances.size()); }
uint32_t World::constraintCount() const {
  return uint32_t(impl_->distances.size() + impl_->dihedrals.size() + impl_->volumes.size() + impl_->tethers.size() +
                  impl_->neoHookeans.size() + impl_->globalVolumes.size() + impl_->triangleStrains.size() +
                  impl_->shapeMatchings.size() + impl_->attachments.size() - impl_->freeAttachments.size());
}
uint32_t World::neoHookeanCount() const { return uint32_t(impl_->neoHookeans.size()); }
uint32_t World::globalVolumeCount() const { return uint32_t(impl_->globalVolumes.size()); }
Real World::globalVolume(uint32_t k) const {
  check::index("globalVolume", "k", k, impl_->globalVolumes.size());
  const GlobalVolumeConstraint& g = impl_->globalVolumes[k];
  return surfaceVolume({impl_->surfaceVertices.data() + g.firstVertex, g.vertexCount},
                       {impl_->surfaceTriangles.data() + 3 * size_t(g.firstTriangle), 3 * size_t(g.triangleCount)},
                       asVec3(impl_->x));
}
Real World::globalRestVolume(uint32_t k) const {
  check::index("globalRestVolume", "k", k, impl_->globalVolumes.size());
  return impl_->globalVolumes[k].restVolume;
}
uint32_t World::tetherCount() const { return uint32_t(impl_->tethers.size()); }
uint32_t World::contactCount() const { return uint32_t(impl_->contacts.size()); }

}  // namespace pbd

#include "pbd/world.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "constraints/attachment.h"
#include "constraints/distance.h"
#include "constraints/plane_contact.h"
#include "math/wide_float.h"
#include "world/body_builders.h"
#include "world/rigid_damping.h"
#include "world/validate.h"

namespace pbd {
namespace {

/// Particles per range handed to the task system: below this a loop stays on one thread.
constexpr size_t kParticlesPerTask = 4096;

/// A distance constraint as stored: DistanceConstraintDef plus the cached PBD stiffness.
struct DistanceConstraint {
  uint32_t i, j;     ///< Particle indices.
  Real minLength;    ///< m.
  Real maxLength;    ///< m, >= minLength; equal = bilateral.
  Real compliance;   ///< XPBD α, m/N.
  Real stiffness;    ///< PBD k in [0,1].
  Real kPrime;       ///< 1 - (1-k)^(1/iterations), refreshed when iterations change.
};

struct Attachment {
  uint32_t particle;  ///< Particle index.
  Vec3 target;        ///< m, where the particle is pulled at the end of the next step.
  Vec3 startTarget;   ///< m, the target at the start of the step; substeps move linearly from it to `target`, so a
                      ///< dragged particle moves smoothly and keeps the drag's velocity when released.
  Real compliance;    ///< XPBD α, m/N.
  Real stiffness;     ///< PBD k.
  Real kPrime;        ///< Cached corrected stiffness.
  bool active;        ///< false = removed, slot free for reuse.
};

/// A ground contact of the current substep.
struct Contact {
  uint32_t particle;    ///< Particle index.
  Real approachSpeed;   ///< m/s, normal velocity v·n when the contact was generated (negative = approaching).
  Real normalPush;      ///< m, total normal correction applied this substep (the normal impulse times h/m).
};

struct ParticleRange {
  uint32_t begin, end;
};

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

void checkSettings(const char* fn, const SolverSettings& s) {
  check::finite(fn, "gravity", s.gravity);
  check::inRange(fn, "substeps", s.substeps, 1, 1000);
  check::inRange(fn, "iterations", s.iterations, 1, 1000);
  check::atLeast(fn, "linearDamping", s.linearDamping, 0);
  check::inRange(fn, "rigidDamping", s.rigidDamping, 0, 1);
  check::finite(fn, "ground.height", s.ground.height);
  check::atLeast(fn, "ground.thickness", s.ground.thickness, 0);
  check::atLeast(fn, "ground.friction", s.ground.friction, 0);
  check::inRange(fn, "ground.restitution", s.ground.restitution, 0, 1);
  check::atLeast(fn, "ground.restitutionThreshold", s.ground.restitutionThreshold, 0);
  if (s.method != Method::Pbd && s.method != Method::Xpbd) check::fail(fn, "method", "is unknown", int(s.method));
}

}  // namespace

struct World::Impl {
  SolverSettings settings;
  SerialTaskSystem serial;
  TaskSystem* tasks = &serial;

  // Particle state, structure of arrays, xyz per particle. x is what callers read (positions()); p is the
  // substep's solution, starting from the inertial prediction x + h v, which is kept for the velocity update.
  std::vector<Real> x, p, inertial, v, force;
  std::vector<Real> w;               // inverse mass per particle
  std::vector<ParticleRange> bodies; // particle ranges for rigid-motion damping

  std::vector<DistanceConstraint> distances;
  std::vector<Real> distanceLambda;  // XPBD multipliers, reset each substep
  std::vector<Attachment> attachments;
  std::vector<Real> attachmentLambda;
  std::vector<uint32_t> freeAttachments;
  std::vector<Contact> contacts;     // capacity = particle count, so step() never allocates
  int kPrimeIterations = 0;          // iteration count the cached k' were computed for

  uint32_t count() const { return uint32_t(w.size()); }

  /// Appends particles as one body; strong guarantee (reserve everything first, then append without throwing).
  uint32_t appendParticles(const char* fn, const Real* xyz, const Real* invMass, size_t n) {
    if (n == 0) check::fail(fn, "count", "must be > 0", n);
    if (n > kMaxParticles || count() + n > kMaxParticles) {
      check::fail(fn, "count", ("would exceed the particle limit " + std::to_string(kMaxParticles)).c_str(), n);
    }
    for (size_t i = 0; i < 3 * n; ++i) check::finite(fn, "positions[" + std::to_string(i) + "]", xyz[i]);
    if (invMass) {
      for (size_t i = 0; i < n; ++i) check::inverseMass(fn, "inverseMasses[" + std::to_string(i) + "]", invMass[i]);
    }
    const size_t newCount = count() + n;
    for (auto* a : {&x, &p, &inertial, &v, &force}) a->reserve(3 * newCount);
    w.reserve(newCount);
    contacts.reserve(newCount);
    bodies.reserve(bodies.size() + 1);
    const uint32_t first = count();
    x.insert(x.end(), xyz, xyz + 3 * n);
    p.insert(p.end(), xyz, xyz + 3 * n);
    inertial.insert(inertial.end(), xyz, xyz + 3 * n);
    v.insert(v.end(), 3 * n, Real(0));
    force.insert(force.end(), 3 * n, Real(0));
    if (invMass) w.insert(w.end(), invMass, invMass + n);
    else w.insert(w.end(), n, Real(1));
    bodies.push_back({first, uint32_t(newCount)});
    return first;
  }

  void checkDistance(const char* fn, const DistanceConstraintDef& d, uint32_t particleCount) const {
    check::index(fn, "i", d.i, particleCount);
    check::index(fn, "j", d.j, particleCount);
    if (d.i == d.j) check::fail(fn, "j", "must differ from i", d.j);
    if (d.minLength != -1) check::atLeast(fn, "minLength", d.minLength, 0);
    if (d.maxLength != -1) check::atLeast(fn, "maxLength", d.maxLength, d.minLength == -1 ? 0 : d.minLength);
    checkStrength(fn, d.strength);
  }

  DistanceConstraint makeDistance(const DistanceConstraintDef& d) const {
    const Real current = (load3(x, d.i) - load3(x, d.j)).norm();
    const Real lo = d.minLength == -1 ? current : d.minLength;
    const Real hi = d.maxLength == -1 ? lo : d.maxLength;
    return {d.i, d.j, lo, hi, d.strength.compliance, d.strength.stiffness,
            correctedStiffness(d.strength.stiffness, settings.iterations)};
  }

  void refreshKPrime() {
    if (kPrimeIterations == settings.iterations) return;
    kPrimeIterations = settings.iterations;
    for (auto& c : distances) c.kPrime = correctedStiffness(c.stiffness, kPrimeIterations);
    for (auto& a : attachments) a.kPrime = correctedStiffness(a.stiffness, kPrimeIterations);
  }

  BodyRange appendBody(const char* fn, const BodyBlueprint& b) {
    const size_t n = b.inverseMasses.size();
    if (distances.size() + b.constraints.size() > kMaxConstraints) {
      check::fail(fn, "constraint count", "would exceed the constraint limit", distances.size() + b.constraints.size());
    }
    distances.reserve(distances.size() + b.constraints.size());
    distanceLambda.reserve(distances.size() + b.constraints.size());
    const uint32_t firstConstraint = uint32_t(distances.size());
    const uint32_t first = appendParticles(fn, b.positions.data(), b.inverseMasses.data(), n);
    for (DistanceConstraintDef d : b.constraints) {
      d.i += first;
      d.j += first;
      distances.push_back(makeDistance(d));
    }
    distanceLambda.resize(distances.size(), 0);
    return {first, uint32_t(n), firstConstraint, uint32_t(b.constraints.size())};
  }

  // --- The stages of Algorithm 1 ----------------------------------------------------------------------------

  /// (5) v += h (g + w f) for every free particle.
  void applyExternalForces(Real h) {
    const Vec3 g = settings.gravity;
    auto body = [&](size_t begin, size_t end) {
      for (size_t i = begin; i < end; ++i) {
        if (w[i] == 0) continue;
        for (int a = 0; a < 3; ++a) v[3 * i + a] += h * (g[a] + w[i] * force[3 * i + a]);
      }
    };
    tasks->parallelFor(count(), kParticlesPerTask, body);
  }

  /// (6) dampVelocities: global linear damping, then Müller's damping of non-rigid motion per body.
  void dampVelocities(Real h) {
    if (settings.linearDamping > 0) {
      const Real keep = std::max(Real(0), 1 - settings.linearDamping * h);
      for (Real& vk : v) vk *= keep;
    }
    if (settings.rigidDamping > 0) {
      // k is per frame; per substep use 1 - (1-k)^(1/substeps) so the frame's damping does not depend on substeps.
      const Real k = settings.rigidDamping >= 1
                         ? Real(1)
                         : 1 - std::pow(1 - settings.rigidDamping, Real(1) / Real(settings.substeps));
      for (const ParticleRange& b : bodies) dampNonRigidMotion(x.data(), v.data(), w.data(), b.begin, b.end, k);
    }
  }

  /// (7) p = x + h v, a flat SIMD loop over xyz; the prediction is kept as `inertial`.
  void predictPositions(Real h) {
    auto body = [&](size_t begin, size_t end) {
      axpyRange(inertial.data(), x.data(), h, v.data(), 3 * begin, 3 * end);
      std::copy(inertial.begin() + 3 * begin, inertial.begin() + 3 * end, p.begin() + 3 * begin);
    };
    tasks->parallelFor(count(), kParticlesPerTask, body);
  }

  Real groundSurface() const { return settings.ground.height + settings.ground.thickness; }

  /// (8) generateCollisionConstraints: a ground contact for every free particle predicted below the surface.
  void generateContacts() {
    contacts.clear();
    if (!settings.ground.enabled) return;
    const Real surface = groundSurface();
    for (uint32_t i = 0; i < count(); ++i) {
      if (w[i] != 0 && p[3 * i + 1] < surface) contacts.push_back({i, v[3 * i + 1], 0});
    }
  }

  /// (9-11) One projection pass over every constraint, contacts last so that they hold when the loop ends.
  void projectConstraints(Real h, Real stepFraction) {
    const bool xpbd = settings.method == Method::Xpbd;
    const Real invH2 = 1 / (h * h);
    Vec3* P = reinterpret_cast<Vec3*>(p.data());
    for (size_t c = 0; c < distances.size(); ++c) {
      const DistanceConstraint& d = distances[c];
      distanceLambda[c] += projectDistance(P[d.i], P[d.j], w[d.i], w[d.j], d.minLength, d.maxLength, xpbd, d.kPrime,
                                           d.compliance * invH2, distanceLambda[c]);
    }
    for (size_t a = 0; a < attachments.size(); ++a) {
      const Attachment& at = attachments[a];
      if (!at.active) continue;
      const Vec3 target = at.startTarget + stepFraction * (at.target - at.startTarget);
      attachmentLambda[a] += projectAttachment(P[at.particle], w[at.particle], target, xpbd, at.kPrime,
                                               at.compliance * invH2, attachmentLambda[a]);
    }
    const Real surface = groundSurface();
    for (Contact& c : contacts) c.normalPush += projectGroundContact(p[3 * c.particle + 1], surface);
  }

  /// Particles pushed below the ground by other constraints after contact generation get a contact now,
  /// so that no particle ever ends a step below the ground.
  void addLateContacts() {
    if (!settings.ground.enabled) return;
    const Real surface = groundSurface();
    for (uint32_t i = 0; i < count(); ++i) {
      if (w[i] == 0 || p[3 * i + 1] >= surface) continue;
      const Real push = projectGroundContact(p[3 * i + 1], surface);
      contacts.push_back({i, v[3 * i + 1], push});
    }
  }

  /// (12-15) v = (p - x) / h, x = p.
  void commitPositions(Real h) {
    const Real invH = 1 / h;
    auto body = [&](size_t begin, size_t end) {
      commitRange(x.data(), v.data(), p.data(), inertial.data(), invH, 3 * begin, 3 * end);
    };
    tasks->parallelFor(count(), kParticlesPerTask, body);
  }

  /// (16) velocityUpdate: Coulomb friction limited by the normal impulse, and restitution, for this substep's contacts.
  void updateContactVelocities(Real h) {
    const GroundSettings& g = settings.ground;
    for (const Contact& c : contacts) {
      Real* vi = &v[3 * c.particle];
      // Tangential velocity is reduced by at most mu * (normal velocity change) = mu * normalPush / h.
      const Real vt = std::hypot(vi[0], vi[2]);
      if (vt > 0) {
        const Real scale = std::max(Real(0), vt - g.friction * c.normalPush / h) / vt;
        vi[0] *= scale;
        vi[2] *= scale;
      }
      if (g.restitution > 0 && -c.approachSpeed > g.restitutionThreshold) {
        vi[1] = std::max(vi[1], -g.restitution * c.approachSpeed);
      }
    }
  }

  /// One substep of length h; `stepFraction` = how far through the frame its end is, in (0, 1].
  void substep(Real h, Real stepFraction) {
    applyExternalForces(h);
    dampVelocities(h);
    predictPositions(h);
    generateContacts();
    std::fill(distanceLambda.begin(), distanceLambda.end(), Real(0));
    std::fill(attachmentLambda.begin(), attachmentLambda.end(), Real(0));
    for (int it = 0; it < settings.iterations; ++it) projectConstraints(h, stepFraction);
    addLateContacts();
    commitPositions(h);
    updateContactVelocities(h);
  }
};

World::World(TaskSystem* tasks) : impl_(std::make_unique<Impl>()) { setTaskSystem(tasks); }
World::~World() = default;
World::World(World&&) noexcept = default;
World& World::operator=(World&&) noexcept = default;

const SolverSettings& World::settings() const { return impl_->settings; }

void World::setSettings(const SolverSettings& s) {
  checkSettings("setSettings", s);
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
  impl_->settings.substeps = n;
}

void World::setIterations(int n) {
  check::inRange("setIterations", "iterations", n, 1, 1000);
  impl_->settings.iterations = n;
}

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
  impl_->w[particle] = inverseMass;
  if (inverseMass == 0) store3(impl_->v, particle, Vec3::Zero());
}

void World::setVelocity(uint32_t particle, const Vec3& velocity) {
  check::index("setVelocity", "particle", particle, impl_->count());
  check::finite("setVelocity", "velocity", velocity);
  if (impl_->w[particle] != 0) store3(impl_->v, particle, velocity);
}

void World::setPosition(uint32_t particle, const Vec3& position) {
  check::index("setPosition", "particle", particle, impl_->count());
  check::finite("setPosition", "position", position);
  store3(impl_->x, particle, position);
}

void World::setExternalForce(uint32_t particle, const Vec3& f) {
  check::index("setExternalForce", "particle", particle, impl_->count());
  check::finite("setExternalForce", "force", f);
  store3(impl_->force, particle, f);
}

uint32_t World::addDistanceConstraint(const DistanceConstraintDef& def) {
  Impl& m = *impl_;
  m.checkDistance("addDistanceConstraint", def, m.count());
  if (m.distances.size() >= kMaxConstraints) check::fail("addDistanceConstraint", "constraint count", "is at the limit", m.distances.size());
  m.distances.reserve(m.distances.size() + 1);
  m.distanceLambda.reserve(m.distances.size() + 1);
  m.distances.push_back(m.makeDistance(def));
  m.distanceLambda.push_back(0);
  return uint32_t(m.distances.size() - 1);
}

void World::setDistanceStrength(uint32_t first, uint32_t count, const Strength& strength) {
  Impl& m = *impl_;
  const char* fn = "setDistanceStrength";
  if (uint64_t(first) + count > m.distances.size()) {
    check::fail(fn, "first+count", ("is out of range [0, " + std::to_string(m.distances.size()) + "]").c_str(),
                uint64_t(first) + count);
  }
  checkStrength(fn, strength);
  const Real kPrime = correctedStiffness(strength.stiffness, m.settings.iterations);
  for (uint32_t c = first; c < first + count; ++c) {
    m.distances[c].compliance = strength.compliance;
    m.distances[c].stiffness = strength.stiffness;
    m.distances[c].kPrime = kPrime;
  }
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

BodyRange World::addCloth(const ClothDef& def) { return impl_->appendBody("addCloth", buildCloth(def)); }
BodyRange World::addRope(const RopeDef& def) { return impl_->appendBody("addRope", buildRope(def)); }

void World::step(Real dt) {
  check::finite("step", "dt", dt);
  if (!(dt > 0) || dt > 1) check::fail("step", "dt", "must be in (0, 1] seconds", dt);
  Impl& m = *impl_;
  m.refreshKPrime();
  const Real h = dt / Real(m.settings.substeps);
  for (int s = 0; s < m.settings.substeps; ++s) m.substep(h, Real(s + 1) / Real(m.settings.substeps));
  for (Attachment& a : m.attachments) a.startTarget = a.target;
}

const Real* World::positions() const { return impl_->x.data(); }
const Real* World::velocities() const { return impl_->v.data(); }
const Real* World::inverseMasses() const { return impl_->w.data(); }
uint32_t World::particleCount() const { return impl_->count(); }
uint32_t World::distanceConstraintCount() const { return uint32_t(impl_->distances.size()); }
uint32_t World::constraintCount() const {
  return uint32_t(impl_->distances.size() + impl_->attachments.size() - impl_->freeAttachments.size());
}
uint32_t World::contactCount() const { return uint32_t(impl_->contacts.size()); }

}  // namespace pbd

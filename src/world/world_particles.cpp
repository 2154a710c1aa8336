// The World's particles: adding them and setting their mass, velocity, position and external force.
#include "pbd/world.h"

#include <vector>

#include "base/checks.h"
#include "base/growth.h"
#include "world/world_state.h"

namespace pbd {
namespace {

void store3(std::vector<Real>& a, uint32_t i, const Vec3& v) {
  a[3 * i] = v[0];
  a[3 * i + 1] = v[1];
  a[3 * i + 2] = v[2];
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
  const size_t room = grownRoom(newCount, particles.w.capacity());  // every per-particle array below grows with w
  for (auto* a :
       {&particles.x, &particles.p, &particles.inertial, &particles.v, &particles.force, &solverData.jacobiDelta,
        &particles.savedX, &particles.savedV, &particles.restX, &particles.xPrev, &particles.vPrev}) {
    a->reserve(3 * room);
  }
  if (settings.selfCollision.enabled) reserveSelfCollision(room);
  particles.w.reserve(room);
  particles.held.reserve(room);
  solverData.paddedP.reserve(4 * (room + BlockSchedule::kMaxBlocks));
  reserveContacts(newCount, collision.colliders.size());
  solverData.schedule.constraintsPerParticle.reserve(room);
  solverData.schedule.blocks.reserve(room, constraints.distances.capacity());
  solverData.colouring.reserveParticles(room);
  reserveElementOrders(room);
  const size_t bodyRoom = grownRoom(particles.bodies.size() + 1, particles.bodies.capacity());
  particles.bodies.reserve(bodyRoom);
  particles.bodyMaterials.reserve(bodyRoom);
  reserveIslands(bodyRoom, room);
  const uint32_t first = count();
  particles.x.insert(particles.x.end(), xyz, xyz + 3 * n);
  particles.p.insert(particles.p.end(), xyz, xyz + 3 * n);
  particles.inertial.insert(particles.inertial.end(), xyz, xyz + 3 * n);
  particles.restX.insert(particles.restX.end(), xyz, xyz + 3 * n);
  particles.xPrev.insert(particles.xPrev.end(), xyz, xyz + 3 * n);
  particles.vPrev.insert(particles.vPrev.end(), 3 * n, Real(0));
  particles.historyValid = false;
  particles.v.insert(particles.v.end(), 3 * n, Real(0));
  particles.force.insert(particles.force.end(), 3 * n, Real(0));
  solverData.jacobiDelta.insert(solverData.jacobiDelta.end(), 3 * n, Real(0));
  if (invMass)
    particles.w.insert(particles.w.end(), invMass, invMass + n);
  else
    particles.w.insert(particles.w.end(), n, Real(1));
  solverData.colouring.resizeParticles(newCount);
  particles.bodies.push_back({first, uint32_t(newCount)});
  particles.bodyMaterials.push_back({});
  solverData.schedule.dirty = true;
  islands.islandsDirty = true;
  return first;
}

uint32_t World::addParticle(const Vec3& position, Real inverseMass, const Vec3& velocity) {
  check::finite("addParticle", "position", position);
  check::inverseMass("addParticle", "inverseMass", inverseMass);
  check::finite("addParticle", "velocity", velocity);
  const uint32_t i = impl_->appendParticles("addParticle", position.data(), &inverseMass, 1);
  if (inverseMass != 0) store3(impl_->particles.v, i, velocity);
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
  if ((impl_->particles.w[particle] == 0) != (inverseMass == 0))
    impl_->solverData.hierarchy.dirty = true;  // it keeps pinned particles
  impl_->particles.w[particle] = inverseMass;
  if (inverseMass == 0) store3(impl_->particles.v, particle, Vec3::Zero());
  impl_->particles.historyValid = false;
}

void World::setVelocity(uint32_t particle, const Vec3& velocity) {
  check::index("setVelocity", "particle", particle, impl_->count());
  check::finite("setVelocity", "velocity", velocity);
  if (impl_->particles.w[particle] != 0) store3(impl_->particles.v, particle, velocity);
  impl_->particles.historyValid = false;
}

void World::setPosition(uint32_t particle, const Vec3& position) {
  check::index("setPosition", "particle", particle, impl_->count());
  check::finite("setPosition", "position", position);
  store3(impl_->particles.x, particle, position);
  impl_->particles.historyValid = false;
  impl_->markMeshInsideUnknown();  // a teleport may land inside a closed mesh
}

void World::setExternalForce(uint32_t particle, const Vec3& f) {
  check::index("setExternalForce", "particle", particle, impl_->count());
  check::finite("setExternalForce", "force", f);
  store3(impl_->particles.force, particle, f);
}

}  // namespace pbd

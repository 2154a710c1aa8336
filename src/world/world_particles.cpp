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
  const size_t room = grownRoom(newCount, w.capacity());  // every per-particle array below grows with w
  for (auto* a : {&x, &p, &inertial, &v, &force, &jacobiDelta, &savedX, &savedV, &restX, &xPrev, &vPrev}) {
    a->reserve(3 * room);
  }
  if (settings.selfCollision.enabled) reserveSelfCollision(room);
  w.reserve(room);
  paddedP.reserve(4 * (room + BlockSchedule::kMaxBlocks));
  reserveContacts(newCount, colliders.size());
  schedule.constraintsPerParticle.reserve(room);
  schedule.blocks.reserve(room, distances.capacity());
  colouring.reserveParticles(room);
  reserveElementOrders(room);
  const size_t bodyRoom = grownRoom(bodies.size() + 1, bodies.capacity());
  bodies.reserve(bodyRoom);
  bodyMaterials.reserve(bodyRoom);
  reserveIslands(bodyRoom, room);
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

}  // namespace pbd

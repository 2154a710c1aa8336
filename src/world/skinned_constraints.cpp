// Skinned constraints (character cloth): adding them, moving their skinned positions, and their projection pass.
#include <cmath>
#include <string>

#include "base/checks.h"
#include "base/growth.h"
#include "constraints/skinned.h"
#include "pbd/world.h"
#include "world/world_state.h"

namespace pbd {
namespace {

std::string element(const char* array, size_t k, const char* field) {
  return std::string(array) + "[" + std::to_string(k) + "]." + field;
}

/// Where the skinned position (or normal) is at `stepFraction` of the step: exactly `to` at 1, so a particle at
/// maxDistance 0 ends the step on the skinned mesh to the bit.
Vec3 between(const Vec3& from, const Vec3& to, Real stepFraction) {
  return (1 - stepFraction) * from + stepFraction * to;
}

}  // namespace

uint32_t World::addSkinnedConstraints(std::span<const SkinnedConstraintDef> defs) {
  Impl& m = *impl_;
  const char* fn = "addSkinnedConstraints";
  // One per particle, so that the pass can split them across threads.
  std::vector<char> skinned(m.count(), 0);
  for (const SkinnedConstraint& c : m.constraints.skinned) skinned[c.particle] = 1;
  for (size_t k = 0; k < defs.size(); ++k) {
    const SkinnedConstraintDef& d = defs[k];
    // The plain comparisons first: the element's name is made only for a message.
    const bool good = d.particle < m.count() && !skinned[d.particle] && d.maxDistance >= 0 &&
                      std::isfinite(d.maxDistance) && (d.backstopDistance == -1 || (d.backstopDistance >= 0 &&
                      std::isfinite(d.backstopDistance))) && d.backstopRadius >= 0 && std::isfinite(d.backstopRadius);
    if (!good) {
      check::index(fn, element("constraints", k, "particle"), d.particle, m.count());
      if (skinned[d.particle])
        check::fail(fn, element("constraints", k, "particle"), "already has a skinned constraint", d.particle);
      check::atLeast(fn, element("constraints", k, "maxDistance"), d.maxDistance, 0);
      check::atLeastOrSpecial(fn, element("constraints", k, "backstopDistance"), d.backstopDistance, 0, -1,
                              "must be >= 0 (or -1: no backstop)");
      check::atLeast(fn, element("constraints", k, "backstopRadius"), d.backstopRadius, 0);
    }
    skinned[d.particle] = 1;
  }
  if (m.constraints.skinned.size() + defs.size() > kMaxConstraints)
    check::fail(fn, "constraints", "would pass the constraint limit", m.constraints.skinned.size() + defs.size());
  const size_t room = grownRoom(m.constraints.skinned.size() + defs.size(), m.constraints.skinned.capacity());
  m.constraints.skinned.reserve(room);
  m.constraints.skinnedFrames.reserve(room);
  const uint32_t first = uint32_t(m.constraints.skinned.size());
  for (const SkinnedConstraintDef& d : defs) {
    const Vec3 at(m.particles.x[3 * d.particle], m.particles.x[3 * d.particle + 1], m.particles.x[3 * d.particle + 2]);
    m.constraints.skinned.push_back(
        {d.particle, d.maxDistance, d.backstopDistance, d.backstopRadius, at, at, Vec3::Zero(), Vec3::Zero()});
  }
  m.constraints.skinnedFrames.resize(m.constraints.skinned.size());
  m.islands.islandsDirty = true;
  return first;
}

void World::setSkinnedTargets(uint32_t first, std::span<const Real> positions, std::span<const Real> normals) {
  Impl& m = *impl_;
  const char* fn = "setSkinnedTargets";
  if (positions.size() % 3 != 0) check::fail(fn, "positions", "length must be a multiple of 3 (xyz)", positions.size());
  if (!normals.empty() && normals.size() != positions.size())
    check::fail(fn, "normals", ("length must be 0 or that of positions (" + std::to_string(positions.size()) + ")").c_str(),
                normals.size());
  const size_t count = positions.size() / 3;
  check::index(fn, "first", first, m.constraints.skinned.size() + (count == 0 ? 1 : 0));
  if (first + count > m.constraints.skinned.size())
    check::fail(fn, "positions", ("names constraints past the last (" + std::to_string(m.constraints.skinned.size()) +
                                  " skinned constraints)").c_str(),
                first + count);
  // Every frame, thousands of values: the element's name is made only for the message.
  for (size_t k = 0; k < positions.size(); ++k)
    if (!std::isfinite(positions[k])) check::finite(fn, "positions[" + std::to_string(k) + "]", positions[k]);
  for (size_t k = 0; k < normals.size(); ++k)
    if (!std::isfinite(normals[k])) check::finite(fn, "normals[" + std::to_string(k) + "]", normals[k]);
  for (size_t k = 0; k < count; ++k) {
    SkinnedConstraint& c = m.constraints.skinned[first + k];
    c.target = Vec3(positions[3 * k], positions[3 * k + 1], positions[3 * k + 2]);
    if (normals.empty()) continue;
    const Vec3 n(normals[3 * k], normals[3 * k + 1], normals[3 * k + 2]);
    const Real length = n.norm();
    c.normal = length > 0 && std::isfinite(1 / length) ? Vec3(n / length) : Vec3::Zero();
  }
}

uint32_t World::skinnedConstraintCount() const { return uint32_t(impl_->constraints.skinned.size()); }

/// Where the skinned positions and normals are `stepFraction` through the step, for every pass of the substep.
void World::Impl::prepareSkinnedFrames(Real stepFraction) {
  if (constraints.skinned.empty()) return;  // no dispatch to the threads in worlds without any
  auto body = [&](size_t begin, size_t end) {
    for (size_t k = begin; k < end; ++k) {
      const SkinnedConstraint& c = constraints.skinned[k];
      Vec3 normal = between(c.startNormal, c.normal, stepFraction);
      const Real length = normal.norm();
      constraints.skinnedFrames[k] = {between(c.startTarget, c.target, stepFraction),
                                      length > 0 ? Vec3(normal / length) : Vec3::Zero()};
    }
  };
  tasks->parallelFor(constraints.skinned.size(), kParticlesPerTask, body);
}

/// Each skinned particle onto the set its constraint allows (prepareSkinnedFrames' positions and normals). One
/// constraint per particle: split across threads, the same bits for any split.
void World::Impl::projectSkinnedConstraints() {
  if (constraints.skinned.empty()) return;
  Vec3* P = asVec3(particles.p);
  auto body = [&](size_t begin, size_t end) {
    for (size_t k = begin; k < end; ++k) {
      const SkinnedConstraint& c = constraints.skinned[k];
      if (particles.w[c.particle] == 0) continue;
      const SkinnedFrame& f = constraints.skinnedFrames[k];
      projectSkinned(P[c.particle], f.target, f.normal, c.maxDistance, c.backstopDistance, c.backstopRadius);
    }
  };
  tasks->parallelFor(constraints.skinned.size(), kParticlesPerTask, body);
}

}  // namespace pbd

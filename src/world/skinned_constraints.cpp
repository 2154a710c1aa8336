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
  for (size_t k = 0; k < defs.size(); ++k) {
    const SkinnedConstraintDef& d = defs[k];
    check::index(fn, element("constraints", k, "particle"), d.particle, m.count());
    check::atLeast(fn, element("constraints", k, "maxDistance"), d.maxDistance, 0);
    check::atLeastOrSpecial(fn, element("constraints", k, "backstopDistance"), d.backstopDistance, 0, -1,
                            "must be >= 0 (or -1: no backstop)");
    check::atLeast(fn, element("constraints", k, "backstopRadius"), d.backstopRadius, 0);
  }
  if (m.constraints.skinned.size() + defs.size() > kMaxConstraints)
    check::fail(fn, "constraints", "would pass the constraint limit", m.constraints.skinned.size() + defs.size());
  m.constraints.skinned.reserve(grownRoom(m.constraints.skinned.size() + defs.size(), m.constraints.skinned.capacity()));
  const uint32_t first = uint32_t(m.constraints.skinned.size());
  for (const SkinnedConstraintDef& d : defs) {
    const Vec3 at(m.particles.x[3 * d.particle], m.particles.x[3 * d.particle + 1], m.particles.x[3 * d.particle + 2]);
    m.constraints.skinned.push_back(
        {d.particle, d.maxDistance, d.backstopDistance, d.backstopRadius, at, at, Vec3::Zero(), Vec3::Zero()});
  }
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
  for (size_t k = 0; k < positions.size(); ++k) check::finite(fn, "positions[" + std::to_string(k) + "]", positions[k]);
  for (size_t k = 0; k < normals.size(); ++k) check::finite(fn, "normals[" + std::to_string(k) + "]", normals[k]);
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

/// Each skinned particle onto the set its constraint allows, at the skinned positions `stepFraction` through the step.
/// Per particle and independent of the others' (a particle has at most the constraints its caller gave it, projected in
/// order), so the order within the pass is the order added.
void World::Impl::projectSkinnedConstraints(Real stepFraction) {
  Vec3* P = asVec3(particles.p);
  for (const SkinnedConstraint& c : constraints.skinned) {
    if (particles.w[c.particle] == 0) continue;
    Vec3 normal = between(c.startNormal, c.normal, stepFraction);
    const Real length = normal.norm();
    normal = length > 0 ? Vec3(normal / length) : Vec3::Zero();
    projectSkinned(P[c.particle], between(c.startTarget, c.target, stepFraction), normal, c.maxDistance,
                   c.backstopDistance, c.backstopRadius);
  }
}

}  // namespace pbd

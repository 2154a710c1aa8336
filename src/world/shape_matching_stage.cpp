// Shape matching clusters (World::addShapeMatching, SoftBodyDef::shapeMatching): validation, storage as slices of
// three parallel member arrays, and the projection stage.
#include <algorithm>
#include <cmath>

#include "bodies/body_builders.h"
#include "bodies/builder_common.h"
#include "base/checks.h"
#include "world/world_state.h"

namespace pbd {

ShapeMatchingBlueprint resolveShapeMatching(const char* fn, const std::string& arg, std::span<const uint32_t> members,
                                            const Real* xyz, const Real* inverseMasses, size_t count,
                                            const char* strengthName, const Strength& strength) {
  checkStrength(fn, strengthName, strength);
  if (members.size() < 2) check::fail(fn, arg, "needs at least 2 particles (one particle has no shape)", members.size());
  std::vector<char> seen(count, 0);
  Real heaviest = 0;
  for (size_t k = 0; k < members.size(); ++k) {
    const std::string name = arg + "[" + std::to_string(k) + "]";
    check::index(fn, name, members[k], count);
    if (seen[members[k]]) check::fail(fn, name, "repeats a particle", members[k]);
    seen[members[k]] = 1;
    const Real w = inverseMasses[members[k]];
    if (w == 0) continue;
    if (!std::isfinite(1 / w)) check::fail(fn, name, "has an inverse mass too small to give a finite mass", w);
    heaviest = std::max(heaviest, 1 / w);
  }
  if (!(heaviest > 0)) check::fail(fn, arg, "must include a particle with inverse mass > 0 (all are pinned)", 0);
  ShapeMatchingBlueprint c;
  c.members.assign(members.begin(), members.end());
  // Pinned members are infinitely heavy: the kernel centres the goal shape on them. Their weight among themselves
  // and in the fitted rotation must still be finite; the heaviest free member's mass keeps it on the cluster's scale.
  c.masses.resize(members.size());
  for (size_t k = 0; k < members.size(); ++k) {
    const Real w = inverseMasses[members[k]];
    c.masses[k] = w == 0 ? heaviest : 1 / w;
  }
  // q_i = X_i - X_cm with X_cm summed in double. The offsets' weighted sum must vanish to round-off of the q_i
  // themselves: every projection moves the cluster by a fraction of R Σ m q / Σ m, the same way each time, so a
  // float32 sum's residual (n ulps of X) would push a stiff cluster steadily, with momentum from nothing.
  Eigen::Vector3d centre = Eigen::Vector3d::Zero();
  double total = 0;
  for (size_t k = 0; k < members.size(); ++k) {
    total += double(c.masses[k]);
    centre += double(c.masses[k]) * Vec3(xyz + 3 * size_t(members[k])).cast<double>();
  }
  centre /= total;
  c.restOffsets.resize(members.size());
  for (size_t k = 0; k < members.size(); ++k) {
    c.restOffsets[k] = (Vec3(xyz + 3 * size_t(members[k])).cast<double>() - centre).cast<Real>();
  }
  c.strength = strength;
  return c;
}

void World::Impl::reserveShapeMatching(const char* fn, const ShapeMatchingBlueprint& c) {
  if (c.members.empty()) return;
  const size_t members = constraints.shapeMatchingMembers.size() + c.members.size();
  if (members > kMaxConstraints) check::fail(fn, "shape matching member count", "would exceed the limit", members);
  constraints.shapeMatchings.reserve(constraints.shapeMatchings.size() + 1);
  constraints.shapeMatchingLambda.reserve(constraints.shapeMatchings.size() + 1);
  constraints.shapeMatchingMembers.reserve(members);
  constraints.shapeMatchingRestOffsets.reserve(members);
  constraints.shapeMatchingMasses.reserve(members);
}

void World::Impl::appendShapeMatching(const ShapeMatchingBlueprint& c, uint32_t first) {
  if (c.members.empty()) return;
  constraints.shapeMatchings.push_back({uint32_t(constraints.shapeMatchingMembers.size()), uint32_t(c.members.size()),
                                        c.strength.compliance, c.strength.stiffness,
                                        correctedStiffness(c.strength.stiffness, settings.iterations)});
  for (uint32_t i : c.members) constraints.shapeMatchingMembers.push_back(first + i);
  constraints.shapeMatchingRestOffsets.insert(constraints.shapeMatchingRestOffsets.end(), c.restOffsets.begin(),
                                              c.restOffsets.end());
  constraints.shapeMatchingMasses.insert(constraints.shapeMatchingMasses.end(), c.masses.begin(), c.masses.end());
  constraints.shapeMatchingLambda.push_back(0);
  islands.islandsDirty = true;
}

/// Serially in the order added: one cluster moves all of its members, and clusters may share particles.
void World::Impl::projectShapeMatchingClusters(bool xpbd, Real invH2) {
  Vec3* P = asVec3(particles.p);
  for (size_t k = 0; k < constraints.shapeMatchings.size(); ++k) {
    const ShapeMatchingCluster& c = constraints.shapeMatchings[k];
    const std::span<const uint32_t> members(constraints.shapeMatchingMembers.data() + c.firstMember, c.memberCount);
    const std::span<const Vec3> offsets(constraints.shapeMatchingRestOffsets.data() + c.firstMember, c.memberCount);
    const std::span<const Real> masses(constraints.shapeMatchingMasses.data() + c.firstMember, c.memberCount);
    constraints.shapeMatchingLambda[k] +=
        projectShapeMatching(members, offsets, masses, P, particles.w.data(), xpbd, c.kPrime, c.compliance * invH2,
                             constraints.shapeMatchingLambda[k]);
  }
}

uint32_t World::addShapeMatching(const ShapeMatchingDef& def) {
  Impl& m = *impl_;
  const char* fn = "addShapeMatching";
  const ShapeMatchingBlueprint c = resolveShapeMatching(fn, "particles", def.particles, m.particles.x.data(),
                                                        m.particles.w.data(), m.count(), "strength", def.strength);
  m.reserveShapeMatching(fn, c);
  m.appendShapeMatching(c, 0);
  return uint32_t(m.constraints.shapeMatchings.size() - 1);
}

uint32_t World::shapeMatchingCount() const { return uint32_t(impl_->constraints.shapeMatchings.size()); }

}  // namespace pbd

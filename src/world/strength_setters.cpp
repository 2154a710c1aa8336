// Run-time strengths: World::setConstraintStrength (and setDistanceStrength through it) for every kind of constraint
// with a Strength, and World::setSoftBodyMaterial for Neo-Hookean bodies. Each validates everything first (world
// unchanged on a throw), then writes the values the builders would have written, so setting what a body was built
// with is bit-identical. Derived data: PBD's corrected k' here (the formula each kind's projection uses); the colour
// schedule and hierarchy copy distance strengths and are marked dirty; Projective Dynamics compares its elements at
// the next step and refactors only if one changed (projective_stage.cpp); VBD recomputes its stiffnesses at the next
// step (strengthsChanged); snapshots store the values as they are.
#include <string>

#include "bodies/builder_common.h"
#include "bodies/soft_material.h"
#include "world/symmetric_sweep.h"
#include "world/world_state.h"

namespace pbd {

namespace {

/// Sets compliance, stiffness and k' on every element of [first, first + count).
template <class C>
void setRange(std::vector<C>& elements, uint32_t first, uint32_t count, const Strength& s, Real kPrime) {
  for (uint32_t k = first; k < first + count; ++k) {
    elements[k].compliance = s.compliance;
    elements[k].stiffness = s.stiffness;
    elements[k].kPrime = kPrime;
  }
}

/// The stretch or the shear half of strain triangles: its compliance is per unit area (divided by each rest area).
using TriangleField = Real TriangleStrainConstraint::*;
void setTriangleRange(std::vector<TriangleStrainConstraint>& triangles, uint32_t first, uint32_t count,
                      const Strength& s, Real kPrime, TriangleField compliance, TriangleField stiffness,
                      TriangleField kPrimeField) {
  for (uint32_t k = first; k < first + count; ++k) {
    TriangleStrainConstraint& c = triangles[k];
    c.*compliance = triangleCompliance(s.compliance, c.restArea);
    c.*stiffness = s.stiffness;
    c.*kPrimeField = kPrime;
  }
}

}  // namespace

size_t World::Impl::constraintsOfKind(const char* fn, ConstraintKind kind) const {
  switch (kind) {
    case ConstraintKind::Distance:
      return constraints.distances.size();
    case ConstraintKind::Dihedral:
      return constraints.dihedrals.size();
    case ConstraintKind::TetVolume:
      return constraints.volumes.size();
    case ConstraintKind::TriangleStretch:
    case ConstraintKind::TriangleShear:
      return constraints.triangleStrains.size();
    case ConstraintKind::ShapeMatching:
      return constraints.shapeMatchings.size();
    case ConstraintKind::SurfaceVolume:
      return constraints.surfaceVolumes.size();
  }
  check::fail(fn, "kind", ("is not a constraint kind [0, " + std::to_string(kConstraintKindCount) + ")").c_str(),
              uint32_t(kind));
}

void World::Impl::setStrength(const char* fn, ConstraintKind kind, uint32_t first, uint32_t count,
                              const Strength& s) {
  const size_t n = constraintsOfKind(fn, kind);
  if (uint64_t(first) + count > n) {
    check::fail(fn, "first+count", ("is out of range [0, " + std::to_string(n) + "]").c_str(), uint64_t(first) + count);
  }
  checkStrength(fn, "", s);
  solverData.vbd.strengthsChanged();
  // k' as each kind's projection expects it: once per iteration (correctedStiffness), or twice for the kinds swept
  // forward and back (symmetricSweepKPrime), exactly as the builders and refreshDerivedData compute it.
  const int its = settings.iterations;
  switch (kind) {
    case ConstraintKind::Distance:
      setRange(constraints.distances, first, count, s, correctedStiffness(s.stiffness, its));
      solverData.schedule.dirty = true;  // the colour schedule and the hierarchy hold copies of the strengths
      break;
    case ConstraintKind::Dihedral:
      setRange(constraints.dihedrals, first, count, s, symmetricSweepKPrime(s.stiffness, its));
      break;
    case ConstraintKind::TetVolume:
      setRange(constraints.volumes, first, count, s, symmetricSweepKPrime(s.stiffness, its));
      solverData.volumePackDirty = true;  // the sweep reads a packed copy
      break;
    case ConstraintKind::ShapeMatching:
      setRange(constraints.shapeMatchings, first, count, s, correctedStiffness(s.stiffness, its));
      break;
    case ConstraintKind::SurfaceVolume:
      setRange(constraints.surfaceVolumes, first, count, s, correctedStiffness(s.stiffness, its));
      break;
    case ConstraintKind::TriangleStretch:
      setTriangleRange(constraints.triangleStrains, first, count, s, symmetricSweepKPrime(s.stiffness, its),
                       &TriangleStrainConstraint::stretchCompliance, &TriangleStrainConstraint::stretchStiffness,
                       &TriangleStrainConstraint::stretchKPrime);
      break;
    case ConstraintKind::TriangleShear:
      setTriangleRange(constraints.triangleStrains, first, count, s, symmetricSweepKPrime(s.stiffness, its),
                       &TriangleStrainConstraint::shearCompliance, &TriangleStrainConstraint::shearStiffness,
                       &TriangleStrainConstraint::shearKPrime);
      break;
  }
}

void World::setConstraintStrength(ConstraintKind kind, uint32_t first, uint32_t count, const Strength& strength) {
  impl_->setStrength("setConstraintStrength", kind, first, count, strength);
}

Strength World::constraintStrength(ConstraintKind kind, uint32_t constraint) const {
  const Impl& m = *impl_;
  const char* fn = "constraintStrength";
  check::index(fn, "constraint", constraint, m.constraintsOfKind(fn, kind));
  switch (kind) {
    case ConstraintKind::Distance:
      return {m.constraints.distances[constraint].compliance, m.constraints.distances[constraint].stiffness};
    case ConstraintKind::Dihedral:
      return {m.constraints.dihedrals[constraint].compliance, m.constraints.dihedrals[constraint].stiffness};
    case ConstraintKind::TetVolume:
      return {m.constraints.volumes[constraint].compliance, m.constraints.volumes[constraint].stiffness};
    case ConstraintKind::ShapeMatching:
      return {m.constraints.shapeMatchings[constraint].compliance, m.constraints.shapeMatchings[constraint].stiffness};
    case ConstraintKind::SurfaceVolume:
      return {m.constraints.surfaceVolumes[constraint].compliance, m.constraints.surfaceVolumes[constraint].stiffness};
    case ConstraintKind::TriangleStretch: {
      const TriangleStrainConstraint& t = m.constraints.triangleStrains[constraint];
      return {t.stretchCompliance * t.restArea, t.stretchStiffness};  // back to per unit area (triangleCompliance)
    }
    case ConstraintKind::TriangleShear: {
      const TriangleStrainConstraint& t = m.constraints.triangleStrains[constraint];
      return {t.shearCompliance * t.restArea, t.shearStiffness};
    }
  }
  return {};  // constraintsOfKind threw for any other kind
}

void World::setSoftBodyMaterial(uint32_t body, Real youngsModulus, Real poissonRatio, Real materialStiffness) {
  Impl& m = *impl_;
  const char* fn = "setSoftBodyMaterial";
  check::index(fn, "body", body, m.particles.bodies.size());
  checkNeoHookeanMaterial(fn, youngsModulus, poissonRatio, materialStiffness,
                          {"youngsModulus", "poissonRatio", "materialStiffness"});
  // A Neo-Hookean tet's vertices all lie in the body that built it (addSoftBody), so its first vertex names it.
  const ParticleRange range = m.particles.bodies[body];
  auto inBody = [&](const NeoHookeanTet& e) { return e.p[0] >= range.begin && e.p[0] < range.end; };
  bool any = false;
  for (const NeoHookeanTet& e : m.constraints.neoHookeans) any = any || inBody(e);
  if (!any) check::fail(fn, "body", "has no Neo-Hookean tets (SoftMaterial::NeoHookean)", body);
  const LameParameters lame = lameFromYoungPoisson(youngsModulus, poissonRatio);
  const Real kPrime = symmetricSweepKPrime(materialStiffness, m.settings.iterations);
  m.solverData.vbd.strengthsChanged();
  for (NeoHookeanTet& e : m.constraints.neoHookeans) {
    if (!inBody(e)) continue;
    applyNeoHookeanMaterial(e, lame, materialStiffness);
    e.deviatoricKPrime = e.hydrostaticKPrime = kPrime;
  }
}

}  // namespace pbd

// Shared by the World fuzz targets: a fingerprint of everything a failed call must leave unchanged.
#pragma once

#include <cstdint>

#include "fuzz_input.h"
#include "pbd/world.h"

namespace pbd::fuzz {

/// Particle state (positions, velocities, inverse masses), every count the API exposes, the distance constraints
/// as stored, the closed surfaces' rest volumes and the settings.
inline uint64_t worldHash(const World& w) {
  Hash h;
  const uint32_t n = w.particleCount();
  h.value(n);
  h.bytes(w.positions(), 3 * sizeof(Real) * n);
  h.bytes(w.velocities(), 3 * sizeof(Real) * n);
  h.bytes(w.inverseMasses(), sizeof(Real) * n);
  for (uint32_t c : {w.constraintCount(), w.distanceConstraintCount(), w.tetherCount(), w.dihedralConstraintCount(),
                     w.colliderCount(), w.tetVolumeCount(), w.shapeMatchingCount(), w.triangleStrainCount(),
                     w.neoHookeanCount(), w.surfaceVolumeCount()}) {
    h.value(c);
  }
  for (uint32_t k = 0; k < w.distanceConstraintCount(); ++k) {
    const DistanceConstraintDef d = w.distanceConstraint(k);
    h.value(d.i), h.value(d.j), h.value(d.minLength), h.value(d.maxLength);
    h.value(d.strength.compliance), h.value(d.strength.stiffness);
  }
  for (uint32_t k = 0; k < w.surfaceVolumeCount(); ++k) h.value(w.surfaceRestVolume(k));
  const SolverSettings& s = w.settings();
  h.value(s.method), h.value(s.solver), h.value(s.integrator), h.value(s.jacobiRelaxation);
  h.value(s.substeps), h.value(s.iterations), h.bytes(s.gravity.data(), 3 * sizeof(Real));
  h.value(s.linearDamping), h.value(s.rigidDamping);
  h.value(s.ground.enabled), h.value(s.ground.height), h.value(s.ground.thickness), h.value(s.ground.friction);
  h.value(s.ground.restitution), h.value(s.ground.restitutionThreshold);
  h.value(s.selfCollision.enabled), h.value(s.selfCollision.radius);
  return h.h;
}

/// After any step: the world never carries NaN or Inf.
inline void checkFinite(const World& w) {
  const size_t n = 3 * size_t(w.particleCount());
  PBD_FUZZ_CHECK(allFinite(w.positions(), n));
  PBD_FUZZ_CHECK(allFinite(w.velocities(), n));
  PBD_FUZZ_CHECK(allFinite(w.inverseMasses(), n / 3));
}

inline Strength strength(Input& in) {
  Strength s;
  s.compliance = in.real();
  s.stiffness = in.real();
  return s;
}

inline PinRegion pinRegion(Input& in) {
  PinRegion r;
  r.shape = in.enumValue<PinRegion::Shape>(2);
  r.centre = in.vec3();
  r.halfExtents = in.vec3();
  r.radius = in.real();
  return r;
}

}  // namespace pbd::fuzz

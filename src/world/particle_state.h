// World::Impl's particle state: positions, velocities, masses and the bodies that tile them, xyz per particle
// (structure of arrays).
#pragma once

#include <cstdint>
#include <vector>

#include "collision/particle_boxes.h"
#include "pbd/world.h"

namespace pbd {

/// An xyz array seen as points: Vec3 is three unaligned floats, so the layouts agree.
inline Vec3* asVec3(std::vector<Real>& xyz) { return reinterpret_cast<Vec3*>(xyz.data()); }
inline const Vec3* asVec3(const std::vector<Real>& xyz) { return reinterpret_cast<const Vec3*>(xyz.data()); }

/// Particles per range handed to the task system: below this a loop stays on one thread.
inline constexpr size_t kParticlesPerTask = 4096;
/// Blocks of the band layout (math/band_layout.h) per range: a task's kParticlesPerTask particles, four to a block.
inline constexpr size_t kBandBlocksPerTask = kParticlesPerTask / 4;
static_assert(kBandBlocksPerTask % kBoxParticles == 0, "a slice of a band is whole runs");

struct ParticleRange {
  uint32_t begin, end;
};

/// The particles. x is what callers read (positions()); p is the substep's solution, starting from the inertial
/// prediction x + h v, which is kept for the velocity update.
struct ParticleState {
  std::vector<Real> x, p, inertial, v, force;
  std::vector<Real> w;                         // inverse mass per particle
  std::vector<ParticleRange> bodies;           // particle ranges for rigid-motion damping and step reports
  std::vector<ContactMaterial> bodyMaterials;  // parallel to bodies: friction and restitution against surfaces
  Real largestBodyMargin = 0;                  // m, the largest bodyMaterials[].thickness, refreshed once per step
  std::vector<Real> savedX, savedV;            // x and v at the start of the step, for the non-finite guard's rollback
  std::vector<Real> xPrev, vPrev;              // BDF2 history: x and v one substep back
  bool historyValid = false;                   // xPrev/vPrev describe the substep before the current state
  bool commitPending = false;  // the last substep's commit (v, x from p) is left to the next substep's first
                               // pass over the particles (runSubsteps), which does it chunk by chunk first
  std::vector<Real> restX;     // xyz at creation: self-collision ignores pairs that start close
  std::vector<uint8_t> held;   // scratch of the damping of non-rigid motion: 1 for a particle a contact, an
                               // attachment or a skinned constraint holds in this substep (world/rigid_damping.h)

  uint32_t count() const { return uint32_t(w.size()); }
};

}  // namespace pbd

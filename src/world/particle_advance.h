// A substep's pass over the particles in its common form (no linear damping, no speed clamp, implicit Euler): the
// forces and the prediction, after the last substep's commit when it was deferred, fused into one loop, so that
// each particle's arrays are loaded and stored once instead of once per stage.
#pragma once

#include <cstddef>

#include "collision/particle_boxes.h"
#include "pbd/real.h"

namespace pbd {

/// The particle arrays the pass reads and writes: flat xyz (3 floats per particle) but w.
struct AdvancedParticles {
  Real* x;          ///< m, the positions at the substep's start; set to the committed p.
  Real* v;          ///< m/s, the velocities.
  Real* p;          ///< m, the positions the last solve left; set to the new prediction.
  Real* inertial;   ///< m, the last substep's prediction x̃; set to the new one.
  const Real* w;    ///< 1/kg, one per particle: the inverse masses (0 = pinned, no acceleration).
  const Real* f;    ///< N, the external forces.
};

/// Over particles [begin, end): with `commit`, the last substep's commit v += (p - x̃) / h, x = p (commitRange in
/// math/wide_float.h); then the forces v += h (g + w f) where w != 0 (addAccelerationRange), the prediction
/// p = x̃ = x + h v (axpyRange), and with `boxes` not null the particle boxes of the new p (axpyAndBound; then
/// `begin` is a multiple of kBoxParticles). The same expressions in the same order as those in turn, so the same
/// bits. invH = 1 / h.
void accelerateAndPredict(const AdvancedParticles& a, bool commit, const Real g[3], Real h, Real invH, size_t begin,
                          size_t end, ParticleBox* boxes);

}  // namespace pbd

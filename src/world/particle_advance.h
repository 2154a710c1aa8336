// A substep's pass over the particles: the last substep's commit when it was deferred, then the linear damping, the
// forces, the speed clamp and the prediction, each where asked, fused into one loop, so that each particle's
// arrays are loaded and stored once instead of once per stage. Every stage is per particle, so any split of the
// particles (chunks, threads) gives the same bits.
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

/// What the pass does to each particle: commit, damp, accelerate, clamp, predict, in this order. Damping comes
/// before the forces: a damper acts on the velocity carried over, never on this substep's external impulse, so it
/// leaves every static equilibrium where it is (damping after gravity would hold a spring short by a factor 1 - d h).
struct AdvanceStages {
  bool commit = false;      ///< the last substep's commit v += (p - x̃) / h, x = p (commitRange in math/wide_float.h)
  bool accelerate = false;  ///< v += h (g + w f) where w != 0 (pinned particles keep their velocity)
  bool damp = false;        ///< v *= keep: linear damping, of the velocity before this substep's forces
  bool clamp = false;       ///< |v| <= maxSpeed, direction kept (clampSpeedRange, world/velocity_clamp.h)
  bool predict = false;     ///< p = x̃ = x + h v, and the particle boxes of the new p if asked
  Real g[3] = {0, 0, 0};    ///< m/s², gravity
  Real h = 0;               ///< s, the substep, > 0
  Real keep = 1;            ///< the damping's factor for the substep, max(0, 1 - linearDamping h)
  Real maxSpeed = 0;        ///< m/s, the clamp's limit
};

/// The stages over particles [begin, end). With `boxes` not null (only with `predict`; then `begin` is a multiple
/// of kBoxParticles) also the boxes boundParticles would give of the new p. The same expressions in the same order
/// as the stages run one after the other over the range, so the same bits.
void advanceParticleRange(const AdvancedParticles& a, const AdvanceStages& s, size_t begin, size_t end,
                          ParticleBox* boxes);

}  // namespace pbd

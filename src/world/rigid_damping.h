// Damping of non-rigid motion, Müller et al. 2006, section 3.5 (dampVelocities):
//   x_cm = Σ m_i x_i / Σ m_i,   v_cm = Σ m_i v_i / Σ m_i,   r_i = x_i - x_cm
//   L = Σ r_i × m_i v_i,   I = Σ m_i r̃_i r̃_iᵀ (r̃ the cross-product matrix),   ω = I⁻¹ L
//   Δv_i = v_cm + ω × r_i - v_i,   v_i += k Δv_i
// The rigid part (v_cm + ω × r_i) is untouched for any k; k = 1 makes the body move rigidly.
// Pinned particles (inverse mass 0) have no finite mass to sum and are left out. So are particles something outside
// the body holds (`held`: a contact, an attachment): their velocity is the contact's, not the body's. Damped toward
// the body's rigid motion, a particle held by a contact is dragged through it, and the contact's positional push
// turns that back into velocity the next substep: a cloth resting on a box rocked in a period-2 cycle (±0.25 m/s)
// at any k above about 1e-3 per frame.
#pragma once

#include <cstdint>

#include "pbd/real.h"

namespace pbd {

/// Applies the damping to particles [begin, end) of flat xyz arrays. k in [0,1]. `held` (one byte per particle, or
/// null for none): non-zero for a particle left out of the sums and of the damping.
void dampNonRigidMotion(const Real* x, Real* v, const Real* inverseMass, const uint8_t* held, uint32_t begin,
                        uint32_t end, Real k);

}  // namespace pbd

// A body's contact material and the rule that combines it with the surface's (a collider's or the ground's).
//
// Combination rule, applied per contact in the velocity pass:
//   friction    μ = sqrt(μ_body · μ_surface)   (geometric mean, Box2D's b2MixFriction), the dynamic coefficient μ_d
//               and the static one μ_s each by this same rule (μ_s = sqrt(μ_s,body · μ_s,surface))
//   restitution e = max(e_body, e_surface)     (Box2D's b2MixRestitution)
//   thickness   t = t_body + t_surface         (margins add: a particle of radius t_body on a surface of skin t_surface)
// Why these: the geometric mean gives a material on itself its own coefficient (μ on μ = μ), and anything on ice
// (μ = 0) slides, which an arithmetic mean would not; the product (Bullet) makes 0.5 on 0.5 a slippery 0.25. The max
// lets either side bounce: a rubber ball bounces on concrete, and a ball of clay dropped on a trampoline too.
// Defaults leave the surface in charge, bit for bit: friction kSurfaceFriction (-1) means "the surface's μ" (not
// sqrt(1·μ), which rounds), and restitution 0 gives max(0, e) = e exactly. Every staticFriction (body, ground,
// collider) defaults to kSameAsFriction (-1): "this side's dynamic coefficient", so μ_s = μ_d bit for bit unless set.
// μ_s >= μ_d is usual physically but not required: μ_s < μ_d merely lets the contact slip earlier (it is then held
// less than it is braked once sliding), which is harmless and sometimes wanted for an artistic effect.
#pragma once

#include <algorithm>
#include <cmath>

#include "pbd/real.h"

namespace pbd {

/// ContactMaterial::friction's default: use the surface's coefficient unchanged.
inline constexpr Real kSurfaceFriction = -1;

/// Default of every staticFriction (ContactMaterial, GroundSettings, ColliderDef): the same side's dynamic coefficient.
inline constexpr Real kSameAsFriction = -1;

/// How a body's particles rub and bounce against colliders and the ground (not against each other).
struct ContactMaterial {
  Real friction = kSurfaceFriction;  ///< Coulomb coefficient >= 0, finite, combined as sqrt(μ_body μ_surface);
                                     ///< kSurfaceFriction (-1) = the surface's μ alone (the default).
  Real restitution = 0;              ///< In [0, 1], combined as max(e_body, e_surface); 0 = the surface's e alone.
  Real staticFriction = kSameAsFriction;  ///< Static Coulomb coefficient μ_s >= 0, finite, mixed as friction is with
                                          ///< the surface's μ_s; kSameAsFriction (-1, the default) = this material's
                                          ///< `friction` (so kSurfaceFriction there makes it the surface's μ_s).
  Real thickness = 0;  ///< m, >= 0, finite: the body's collision margin (its particles' radius). Its particles are
                       ///< kept the surface's own thickness plus this far from every collider and the ground.
};

/// μ = sqrt(μ_body μ_surface), or μ_surface exactly when the body has kSurfaceFriction (any negative value).
inline Real mixFriction(Real body, Real surface) { return body < 0 ? surface : std::sqrt(body * surface); }

/// A side's static coefficient: `staticMu`, or its dynamic `mu` when staticMu is kSameAsFriction (any negative value).
inline Real staticOrDynamic(Real staticMu, Real mu) { return staticMu < 0 ? mu : staticMu; }

/// e = max(e_body, e_surface).
inline Real mixRestitution(Real body, Real surface) { return std::max(body, surface); }

}  // namespace pbd

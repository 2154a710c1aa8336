// A body's contact material and the rule that combines it with the surface's (a collider's or the ground's).
//
// Combination rule, applied per contact in the velocity pass:
//   friction    μ = sqrt(μ_body · μ_surface)   (geometric mean, Box2D's b2MixFriction)
//   restitution e = max(e_body, e_surface)     (Box2D's b2MixRestitution)
// Why these: the geometric mean gives a material on itself its own coefficient (μ on μ = μ), and anything on ice
// (μ = 0) slides, which an arithmetic mean would not; the product (Bullet) makes 0.5 on 0.5 a slippery 0.25. The max
// lets either side bounce: a rubber ball bounces on concrete, and a ball of clay dropped on a trampoline too.
// Defaults leave the surface in charge, bit for bit: friction kSurfaceFriction (-1) means "the surface's μ" (not
// sqrt(1·μ), which rounds), and restitution 0 gives max(0, e) = e exactly.
#pragma once

#include <algorithm>
#include <cmath>

#include "pbd/real.h"

namespace pbd {

/// ContactMaterial::friction's default: use the surface's coefficient unchanged.
inline constexpr Real kSurfaceFriction = -1;

/// How a body's particles rub and bounce against colliders and the ground (not against each other).
struct ContactMaterial {
  Real friction = kSurfaceFriction;  ///< Coulomb coefficient >= 0, finite, combined as sqrt(μ_body μ_surface);
                                     ///< kSurfaceFriction (-1) = the surface's μ alone (the default).
  Real restitution = 0;              ///< In [0, 1], combined as max(e_body, e_surface); 0 = the surface's e alone.
};

/// μ = sqrt(μ_body μ_surface), or μ_surface exactly when the body has kSurfaceFriction (any negative value).
inline Real mixFriction(Real body, Real surface) { return body < 0 ? surface : std::sqrt(body * surface); }

/// e = max(e_body, e_surface).
inline Real mixRestitution(Real body, Real surface) { return std::max(body, surface); }

}  // namespace pbd

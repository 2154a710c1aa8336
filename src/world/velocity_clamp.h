// The optional velocity clamp (SolverSettings::maxSpeed): a last guard against tunnelling through thin colliders.
#pragma once

#include <cstddef>

#include "pbd/real.h"

namespace pbd {

/// v_i *= limit / |v_i| where |v_i| > limit (direction kept), for particles i in [begin, end) of the xyz array v:
/// right before the prediction x + h v, free flight then covers at most limit·h per substep. Velocities at or below
/// the limit are not touched, so a limit that is never reached changes nothing, bit for bit. Per particle, so it
/// splits across threads with the same result.
void clampSpeedRange(Real* v, Real limit, size_t begin, size_t end);

}  // namespace pbd

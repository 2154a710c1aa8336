// The optional velocity clamp (SolverSettings::maxSpeed): its setter and its kernel (velocity_clamp.h).
#include <cmath>

#include "base/checks.h"
#include "world/velocity_clamp.h"
#include "world/world_state.h"

namespace pbd {

void World::setMaxSpeed(Real metresPerSecond) {
  check::atLeast("setMaxSpeed", "maxSpeed", metresPerSecond, 0);
  impl_->settings.maxSpeed = metresPerSecond;
}

void clampSpeedRange(Real* v, Real limit, size_t begin, size_t end) {
  for (size_t i = begin; i < end; ++i) {
    Real* vi = &v[3 * i];
    // In double: |v|² of a finite float velocity cannot overflow, so a huge speed keeps its direction.
    const double speed2 = double(vi[0]) * vi[0] + double(vi[1]) * vi[1] + double(vi[2]) * vi[2];
    if (!(speed2 > double(limit) * limit)) continue;  // NaN falls through untouched: the non-finite guard owns it
    const Real scale = Real(limit / std::sqrt(speed2));
    for (int a = 0; a < 3; ++a) vi[a] *= scale;
  }
}

}  // namespace pbd

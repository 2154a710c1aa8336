// World::Impl's records for callers: the step report, timings, residuals and the contact view.
#pragma once

#include <vector>

#include "pbd/world.h"
#include "world/step_clock.h"

namespace pbd {

/// What the world records about its steps for callers; nothing here steers the simulation.
struct Diagnostics {
  StepReport report;
  StepClock clock;  // World::setStepTimings: laps into `timings` when enabled
  StepTimings timings;
  std::vector<Real> contactView;  // World::contacts(): x,y,z, nx,ny,nz per contact, filled on demand
  bool recordResiduals = false;
  std::vector<Real> residuals;  // (max |r|, rms r) per projection pass of the last step
};

}  // namespace pbd

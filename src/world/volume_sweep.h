// Which ways the tet volumes' sweep goes (world/symmetric_sweep.h says why either is stable): forward only where
// every volume's tet has all six edges held by rigid distance constraints and the distances' pass is the coloured or
// the Jacobi one, else forward and back. After the serial Gauss-Seidel pass or HPBD's, one way left a block whose
// particles were scrambled tangled for good, where both ways untangle it
// (VolumeSweep.AScrambledBlockUntanglesUnderEveryGaussSeidelSolver). Derived from the constraints when they or their
// strengths change, on buffers reserved with them (no allocation in the step).
#pragma once

#include <cstddef>
#include <vector>

#include "constraints/distance.h"
#include "constraints/tet_volume.h"
#include "pbd/settings.h"
#include "schedule/particle_graph.h"
#include "world/symmetric_sweep.h"

namespace pbd {

class VolumeSweepChoice {
 public:
  /// Room for `particles` particles and `distances` distance constraints; none while there is no room for volumes.
  void reserve(size_t particles, size_t distances, size_t volumes) {
    if (volumes > 0) held_.reserve(particles, distances);
  }
  /// Re-derives the choice. A held edge is a bilateral distance constraint (min = max length) on the tet's two
  /// vertices that is rigid in the method: XPBD, compliance 0; PBD, stiffness 1, the volumes' stiffness 1 too (so
  /// that their k', corrected for two projections an iteration, is 1 whichever way they sweep).
  void refresh(const std::vector<DistanceConstraint>& distances, const std::vector<TetVolumeConstraint>& volumes,
               size_t particles);
  /// The sweep for this method after this solver's distances.
  ElementSweep sweep(bool xpbd, Solver solver) const {
    const bool oneWaySolver = solver == Solver::ColouredGaussSeidel || solver == Solver::Jacobi;
    const bool held = xpbd ? forwardUnderXpbd_ : forwardUnderPbd_;
    return oneWaySolver && held ? ElementSweep::Forward : ElementSweep::Symmetric;
  }

 private:
  ParticleGraph held_;  // the distance constraints rigid in one method, as pairs of particles (rebuilt per method)
  bool forwardUnderXpbd_ = false, forwardUnderPbd_ = false;
};

}  // namespace pbd

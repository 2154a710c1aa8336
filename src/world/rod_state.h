// World::Impl's Cosserat rods (pbd/bodies.h RodDef; constraints/cosserat_rod.h): the segments and the joints between
// neighbours, and their frames' state (structure of arrays, parallel to `segments`).
#pragma once

#include <cstdint>
#include <vector>

#include "constraints/cosserat_rod.h"
#include "solvers/rod_direct_solve.h"

namespace pbd {

struct RodState {
  std::vector<RodSegment> segments;          // in the order added; a rod's segments are consecutive
  std::vector<RodJoint> joints;              // in the order added
  std::vector<Quat> orientation;             // per segment: its frame q (segmentOrientations(): x, y, z, w)
  std::vector<Vec3> angularVelocity;         // per segment: ω, rad/s, world frame
  std::vector<Vec3> torque;                  // per segment: external torque, N m, world frame
  std::vector<Quat> startOrientation;        // per segment: q at the start of the substep, for ω after it
  std::vector<Quat> prevOrientation;         // per segment: BDF2's history, q and ω one substep back (valid with the
  std::vector<Vec3> prevAngularVelocity;     // particles' history, ParticleState::historyValid)
  std::vector<Quat> savedOrientation;        // per segment: q and ω at the start of the step, for the rollback
  std::vector<Vec3> savedAngularVelocity;
  std::vector<Vec3> stretchLambda;           // per segment: XPBD multipliers of the substep
  std::vector<Vec3> bendLambda;              // per joint
  RodSolveScratch scratch;                   // for every rod, each in its own part
  std::vector<uint32_t> starts;              // each rod's first segment, then segments.size() (findRods)

  bool empty() const { return segments.empty(); }
  /// Fills `starts` from the joints: a rod is a run of segments joined by joints. After every change of the segments
  /// (addRod, a snapshot's load, removeBody), within the capacity reserved for them.
  void findRods() {
    starts.clear();
    size_t j = 0;
    for (uint32_t k = 0; k < segments.size();) {
      starts.push_back(k);
      while (j < joints.size() && joints[j].segment == k) ++j, ++k;
      ++k;
    }
    starts.push_back(uint32_t(segments.size()));
  }
};

}  // namespace pbd

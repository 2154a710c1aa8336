// The contact broad phase's bounds of the particles: the axis-aligned box of each run of kBoxParticles consecutive
// particles, from the positions the contacts are generated at. The ground and collider scans look one by one only
// at the particles of the runs whose box is within reach; a body's particles are numbered along it (the builders'
// orders, localityOrder), so a run is a small patch of it and most runs are out of reach of most colliders.
#pragma once

#include <cstddef>
#include <cstdint>

#include "pbd/real.h"

namespace pbd {

/// Particles per box: 4 rows of a 64-wide cloth. Smaller runs skip more particles but cost more to bound (the
/// reduction of each run's lanes) (docs/performance.md, "Tuned constants").
inline constexpr uint32_t kBoxParticles = 256;

/// The bounds of a run of particles. A run with a NaN or infinite coordinate gets the infinite box, which every test
/// finds within reach, so that its particles are looked at one by one.
struct ParticleBox {
  Real lo[3];  ///< m, the smallest x, y and z of the run.
  Real hi[3];  ///< m, the largest.
};

/// The boxes of the runs that cover particles [begin, end) of `xyz` (3 floats per particle): boxes[b] for run b =
/// begin / kBoxParticles and on, the last cut short at `end`. `begin` is a multiple of kBoxParticles.
void boundParticles(const Real* xyz, size_t begin, size_t end, ParticleBox* boxes);

/// boxes[b] = run(first, last) for each run b of kBoxParticles particles [first, last) that covers [begin, end),
/// the last cut short at `end`: the loop of every pass that bounds as it goes. `begin` is a multiple of kBoxParticles.
template <class Run>
void forEachBoxRun(size_t begin, size_t end, ParticleBox* boxes, Run run) {
  for (size_t first = begin; first < end; first += kBoxParticles) {
    boxes[first / kBoxParticles] = run(first, first + kBoxParticles < end ? first + kBoxParticles : end);
  }
}

/// False only when every point of `box` is farther than `reach` from `centre`, so no particle of its run is within
/// reach. The nearest point of the box is computed as the particles' distances are, rounded the same way, so it is
/// never farther than any particle; a relative slack of 1e-5 covers a different order of the sum.
inline bool boxWithinReach(const ParticleBox& box, const Real centre[3], Real reach) {
  Real squared = 0;
  for (int a = 0; a < 3; ++a) {
    const Real c = centre[a], nearest = c < box.lo[a] ? box.lo[a] : (c > box.hi[a] ? box.hi[a] : c);
    squared += (nearest - c) * (nearest - c);
  }
  const Real slackReach = reach * Real(1.00001);
  return !(squared > slackReach * slackReach);
}

}  // namespace pbd

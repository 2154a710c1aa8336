#include "world/volume_sweep.h"

#include <algorithm>
#include <utility>

namespace pbd {

void VolumeSweepChoice::refresh(const std::vector<DistanceConstraint>& distances,
                                const std::vector<TetVolumeConstraint>& volumes, size_t particles) {
  forwardUnderXpbd_ = forwardUnderPbd_ = false;
  if (volumes.empty()) return;
  // Whether every tet's six edges are pairs of the graph of the constraints `rigid` admits.
  auto everyEdgeHeld = [&](auto rigid) {
    held_.build(
        uint32_t(particles), uint32_t(distances.size()),
        [&](uint32_t k) { return std::pair{distances[k].i, distances[k].j}; },
        [&](uint32_t k) { return distances[k].minLength == distances[k].maxLength && rigid(distances[k]); });
    for (const TetVolumeConstraint& t : volumes) {
      for (int a = 0; a < 4; ++a) {
        for (int b = a + 1; b < 4; ++b) {
          const auto around = held_.neighbours(t.p[a]);
          if (std::find(around.begin(), around.end(), t.p[b]) == around.end()) return false;
        }
      }
    }
    return true;
  };
  forwardUnderXpbd_ = everyEdgeHeld([](const DistanceConstraint& d) { return d.compliance == 0; });
  const bool stiffVolumes =
      std::all_of(volumes.begin(), volumes.end(), [](const TetVolumeConstraint& t) { return t.stiffness == 1; });
  forwardUnderPbd_ = stiffVolumes && everyEdgeHeld([](const DistanceConstraint& d) { return d.stiffness == 1; });
}

}  // namespace pbd

#include "world/volume_sweep.h"

namespace pbd {

void VolumeSweepChoice::reserve(size_t particles, size_t distances, size_t volumes) {
  if (volumes == 0) return;
  begin_.reserve(particles + 1);
  other_.reserve(2 * distances), rigid_.reserve(2 * distances);
}

void VolumeSweepChoice::refresh(const std::vector<DistanceConstraint>& distances,
                                const std::vector<TetVolumeConstraint>& volumes, size_t particles) {
  forwardUnderXpbd_ = forwardUnderPbd_ = false;
  if (volumes.empty()) return;
  auto rigidity = [](const DistanceConstraint& d) {
    if (d.minLength != d.maxLength) return uint8_t(0);
    return uint8_t((d.compliance == 0 ? kXpbd : 0) | (d.stiffness == 1 ? kPbd : 0));
  };
  // Counting sort of the bilateral constraints' ends by particle.
  begin_.assign(particles + 1, 0);
  for (const DistanceConstraint& d : distances) {
    if (!rigidity(d)) continue;
    ++begin_[d.i + 1], ++begin_[d.j + 1];
  }
  for (size_t i = 0; i < particles; ++i) begin_[i + 1] += begin_[i];
  other_.resize(begin_[particles]), rigid_.resize(begin_[particles]);
  for (const DistanceConstraint& d : distances) {
    const uint8_t r = rigidity(d);
    if (!r) continue;
    const uint32_t at = begin_[d.i]++, to = begin_[d.j]++;
    other_[at] = d.j, rigid_[at] = r;
    other_[to] = d.i, rigid_[to] = r;
  }
  for (size_t i = particles; i > 0; --i) begin_[i] = begin_[i - 1];  // the fill moved each start to the next
  begin_[0] = 0;
  // Each tet's six edges: held in a method when some constraint on it is rigid there.
  uint8_t held = kXpbd | kPbd;
  for (const TetVolumeConstraint& t : volumes) {
    if (t.stiffness != 1) held &= uint8_t(~kPbd);
    for (int a = 0; a < 4 && held; ++a) {
      for (int b = a + 1; b < 4 && held; ++b) {
        uint8_t edge = 0;
        for (uint32_t k = begin_[t.p[a]]; k < begin_[t.p[a] + 1]; ++k)
          if (other_[k] == t.p[b]) edge |= rigid_[k];
        held &= edge;
      }
    }
    if (!held) break;
  }
  forwardUnderXpbd_ = held & kXpbd, forwardUnderPbd_ = held & kPbd;
}

}  // namespace pbd

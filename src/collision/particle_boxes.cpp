#include "collision/particle_boxes.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "collision/run_bounds.h"
#include "math/wide_float.h"

namespace pbd {

ParticleBox RunBounds::finish(const Real* xyz, size_t tailBegin, size_t end) const {
  Real l[12], h[12];
  for (int k = 0; k < 3; ++k) lo_[k].store(l + 4 * k), hi_[k].store(h + 4 * k);
  ParticleBox box;
  bool allFinite = all((finite_[0] + finite_[1] + finite_[2]) == Float4::splat(0));
  for (int a = 0; a < 3; ++a) {
    // Coordinate a of particle q of four is float 3 q + a of the twelve.
    box.lo[a] = std::min({l[a], l[3 + a], l[6 + a], l[9 + a]});
    box.hi[a] = std::max({h[a], h[3 + a], h[6 + a], h[9 + a]});
    for (size_t k = tailBegin; k < end; ++k) {
      const Real c = xyz[3 * k + a];
      allFinite &= std::isfinite(c);
      box.lo[a] = std::min(box.lo[a], c), box.hi[a] = std::max(box.hi[a], c);
    }
  }
  constexpr Real kInf = std::numeric_limits<Real>::infinity();
  if (!allFinite) return {{-kInf, -kInf, -kInf}, {kInf, kInf, kInf}};
  return box;
}

namespace {

/// The box of particles [begin, end).
ParticleBox boundRun(const Real* xyz, size_t begin, size_t end) {
  RunBounds bounds;
  size_t i = begin;
  for (; i + 4 <= end; i += 4) {
    for (int k = 0; k < 3; ++k) bounds.add(k, Float4::load(xyz + 3 * i + 4 * k));
  }
  return bounds.finish(xyz, i, end);
}

}  // namespace

void boundParticles(const Real* xyz, size_t begin, size_t end, ParticleBox* boxes) {
  forEachBoxRun(begin, end, boxes, [xyz](size_t first, size_t last) { return boundRun(xyz, first, last); });
}

}  // namespace pbd

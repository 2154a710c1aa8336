#include "collision/particle_boxes.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "math/wide_float.h"

namespace pbd {

namespace {

constexpr Real kInf = std::numeric_limits<Real>::infinity();

/// The box of particles [begin, end). Four particles are three vectors, x y z x | y z x y | z x y z, always the same
/// pattern: so the lane-by-lane minima and maxima of the three vectors over the run hold each coordinate's bound in
/// fixed lanes, found at the end. x - x is 0 for a finite x and NaN otherwise, so their sum says whether all were.
ParticleBox boundRun(const Real* xyz, size_t begin, size_t end) {
  const Float4 inf = Float4::splat(kInf), zero = Float4::splat(0);
  // One finiteness sum per vector: three independent chains of adds instead of one three times as long.
  Float4 lo[3] = {inf, inf, inf}, hi[3] = {-inf, -inf, -inf}, finite[3] = {zero, zero, zero};
  size_t i = begin;
  for (; i + 4 <= end; i += 4) {
    for (int k = 0; k < 3; ++k) {
      const Float4 v = Float4::load(xyz + 3 * i + 4 * k);
      lo[k] = pmin(lo[k], v), hi[k] = pmax(hi[k], v), finite[k] = finite[k] + (v - v);
    }
  }
  Real l[12], h[12];
  for (int k = 0; k < 3; ++k) lo[k].store(l + 4 * k), hi[k].store(h + 4 * k);
  ParticleBox box;
  bool allFinite = all((finite[0] + finite[1] + finite[2]) == zero);
  for (int a = 0; a < 3; ++a) {
    // Coordinate a of particle q of four is float 3 q + a of the twelve.
    box.lo[a] = std::min({l[a], l[3 + a], l[6 + a], l[9 + a]});
    box.hi[a] = std::max({h[a], h[3 + a], h[6 + a], h[9 + a]});
    for (size_t k = i; k < end; ++k) {
      const Real c = xyz[3 * k + a];
      allFinite &= std::isfinite(c);
      box.lo[a] = std::min(box.lo[a], c), box.hi[a] = std::max(box.hi[a], c);
    }
  }
  if (!allFinite) return {{-kInf, -kInf, -kInf}, {kInf, kInf, kInf}};
  return box;
}

}  // namespace

void boundParticles(const Real* xyz, size_t begin, size_t end, ParticleBox* boxes) {
  for (size_t first = begin; first < end; first += kBoxParticles) {
    boxes[first / kBoxParticles] = boundRun(xyz, first, std::min(end, first + kBoxParticles));
  }
}

}  // namespace pbd

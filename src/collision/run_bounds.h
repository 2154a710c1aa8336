// The accumulation of a run's box (collision/particle_boxes.h) four particles at a time, for the passes that bound
// the particles as they write them. Apart from particle_boxes.h so that only they pull in the vector wrapper.
#pragma once

#include <cstddef>
#include <limits>

#include "collision/particle_boxes.h"
#include "math/wide_float.h"
#include "pbd/real.h"

namespace pbd {

/// The box of a run of particles, accumulated four particles at a time. Four particles are three vectors,
/// x y z x | y z x y | z x y z, always the same pattern: so the lane-by-lane minima and maxima of vector k of every
/// four hold each coordinate's bound in fixed lanes, found at the end. x - x is 0 for a finite x and NaN otherwise,
/// so their sum says whether all were.
class RunBounds {
 public:
  /// Vector k (0, 1, 2) of the next four particles.
  void add(int k, Float4 v) { lo_[k] = pmin(lo_[k], v), hi_[k] = pmax(hi_[k], v), finite_[k] = finite_[k] + (v - v); }

  /// The run's box, with the particles [tailBegin, end) of `xyz` that did not make a four: the infinite box if any
  /// coordinate was not finite.
  ParticleBox finish(const Real* xyz, size_t tailBegin, size_t end) const;

 private:
  static constexpr Real kInf = std::numeric_limits<Real>::infinity();
  Float4 lo_[3] = {Float4::splat(kInf), Float4::splat(kInf), Float4::splat(kInf)};
  Float4 hi_[3] = {Float4::splat(-kInf), Float4::splat(-kInf), Float4::splat(-kInf)};
  // One finiteness sum per vector: three independent chains of adds instead of one three times as long.
  Float4 finite_[3] = {Float4::splat(0), Float4::splat(0), Float4::splat(0)};
};

}  // namespace pbd

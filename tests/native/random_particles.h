// Random particle clouds for the pair-search tests (spatial hash, neighbour list): positions and a "rest shape" near
// them, reproducible from a seed.
#pragma once

#include <cstdint>
#include <random>
#include <vector>

#include "pbd/real.h"

namespace pbd::test {

struct RandomParticles {
  std::vector<Real> xyz;   ///< m, 3 per particle: uniform in [-spread, spread]³.
  std::vector<Real> rest;  ///< m, 3 per particle: xyz plus a uniform offset in [-restOffset, restOffset]³.
};

/// n particles from the seed; `rng` is left where the draws ended, for callers that draw more (velocities).
inline RandomParticles randomParticles(std::mt19937& rng, uint32_t n, Real spread, Real restOffset) {
  std::uniform_real_distribution<Real> unit(-1, 1);
  RandomParticles r{std::vector<Real>(3 * size_t(n)), std::vector<Real>(3 * size_t(n))};
  for (Real& c : r.xyz) c = spread * unit(rng);
  for (size_t k = 0; k < r.rest.size(); ++k) r.rest[k] = r.xyz[k] + restOffset * unit(rng);
  return r;
}

/// A vector uniform in [-scale, scale]³.
inline Vec3 randomVec(std::mt19937& rng, Real scale) {
  std::uniform_real_distribution<Real> u(-scale, scale);
  return Vec3(u(rng), u(rng), u(rng));
}

}  // namespace pbd::test

// Particle-particle collision (Ten Minute Physics' self-collision, Müller): pairs found on the predicted positions
// with a spatial hash, each kept its distance apart by a unilateral constraint C = |p_i - p_j| - distance >= 0:
// 2r, or less for two particles of one body that start close (selfCollisionDistance).
#include <algorithm>
#include <cmath>
#include <limits>

#include "constraints/distance.h"
#include "world/world_state.h"

namespace pbd {

// Only a world with particle self-collision on needs the room (about 260 bytes a particle), so it is reserved when
// that is switched on or particles are added to a world that has it on.
void World::Impl::reserveSelfCollision(size_t particles) {
  selfCollisionNeighbours.reserve(particles, kSelfCollisionNeighboursPerParticle * particles);
  selfCollisionPairs.reserve(kSelfCollisionPairsPerParticle * particles);
  selfCollisionBody.reserve(particles);
}

namespace {

/// The neighbour list's skin, as a fraction of the diameter: a wider one searches less often, but each search and
/// each filtering costs more (the reach's volume grows as its cube). Half: gallery:drape's pair search, 6-10 s in,
/// went from 3.7-4.5 to 2.0-2.9 ms per frame in wasm (interleaved runs of node bench/gallery-stages.mjs drape single),
/// and the native 12-cube stack (SoftCubeStackStep) from 11.7-12.0 to 7.4-8.4 ms.
constexpr Real kSkinFraction = Real(0.5);

/// A search with the skin costs about (1 + kSkinFraction)³ = 3.4 searches without one (the hash's cells and the
/// query's reach grow with it): a list that lasts fewer substeps than this does not pay for its search.
constexpr uint32_t kSubstepsASkinMustLast = 4;

/// Substeps without a skin once one did not pay (or its list did not fit the room), before the next try. A body
/// whose particles lie closer together than the reach (gallery:stack's bunny) keeps a great many pairs in such a
/// list for good, so it fills the room, and a wobble of a few millimetres makes the list stale again.
constexpr uint32_t kSubstepsWithoutSkin = 64;

/// Two particles of one body that start d0 < 2 × 2r apart collide at d0 × this instead of at 2r: their body holds
/// them near d0, and a collision at 2r would fight its compression wherever d0 is only a little over 2r. That fight
/// had no solution, so the solver cycled: gallery:stack's resting bunny (surface vertices 9 mm to 86 mm apart, 2r =
/// 24 mm) kept particles swinging 2 cm per substep at 4 m/s while the frames showed them still, and its
/// neighbour list, always stale, was searched every substep. Half: continuous with 2r at d0 = 2 × 2r, so no pair
/// jumps as the rest distance crosses a threshold (below 2r the pairs stay out, as ParticleNeighbours leaves them).
constexpr Real kSameBodyDistanceFraction = Real(0.5);

}  // namespace

// Bodies from selfCollisionBody, filled for the search that made the list the pairs come from (a body added changes
// the particle count, which makes the list stale, so the array is current whenever the list is).
Real World::Impl::selfCollisionDistance(uint32_t i, uint32_t j, Real diameter) const {
  if (selfCollisionBody[i] != selfCollisionBody[j]) return diameter;
  const Real startedAt = std::sqrt(squaredDistance(&restX[3 * size_t(i)], &restX[3 * size_t(j)]));
  return std::min(diameter, kSameBodyDistanceFraction * startedAt);
}

// The candidates (collision/particle_neighbours.h) are searched again only when a particle has moved far enough
// since the last search to have come within 2r of one that was not listed; otherwise the list is filtered. Where a
// list with a skin does not pay, the search lists the pairs within 2r only (so every substep searches, as without a
// list) for kSubstepsWithoutSkin substeps. Either way the pairs come in the list's sorted order, so neither the
// timing of a search nor its skin shows in the result.
void World::Impl::findSelfCollisionPairs() {
  selfCollisionPairs.clear();
  if (!settings.selfCollision.enabled || count() < 2) return;
  const Real diameter = 2 * settings.selfCollision.radius;
  auto keep = [&](uint32_t i, uint32_t j) {
    if (w[i] == 0 && w[j] == 0) return;
    const Real distance = selfCollisionDistance(i, j, diameter);
    if (!(squaredDistance(&p[3 * size_t(i)], &p[3 * size_t(j)]) < distance * distance)) return;
    if (selfCollisionPairs.size() < selfCollisionPairs.capacity()) selfCollisionPairs.push_back({i, j, distance});
    else ++report.droppedSelfCollisionPairs;
  };
  if (selfCollisionListAge < kSubstepsASkinMustLast) ++selfCollisionListAge;
  if (selfCollisionNeighbours.stale(p.data(), count(), diameter)) {
    selfCollisionBody.resize(count());  // within the reserved room
    for (uint32_t b = 0; b < bodies.size(); ++b) {
      std::fill(selfCollisionBody.begin() + bodies[b].begin, selfCollisionBody.begin() + bodies[b].end, b);
    }
    auto search = [&](Real skin, auto overflow) {
      ++report.selfCollisionSearches;
      if (skin == 0) ++report.selfCollisionSearchesWithoutSkin;
      return selfCollisionNeighbours.search(p.data(), restX.data(), count(), diameter, skin, overflow,
                                            selfCollisionBody.data());
    };
    if (selfCollisionSkinPause == 0 && selfCollisionListAge < kSubstepsASkinMustLast) {
      selfCollisionSkinPause = kSubstepsWithoutSkin;  // the last list with a skin went stale too soon
    }
    bool listed = false;
    if (selfCollisionSkinPause == 0) {
      listed = search(kSkinFraction * diameter, [](uint32_t, uint32_t) {});
      selfCollisionListAge = 0;
      if (!listed) selfCollisionSkinPause = kSubstepsWithoutSkin;
    } else {
      --selfCollisionSkinPause;
      selfCollisionListAge = kSubstepsASkinMustLast;  // the next list with a skin gets its chance
    }
    if (!listed) {
      // A pair that does not fit even the list of pairs within 2r is kept straight away, if there is room.
      search(0, [&](uint32_t i, uint32_t j) {
        if (squaredDistance(&p[3 * size_t(i)], &p[3 * size_t(j)]) < diameter * diameter) keep(i, j);
      });
    }
  }
  selfCollisionNeighbours.forEachWithin(p.data(), diameter, keep);
}

void World::Impl::projectSelfCollisions() {
  if (selfCollisionPairs.empty()) return;
  const Real noMaximum = std::numeric_limits<Real>::max();
  Vec3* P = reinterpret_cast<Vec3*>(p.data());
  for (const auto& [i, j, distance] : selfCollisionPairs) {
    projectDistance(P[i], P[j], w[i], w[j], distance, noMaximum, true, 1, 0, 0);
  }
}

}  // namespace pbd

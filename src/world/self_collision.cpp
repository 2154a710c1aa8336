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
  selfCollision.selfCollisionNeighbours.reserve(particles, kSelfCollisionNeighboursPerParticle * particles);
  selfCollision.selfCollisionPairs.reserve(kSelfCollisionPairsPerParticle * particles);
  selfCollision.selfCollisionBody.reserve(particles);
}

namespace {

/// Two particles of one body that start d0 < 2 × 2r apart collide at d0 × this instead of at 2r: their body holds
/// them near d0, and a collision at 2r would fight its compression wherever d0 is only a little over 2r. That fight
/// had no solution, so the solver cycled: gallery:stack's resting bunny (surface vertices 9 mm to 86 mm apart, 2r =
/// 24 mm) kept particles swinging 2 cm per substep at 4 m/s while the frames showed them still, and its
/// neighbour list, always stale, was searched every substep. Half: continuous with 2r at d0 = 2 × 2r, so no pair
/// jumps as the rest distance crosses a threshold (below 2r the pairs stay out, as ParticleNeighbours leaves them).
constexpr Real kSameBodyDistanceFraction = Real(0.5);

/// Pairs are kept up to this fraction of the diameter beyond their collision distance (a speculative margin): the
/// pairs are found on the predicted positions, before the solve, and other constraints can pull two particles
/// together during it. Without the margin such a pair was not kept, ended the substep inside its distance, was kept
/// and pushed out in the next, and so on: a period-2 cycle. gallery:stack's bunny particle under a heavy cube's corner
/// (1.9 g against 237 g) swung so at 2 m/s for good and drove the whole bunny across the floor. The projection is
/// unilateral, so a kept pair that stays apart costs a distance test. The margin widens the neighbour list's reach
/// too, so its searches cost more. With updateSelfCollisionVelocities, gallery:stack comes to rest at 0.05 and at
/// 0.1 (no search at all after 8 s; at 0, ten per frame for good); a tenth, about the 2.6 mm that the cube's corner
/// pressed into the bunny (24 mm diameter), for about a fifth more search time while the bodies fall and 1-2 % more
/// frame time in gallery:drape.
constexpr Real kSpeculativeFraction = Real(0.1);

}  // namespace

// Bodies from selfCollisionBody, filled for the search that made the list the pairs come from (a body added changes
// the particle count, which makes the list stale, so the array is current whenever the list is).
Real World::Impl::selfCollisionDistance(uint32_t i, uint32_t j, Real diameter) const {
  if (selfCollision.selfCollisionBody[i] != selfCollision.selfCollisionBody[j]) return diameter;
  const Real startedAt = std::sqrt(squaredDistance(&particles.restX[3 * size_t(i)], &particles.restX[3 * size_t(j)]));
  return std::min(diameter, kSameBodyDistanceFraction * startedAt);
}

// The candidates (collision/particle_neighbours.h) are searched again only when a particle has moved far enough
// since the last search to have come within 2r of one that was not listed; otherwise the list is filtered. Where a
// list with a skin does not pay, the search lists the pairs within 2r only (so every substep searches, as without a
// list) while no skin pays; which skin, or none, is the SkinChoice's (world/skin_choice.h), from the work the
// searches did on the scene itself. Either way the pairs come in the list's sorted order, so neither the timing of a
// search nor its skin shows in the result.
void World::Impl::findSelfCollisionPairs() {
  selfCollision.selfCollisionPairs.clear();
  if (!settings.selfCollision.enabled || count() < 2) return;
  const Real diameter = 2 * settings.selfCollision.radius;
  const Real margin = kSpeculativeFraction * diameter, reach = diameter + margin;
  auto keep = [&](uint32_t i, uint32_t j) {
    if (particles.w[i] == 0 && particles.w[j] == 0) return;
    const Real distance = selfCollisionDistance(i, j, diameter);
    const Real keptWithin = distance + margin;
    if (!(squaredDistance(&particles.p[3 * size_t(i)], &particles.p[3 * size_t(j)]) < keptWithin * keptWithin)) return;
    if (selfCollision.selfCollisionPairs.size() < selfCollision.selfCollisionPairs.capacity())
      selfCollision.selfCollisionPairs.push_back({i, j, distance});
    else
      ++diagnostics.report.droppedSelfCollisionPairs;
  };
  SkinChoice& skinChoice = selfCollision.skinChoice;
  skinChoice.substepPassed();
  ParticleNeighbours& neighbours = selfCollision.selfCollisionNeighbours;
  if (neighbours.stale(particles.p.data(), count(), reach)) {
    selfCollision.selfCollisionBody.resize(count());  // within the reserved room
    for (uint32_t b = 0; b < particles.bodies.size(); ++b) {
      std::fill(selfCollision.selfCollisionBody.begin() + particles.bodies[b].begin,
                selfCollision.selfCollisionBody.begin() + particles.bodies[b].end, b);
    }
    auto search = [&](Real skin, auto overflow) {
      ++diagnostics.report.selfCollisionSearches;
      if (skin == 0) ++diagnostics.report.selfCollisionSearchesWithoutSkin;
      return neighbours.search(particles.p.data(), particles.restX.data(), count(), reach, diameter, skin, overflow,
                               selfCollision.selfCollisionBody.data(), tasks);
    };
    const Real skinFraction = skinChoice.nextSkinFraction();
    bool listed = false;
    if (skinFraction > 0) {
      listed = search(skinFraction * diameter, [](uint32_t, uint32_t) {});
      skinChoice.searchedWithSkin(count(), neighbours.searchVisits(), neighbours.size(), listed);
    }
    if (!listed) {
      // A pair that does not fit even the list of pairs within the reach is kept straight away, if there is room.
      search(0, [&](uint32_t i, uint32_t j) {
        if (squaredDistance(&particles.p[3 * size_t(i)], &particles.p[3 * size_t(j)]) < reach * reach) keep(i, j);
      });
      skinChoice.searchedWithoutSkin(count(), neighbours.searchVisits(), neighbours.size());
    }
  }
  neighbours.forEachWithin(particles.p.data(), reach, keep);
}

void World::Impl::projectSelfCollisions() {
  if (selfCollision.selfCollisionPairs.empty()) return;
  const Real noMaximum = std::numeric_limits<Real>::max();
  Vec3* P = reinterpret_cast<Vec3*>(particles.p.data());
  for (SelfCollisionPair& pair : selfCollision.selfCollisionPairs) {
    const uint32_t i = pair.i, j = pair.j;
    if (projectDistance(P[i], P[j], particles.w[i], particles.w[j], pair.distance, noMaximum, true, 1, 0, 0) != 0)
      pair.pushed = true;
  }
}

/// A pair the projection pushed apart was overlapping: the push is a position correction, and v = (p - x)/h turns it
/// into a separating speed of overlap/h that nothing physical gave the pair. So after the commit the pair's relative
/// velocity along its normal is taken out, as the velocity pass of XPBD contacts does with restitution 0 (Müller et
/// al. 2020, "Detailed Rigid Body Simulation with Extended Position Based Dynamics", eq. 34): Δv_i = -w_i/(w_i + w_j)
/// v_n n, Δv_j = +w_j/(w_i + w_j) v_n n, with n = (x_i - x_j)/|x_i - x_j| and v_n = (v_i - v_j)·n. Equal and opposite
/// impulses along the line between the particles: linear and angular momentum are kept, and energy only drops.
/// Without it a light particle that its body pulls into a heavy one was launched out at every push, came back, and
/// was pushed again (gallery:stack's bunny under a cube's corner, at 2 m/s for good).
void World::Impl::updateSelfCollisionVelocities() {
  for (const SelfCollisionPair& pair : selfCollision.selfCollisionPairs) {
    if (!pair.pushed) continue;
    const uint32_t i = pair.i, j = pair.j;
    const Real wSum = particles.w[i] + particles.w[j];
    Real* vi = &particles.v[3 * size_t(i)];
    Real* vj = &particles.v[3 * size_t(j)];
    // Written out in a fixed order (not Eigen's norm and dot, whose SIMD reductions order the sums per target):
    // native and wasm must compute the same bits.
    const Real dx = particles.x[3 * size_t(i)] - particles.x[3 * size_t(j)],
               dy = particles.x[3 * size_t(i) + 1] - particles.x[3 * size_t(j) + 1],
               dz = particles.x[3 * size_t(i) + 2] - particles.x[3 * size_t(j) + 2];
    const Real d = std::sqrt((dx * dx + dy * dy) + dz * dz);
    if (!(d > Real(1e-9)) || !(wSum > 0)) continue;
    const Real n[3] = {dx / d, dy / d, dz / d};
    const Real vn = ((vi[0] - vj[0]) * n[0] + (vi[1] - vj[1]) * n[1]) + (vi[2] - vj[2]) * n[2];
    const Real share = vn / wSum;
    for (int a = 0; a < 3; ++a) {
      vi[a] -= (particles.w[i] * share) * n[a];
      vj[a] += (particles.w[j] * share) * n[a];
    }
  }
}

}  // namespace pbd

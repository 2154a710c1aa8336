// World::Impl's self-collision: particle pairs (discrete) and the continuous cloth self-contacts of each surface.
#pragma once

#include <cstdint>
#include <vector>

#include "collision/particle_neighbours.h"
#include "constraints/self_contact.h"
#include "pbd/world.h"
#include "world/cloth_self_collision.h"
#include "world/skin_choice.h"

namespace pbd {

/// Self-collision pairs reserved per particle; a denser pile keeps the first ones found (step() never allocates).
inline constexpr size_t kSelfCollisionPairsPerParticle = 8;
/// Particle self-collision's candidate pairs reserved per particle (ParticleNeighbours: the pairs within its reach).
inline constexpr size_t kSelfCollisionNeighboursPerParticle = 16;
/// One particle self-collision pair of a substep: C = |p_i - p_j| - distance >= 0.
struct SelfCollisionPair {
  uint32_t i, j;        ///< Particles, i < j.
  Real distance;        ///< m: 2 radius, or less for two particles of one body that start close (self_collision.cpp).
  bool pushed = false;  ///< The projection moved the pair apart in some iteration of this substep.
};

/// Both self-collision stages' state; capacities reserved when bodies are added, so step() never allocates.
struct SelfCollisionState {
  ParticleNeighbours selfCollisionNeighbours;  // particle self-collision's candidates, searched when stale
  SkinChoice skinChoice;                       // which skin the candidates are searched with, or none
  std::vector<uint32_t> selfCollisionBody;     // each particle's body, for the search: rest shapes compare within one
  std::vector<SelfCollisionPair> selfCollisionPairs;  // this substep's: the pairs closer than their distance
  std::vector<SelfCollidingSurface> selfSurfaces;     // continuous self-collision: one per cloth/mesh body, by body
  std::vector<SelfContact> selfContacts;              // this substep's; capacity reserved, so step() never allocates
  std::vector<SelfContactCandidate> selfCandidates;   // the broad phase's batch (capacity kSelfCandidateBlock)
  std::vector<SelfContact> selfCandidateContacts;     // the narrow phase's result per candidate (same size) ...
  std::vector<uint8_t> selfCandidateHit;              // ... and whether it is a contact
  bool selfFrozeThisSubstep = false;                  // the failsafe froze a particle this substep
};

}  // namespace pbd

// World::Impl's self-collision: particle pairs (discrete) and the continuous cloth self-contacts of each surface.
#pragma once

#include <cstdint>
#include <vector>

#include "collision/particle_neighbours.h"
#include "constraints/self_contact.h"
#include "pbd/world.h"
#include "world/cloth_self_collision.h"

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

/// The skins the neighbour list chooses from (self_collision.cpp, kSkinFractions).
inline constexpr uint32_t kSkinRungs = 3;

/// The work of the neighbour list's searches with and without a skin, for the choice between them: counted in
/// candidate visits (ParticleNeighbours::searchVisits) and listed pairs, so the same on every run.
struct SkinLists {
  uint32_t rung = 0;               // the skin of the lists being measured (kSkinFractions)
  uint64_t lastSearchVisits = 0;   // ParticleNeighbours::searchVisits of the last search with a skin
  uint64_t lastListed = 0;         // and the pairs it listed, which each substep it serves filters
  uint32_t judged = 0;             // lists with this skin that went stale since the last judgement
  uint64_t substeps = 0;           // the substeps they served
  uint64_t work = 0;               // their searches' and filterings' work
  double costPerSubstep[kSkinRungs] = {};  // each skin's measured work per substep served
  uint32_t measuredAt[kSkinRungs] = {};    // the judgement that measured it (0: never)
  uint32_t judgements = 0;                 // judgements so far
  double plainCostPerSubstep = 0;  // a search without a skin and its filtering (0: none yet)
};

/// Both self-collision stages' state; capacities reserved when bodies are added, so step() never allocates.
struct SelfCollisionState {
  ParticleNeighbours selfCollisionNeighbours;  // particle self-collision's candidates, searched when stale
  uint32_t selfCollisionSkinPause = 0;         // stale substeps left that search without a skin (self_collision.cpp)
  uint32_t selfCollisionListAge = UINT32_MAX;  // substeps since the last search with a skin (UINT32_MAX: none yet)
  SkinLists skinLists;                          // whether lists with a skin pay (self_collision.cpp)
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

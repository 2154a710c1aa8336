// Which skin particle self-collision's neighbour list is searched with (collision/particle_neighbours.h), or none:
// chosen by the work the searches do on the scene itself, counted (candidate visits and listed pairs), not timed, so
// the same on every run. The pairs a substep uses do not depend on it (the list yields them sorted), only its cost.
#pragma once

#include <cstdint>

#include "pbd/real.h"

namespace pbd {

class SkinChoice {
 public:
  /// Once a substep, before any search.
  void substepPassed() {
    if (age_ < kNoList) ++age_;
  }
  /// When the list went stale: the skin to search the next one with, as a fraction of the diameter; 0 = search
  /// without one (every substep, while the choice says so). Books the list that went stale and, every
  /// kSkinListsJudged such lists, judges their skin.
  Real nextSkinFraction();
  /// After a search with the skin nextSkinFraction() gave: its work (n particles, `visits` candidates handed over,
  /// ParticleNeighbours::searchVisits), the pairs it listed, and whether they fitted the room.
  void searchedWithSkin(uint32_t n, uint64_t visits, uint64_t listed, bool fitted);
  /// After a search without a skin: the same counts.
  void searchedWithoutSkin(uint32_t n, uint64_t visits, uint64_t listed);

  static constexpr uint32_t kSkins = 3;

 private:
  static constexpr uint32_t kNoList = UINT32_MAX;
  bool judge();
  void startBatch() { judged_ = 0, substeps_ = 0, work_ = 0; }

  uint32_t pause_ = 0;          // stale substeps left that search without a skin
  uint32_t age_ = kNoList;      // substeps since the last search with a skin (kNoList: none since the last pause)
  uint32_t skin_ = 0;           // the skin of the lists being measured (kSkinFractions)
  uint64_t lastWork_ = 0;       // the last search with a skin: its work
  uint64_t lastListed_ = 0;     // and the pairs it listed, which each substep it serves filters
  uint32_t judged_ = 0;         // lists with this skin that went stale since the last judgement
  uint64_t substeps_ = 0;       // the substeps they served
  uint64_t work_ = 0;           // their searches' and filterings' work
  double costPerSubstep_[kSkins] = {};  // each skin's measured work per substep served
  uint32_t measuredAt_[kSkins] = {};    // the judgement that measured it (0: never)
  uint32_t judgements_ = 0;             // judgements so far
  double plainCostPerSubstep_ = 0;      // a search without a skin and its filtering (0: none yet)
};

}  // namespace pbd

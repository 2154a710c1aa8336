#include "world/skin_choice.h"

#include <limits>

namespace pbd {

namespace {

/// The neighbour list's skins, as fractions of the diameter: a wider one searches less often, but each search and
/// each filtering costs more (the reach's volume grows as its cube for a solid, its square for a cloth). The choice
/// starts at the first and moves along them by the cost it measures (docs/performance.md, "Tuned constants").
constexpr Real kSkinFractions[SkinChoice::kSkins] = {Real(0.5), Real(1), Real(2)};

/// A skin's measured cost is forgotten this many judgements after it was measured, so that it is measured again as
/// the scene changes (a cloth's flaps swinging, then resting).
constexpr uint32_t kSkinCostLifetime = 4;

/// Until a search without a skin has been measured, lists with one must outlast this many substeps each to pay for
/// their searches (a volumetric body's at the first skin: the reach's volume grows as its cube, 1.5³ = 3.4 searches);
/// and only lists that go stale sooner try a wider skin.
constexpr uint32_t kSubstepsASkinMustLast = 4;

/// Lists with a skin are judged together, this many at a time: one that went stale at once says little (a cloth's
/// lists last one substep or several as its flaps swing).
constexpr uint32_t kSkinListsJudged = 4;

/// A search's fixed work per particle (building the hash, a query's buckets, sorting its pairs) in candidate visits:
/// a cloth's search with the skin visits 1.4 times the candidates of one without, but took about as long
/// (gallery:drape natively).
constexpr uint64_t kSearchVisitsPerParticle = 8;

/// Substeps without a skin once none pays (or a list did not fit the room), before the next try. A body whose
/// particles lie closer together than the reach (gallery:stack's bunny) keeps a great many pairs in such a list for
/// good, so it fills the room, and a wobble of a few millimetres makes the list stale again.
constexpr uint32_t kSubstepsWithoutSkin = 64;

uint64_t searchWork(uint32_t n, uint64_t visits) { return kSearchVisitsPerParticle * n + visits; }

}  // namespace

// The lists with a skin paid if they outlasted as many searches without one as their own searches cost, with the
// filtering of each list every substep it serves: a cloth's (whose reach grows as its square, and whose neighbours
// at rest stay out of it) in a substep or two.
Real SkinChoice::nextSkinFraction() {
  if (pause_ == 0 && age_ != kNoList) {
    substeps_ += age_, work_ += lastWork_ + uint64_t(age_) * lastListed_;
    if (++judged_ == kSkinListsJudged && !judge()) pause_ = kSubstepsWithoutSkin;
  }
  if (pause_ > 0) {
    --pause_;
    age_ = kNoList;  // the next list with a skin gets its chance
    return 0;
  }
  return kSkinFractions[skin_];
}

void SkinChoice::searchedWithSkin(uint32_t n, uint64_t visits, uint64_t listed, bool fitted) {
  lastWork_ = searchWork(n, visits), lastListed_ = listed;
  age_ = 0;
  if (fitted) return;
  // This skin is off until its cost is forgotten, and a narrower one comes next.
  pause_ = kSubstepsWithoutSkin;
  costPerSubstep_[skin_] = std::numeric_limits<double>::infinity();
  measuredAt_[skin_] = ++judgements_;
  if (skin_ > 0) --skin_;
  startBatch();
}

void SkinChoice::searchedWithoutSkin(uint32_t n, uint64_t visits, uint64_t listed) {
  plainCostPerSubstep_ = double(searchWork(n, visits) + listed);
}

// The judged skin's cost per substep served, and the skin for the next lists: the cheapest measured of it and its
// neighbours, or the wider one while that is untried and this one's lists went stale within kSubstepsASkinMustLast
// substeps at no more than twice the cost of a search every substep. Returns whether that skin pays.
bool SkinChoice::judge() {
  const uint32_t r = skin_;
  const double averageLife = double(substeps_) / kSkinListsJudged;
  costPerSubstep_[r] = double(work_) / double(substeps_);
  measuredAt_[r] = ++judgements_;
  startBatch();
  const double plain = plainCostPerSubstep_;
  if (plain == 0) return averageLife >= kSubstepsASkinMustLast;  // no search without a skin measured yet
  auto known = [&](uint32_t k) { return measuredAt_[k] > 0 && judgements_ - measuredAt_[k] < kSkinCostLifetime; };
  uint32_t best = r;
  for (uint32_t k = r > 0 ? r - 1 : 0; k < kSkins && k <= r + 1; ++k)
    if (known(k) && costPerSubstep_[k] < costPerSubstep_[best]) best = k;
  if (best == r && r + 1 < kSkins && !known(r + 1) && averageLife < kSubstepsASkinMustLast &&
      costPerSubstep_[r] <= 2 * plain) {
    skin_ = r + 1;
    return true;
  }
  skin_ = best;
  return costPerSubstep_[best] <= plain;
}

}  // namespace pbd

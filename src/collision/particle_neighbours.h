// Particle self-collision's neighbour list (Verlet 1967; the "skin" of molecular-dynamics codes). The pairs within
// reach = diameter + skin, searched with the spatial hash, hold every pair within the diameter until some particle
// has moved skin/2 from where the search saw it: two particles can then have closed in by at most the skin. The
// substeps in between only filter the list by distance. A resting pile or a draped cloth moves far less than that,
// so it searches rarely; a falling one searches every substep, at the cost of a wider reach. A search with no skin
// lists exactly the pairs within the diameter: the caller's choice where a list with a skin would not fit (a soft
// body whose particles are closer than the reach holds all of those pairs in its list for good).
//
// The list is kept sorted (by i, then j, i < j), so the pairs it yields do not depend on when it was searched: a
// world restored from a snapshot, which searches afresh, continues bit-identically with one that kept its list.
#pragma once

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "collision/spatial_hash.h"
#include "pbd/real.h"

namespace pbd {

/// |a − b|² of two xyz triples, always evaluated in this order: the search, the filter and the staleness test must
/// agree to the last bit on which side of a limit a pair lies.
inline Real squaredDistance(const Real* a, const Real* b) {
  const Real dx = a[0] - b[0], dy = a[1] - b[1], dz = a[2] - b[2];
  return dx * dx + dy * dy + dz * dz;
}

class ParticleNeighbours {
 public:
  /// The stale() limit on a particle's move, as a fraction of skin/2: the rest is slack for the rounding of the
  /// float distances (exact to within an ulp of the coordinates, far below a tenth of any usable skin).
  static constexpr Real kMoveSlack = Real(0.8);

  /// Room for `particles` particles and `pairs` listed pairs (may throw); search() and the rest never allocate.
  void reserve(size_t particles, size_t pairs) {
    hash_.reserve(particles);
    pairs_.reserve(pairs);
    searchedAt_.reserve(3 * particles);
  }

  /// Whether the list may miss a pair within `diameter` of the n positions xyz: it was never searched (or the last
  /// search overflowed), was searched for another diameter or particle count, or a particle has moved more than
  /// kMoveSlack × skin/2 since (a non-finite position counts as moved; with no skin, any move).
  bool stale(const Real* xyz, uint32_t n, Real diameter) const {
    if (!complete_ || diameter != diameter_ || searchedAt_.size() != 3 * size_t(n)) return true;
    const Real limit = kMoveSlack * Real(0.5) * skin_;
    const Real limit2 = limit * limit;
    for (size_t k = 0; k < 3 * size_t(n); k += 3) {
      if (!(squaredDistance(xyz + k, &searchedAt_[k]) <= limit2)) return true;
    }
    return false;
  }

  /// Searches the pairs (i < j) of the n positions xyz within diameter + skin (>= 0) of each other, leaving out
  /// those of one body closer than `restApart` in `rest` (neighbours in the rest shape, held by their body's own
  /// constraints). `body` (optional; < 2^24 each) gives each particle's body; without it all are in one. A pair that
  /// does not fit the reserved room goes to overflow(i, j) instead; the list is then stale, and search returns
  /// false. Rebuilds the hash; never allocates after reserve().
  template <class Overflow>
  bool search(const Real* xyz, const Real* rest, uint32_t n, Real diameter, Real restApart, Real skin,
              Overflow overflow, const uint32_t* body = nullptr) {
    const Real reach = diameter + skin;
    pairs_.clear();
    complete_ = true;
    // Cells of two query radii: the query's cube (two radii wide) then overlaps at most 2 cells per axis, 8 buckets
    // instead of 27 (12 soft cubes, 4,116 particles: the pair search went from 13.9 to 8.5 ms per frame natively).
    hash_.build(xyz, n, 2 * reach, rest, body);
    for (uint32_t i = 0; i < n; ++i) {
      const Real* pi = xyz + 3 * size_t(i);
      const Real* ri = rest + 3 * size_t(i);
      const size_t segment = pairs_.size();
      // queryNear skips blocks of four that the distance and rest tests below would reject whole.
      hash_.queryNear(pi, reach, [&](uint32_t j) {
        if (j <= i) return;
        const Real* pj = xyz + 3 * size_t(j);
        if (squaredDistance(pi, pj) >= reach * reach) return;
        const bool oneBody = !body || body[i] == body[j];
        if (oneBody && squaredDistance(ri, rest + 3 * size_t(j)) < restApart * restApart) return;
        if (pairs_.size() < pairs_.capacity()) {
          pairs_.push_back({i, j});
        } else {
          complete_ = false;
          overflow(i, j);
        }
      }, ri, restApart, body ? body[i] : 0);
      std::sort(pairs_.begin() + std::ptrdiff_t(segment), pairs_.end());  // from the hash's bucket order
    }
    searchedAt_.assign(xyz, xyz + 3 * size_t(n));
    diameter_ = diameter;
    skin_ = skin;
    return complete_;
  }

  /// Calls visit(i, j) for every listed pair closer than `diameter` at the positions xyz, in the list's order.
  template <class Visit>
  void forEachWithin(const Real* xyz, Real diameter, Visit visit) const {
    for (const auto& [i, j] : pairs_) {
      if (squaredDistance(xyz + 3 * size_t(i), xyz + 3 * size_t(j)) < diameter * diameter) visit(i, j);
    }
  }

  size_t size() const { return pairs_.size(); }  ///< Pairs listed at the last search.

 private:
  SpatialHash hash_;
  std::vector<std::pair<uint32_t, uint32_t>> pairs_;  // (i, j), i < j, sorted: within the reach at the search
  std::vector<Real> searchedAt_;  // xyz per particle where the last search saw them
  Real diameter_ = 0;             // the diameter the last search was for
  Real skin_ = 0;                 // and its skin
  bool complete_ = false;         // false: never searched, or the last search overflowed
};

}  // namespace pbd

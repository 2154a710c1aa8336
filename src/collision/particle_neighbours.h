// Particle self-collision's neighbour list (Verlet 1967; the "skin" of molecular-dynamics codes). The pairs within
// reach = diameter + skin, searched with the spatial hash, hold every pair within the diameter until some particle has
// moved skin/2 from where the search saw it, besides the particles' mean move: two particles can then have closed in by
// at most the skin. The substeps in between only filter the list by distance. A resting pile or a draped cloth moves
// far less than that, so it searches rarely, and so does a body falling as a whole; one that tumbles or crumples
// searches every substep, at the cost of a wider reach. A search with no skin lists exactly the pairs within the
// diameter: the caller's choice where a list with a skin would not fit (a soft body whose particles are closer than the
// reach holds all of those pairs in its list for good).
//
// The list is kept sorted (by i, then j, i < j), so the pairs it yields do not depend on when it was searched: a
// world restored from a snapshot, which searches afresh, continues bit-identically with one that kept its list.
#pragma once

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "collision/relative_move.h"
#include "collision/spatial_hash.h"
#include "pbd/real.h"
#include "pbd/task_system.h"

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
  /// Particles per chunk of a search shared across threads: fixed, so that which chunks fit their share of the room
  /// does not depend on the thread count.
  static constexpr uint32_t kChunk = 128;

  /// Room for `particles` particles and `pairs` listed pairs (may throw); search() and the rest never allocate.
  void reserve(size_t particles, size_t pairs) {
    hash_.reserve(particles);
    if (pairs_.size() < pairs) pairs_.resize(pairs);
    searchedAt_.reserve(3 * particles);
    chunkListed_.reserve((particles + kChunk - 1) / kChunk);
    chunkVisits_.reserve((particles + kChunk - 1) / kChunk);
  }

  /// Whether the list may miss a pair within `diameter` of the n positions xyz: it was never searched (or the last
  /// search overflowed), was searched for another diameter or particle count, or a particle has moved more than
  /// kMoveSlack × skin/2 since, counted after taking away the particles' mean move (movedApartWithin; a non-finite
  /// position counts as moved; with no skin, any move): two particles that each moved within skin/2 of the mean move
  /// closed in by at most the skin. So particles that fall together (gallery:drape's two cloths, from rest until they
  /// reach the colliders) keep their list.
  bool stale(const Real* xyz, uint32_t n, Real diameter) const {
    if (!complete_ || diameter != diameter_ || searchedAt_.size() != 3 * size_t(n)) return true;
    if (skin_ == 0) {  // no slack for the rounding of a shifted position: any move
      for (size_t k = 0; k < 3 * size_t(n); ++k) {
        if (!(xyz[k] == searchedAt_[k])) return true;
      }
      return false;
    }
    auto now = [&](size_t i) { return Eigen::Vector3d(xyz[3 * i], xyz[3 * i + 1], xyz[3 * i + 2]); };
    auto then = [&](size_t i) {
      return Eigen::Vector3d(searchedAt_[3 * i], searchedAt_[3 * i + 1], searchedAt_[3 * i + 2]);
    };
    return !movedApartWithin(n, now, then, double(kMoveSlack) * 0.5 * double(skin_));
  }

  /// Searches the pairs (i < j) of the n positions xyz within diameter + skin (>= 0) of each other, leaving out
  /// those of one body closer than `restApart` in `rest` (neighbours in the rest shape, held by their body's own
  /// constraints). `body` (optional; < 2^24 each) gives each particle's body; without it all are in one. A pair that
  /// does not fit the reserved room goes to overflow(i, j) instead; the list is then stale, and search returns
  /// false. Rebuilds the hash; never allocates after reserve().
  ///
  /// With `tasks` of more than one thread, the queries are shared out by chunks of kChunk particles, each writing
  /// into its share of the room (in proportion to its particles); the shares are then closed up in particle order.
  /// A chunk that overflows its share, and every chunk after it, is searched again serially as without `tasks`, so
  /// the list, the overflow calls and their order are the same on any number of threads.
  template <class Overflow>
  bool search(const Real* xyz, const Real* rest, uint32_t n, Real diameter, Real restApart, Real skin,
              Overflow overflow, const uint32_t* body = nullptr, TaskSystem* tasks = nullptr) {
    const Real reach = diameter + skin;
    complete_ = true;
    // Cells of two query radii: the query's cube (two radii wide) then overlaps at most 2 cells per axis, 8 buckets
    // instead of 27 (docs/performance.md, "Tuned constants").
    hash_.build(xyz, n, 2 * reach, rest, body);
    // Particle i's pairs in hash order, at out[0 ..) while there is room (up to outEnd); the others to spill(i, j).
    // visits: the candidates the query handed over, the search's work past its fixed part per particle.
    auto queryPairs = [&](uint32_t i, Pair* out, const Pair* outEnd, auto spill, uint64_t& visits) {
      const Real* pi = xyz + 3 * size_t(i);
      const Real* ri = rest + 3 * size_t(i);
      Pair* next = out;
      // queryNear skips blocks of four that the distance and rest tests below would reject whole.
      hash_.queryNear(pi, reach, [&](uint32_t j) {
        ++visits;
        if (j <= i) return;
        const Real* pj = xyz + 3 * size_t(j);
        if (squaredDistance(pi, pj) >= reach * reach) return;
        const bool oneBody = !body || body[i] == body[j];
        if (oneBody && squaredDistance(ri, rest + 3 * size_t(j)) < restApart * restApart) return;
        if (next < outEnd) *next++ = {i, j};
        else spill(i, j);
      }, ri, restApart, body ? body[i] : 0);
      std::sort(out, next);  // from the hash's bucket order
      return next;
    };
    Pair* const room = pairs_.data();
    Pair* const roomEnd = room + pairs_.size();
    // Particles [first, n) serially from room + listed: pairs past the room go to overflow.
    auto searchSerially = [&](uint32_t first, size_t listed, uint64_t& visits) {
      Pair* next = room + listed;
      for (uint32_t i = first; i < n; ++i) {
        next = queryPairs(i, next, roomEnd, [&](uint32_t a, uint32_t b) {
          complete_ = false;
          overflow(a, b);
        }, visits);
      }
      return size_t(next - room);
    };
    uint64_t visits = 0;
    const uint32_t chunks = (n + kChunk - 1) / kChunk;
    if (!tasks || tasks->concurrency() == 1 || chunks < 2) {
      listed_ = searchSerially(0, 0, visits);
    } else {
      constexpr uint32_t kOverflowed = ~0u;
      // 64-bit: room × particles passes 2^32 from 16k particles on (size_t is 32 bits in wasm).
      auto share = [&](uint32_t c) {
        return room + size_t(uint64_t(pairs_.size()) * std::min<uint64_t>(n, uint64_t(c) * kChunk) / n);
      };
      chunkListed_.resize(chunks), chunkVisits_.resize(chunks);  // within the reserved room
      auto searchChunks = [&](size_t begin, size_t end) {
        for (size_t c = begin; c < end; ++c) {
          Pair* const first = share(uint32_t(c));
          const Pair* const last = share(uint32_t(c) + 1);
          Pair* next = first;
          bool fits = true;
          uint64_t chunkVisits = 0;
          const uint32_t iEnd = std::min(n, uint32_t(c + 1) * kChunk);
          for (uint32_t i = uint32_t(c) * kChunk; i < iEnd && fits; ++i) {
            next = queryPairs(i, next, last, [&](uint32_t, uint32_t) { fits = false; }, chunkVisits);
          }
          chunkListed_[c] = fits ? uint32_t(next - first) : kOverflowed;
          chunkVisits_[c] = chunkVisits;
        }
      };
      tasks->parallelFor(chunks, 1, searchChunks);
      size_t listed = 0;
      uint32_t c = 0;
      for (; c < chunks && chunkListed_[c] != kOverflowed; ++c) {
        std::copy(share(c), share(c) + chunkListed_[c], room + listed);  // leftwards: listed <= its share's start
        listed += chunkListed_[c];
        visits += chunkVisits_[c];
      }
      listed_ = c < chunks ? searchSerially(c * kChunk, listed, visits) : listed;
    }
    visits_ = visits;
    searchedAt_.assign(xyz, xyz + 3 * size_t(n));
    diameter_ = diameter;
    skin_ = skin;
    return complete_;
  }

  /// Calls visit(i, j) for every listed pair closer than `diameter` at the positions xyz, in the list's order.
  template <class Visit>
  void forEachWithin(const Real* xyz, Real diameter, Visit visit) const {
    for (size_t k = 0; k < listed_; ++k) {
      const auto [i, j] = pairs_[k];
      if (squaredDistance(xyz + 3 * size_t(i), xyz + 3 * size_t(j)) < diameter * diameter) visit(i, j);
    }
  }

  size_t size() const { return listed_; }  ///< Pairs listed at the last search.
  /// The candidates the last search's queries handed over: its work past the fixed part per particle, counted
  /// rather than timed, so the same on every run and any number of threads.
  uint64_t searchVisits() const { return visits_; }

 private:
  using Pair = std::pair<uint32_t, uint32_t>;
  SpatialHash hash_;
  std::vector<Pair> pairs_;            // the room, sized at reserve; the list is its first listed_ pairs: (i, j),
                                       // i < j, sorted, within the reach at the search
  size_t listed_ = 0;                  // pairs listed
  std::vector<uint32_t> chunkListed_;  // scratch of a shared search: pairs each chunk listed in its share
  std::vector<uint64_t> chunkVisits_;  // and the candidates its queries handed over
  uint64_t visits_ = 0;                // searchVisits()
  std::vector<Real> searchedAt_;       // xyz per particle where the last search saw them
  Real diameter_ = 0;                  // the diameter the last search was for
  Real skin_ = 0;                      // and its skin
  bool complete_ = false;              // false: never searched, or the last search overflowed
};

}  // namespace pbd

// A locality order of particles from the constraints alone, for bodies numbered without one (a mesh whose vertices
// come shuffled): breadth-first through the constraint graph, each connected part from a pseudo-peripheral particle
// (the last one reached from its lowest-numbered particle, as in Gibbs–Poole–Stockmeyer / reverse Cuthill–McKee's
// start). The ranks then go in level sets, fronts that sweep across the body: a grid's diagonals, a cube's slanted
// planes. Cut into runs of consecutive ranks, these are strips that touch only the strips beside them, which is what
// the coloured pass's blocks need (block_schedule.h). Particles in no constraint take the last ranks, by number.
// Deterministic: it depends on the constraints and their order only.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace pbd {

class LocalityRank {
 public:
  /// Makes room for `particles` particles and `edges` constraint pairs (may throw), so compute never allocates.
  void reserve(size_t particles, size_t edges) {
    rank_.reserve(particles);
    offsets_.reserve(particles + 1);
    neighbours_.reserve(2 * edges);
    queue_.reserve(particles);
  }

  /// Ranks particles 0 .. particles-1 from the `count` pairs (i, j) that pairOf(k) gives (each below `particles`).
  template <class PairOf>
  void compute(uint32_t particles, uint32_t count, PairOf pairOf) {
    offsets_.assign(size_t(particles) + 1, 0);
    for (uint32_t k = 0; k < count; ++k) {
      const auto [i, j] = pairOf(k);
      ++offsets_[i + 1];
      ++offsets_[j + 1];
    }
    for (uint32_t p = 0; p < particles; ++p) offsets_[p + 1] += offsets_[p];
    neighbours_.resize(offsets_[particles]);
    queue_.assign(offsets_.begin(), offsets_.end() - 1);  // fill cursors, reused as the queue after
    for (uint32_t k = 0; k < count; ++k) {
      const auto [i, j] = pairOf(k);
      neighbours_[queue_[i]++] = j;
      neighbours_[queue_[j]++] = i;
    }
    rank_.assign(particles, kUnranked);
    queue_.resize(particles);
    uint32_t ranked = 0;
    for (uint32_t start = 0; start < particles; ++start) {
      if (rank_[start] != kUnranked || offsets_[start] == offsets_[start + 1]) continue;
      // A first sweep finds the part's far end, then its ranks are cleared and the second sweep ranks from there.
      const uint32_t end = sweep(start, ranked);
      const uint32_t far = queue_[end - 1];
      for (uint32_t q = ranked; q < end; ++q) rank_[queue_[q]] = kUnranked;
      ranked = sweep(far, ranked);
    }
    for (uint32_t p = 0; p < particles; ++p) {
      if (rank_[p] != kUnranked) continue;
      queue_[ranked] = p;
      rank_[p] = ranked++;
    }
  }

  /// Per particle, its place in the order (a permutation of 0 .. particles-1).
  const std::vector<uint32_t>& ranks() const { return rank_; }
  /// Per rank, its particle: the inverse permutation.
  const std::vector<uint32_t>& order() const { return queue_; }

 private:
  static constexpr uint32_t kUnranked = ~0u;

  /// Breadth-first from `from`, ranking from `first` on (queue_[r] is the particle of rank r); returns the rank after
  /// the last one given.
  uint32_t sweep(uint32_t from, uint32_t first) {
    uint32_t head = first, tail = first;
    rank_[from] = tail;
    queue_[tail++] = from;
    while (head < tail) {
      const uint32_t p = queue_[head++];
      for (uint32_t e = offsets_[p]; e < offsets_[p + 1]; ++e) {
        const uint32_t q = neighbours_[e];
        if (rank_[q] != kUnranked) continue;
        rank_[q] = tail;
        queue_[tail++] = q;
      }
    }
    return tail;
  }

  std::vector<uint32_t> rank_;        // per particle
  std::vector<uint32_t> offsets_;     // CSR of the constraint graph: particle p's neighbours are
  std::vector<uint32_t> neighbours_;  // neighbours_[offsets_[p] .. offsets_[p + 1])
  std::vector<uint32_t> queue_;       // by rank: the particle
};

}  // namespace pbd

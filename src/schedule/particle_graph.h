// The graph that pairs of particles (constraints) make, in compressed rows, and breadth-first search over it: what
// the locality order (locality_rank.h) and a grid's lattice order (lattice_order.h) are both made of, and what the
// volume sweep's choice looks tet edges up in (world/volume_sweep.h).
// Deterministic: a particle's neighbours are in the order its pairs were given, and the search follows them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace pbd {

class ParticleGraph {
 public:
  /// The label of a particle no search has reached.
  static constexpr uint32_t kUnreached = ~0u;

  /// Makes room for `particles` particles and `pairs` pairs (may throw), so build and search never allocate.
  void reserve(size_t particles, size_t pairs) {
    offsets_.reserve(particles + 1);
    neighbours_.reserve(2 * pairs);
    queue_.reserve(particles);
  }

  /// The graph of particles 0 .. particles-1 and the pairs pairOf(k) = {i, j} (each below `particles`), k < count,
  /// that keep(k) admits: each adds j to i's neighbours and i to j's.
  template <class PairOf, class Keep>
  void build(uint32_t particles, uint32_t count, PairOf pairOf, Keep keep) {
    offsets_.assign(size_t(particles) + 1, 0);
    for (uint32_t k = 0; k < count; ++k) {
      if (!keep(k)) continue;
      const auto [i, j] = pairOf(k);
      ++offsets_[i + 1];
      ++offsets_[j + 1];
    }
    for (uint32_t p = 0; p < particles; ++p) offsets_[p + 1] += offsets_[p];
    neighbours_.resize(offsets_[particles]);
    queue_.assign(offsets_.begin(), offsets_.end() - 1);  // fill cursors first
    for (uint32_t k = 0; k < count; ++k) {
      if (!keep(k)) continue;
      const auto [i, j] = pairOf(k);
      neighbours_[queue_[i]++] = j;
      neighbours_[queue_[j]++] = i;
    }
    queue_.resize(particles);
  }

  uint32_t degree(uint32_t p) const { return offsets_[p + 1] - offsets_[p]; }
  std::span<const uint32_t> neighbours(uint32_t p) const {
    return {neighbours_.data() + offsets_[p], neighbours_.data() + offsets_[p + 1]};
  }

  /// What breadthFirst writes into a reached particle's label.
  enum class Label : uint8_t {
    Place,     ///< its place in the queue
    Distance,  ///< its distance from `from`, in edges
  };

  /// Breadth-first from `from` through the particles whose label is kUnreached (label has one per particle): each
  /// particle reached, `from` first, takes the next place in queue() from `first` on and its label. Returns the
  /// place after the last one taken.
  uint32_t breadthFirst(uint32_t from, uint32_t first, std::vector<uint32_t>& label, Label kind) {
    uint32_t head = first, tail = first;
    label[from] = kind == Label::Place ? tail : 0;
    queue_[tail++] = from;
    while (head < tail) {
      const uint32_t p = queue_[head++];
      for (const uint32_t q : neighbours(p)) {
        if (label[q] != kUnreached) continue;
        label[q] = kind == Label::Place ? tail : label[p] + 1;
        queue_[tail++] = q;
      }
    }
    return tail;
  }

  /// By place, the particles the searches reached (one per particle, from build on; the places no search took are
  /// for the caller to fill).
  std::vector<uint32_t>& queue() { return queue_; }
  const std::vector<uint32_t>& queue() const { return queue_; }

 private:
  std::vector<uint32_t> offsets_;     // particle p's neighbours are neighbours_[offsets_[p] .. offsets_[p + 1])
  std::vector<uint32_t> neighbours_;
  std::vector<uint32_t> queue_;       // by place: the particle (the build's fill cursors before)
};

}  // namespace pbd

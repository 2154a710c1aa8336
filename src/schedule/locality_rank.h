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

#include "schedule/particle_graph.h"

namespace pbd {

class LocalityRank {
 public:
  /// Makes room for `particles` particles and `edges` constraint pairs (may throw), so compute never allocates.
  void reserve(size_t particles, size_t edges) {
    rank_.reserve(particles);
    graph_.reserve(particles, edges);
  }

  /// Ranks particles 0 .. particles-1 from the `count` pairs (i, j) that pairOf(k) gives (each below `particles`).
  template <class PairOf>
  void compute(uint32_t particles, uint32_t count, PairOf pairOf) {
    graph_.build(particles, count, pairOf, [](uint32_t) { return true; });
    rank_.assign(particles, ParticleGraph::kUnreached);
    std::vector<uint32_t>& order = graph_.queue();
    uint32_t ranked = 0;
    for (uint32_t start = 0; start < particles; ++start) {
      if (rank_[start] != ParticleGraph::kUnreached || graph_.degree(start) == 0) continue;
      // A first sweep finds the part's far end, then its ranks are cleared and the second sweep ranks from there.
      const uint32_t end = graph_.breadthFirst(start, ranked, rank_, ParticleGraph::Label::Place);
      const uint32_t far = order[end - 1];
      for (uint32_t q = ranked; q < end; ++q) rank_[order[q]] = ParticleGraph::kUnreached;
      ranked = graph_.breadthFirst(far, ranked, rank_, ParticleGraph::Label::Place);
    }
    for (uint32_t p = 0; p < particles; ++p) {
      if (rank_[p] != ParticleGraph::kUnreached) continue;
      order[ranked] = p;
      rank_[p] = ranked++;
    }
  }

  /// Per particle, its place in the order (a permutation of 0 .. particles-1).
  const std::vector<uint32_t>& ranks() const { return rank_; }
  /// Per rank, its particle: the inverse permutation.
  const std::vector<uint32_t>& order() const { return graph_.queue(); }

 private:
  std::vector<uint32_t> rank_;  // per particle
  ParticleGraph graph_;         // the constraint graph; its queue is the order
};

}  // namespace pbd

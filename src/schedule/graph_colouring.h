// Greedy graph colouring of two-particle constraints (Box2D v3's scheme): a constraint takes the lowest colour
// that none of its particles has yet. Constraints of one colour share no particle, so a colour can be projected
// in parallel, in any order, with bit-identical results. Constraints that find no free colour among kColours go to
// the overflow group, which is solved serially after the colours. Removing a constraint frees its colour at its two
// particles (remove): nothing is recoloured, so adding and removing are both O(1).
#pragma once

#include <cstdint>
#include <vector>

namespace pbd {

class GraphColouring {
 public:
  static constexpr uint32_t kColours = 32;           ///< Parallel colours; one bit each in a particle's mask.
  static constexpr uint32_t kOverflow = kColours;    ///< The colour of constraints that fit no parallel colour.

  /// Makes room for `count` particles (may throw); resizeParticles up to that count then never allocates.
  void reserveParticles(size_t count) { masks_.reserve(count); }
  /// Grows the per-particle masks to `count` particles (new particles have no colours yet).
  void resizeParticles(size_t count) { masks_.resize(count, 0); }
  /// Colours a constraint between particles i and j and records that both now carry that colour.
  uint32_t add(uint32_t i, uint32_t j) {
    const uint32_t used = masks_[i] | masks_[j];
    if (used == ~0u) return kOverflow;
    const uint32_t colour = static_cast<uint32_t>(__builtin_ctz(~used));
    masks_[i] |= 1u << colour;
    masks_[j] |= 1u << colour;
    return colour;
  }
  /// Forgets a removed constraint between i and j that had `colour`: O(1), and no other constraint changes colour.
  /// Clearing the bit is exact because no other constraint of that colour touches i or j (the colouring's
  /// invariant); the overflow group owns no bit. Later adds reuse the freed colour.
  void remove(uint32_t i, uint32_t j, uint32_t colour) {
    if (colour == kOverflow) return;
    masks_[i] &= ~(1u << colour);
    masks_[j] &= ~(1u << colour);
  }
  /// Records a constraint between i and j with a given colour (a snapshot's saved colouring). Returns false, and
  /// changes nothing, if a constraint of that colour already touches i or j.
  bool assign(uint32_t i, uint32_t j, uint32_t colour) {
    if (colour == kOverflow) return true;
    if (colour > kOverflow || ((masks_[i] | masks_[j]) >> colour & 1u)) return false;
    masks_[i] |= 1u << colour;
    masks_[j] |= 1u << colour;
    return true;
  }
  void clear() { masks_.assign(masks_.size(), 0); }

 private:
  std::vector<uint32_t> masks_;  // bit c set = the particle is used by a constraint of colour c
};

}  // namespace pbd

// bindToTets with what its search did, for the tests that check how much of the tet grid a vertex visits.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "pbd/embedding.h"

namespace pbd {

struct BindStats {
  size_t tetsEvaluated = 0;  ///< Tets whose weights and distance were computed, summed over the render vertices.
};

/// bindToTets (pbd/embedding.h), also filling `stats`.
TetEmbedding bindToTets(std::span<const float> tetPositions, std::span<const uint32_t> tets,
                        std::span<const float> renderPositions, BindStats& stats);

}  // namespace pbd

// How much room to reserve when storage must grow.
#pragma once

#include <algorithm>
#include <cstddef>

namespace pbd {

/// Room to reserve for `needed` elements in storage whose capacity is `capacity`: `needed` while it fits, else at
/// least half as much again as it holds. Elements added one call at a time then cost O(1) each, amortized; reserving
/// exactly `needed` (std::vector::reserve allocates just that) copied every element on every call.
inline size_t grownRoom(size_t needed, size_t capacity) {
  return needed <= capacity ? needed : std::max(needed, capacity + capacity / 2);
}

}  // namespace pbd

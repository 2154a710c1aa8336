// Symmetric Gauss-Seidel for the element constraints projected serially (dihedrals, tet volumes, Neo-Hookean tets):
// each iteration sweeps them forward in the order added, then backward.
//
// Why: with XPBD's velocity update v = (p - x)/h, one substep acts on the prediction y as y' = 2 G y - G y_prev, where
// G is the sweep linearized about the constraint manifold. For a product of W-orthogonal projections in one order, G
// has complex eigenvalues g with negative real part on over-determined, nearly rigid sets (a cloth's angles, a tet
// mesh's volumes), and then μ² - 2gμ + g = 0 has a root |μ| > 1: measured 1.0126 per substep on a flat 10×10 grid
// of dihedrals, so a free cloth went from 4e-8 J to 500 J in a second. The symmetric sweep's G is symmetric with
// eigenvalues in [0, 1], which gives |μ|² = g <= 1. Distances keep one sweep under implicit Euler: they run in colour
// order (independent sets), and no such growth shows in the cloth, rope and soak tests. Under BDF2, whose recurrence
// μ⁴ = g(8/3 μ³ - 22/9 μ² + 8/9 μ - 1/9) is stable for real g in [0, 1] but more sensitive to complex g, they sweep
// back too (step.cpp). On the 10×10 grid the dihedrals in colour order also measured |μ| = 1, so colouring them (for
// threads) would be an alternative to their second sweep.
#pragma once

#include <cstddef>

#include "constraints/multiplier.h"
#include "schedule/element_order.h"

namespace pbd {

/// project(k) for k = 0 .. count-1, then for k = count-1 .. 0.
template <class Project>
void symmetricSweep(size_t count, Project&& project) {
  for (size_t k = 0; k < count; ++k) project(k);
  for (size_t k = count; k-- > 0;) project(k);
}

/// The same sweep over elements in colour order (element_order.h): forward colour by colour, then back from the last.
/// The elements of a colour share no particle, so `batch(begin, end)` may project that range of order() in any order
/// (four at a time); the uncoloured rest goes through `one(element)`, last going forward and first coming back.
template <class Batch, class One>
void colouredSymmetricSweep(const ElementOrder& order, Batch&& batch, One&& one) {
  constexpr uint32_t kRest = ElementOrder::kColours;
  auto colour = [&](uint32_t c, bool backward) {
    const uint32_t b = order.colourBegin(c), e = order.colourBegin(c + 1);
    if (c != kRest) return batch(b, e);
    for (uint32_t n = b; n < e; ++n) one(order.order()[backward ? b + e - 1 - n : n]);
  };
  for (uint32_t c = 0; c <= kRest; ++c) colour(c, false);
  for (uint32_t c = kRest + 1; c-- > 0;) colour(c, true);
}

/// PBD's corrected stiffness for a constraint projected twice per iteration (once per sweep).
inline Real symmetricSweepKPrime(Real stiffness, int iterations) { return correctedStiffness(stiffness, 2 * iterations); }

}  // namespace pbd

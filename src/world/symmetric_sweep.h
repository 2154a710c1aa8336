// Symmetric Gauss-Seidel for the element constraints (dihedrals, tet volumes, Neo-Hookean tets): each iteration
// sweeps them forward in colour order, then backward.
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
// Tet volumes whose tets' six edges are all held by rigid distance constraints sweep forward only after the coloured
// or the Jacobi distances' pass (ElementSweep::Forward, world/volume_sweep.h says why not after the others): a tet's
// volume is a function of its six edge lengths, so ∇V lies in the span of its edges' gradients, and once the edges'
// pass has projected them the volumes' pass corrects only what that single pass left. A free block of such tets then
// gains no energy swept one way (tests/native/world/volume_sweep_test.cpp), where its volumes alone gain without bound
// within seconds (docs/performance.md, "Tried and dropped").
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "constraints/multiplier.h"
#include "pbd/task_system.h"
#include "schedule/element_order.h"

namespace pbd {

/// Batches of four tets (volumes, Neo-Hookean) in a colour up to which it runs whole on one thread: a shared colour
/// pays the cache lines its two threads both write (docs/performance.md, "Tuned constants").
inline constexpr size_t kElementBatchesPerTask = 256;

/// The same for dihedrals, whose kernel does far more per element (an atan2 and seven divisions, against one), so
/// smaller colours pay for sharing (docs/performance.md, "Tuned constants").
inline constexpr size_t kDihedralBatchesPerTask = 32;

/// Which ways an element sweep goes each iteration (see the top of this file).
enum class ElementSweep : uint8_t {
  Forward,    ///< Colour by colour, once.
  Symmetric,  ///< Forward, then back from the last colour.
};

/// The sweep over elements in colour order (element_order.h): forward colour by colour, then (ElementSweep::Symmetric)
/// back from the last.
/// The elements of a colour share no particle, so `batch(begin, end)` may project that range of order() in any order
/// (four at a time). A colour of more than `batchesPerTask` fours is shared out across `tasks` by runs
/// (ElementOrder::runBegin: the same element numbers in every colour, so a thread's home runs keep it on the same
/// particles; fixed by the mesh, so the same bits on any thread count); a smaller one runs whole on one thread. The
/// uncoloured rest goes through `one(element)` on one thread, last going forward and first coming back. A shared
/// colour is a phase of a parallel job (kMaxPhases per job), with the barrier between colours that Gauss-Seidel
/// needs; consecutive colours that are not shared run in one phase, on one thread, in order. When no colour is shared,
/// the elements fall into island groups (ElementOrder::islandGroupCount: bodies, say), none more than half of them,
/// they are more than a shared colour's worth and there are threads, each group instead makes its whole sweep within
/// one phase, whose ranges are the groups (12 small cubes' tets on 2 threads rather than all on one). Otherwise, on
/// threads, a split order's halves (ElementOrder::splitColour: one big body cut in two halves that share no particle)
/// each sweep their colours as one range of one phase, forward before the interface (and back after it), and the
/// interface's own halves (subSplitColour) likewise around the last interface: the same bits, with five barriers (or
/// three) instead of two a colour.
/// With `particles` > 0, `open(begin, end)` runs over [0, particles) as the first phase and `close(begin, end)` as
/// the last (the padded positions' copy in and out), in ranges of at least `particlesPerTask`; nothing runs when there
/// are no elements.
template <class Batch, class One, class Open, class Close>
void colouredElementSweep(TaskSystem& tasks, const ElementOrder& order, ElementSweep ways, size_t batchesPerTask,
                          Batch&& batch, One&& one, size_t particles, size_t particlesPerTask, Open&& open,
                          Close&& close) {
  constexpr uint32_t kRest = ElementOrder::kColours, kRuns = ElementOrder::kRuns;
  constexpr size_t kMaxPhases = TaskSystem::kMaxPhases;
  if (order.colourBegin(kRest + 1) == order.colourBegin(0)) return;
  const size_t sharedElements = 4 * batchesPerTask;  // a colour of more elements is shared out
  // The sweep's colours in order (forward, then back if symmetric), the empty ones left out.
  struct Visit {
    uint32_t colour;
    bool backward;
  };
  Visit visits[2 * (kRest + 1)];
  size_t visitCount = 0;
  for (uint32_t c = 0; c <= kRest; ++c) {
    if (order.colourBegin(c + 1) > order.colourBegin(c)) visits[visitCount++] = {c, false};
  }
  const size_t forwardVisits = visitCount;
  if (ways == ElementSweep::Symmetric) {
    for (size_t k = visitCount; k-- > 0;) visits[visitCount + (visitCount - 1 - k)] = {visits[k].colour, true};
    visitCount *= 2;
  }
  // A shared colour is a phase of kRuns ranges. A run of consecutive colours that are not shared is one phase of one
  // range: one thread sweeps them in order, with no barrier between them (a barrier per colour, with the other
  // threads idle, made gallery:stack's tets slower on 2 threads than on 1).
  enum class Kind : uint8_t { CopyIn, Shared, OneThread, Islands, Halves, CopyOut };
  struct Phase {
    Kind kind;
    uint32_t first, last;  // visits[first, last)
  };
  Phase plan[kMaxPhases];
  size_t sizes[kMaxPhases], minRanges[kMaxPhases], n = 0;
  // Order positions [first, last) of visit v's colour: batches, or the rest one by one (reversed going back).
  auto sweep = [&](const Visit& v, uint32_t first, uint32_t last) {
    if (v.colour != kRest) return batch(first, last);
    for (uint32_t k = first; k < last; ++k) one(order.order()[v.backward ? first + last - 1 - k : k]);
  };
  auto sweepColour = [&](const Visit& v) { sweep(v, order.colourBegin(v.colour), order.colourBegin(v.colour + 1)); };
  auto body = [&](size_t phase, size_t b, size_t e) {
    const Phase& ph = plan[phase];
    switch (ph.kind) {
      case Kind::CopyIn: return open(b, e);
      case Kind::CopyOut: return close(b, e);
      case Kind::Shared: {
        const uint32_t c = visits[ph.first].colour;
        return batch(order.runBegin(c, uint32_t(b)), order.runBegin(c, uint32_t(e)));
      }
      case Kind::OneThread:
        for (uint32_t k = ph.first; k < ph.last; ++k) sweepColour(visits[k]);
        return;
      case Kind::Halves:   // each half's part of visits [first, last), colour by colour
      case Kind::Islands:   // each island group's part of them: its whole sweep, forward and back
        for (uint32_t g = uint32_t(b); g < e; ++g) {
          for (uint32_t k = ph.first; k < ph.last; ++k) {
            const uint32_t c = visits[k].colour;
            if (ph.kind == Kind::Halves) sweep(visits[k], order.halfBegin(c, g), order.halfBegin(c, g + 1));
            else sweep(visits[k], order.islandBegin(c, g), order.islandBegin(c, g + 1));
          }
        }
        return;
    }
  };
  auto flush = [&] {
    if (n) tasks.parallelPhases(n, sizes, minRanges, body);
    n = 0;
  };
  auto addPhase = [&](Phase ph, size_t size, size_t minRange) {
    if (n == kMaxPhases) flush();
    plan[n] = ph, sizes[n] = size, minRanges[n++] = minRange;
  };
  auto shared = [&](uint32_t c) {
    return c != kRest && order.colourBegin(c + 1) - order.colourBegin(c) > sharedElements;
  };
  if (particles) addPhase({Kind::CopyIn, 0, 0}, particles, particlesPerTask);
  if (tasks.concurrency() > 1 && order.islandsPay(sharedElements)) {
    // Each island group's whole sweep is a range of one phase: the groups share no particle, and per particle the
    // projections come in the same order as colour by colour, so the bits are the same.
    addPhase({Kind::Islands, 0, uint32_t(visitCount)}, order.islandGroupCount(), 1);
    if (particles) addPhase({Kind::CopyOut, 0, 0}, particles, particlesPerTask);
    return flush();
  }
  // Visits [first, last) colour by colour: a shared colour a phase of its own, consecutive others one phase.
  auto addVisits = [&](uint32_t first, uint32_t last) {
    for (uint32_t k = first; k < last; ++k) {
      const uint32_t c = visits[k].colour;
      if (shared(c)) {
        addPhase({Kind::Shared, k, k + 1}, kRuns, 1);
      } else if (n > 0 && plan[n - 1].kind == Kind::OneThread && plan[n - 1].last == k) {
        plan[n - 1].last = k + 1;
      } else {
        addPhase({Kind::OneThread, k, k + 1}, 1, TaskSystem::kOneRange);
      }
    }
  };
  // A split order (ElementOrder::splitColour): the halves' colours are the first visits going forward and the last
  // coming back; each half sweeps them as one range, on a thread of its own, then the interface's halves theirs
  // (subSplitColour) the same way, and the last interface's visits between run as above. Five phases and their
  // barriers (three with the interface whole) instead of two per colour.
  uint32_t halves = 0, subHalves = 0;  // visits [0, halves) forward are the halves', then subHalves the interface's
  if (tasks.concurrency() > 1) {
    while (halves < forwardVisits && visits[halves].colour < order.splitColour()) ++halves;
    while (halves + subHalves < forwardVisits && visits[halves + subHalves].colour < order.subSplitColour())
      ++subHalves;
  }
  // Where the halves' visits back begin (none back: the end).
  const uint32_t back = uint32_t(visitCount) - (ways == ElementSweep::Symmetric ? halves + subHalves : 0);
  if (halves) addPhase({Kind::Halves, 0, halves}, 2, 1);
  if (subHalves) addPhase({Kind::Halves, halves, halves + subHalves}, 2, 1);
  addVisits(halves + subHalves, back);
  if (ways == ElementSweep::Symmetric) {
    if (subHalves) addPhase({Kind::Halves, back, back + subHalves}, 2, 1);
    if (halves) addPhase({Kind::Halves, back + subHalves, uint32_t(visitCount)}, 2, 1);
  }
  if (particles) addPhase({Kind::CopyOut, 0, 0}, particles, particlesPerTask);
  flush();
}

/// The sweep without a copy in or out: the kernels work on the positions in place.
template <class Batch, class One>
void colouredElementSweep(TaskSystem& tasks, const ElementOrder& order, ElementSweep ways, size_t batchesPerTask,
                          Batch&& batch, One&& one) {
  auto none = [](size_t, size_t) {};
  colouredElementSweep(tasks, order, ways, batchesPerTask, batch, one, 0, 0, none, none);
}

/// PBD's corrected stiffness for a constraint projected twice per iteration (once per sweep).
inline Real symmetricSweepKPrime(Real stiffness, int iterations) { return correctedStiffness(stiffness, 2 * iterations); }

}  // namespace pbd

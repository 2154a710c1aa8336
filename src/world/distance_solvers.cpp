// The distance constraints' solvers: Gauss-Seidel in the order added, coloured Gauss-Seidel over the block
// schedule, Jacobi; and the multipliers each starts a solve from.
#include <algorithm>
#include <atomic>

#include "constraints/distance.h"
#include "math/band_layout.h"
#include "math/wide_float.h"
#include "world/particle_advance.h"
#include "world/world_state.h"

namespace pbd {

namespace {

/// Projects constraints [begin, end) of `cs` in order (or in reverse), accumulating their multipliers; with
/// `picks`, constraints picks[begin, end) instead.
void projectRange(const DistanceConstraint* cs, Real* lambda, size_t begin, size_t end, Vec3* P, const Real* w,
                  bool xpbd, Real invH2, bool backward = false, const uint32_t* picks = nullptr) {
  for (size_t n = begin; n < end; ++n) {
    const size_t at = backward ? begin + end - 1 - n : n;
    const size_t k = picks ? picks[at] : at;
    const DistanceConstraint& d = cs[k];
    lambda[k] += projectDistance(P[d.i], P[d.j], w[d.i], w[d.j], d.minLength, d.maxLength, xpbd, d.kPrime,
                                 d.compliance * invH2, lambda[k]);
  }
}

}  // namespace

/// (9-11) Gauss-Seidel: each constraint in the order added (or in reverse), seeing the corrections of all before it.
void World::Impl::projectDistancesGaussSeidel(bool xpbd, Real invH2, bool backward) {
  projectRange(constraints.distances.data(), constraints.distanceLambda.data(), 0, constraints.distances.size(),
               asVec3(particles.p), particles.w.data(), xpbd, invH2, backward);
}

/// Gauss-Seidel over the block schedule (schedule/block_schedule.h): one phase per non-empty block colour, whose
/// blocks share no particle and so run on any thread; each block projects its constraints colour by colour (a
/// colour-major block: its run of one colour), four at a time in SIMD; the overflow group runs serially last. The
/// blocks work on paddedP, p with the inverse mass as a fourth float (one vector load per particle) or, banded, p in
/// the band layout (math/band_layout.h; lattice-ordered, a grid's particles in its row-major order), or ranked, in the
/// blocks' locality order (BlockSchedule::particleAtRank),
/// copied in before the first block colour and back after the last, as phases of the same job (as `copies` asks); the unbanded constraints then run serially on p, before the overflow group.
/// Backward (BDF2's return sweep) runs the same order reversed.
bool World::Impl::projectDistancesColoured(bool xpbd, Real invH2, bool backward, PaddedCopies copies) {
  BlockSchedule& blocks = solverData.schedule.blocks;
  constexpr uint32_t kGroups = BlockSchedule::kGroups;
  const bool banded = blocks.banded;
  const uint32_t* ranked = blocks.particleAtRank();  // the padded positions in rank order, or null
  const uint32_t* placed = blocks.particleAtPlace();  // banded on a grid's row-major order: its particles, or null
  const uint32_t n = count(), m = blocks.bandParticles;
  // What the copy in and out run over: particles, or banded the layout's blocks; no batch, nothing to copy. Their
  // phases count runs of kBoxParticles of them, so that every range starts a run of particleBoxes
  // (copyOutBoundsParticles).
  const size_t copied = blocks.batches.empty() ? 0 : banded ? m : n;
  const size_t copiedRuns = (copied + kBoxParticles - 1) / kBoxParticles;
  auto runStart = [copied](size_t run) { return std::min(copied, run * kBoxParticles); };
  ParticleBox* boxes = nullptr;
  const bool advanceBounds = copies.advance && copies.advance->predict && scansParticles();
  if ((copies.out && copies.bound && copied) || advanceBounds) {
    collision.particleBoxes.resize((size_t(n) + kBoxParticles - 1) / kBoxParticles);  // within reserveContacts'
    boxes = collision.particleBoxes.data();
    collision.solveBoundParticles = copies.out && copies.bound && copied;
  }
  const AdvancedParticles advanced = advancedParticles();
  const Real groundReach = groundSurface() + particles.largestBodyMargin;  // forEachBelowGround's, for any body
  std::atomic<bool> groundInReach{false};
  // The particle pass of particles [begin, end) with their boxes, and whether one reaches the ground.
  auto advanceRange = [&](size_t begin, size_t end) {
    advanceParticleRange(advanced, *copies.advance, begin, end, advanceBounds ? boxes : nullptr);
    if (!advanceBounds || !settings.ground.enabled) return;
    for (size_t run = begin / kBoxParticles; run * kBoxParticles < end; ++run) {
      if (!(boxes[run].lo[1] >= groundReach)) groundInReach.store(true, std::memory_order_relaxed);
    }
  };
  enum class Kind : uint8_t { Overflow, Unbanded, Advance, Pad, Blocks, Unpad };
  struct Phase {
    Kind kind;
    uint32_t group;
  };
  constexpr size_t kPhaseCount = kGroups + 5;
  Phase plan[kPhaseCount];
  size_t sizes[kPhaseCount], minRanges[kPhaseCount], phases = 0;
  auto add = [&](Kind kind, uint32_t group, size_t size, size_t minRange) {
    plan[phases] = {kind, group}, sizes[phases] = size, minRanges[phases++] = minRange;
  };
  const uint32_t* colourBegin = solverData.schedule.colourBegin;
  const uint32_t overflowBegin = colourBegin[GraphColouring::kOverflow];
  const size_t overflowSize = colourBegin[GraphColouring::kOverflow + 1] - overflowBegin;
  // The copies go a task's particles to a range, or a run when the blocks are shared out anyway: the job's barriers
  // are then paid whatever the copies do, and a copy left to one thread holds the others up at the next one.
  size_t groupMinRange[kGroups];
  bool blocksShared = false;
  for (uint32_t g = 0; g < kGroups; ++g) {
    groupMinRange[g] = blocks.minBlocksPerRange(g);
    blocksShared |= blocks.groupBegin[g + 1] - blocks.groupBegin[g] > std::max<size_t>(groupMinRange[g], 1);
  }
  const size_t copyPerTask = blocksShared ? 1 : (banded ? kBandBlocksPerTask : kParticlesPerTask) / kBoxParticles;
  if (backward) {
    add(Kind::Overflow, 0, overflowSize, TaskSystem::kOneRange);
    add(Kind::Unbanded, 0, blocks.unbanded.size(), TaskSystem::kOneRange);
  }
  // Lattice-ordered, a range of places holds particles from all over: the particle pass runs over runs of
  // particles first, as the copy out's ranges (below) and the boxes' runs go.
  const size_t particleRuns = (size_t(n) + kBoxParticles - 1) / kBoxParticles;
  const size_t particlesPerTask = blocksShared ? 1 : kParticlesPerTask / kBoxParticles;
  if (copies.in && copies.advance && placed) add(Kind::Advance, 0, particleRuns, particlesPerTask);
  if (copies.in) add(Kind::Pad, 0, copiedRuns, copyPerTask);
  for (uint32_t k = 0; k < kGroups; ++k) {
    const uint32_t g = backward ? kGroups - 1 - k : k;
    const size_t size = blocks.groupBegin[g + 1] - blocks.groupBegin[g];
    if (size) add(Kind::Blocks, g, size, groupMinRange[g]);
  }
  // Lattice-ordered, the copy out goes by particles (each thread writes the positions of its own particles, which
  // its particle pass reads next, and reads the bands, which any thread may read), not by places.
  const size_t outRuns = placed ? particleRuns : copiedRuns;
  const size_t outPerTask = placed ? particlesPerTask : copyPerTask;
  if (copies.out) add(Kind::Unpad, 0, outRuns, outPerTask);
  if (!backward) {
    add(Kind::Unbanded, 0, blocks.unbanded.size(), TaskSystem::kOneRange);
    add(Kind::Overflow, 0, overflowSize, TaskSystem::kOneRange);
  }
  const DistanceBatch* batches = blocks.batches.data();
  const DistanceBatchStrength* strengths = blocks.strengths.data();
  Real* padded = solverData.paddedP.data();
  auto segment = [&](const BlockSchedule::Segment& s) {
    auto project = [&](size_t begin, size_t end, Real* lambda, BatchMethod method) {
      if (banded) projectBandedDistanceBatches(batches, strengths, begin, end, lambda, padded, method, invH2, s.shift);
      else projectDistanceBatches(batches, strengths, begin, end, lambda, padded, method, invH2);
    };
    if (!xpbd) return project(s.begin, s.end, nullptr, BatchMethod::Pbd);
    if (s.begin < s.rigidBegin) project(s.begin, s.rigidBegin, blocks.lambda.data(), BatchMethod::Xpbd);
    if (s.rigidBegin < s.end) project(s.rigidBegin, s.end, nullptr, BatchMethod::RigidXpbd);
  };
  auto body = [&](size_t phase, size_t b, size_t e) {
    // Stopped after the copy in: every range's prediction and boxes are done (the phase's barrier).
    const Kind kind = plan[phase].kind;
    if (kind != Kind::Advance && kind != Kind::Pad && groundInReach.load(std::memory_order_relaxed)) return;
    auto particleRange = [n](size_t run) { return std::min(size_t(n), run * kBoxParticles); };
    switch (kind) {
      case Kind::Overflow:
        projectRange(solverData.schedule.constraints.data(), solverData.schedule.lambda.data(), overflowBegin + b,
                     overflowBegin + e, asVec3(particles.p), particles.w.data(), xpbd, invH2, backward);
        break;
      case Kind::Unbanded:
        projectRange(solverData.schedule.constraints.data(), solverData.schedule.lambda.data(), b, e,
                     asVec3(particles.p), particles.w.data(), xpbd, invH2, backward, blocks.unbanded.data());
        break;
      case Kind::Advance: advanceRange(particleRange(b), particleRange(e)); break;
      case Kind::Pad: {
        const size_t first = runStart(b), last = runStart(e);
        if (ranked) {  // no particle pass or bounds here (particlePassJoinsSolve, copyOutBoundsParticles)
          padPositionsInOrder(particles.p.data(), particles.w.data(), ranked, first, last, padded);
          break;
        }
        if (!banded) {
          if (copies.advance) advanceRange(first, last);
          padPositions(particles.p.data(), particles.w.data(), first, last, padded);
          break;
        }
        if (placed) {  // the particle pass ran over the particles (Kind::Advance)
          padBandsInOrder(particles.p.data(), particles.w.data(), placed, n, m, first, last, padded);
          break;
        }
        if (copies.advance) forEachBandSpan(n, m, first, last, advanceRange);  // the particles these blocks hold
        padBandsRange(particles.p.data(), particles.w.data(), n, m, first, last, padded);
        break;
      }
      case Kind::Blocks:
        for (size_t q = b; q < e; ++q) {
          const size_t at = blocks.groupBegin[plan[phase].group] + (backward ? b + e - 1 - q : q);
          const uint32_t first = blocks.segmentBegin[at], last = blocks.segmentBegin[at + 1];
          for (uint32_t k = first; k < last; ++k) segment(blocks.segments[backward ? first + last - 1 - k : k]);
        }
        break;
      case Kind::Unpad: {
        const size_t first = runStart(b), last = runStart(e);
        if (ranked) {
          unpadPositionsInOrder(padded, blocks.rankOfParticle(), first, last, particles.p.data());
          break;
        }
        if (!banded) {
          unpadPositions(padded, first, last, particles.p.data());
          if (boxes) boundParticles(particles.p.data(), first, last, boxes);
          break;
        }
        if (placed) {
          unpadBandsToParticles(padded, blocks.bandSlotOfParticle(), particleRange(b), particleRange(e),
                                particles.p.data());
          if (boxes) boundParticles(particles.p.data(), particleRange(b), particleRange(e), boxes);
          break;
        }
        unpadBandsRange(padded, n, m, first, last, particles.p.data());
        if (boxes)
          forEachBandSpan(n, m, first, last,
                          [&](size_t begin, size_t end) { boundParticles(particles.p.data(), begin, end, boxes); });
        break;
      }
    }
  };
  tasks->parallelPhases(phases, sizes, minRanges, body);
  return !groundInReach.load(std::memory_order_relaxed);
}

/// Jacobi: every constraint is evaluated at the positions of the start of the iteration, and the corrections are
/// summed per particle. To keep momentum, a constraint's correction is divided by the larger constraint count of its
/// two particles (the same factor at both ends), not by each particle's own count; a particle thus moves by at most
/// the mean of its corrections, times ω. Colours fix the summation order, so the result is deterministic.
void World::Impl::projectDistancesJacobi(bool xpbd, Real invH2) {
  std::fill(solverData.jacobiDelta.begin(), solverData.jacobiDelta.end(), Real(0));
  const Vec3* P = asVec3(particles.p);
  Vec3* D = asVec3(solverData.jacobiDelta);
  const DistanceConstraint* cs = solverData.schedule.constraints.data();
  const uint32_t* perParticle = solverData.schedule.constraintsPerParticle.data();
  Real* lambda = solverData.schedule.lambda.data();
  auto accumulate = [&](size_t begin, size_t end) {
    for (size_t k = begin; k < end; ++k) {
      const DistanceConstraint& d = cs[k];
      Vec3 p1 = P[d.i], p2 = P[d.j];
      lambda[k] += projectDistance(p1, p2, particles.w[d.i], particles.w[d.j], d.minLength, d.maxLength, xpbd, d.kPrime,
                                   d.compliance * invH2, lambda[k]);
      const Real share = Real(1) / Real(std::max(perParticle[d.i], perParticle[d.j]));
      D[d.i] += share * (p1 - P[d.i]);
      D[d.j] += share * (p2 - P[d.j]);
    }
  };
  // One phase per colour (the summation order per particle is the colour order, whatever the threads), the
  // overflow group serially, then the update of every particle.
  const uint32_t* begin = solverData.schedule.colourBegin;
  const Real omega = settings.jacobiRelaxation;
  constexpr size_t kApply = ColourSchedule::kPhases;
  size_t sizes[kApply + 1], minRanges[kApply + 1];
  solverData.schedule.phases(sizes, minRanges);
  sizes[kApply] = count();
  minRanges[kApply] = kParticlesPerTask;
  auto body = [&](size_t phase, size_t b, size_t e) {
    if (phase == kApply)
      axpyRange(particles.p.data(), particles.p.data(), omega, solverData.jacobiDelta.data(), 3 * b, 3 * e);
    else
      accumulate(begin[phase] + b, begin[phase] + e);
  };
  tasks->parallelPhases(kApply + 1, sizes, minRanges, body);
}

/// Each solver's distance multipliers start every solve at 0. Coloured Gauss-Seidel zeroes only what it reads: its
/// compliant batches' multipliers and the overflow group's (rigid batches read none).
void World::Impl::zeroDistanceMultipliers() {
  switch (settings.solver) {
    case Solver::GaussSeidel:
      std::fill(constraints.distanceLambda.begin(), constraints.distanceLambda.end(), Real(0));
      break;
    case Solver::ColouredGaussSeidel:
    case Solver::Hierarchical:
      std::fill(solverData.schedule.lambda.begin() + solverData.schedule.colourBegin[GraphColouring::kOverflow],
                solverData.schedule.lambda.end(), Real(0));
      if (solverData.schedule.blocks.anyCompliant)
        std::fill(solverData.schedule.blocks.lambda.begin(), solverData.schedule.blocks.lambda.end(), Real(0));
      for (uint32_t k : solverData.schedule.blocks.unbanded) solverData.schedule.lambda[k] = 0;
      break;
    case Solver::Jacobi:
    case Solver::ProjectiveDynamics:
    case Solver::VertexBlockDescent:
      std::fill(solverData.schedule.lambda.begin(), solverData.schedule.lambda.end(), Real(0));
      break;
  }
}

}  // namespace pbd

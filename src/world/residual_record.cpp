// The residual record: the distance constraints' residual after each pass, summed the same way on any thread count.
#include <algorithm>
#include <cmath>

#include "constraints/distance.h"
#include "world/world_state.h"

namespace pbd {

namespace {

/// Parts the residual record cuts a list of batches or constraints into.
constexpr size_t kResidualParts = 32;
/// Smallest part, in batches and in constraints: a world with fewer is summed in one part, on one thread.
constexpr size_t kMinResidualBatchesPerPart = 1024, kMinResidualConstraintsPerPart = 4096;
/// A thread's range holds at least this many smallest parts' worth of items: fewer are summed sooner on the calling
/// thread than handed out (docs/performance.md, "Tuned constants"). It groups the parts, never changes them: the same bits.
constexpr size_t kMinResidualPartsPerRange = 4;

/// Adds addRange(begin, end, partSums) over [0, count) to `sums`: cut into at most kResidualParts parts of at least
/// minPart items, whose sizes depend on `count` only, each part summed on some thread into its own sums, then the
/// parts merged in order. So the record runs on every thread and gives the same bits on any number of them.
template <class AddRange>
void addResidualsInParts(TaskSystem& tasks, size_t count, size_t minPart, AddRange addRange, ResidualSums& sums) {
  const size_t partSize = std::max(minPart, (count + kResidualParts - 1) / kResidualParts);
  const size_t parts = (count + partSize - 1) / partSize;
  ResidualSums partSums[kResidualParts];
  auto body = [&](size_t begin, size_t end) {
    for (size_t q = begin; q < end; ++q) addRange(q * partSize, std::min(count, (q + 1) * partSize), partSums[q]);
  };
  tasks.parallelFor(parts, (kMinResidualPartsPerRange * minPart + partSize - 1) / partSize, body);
  for (size_t q = 0; q < parts; ++q) sums.merge(partSums[q]);
}

}  // namespace

/// Residual of the distance constraints after a pass: r = C (PBD) or C + α̃λ (XPBD, the multiplier's equation).
void World::Impl::recordResidual(size_t pass, Real invH2) {
  const bool gaussSeidel = settings.solver == Solver::GaussSeidel;
  const DistanceConstraint* cs = gaussSeidel ? constraints.distances.data() : solverData.schedule.constraints.data();
  const Real* lambda = gaussSeidel ? constraints.distanceLambda.data() : solverData.schedule.lambda.data();
  const bool blocked = settings.solver == Solver::ColouredGaussSeidel || settings.solver == Solver::Hierarchical;
  const bool xpbd = settings.method == Method::Xpbd;
  ResidualSums sums;
  if (blocked) {  // the batches, then the unbanded and the overflow group, whose constraints are in no batch
    const BlockSchedule& blocks = solverData.schedule.blocks;
    auto addBatches = [&](size_t begin, size_t end, ResidualSums& part) {
      addDistanceBatchResiduals(blocks.batches.data(), blocks.strengths.data(), blocks.lambda.data(), begin, end,
                                particles.p.data(), count(), xpbd, invH2, part);
    };
    addResidualsInParts(*tasks, blocks.batches.size(), kMinResidualBatchesPerPart, addBatches, sums);
    for (uint32_t k : blocks.unbanded)
      addDistanceResiduals(cs, lambda, k, k + 1, particles.p.data(), xpbd, invH2, sums);
    addDistanceResiduals(cs, lambda, solverData.schedule.colourBegin[GraphColouring::kOverflow],
                         solverData.schedule.colourBegin[GraphColouring::kOverflow + 1], particles.p.data(), xpbd,
                         invH2, sums);
  } else {
    auto addConstraints = [&](size_t begin, size_t end, ResidualSums& part) {
      addDistanceResiduals(cs, lambda, begin, end, particles.p.data(), xpbd, invH2, part);
    };
    addResidualsInParts(*tasks, constraints.distances.size(), kMinResidualConstraintsPerPart, addConstraints, sums);
  }
  diagnostics.residuals[2 * pass] = Real(sums.maxAbs);
  diagnostics.residuals[2 * pass + 1] =
      constraints.distances.empty() ? Real(0) : Real(std::sqrt(sums.sumSq() / double(constraints.distances.size())));
}

}  // namespace pbd

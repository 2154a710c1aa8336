// Solver::Hierarchical's stage in the world: (re)building the hierarchy from the world's distance constraints
// when they, the particles, the pins or the hierarchy settings changed. The pre-pass itself is Hierarchy::solve.
#include <string>

#include "base/checks.h"
#include "world/world_state.h"

namespace pbd {

/// Called before the substeps when the solver is Hierarchical. Building allocates, so it happens only at the first
/// step after a change; every later step reuses the levels as they are.
///
/// A hierarchy asked for (hierarchyLevels >= 2) of which not even the first coarse level can be built is an error,
/// thrown before anything moved (the world is unchanged; the next step tries again): the user asked for HPBD and
/// would silently get the coloured solve. Fewer levels than asked (at least one) are built silently, as documented
/// in settings.h, and a world without distance constraints has nothing for a hierarchy to act on (HPBD is the
/// coloured solve there, e.g. a soft body made of tets only), so neither throws.
void World::Impl::refreshHierarchy() {
  const HierarchyParams params{settings.hierarchyLevels, settings.hierarchyParents, settings.coarseIterations};
  if (!solverData.hierarchy.dirty && solverData.hierarchy.params() == params) return;
  solverData.hierarchy.build(constraints.distances.data(), constraints.distances.size(), particles.restX.data(),
                             particles.w.data(), count(), params);
  if (params.levels < 2 || solverData.hierarchy.levelCount() > 1 || constraints.distances.empty()) return;
  solverData.hierarchy.dirty = true;  // not a usable build: try again (and fail again) at the next step
  const size_t kept = solverData.hierarchy.refusedKept(), from = solverData.hierarchy.refusedFrom();
  const std::string why =
      "asks for coarse levels, but not even the first can be built: it would keep " + std::to_string(kept) +
      " of the " + std::to_string(from) + " particles, and a coarse level needs at least " +
      std::to_string(kMinCoarseParticles) + (kept >= kMinCoarseParticles ? " and fewer than the level below" : "") +
      " (too few particles joined by distance constraints; use hierarchyLevels = 1 or another solver)";
  check::fail("step", "hierarchyLevels", why.c_str(), params.levels);
}

}  // namespace pbd

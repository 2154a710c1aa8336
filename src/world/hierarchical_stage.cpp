// Solver::Hierarchical's stage in the world: (re)building the hierarchy from the world's distance constraints
// when they, the particles, the pins or the hierarchy settings changed. The pre-pass itself is Hierarchy::solve.
#include "world/world_state.h"

namespace pbd {

/// Called before the substeps when the solver is Hierarchical. Building allocates, so it happens only at the first
/// step after a change; every later step reuses the levels as they are.
void World::Impl::refreshHierarchy() {
  const HierarchyParams params{settings.hierarchyLevels, settings.hierarchyParents, settings.coarseIterations};
  if (!hierarchy.dirty && hierarchy.params() == params) return;
  hierarchy.build(distances.data(), distances.size(), restX.data(), w.data(), count(), params);
}

}  // namespace pbd

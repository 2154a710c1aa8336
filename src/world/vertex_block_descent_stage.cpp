// Solver::VertexBlockDescent as a stage of the step: the world's distance constraints are VBD's springs and hard
// constraints (solvers/vertex_block_descent.h); every other constraint kind, the attachments and the contacts are
// projected PBD-style after each iteration by the step (step.cpp), as with Projective Dynamics.
#include "world/world_state.h"

namespace pbd {

/// Before the substeps: the colouring and adjacency follow the distance constraints (rebuilt, allocating, only at
/// the first step after they changed).
void World::Impl::refreshVertexBlockDescent() {
  if (!solverData.vbd.dirty) return;
  solverData.vbd.build(constraints.distances.data(), constraints.distances.size(), count());
}

/// One VBD iteration on p; invH2 = 1/h_eff² (BDF2's effective step under BDF2).
void World::Impl::solveVertexBlockDescent(Real invH2) {
  solverData.vbd.iterate(particles.p.data(), particles.inertial.data(), particles.w.data(),
                         constraints.distances.data(), double(invH2), *tasks);
}

}  // namespace pbd

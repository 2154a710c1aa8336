// Solver::VertexBlockDescent as a stage of the step: the world's distance constraints, dihedrals, tet volumes and
// Neo-Hookean tets are VBD's elements (solvers/vertex_block_descent.h); every other constraint kind, the attachments
// and the contacts are projected PBD-style after each iteration by the step (step.cpp), as with Projective Dynamics.
#include "world/world_state.h"

namespace pbd {

VbdElements World::Impl::vertexBlockDescentElements() const {
  const ConstraintStore& c = constraints;
  return {c.distances.data(),  uint32_t(c.distances.size()), c.dihedrals.data(),   uint32_t(c.dihedrals.size()),
          c.volumes.data(),    uint32_t(c.volumes.size()),   c.neoHookeans.data(), uint32_t(c.neoHookeans.size())};
}

/// Before the substeps: the colouring and incidences follow the elements (rebuilt, allocating, only at the first
/// step after they changed).
void World::Impl::refreshVertexBlockDescent() {
  solverData.vbd.beginStep();
  if (!solverData.vbd.dirty) return;
  solverData.vbd.build(vertexBlockDescentElements(), particles.restX.data(), count());
}

/// Before a substep's iterations: each element's stiffness for this h; invH2 = 1/h_eff².
void World::Impl::beginVertexBlockDescent(Real invH2) {
  solverData.vbd.beginSubstep(vertexBlockDescentElements(), particles.w.data(), settings.method == Method::Xpbd,
                              double(invH2));
}

/// One VBD iteration on p.
void World::Impl::solveVertexBlockDescent(Real invH2) {
  solverData.vbd.iterate(particles.p.data(), particles.inertial.data(), particles.w.data(),
                         vertexBlockDescentElements(), double(invH2), *tasks);
}

}  // namespace pbd

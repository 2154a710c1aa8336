// Solver::VertexBlockDescent as a stage of the step: the world's distance constraints, dihedrals, tet volumes,
// Neo-Hookean tets, strain triangles and attachments are VBD's elements (solvers/vertex_block_descent.h); every other
// constraint kind and the contacts are projected PBD-style after each iteration by the step (step.cpp), as with
// Projective Dynamics.
#include "world/world_state.h"

namespace pbd {

VbdElements World::Impl::vertexBlockDescentElements() const {
  const ConstraintStore& c = constraints;
  const std::vector<VbdAttachment>& a = solverData.vbdAttachments;
  VbdElements e;
  e.springs = c.distances.data(), e.springCount = uint32_t(c.distances.size());
  e.dihedrals = c.dihedrals.data(), e.dihedralCount = uint32_t(c.dihedrals.size());
  e.volumes = c.volumes.data(), e.volumeCount = uint32_t(c.volumes.size());
  e.neoHookeans = c.neoHookeans.data(), e.neoHookeanCount = uint32_t(c.neoHookeans.size());
  e.triangles = c.triangleStrains.data(), e.triangleCount = uint32_t(c.triangleStrains.size());
  e.attachments = a.data(), e.attachmentCount = uint32_t(a.size());
  return e;
}

size_t World::Impl::vertexBlockDescentElementCount() const {
  VbdElements e = vertexBlockDescentElements();
  e.attachmentCount = uint32_t(constraints.attachments.size());  // VBD's copy follows them at the next step
  return e.count();
}

/// Before the substeps: the colouring and incidences follow the elements (rebuilt, allocating, only at the first
/// step after they changed).
void World::Impl::refreshVertexBlockDescent() {
  solverData.vbd.beginStep();
  if (solverData.vbdAttachments.size() != constraints.attachments.size()) {
    solverData.vbdAttachments.resize(constraints.attachments.size());
    solverData.vbd.dirty = true;
  }
  if (!solverData.vbd.dirty) return;
  fillVertexBlockDescentAttachments(0);  // for the build: which particles they hold (each substep fills targets)
  solverData.vbd.build(vertexBlockDescentElements(), particles.restX.data(), count());
}

/// The attachments with their targets where they are at `stepFraction` of the step (as the PBD projection moves
/// them), into the buffer VBD reads.
void World::Impl::fillVertexBlockDescentAttachments(Real stepFraction) {
  for (size_t k = 0; k < constraints.attachments.size(); ++k) {
    const Attachment& a = constraints.attachments[k];
    const Vec3 target = attachmentTarget(a, stepFraction);
    solverData.vbdAttachments[k] = {a.particle, {target.x(), target.y(), target.z()}, a.compliance, a.stiffness,
                                    a.active ? 1u : 0u};
  }
}

/// Before a substep's iterations: the attachments' targets, each element's stiffness; invH2 = 1/h_eff².
void World::Impl::beginVertexBlockDescent(Real invH2, Real stepFraction) {
  fillVertexBlockDescentAttachments(stepFraction);
  solverData.vbd.beginSubstep(vertexBlockDescentElements(), particles.w.data(), settings.method == Method::Xpbd,
                              double(invH2), double(settings.chebyshevRho));
}

/// One VBD iteration on p.
void World::Impl::solveVertexBlockDescent(Real invH2) {
  solverData.vbd.iterate(particles.p.data(), particles.inertial.data(), particles.w.data(),
                         vertexBlockDescentElements(), double(invH2), *tasks);
}

}  // namespace pbd

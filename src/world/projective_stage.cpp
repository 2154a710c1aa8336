// Solver::ProjectiveDynamics as a stage of the step: the world's distance, dihedral, volume and Neo-Hookean
// constraints become PD elements (solvers/projective_dynamics.h), checked once per step against the factored ones,
// and each iteration is one local/global solve. The other constraints, attachments and contacts are projected
// PBD-style after it by the step (step.cpp), so they behave as with the other solvers.
#include "solvers/projective_dynamics.h"
#include "world/world_state.h"

namespace pbd {

/// Rebuilds the element list from the world's constraints into the system's scratch buffer (no allocation while the
/// counts hold) and hands it over; the system refactors only if something the matrix depends on changed. The factor
/// for the first substep is made here, before anything moves, so that a matrix that is not positive definite throws
/// with the world unchanged (see ProjectiveSystem::prepare for why that cannot happen through the World).
void World::Impl::refreshProjective(Real firstInvH2) {
  std::vector<PdElement>& next = solverData.projective.scratch();
  next.clear();
  next.reserve(constraints.distances.size() + constraints.dihedrals.size() + constraints.volumes.size() +
               2 * constraints.neoHookeans.size());
  const Real* invMass = particles.w.data();
  const Vec3* rest = asVec3(particles.restX);
  PdElement e[2];
  for (uint32_t k = 0; k < constraints.distances.size(); ++k)
    if (pdEdgeElement(constraints.distances[k], k, invMass, e[0])) next.push_back(e[0]);
  for (uint32_t k = 0; k < constraints.dihedrals.size(); ++k)
    if (pdBendingElement(constraints.dihedrals[k], k, invMass, rest, e[0])) next.push_back(e[0]);
  for (uint32_t k = 0; k < constraints.volumes.size(); ++k)
    if (pdTetVolumeElement(constraints.volumes[k], k, invMass, rest, e[0])) next.push_back(e[0]);
  for (uint32_t k = 0; k < constraints.neoHookeans.size(); ++k) {
    const int n = pdNeoHookeanElements(constraints.neoHookeans[k], k, invMass, e);
    for (int j = 0; j < n; ++j) next.push_back(e[j]);
  }
  solverData.projective.update(particles.w);
  solverData.projective.prepare(settings.method == Method::Xpbd, double(firstInvH2));
}

/// One PD iteration on p: distances, dihedrals, tet volumes and Neo-Hookean tets together. invH2 = 1/h_eff².
void World::Impl::solveProjective(Real invH2) {
  solverData.projective.prepare(settings.method == Method::Xpbd, double(invH2));
  solverData.projective.iterate(asVec3(particles.p), asVec3(particles.inertial), *tasks);
}

uint64_t World::projectiveFactorizationCount() const { return impl_->solverData.projective.factorizations(); }

}  // namespace pbd

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
  std::vector<PdElement>& next = projective.scratch();
  next.clear();
  next.reserve(distances.size() + dihedrals.size() + volumes.size() + 2 * neoHookeans.size());
  const Real* invMass = w.data();
  const Vec3* rest = asVec3(restX);
  PdElement e[2];
  for (uint32_t k = 0; k < distances.size(); ++k)
    if (pdEdgeElement(distances[k], k, invMass, e[0])) next.push_back(e[0]);
  for (uint32_t k = 0; k < dihedrals.size(); ++k)
    if (pdBendingElement(dihedrals[k], k, invMass, rest, e[0])) next.push_back(e[0]);
  for (uint32_t k = 0; k < volumes.size(); ++k)
    if (pdTetVolumeElement(volumes[k], k, invMass, rest, e[0])) next.push_back(e[0]);
  for (uint32_t k = 0; k < neoHookeans.size(); ++k) {
    const int n = pdNeoHookeanElements(neoHookeans[k], k, invMass, e);
    for (int j = 0; j < n; ++j) next.push_back(e[j]);
  }
  projective.update(w);
  projective.prepare(settings.method == Method::Xpbd, double(firstInvH2));
}

/// One PD iteration on p: distances, dihedrals, tet volumes and Neo-Hookean tets together. invH2 = 1/h_eff².
void World::Impl::solveProjective(Real invH2) {
  projective.prepare(settings.method == Method::Xpbd, double(invH2));
  projective.iterate(asVec3(p), asVec3(inertial), *tasks);
}

uint64_t World::projectiveFactorizationCount() const { return impl_->projective.factorizations(); }

}  // namespace pbd

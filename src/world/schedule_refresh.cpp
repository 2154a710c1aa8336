// What the substeps derive from the settings and the constraints (k', the colour schedule, the element orders),
// refreshed before them.
#include <algorithm>

#include "world/symmetric_sweep.h"
#include "world/world_state.h"

namespace pbd {

/// k' depends on the iteration count, and the colour schedule on the constraints: both are refreshed here, before
/// the substeps, into buffers reserved when constraints were added (no allocation).
void World::Impl::refreshDerivedData() {
  if (kPrimeIterations != settings.iterations) {
    kPrimeIterations = settings.iterations;
    for (DistanceConstraint& c : distances) c.kPrime = correctedStiffness(c.stiffness, kPrimeIterations);
    for (Attachment& a : attachments) a.kPrime = correctedStiffness(a.stiffness, kPrimeIterations);
    for (DihedralConstraint& d : dihedrals) d.kPrime = symmetricSweepKPrime(d.stiffness, kPrimeIterations);
    for (TetVolumeConstraint& t : volumes) t.kPrime = symmetricSweepKPrime(t.stiffness, kPrimeIterations);
    for (NeoHookeanTet& e : neoHookeans) {
      e.deviatoricKPrime = symmetricSweepKPrime(e.deviatoricStiffness, kPrimeIterations);
      e.hydrostaticKPrime = symmetricSweepKPrime(e.hydrostaticStiffness, kPrimeIterations);
    }
    for (SurfaceVolumeConstraint& g : surfaceVolumes) g.kPrime = correctedStiffness(g.stiffness, kPrimeIterations);
    for (TriangleStrainConstraint& t : triangleStrains) {
      t.stretchKPrime = correctedStiffness(t.stretchStiffness, kPrimeIterations);
      t.shearKPrime = correctedStiffness(t.shearStiffness, kPrimeIterations);
    }
    for (ShapeMatchingCluster& c : shapeMatchings) c.kPrime = correctedStiffness(c.stiffness, kPrimeIterations);
    schedule.dirty = true;
  }
  refreshElementOrders();
  refreshIslands();
  largestBodyMargin = 0;  // the mesh colliders' broad phase reaches this far beyond their thickness
  for (const ContactMaterial& b : bodyMaterials) largestBodyMargin = std::max(largestBodyMargin, b.thickness);
  if (schedule.dirty) hierarchy.dirty = true;  // same triggers: particles, distance constraints, strengths
  if (!schedule.dirty) return;
  // Counting sort by colour; the overflow group keeps the order added (it runs as one Gauss-Seidel sweep, where
  // order matters). Constraints of one colour share no particle: their order changes no result.
  constexpr uint32_t kGroups = GraphColouring::kColours + 1;
  uint32_t* begin = schedule.colourBegin;
  std::fill(begin, begin + kGroups + 1, 0u);
  for (size_t c = 0; c < distances.size(); ++c) ++begin[distanceColour[c] + 1];
  for (uint32_t g = 0; g < kGroups; ++g) begin[g + 1] += begin[g];
  schedule.constraints.resize(distances.size());
  schedule.lambda.resize(distances.size());
  uint32_t next[kGroups];
  std::copy(begin, begin + kGroups, next);
  for (size_t c = 0; c < distances.size(); ++c) schedule.constraints[next[distanceColour[c]]++] = distances[c];
  schedule.blocks.rebuild(schedule.constraints.data(), begin, count());
  paddedP.assign(4 * schedule.blocks.paddedParticles(count()), Real(0));  // padding particles: inverse mass 0
  schedule.constraintsPerParticle.assign(count(), 0);
  for (const DistanceConstraint& d : distances) {
    ++schedule.constraintsPerParticle[d.i];
    ++schedule.constraintsPerParticle[d.j];
  }
  schedule.dirty = false;
}

void World::Impl::reserveElementOrders(size_t particles) {
  dihedralOrder.reserve(particles, dihedrals.capacity());
  volumeOrder.reserve(particles, volumes.capacity());
  neoHookeanOrder.reserve(particles, neoHookeans.capacity());
}

void World::Impl::refreshElementOrders() {
  if (!elementOrdersDirty) return;
  dihedralOrder.rebuild(dihedrals.size(), count(), [&](size_t k) { return &dihedrals[k].p0; });
  volumeOrder.rebuild(volumes.size(), count(), [&](size_t k) { return volumes[k].p; });
  neoHookeanOrder.rebuild(neoHookeans.size(), count(), [&](size_t k) { return neoHookeans[k].p; });
  elementOrdersDirty = false;
}

}  // namespace pbd

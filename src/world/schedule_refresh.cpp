// What the substeps derive from the settings and the constraints (k', the colour schedule, the element orders),
// refreshed before them.
#include <algorithm>
#include <array>

#include "world/symmetric_sweep.h"
#include "world/world_state.h"

namespace pbd {

/// k' depends on the iteration count, and the colour schedule on the constraints: both are refreshed here, before
/// the substeps, into buffers reserved when constraints were added (no allocation).
void World::Impl::refreshDerivedData() {
  if (constraints.kPrimeIterations != settings.iterations) {
    constraints.kPrimeIterations = settings.iterations;
    for (DistanceConstraint& c : constraints.distances)
      c.kPrime = correctedStiffness(c.stiffness, constraints.kPrimeIterations);
    for (Attachment& a : constraints.attachments)
      a.kPrime = correctedStiffness(a.stiffness, constraints.kPrimeIterations);
    for (DihedralConstraint& d : constraints.dihedrals)
      d.kPrime = symmetricSweepKPrime(d.stiffness, constraints.kPrimeIterations);
    for (TetVolumeConstraint& t : constraints.volumes)
      t.kPrime = symmetricSweepKPrime(t.stiffness, constraints.kPrimeIterations);
    solverData.volumePackDirty = true;
    for (NeoHookeanTet& e : constraints.neoHookeans) {
      e.deviatoricKPrime = symmetricSweepKPrime(e.deviatoricStiffness, constraints.kPrimeIterations);
      e.hydrostaticKPrime = symmetricSweepKPrime(e.hydrostaticStiffness, constraints.kPrimeIterations);
    }
    for (SurfaceVolumeConstraint& g : constraints.surfaceVolumes)
      g.kPrime = correctedStiffness(g.stiffness, constraints.kPrimeIterations);
    for (TriangleStrainConstraint& t : constraints.triangleStrains) {
      t.stretchKPrime = symmetricSweepKPrime(t.stretchStiffness, constraints.kPrimeIterations);
      t.shearKPrime = symmetricSweepKPrime(t.shearStiffness, constraints.kPrimeIterations);
    }
    for (ShapeMatchingCluster& c : constraints.shapeMatchings)
      c.kPrime = correctedStiffness(c.stiffness, constraints.kPrimeIterations);
    solverData.schedule.dirty = true;
  }
  refreshElementOrders();
  if (solverData.volumePackDirty || solverData.schedule.dirty)  // the volumes, the distances or their strengths
    solverData.volumeSweep.refresh(constraints.distances, constraints.volumes, count());
  if (solverData.volumePackDirty) {
    const std::vector<uint32_t>& placeOf = solverData.volumePlaceOfParticle;
    solverData.volumePack.pack(constraints.volumes.data(), solverData.volumeOrder.order().data(),
                               constraints.volumes.size(), placeOf.empty() ? nullptr : placeOf.data());
    solverData.volumePackDirty = false;
  }
  refreshIslands();
  particles.largestBodyMargin = 0;  // the mesh colliders' broad phase reaches this far beyond their thickness
  for (const ContactMaterial& b : particles.bodyMaterials)
    particles.largestBodyMargin = std::max(particles.largestBodyMargin, b.thickness);
  if (solverData.schedule.dirty) {  // same triggers: particles, distance constraints, strengths
    solverData.hierarchy.dirty = true;
    solverData.vbd.dirty = true;
  }
  if (!solverData.schedule.dirty) return;
  // Counting sort by colour; the overflow group keeps the order added (it runs as one Gauss-Seidel sweep, where
  // order matters). Constraints of one colour share no particle: their order changes no result.
  constexpr uint32_t kGroups = GraphColouring::kColours + 1;
  uint32_t* begin = solverData.schedule.colourBegin;
  std::fill(begin, begin + kGroups + 1, 0u);
  for (size_t c = 0; c < constraints.distances.size(); ++c) ++begin[constraints.distanceColour[c] + 1];
  for (uint32_t g = 0; g < kGroups; ++g) begin[g + 1] += begin[g];
  solverData.schedule.constraints.resize(constraints.distances.size());
  solverData.schedule.lambda.resize(constraints.distances.size());
  uint32_t next[kGroups];
  std::copy(begin, begin + kGroups, next);
  for (size_t c = 0; c < constraints.distances.size(); ++c)
    solverData.schedule.constraints[next[constraints.distanceColour[c]]++] = constraints.distances[c];
  solverData.schedule.blocks.rebuild(solverData.schedule.constraints.data(), begin, count());
  solverData.paddedP.assign(4 * solverData.schedule.blocks.paddedParticles(count()),
                            Real(0));  // padding particles: inverse mass 0
  solverData.schedule.constraintsPerParticle.assign(count(), 0);
  for (const DistanceConstraint& d : constraints.distances) {
    ++solverData.schedule.constraintsPerParticle[d.i];
    ++solverData.schedule.constraintsPerParticle[d.j];
  }
  solverData.schedule.dirty = false;
}

void World::Impl::reserveElementOrders(size_t particles) {
  solverData.dihedralOrder.reserve(particles, constraints.dihedrals.capacity());
  solverData.volumeOrder.reserve(particles, constraints.volumes.capacity());
  solverData.volumePack.reserve(constraints.volumes.capacity());
  solverData.volumeSweep.reserve(particles, constraints.distances.capacity(), constraints.volumes.capacity());
  for (std::vector<uint32_t>* v : {&solverData.volumeParticleAtPlace, &solverData.volumePlaceOfParticle,
                                   &solverData.neoHookeanParticleAtPlace, &solverData.neoHookeanPlaceOfParticle})
    v->reserve(particles);
  solverData.neoHookeanOrder.reserve(particles, constraints.neoHookeans.capacity());
  solverData.triangleStrainOrder.reserve(particles, constraints.triangleStrains.capacity());
}

void World::Impl::refreshElementOrders() {
  if (!solverData.elementOrdersDirty) return;
  solverData.vbd.dirty = true;  // VBD's colouring covers the elements too
  solverData.dihedralOrder.rebuild(constraints.dihedrals.size(), count(),
                                   [&](size_t k) { return &constraints.dihedrals[k].p0; });
  auto volumeParticles = [&](size_t k) { return constraints.volumes[k].p; };
  auto neoHookeanParticles = [&](size_t k) { return constraints.neoHookeans[k].p; };
  solverData.volumeOrder.rebuild(constraints.volumes.size(), count(), volumeParticles);
  solverData.volumePackDirty = true;
  solverData.neoHookeanOrder.rebuild(constraints.neoHookeans.size(), count(), neoHookeanParticles);
  // A triangle's particles as the order reads them: its three and the last again (the order's elements have four).
  solverData.triangleStrainOrder.rebuild(constraints.triangleStrains.size(), count(), [&](size_t k) {
    const uint32_t* p = constraints.triangleStrains[k].p;
    return std::array<uint32_t, 4>{p[0], p[1], p[2], p[2]};
  });
  // Each half's particles together where the numbering interleaves them (ElementOrder::placeHalvesApart).
  auto place = [&](const ElementOrder& order, auto particlesOf, std::vector<uint32_t>& atPlace,
                   std::vector<uint32_t>& placeOf) {
    if (solverData.placeHalvesApart) order.placeHalvesApart(count(), particlesOf, atPlace, placeOf);
    else atPlace.clear(), placeOf.clear();
  };
  place(solverData.volumeOrder, volumeParticles, solverData.volumeParticleAtPlace, solverData.volumePlaceOfParticle);
  place(solverData.neoHookeanOrder, neoHookeanParticles, solverData.neoHookeanParticleAtPlace,
        solverData.neoHookeanPlaceOfParticle);
  solverData.elementOrdersDirty = false;
}

}  // namespace pbd

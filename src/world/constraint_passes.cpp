// One projection pass per constraint kind other than distances: dihedrals, tet volumes, Neo-Hookean tets, strain
// triangles, tethers, attachments, contacts and skinned constraints.
#include "constraints/attachment.h"
#include "constraints/padded_vertices.h"
#include "constraints/tet_volume.h"
#include "constraints/triangle_strain.h"
#include "world/symmetric_sweep.h"
#include "world/world_state.h"

namespace pbd {

namespace {

/// sweepOnPaddedPositions' places for a sweep whose particles sit at their own numbers.
const std::vector<uint32_t> kNoPlaces;

}  // namespace

/// The element sweep (symmetric_sweep.h) on paddedP: p and w copied in as its first phase, p copied back as its
/// last, so the batched element kernels load whole vectors; particle atPlace[r] at place r when given (placeOf its
/// inverse), else each at its own number.
template <class Batch, class One>
void World::Impl::sweepOnPaddedPositions(const ElementOrder& order, ElementSweep ways, size_t batchesPerTask,
                                         Batch&& batch, One&& one, const std::vector<uint32_t>& atPlace,
                                         const std::vector<uint32_t>& placeOf) {
  Real* xyzw = solverData.paddedP.data();
  const bool placed = !atPlace.empty();
  colouredElementSweep(
      *tasks, order, ways, batchesPerTask, batch, one, count(), kParticlesPerTask,
      [&](size_t b, size_t e) {
        if (placed) padPositionsInOrder(particles.p.data(), particles.w.data(), atPlace.data(), b, e, xyzw);
        else padPositions(particles.p.data(), particles.w.data(), b, e, xyzw);
      },
      [&](size_t b, size_t e) {
        if (placed) unpadPositionsInOrder(xyzw, placeOf.data(), b, e, particles.p.data());
        else unpadPositions(xyzw, b, e, particles.p.data());
      });
}

/// Dihedral bending in a symmetric sweep in colour order: four at a time within a colour, on paddedP (p with the
/// inverse mass as a fourth float, as the coloured distance pass uses it). A batch then loads and stores each
/// particle as one vector instead of 16 gathers and 12 scatters of four values (docs/performance.md, "Tuned constants").
void World::Impl::projectDihedrals(bool xpbd, Real invH2) {
  Real* xyzw = solverData.paddedP.data();
  sweepOnPaddedPositions(
      solverData.dihedralOrder, ElementSweep::Symmetric, kDihedralBatchesPerTask,
      [&](uint32_t b, uint32_t e) {
        projectDihedralsBatched(constraints.dihedrals.data(), solverData.dihedralOrder.order().data(), b, e,
                                constraints.dihedralLambda.data(), xyzw, xpbd, invH2);
      },
      [&](uint32_t k) {
        projectDihedralPadded(constraints.dihedrals[k], xyzw, xpbd, invH2, constraints.dihedralLambda[k]);
      });
}

/// Tet volumes in colour order, one way or forward and back as volumeSweep chooses (volume_sweep.h): four at a time
/// within a colour, on paddedP as the dihedrals are, the particles where volumeParticleAtPlace puts them.
void World::Impl::projectVolumes(bool xpbd, Real invH2) {
  Real* xyzw = solverData.paddedP.data();
  const TetVolumeConstraint* tets = solverData.volumePack.tets(constraints.volumes.data());
  sweepOnPaddedPositions(
      solverData.volumeOrder, solverData.volumeSweep.sweep(xpbd, settings.solver), kElementBatchesPerTask,
      [&](uint32_t b, uint32_t e) {
        projectPackedTetVolumes(solverData.volumePack, tets, solverData.volumeOrder.order().data(), b, e,
                                constraints.volumeLambda.data(), xyzw, xpbd, invH2);
      },
      [&](uint32_t k) { projectTetVolumePadded(tets[k], xyzw, xpbd, invH2, constraints.volumeLambda[k]); },
      solverData.volumeParticleAtPlace, solverData.volumePlaceOfParticle);
}

/// Neo-Hookean tets in a symmetric sweep in colour order (symmetric_sweep.h), each with its two constraints solved
/// together, four at a time within a colour (projectNeoHookeansBatched), on paddedP; on threads with places (a split
/// body numbered without locality) each particle at its place there: the same bits either way.
void World::Impl::projectNeoHookeans(bool xpbd, Real invH2) {
  Real* xyzw = solverData.paddedP.data();
  const bool placed = !solverData.neoHookeanPlaceOfParticle.empty() && tasks->concurrency() > 1;
  const std::vector<uint32_t>& atPlace = placed ? solverData.neoHookeanParticleAtPlace : kNoPlaces;
  const std::vector<uint32_t>& placeOf = placed ? solverData.neoHookeanPlaceOfParticle : kNoPlaces;
  const uint32_t* places = placed ? placeOf.data() : nullptr;
  Real* lambda = constraints.neoHookeanLambda.data();
  sweepOnPaddedPositions(
      solverData.neoHookeanOrder, ElementSweep::Symmetric, kElementBatchesPerTask,
      [&](uint32_t b, uint32_t e) {
        projectNeoHookeansBatched(constraints.neoHookeans.data(), solverData.neoHookeanOrder.order().data(), b, e,
                                  lambda, xyzw, xpbd, invH2, places);
      },
      [&](uint32_t k) { projectNeoHookeanPadded(constraints.neoHookeans[k], k, lambda, xyzw, xpbd, invH2, places); },
      atPlace, placeOf);
}

/// Strain triangles in a symmetric sweep in colour order (symmetric_sweep.h), four at a time within a colour
/// (projectTriangleStrainsBatched), on paddedP.
void World::Impl::projectTriangleStrains(bool xpbd, Real invH2) {
  Real* xyzw = solverData.paddedP.data();
  Real* lambda = constraints.triangleStrainLambda.data();
  const TriangleStrainConstraint* cs = constraints.triangleStrains.data();
  sweepOnPaddedPositions(
      solverData.triangleStrainOrder, ElementSweep::Symmetric, kElementBatchesPerTask,
      [&](uint32_t b, uint32_t e) {
        projectTriangleStrainsBatched(cs, solverData.triangleStrainOrder.order().data(), b, e, lambda, xyzw, xpbd,
                                      invH2);
      },
      [&](uint32_t k) { projectTriangleStrainPadded(cs[k], k, lambda, xyzw, xpbd, invH2); }, kNoPlaces, kNoPlaces);
}

/// Tethers after the distance constraints: whatever stretch the iteration left, no particle ends it further from
/// its anchor than allowed. Each tether moves only its own particle, so they run in parallel.
void World::Impl::projectTethers() {
  if (constraints.tethers.empty()) return;
  Vec3* P = asVec3(particles.p);
  auto body = [&](size_t begin, size_t end) {
    for (size_t k = begin; k < end; ++k) {
      const Tether& t = constraints.tethers[k];
      if (particles.w[t.particle] != 0) projectTether(P[t.particle], P[t.anchor], t.maxLength);
    }
  };
  tasks->parallelFor(constraints.tethers.size(), kParticlesPerTask, body);
}

/// Where attachment `a` pulls its particle `stepFraction` through the step: its collider's point at the substep's end
/// pose (as the contacts see the collider), or its target moving linearly from where the last step left it.
Vec3 World::Impl::attachmentTarget(const Attachment& a, Real stepFraction) const {
  if (a.collider == kNoCollider) return a.startTarget + stepFraction * (a.target - a.startTarget);
  const Collider& c = collision.colliders[a.collider];
  return c.subEndPosition + c.subEndRotation * a.anchor;
}

/// Attachments, then contacts, then the skinned constraints, whose hard limits (the character's body under the
/// cloth) hold when the iteration ends.
void World::Impl::projectAttachmentsAndContacts(bool xpbd, Real invH2, Real stepFraction) {
  Vec3* P = asVec3(particles.p);
  // Vertex Block Descent solved the attachments in its vertex steps.
  const size_t attachments = settings.solver == Solver::VertexBlockDescent ? 0 : constraints.attachments.size();
  for (size_t a = 0; a < attachments; ++a) {
    const Attachment& at = constraints.attachments[a];
    if (!at.active) continue;
    if (collision.bodiesInSolve && at.collider != kNoCollider && collision.dynamicCollider(at.collider)) {
      projectAttachmentToBody(a, xpbd, invH2);
      continue;
    }
    const Vec3 from = P[at.particle];
    constraints.attachmentLambda[a] +=
        projectAttachment(P[at.particle], particles.w[at.particle], attachmentTarget(at, stepFraction), xpbd,
                          at.kPrime, at.compliance * invH2, constraints.attachmentLambda[a]);
    if (collision.countContactPushes) constraints.attachmentMomenta[a] += momentumOfMove(at.particle, from, false);
    if (at.collider != kNoCollider) recordContactMomentum(at.collider, at.particle, from, false);
  }
  projectContacts();
  projectSkinnedConstraints();
}

}  // namespace pbd

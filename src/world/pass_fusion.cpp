// Where the step fuses passes over the particles: each decision, its condition and why the bits stay the same. All
// of them are made here, and `fusePasses` (off only in tests) turns every one off, for the test that the fused and
// the unfused step give the same bits on every scene (tests/native/world/pass_fusion_test.cpp).
//   particlePassJoinsSolve:    the substep's particle pass inside the coloured pass's first copy in;
//   blocksAloneMoveParticles:  the blocks' positions kept padded from the first iteration to the last;
//   copyOutBoundsParticles:    the last copy out bounds the particles for the late contact scan;
//   commitJoinsNextPass:       the commit (v, x from p) left to the next substep's first pass over the particles.
#include "world/world_state.h"

namespace pbd {

/// Whether nothing but the coloured solver's blocks moves a particle between two of its iterations in this substep:
/// no other constraint, contact, guard or record touches p, and every distance is in a batch. The blocks' positions
/// then stay in paddedP from the first iteration to the last (copied in once and out once, not every iteration: two
/// passes over the particles and two barriers fewer an iteration; copying out and in again changes no bit). Every
/// stage of solveConstraints' iteration loop above has its term here: a stage added there needs one.
bool World::Impl::blocksAloneMoveParticles(bool useBdf2, size_t pass) const {
  if (!fusePasses) return false;
  const bool coloured = settings.solver == Solver::ColouredGaussSeidel || settings.solver == Solver::Hierarchical;
  const BlockSchedule& blocks = solverData.schedule.blocks;
  const bool batchesAlone =
      blocks.unbanded.empty() && solverData.schedule.colourBegin[GraphColouring::kOverflow] ==
                                     solverData.schedule.colourBegin[GraphColouring::kOverflow + 1];
  return coloured && !useBdf2 && pass == kNoResiduals && !islands.anyFreeIsland && batchesAlone &&
         constraints.triangleStrains.empty() && constraints.dihedrals.empty() && constraints.volumes.empty() &&
         constraints.neoHookeans.empty() && constraints.surfaceVolumes.empty() && constraints.shapeMatchings.empty() &&
         constraints.tethers.empty() && selfCollision.selfCollisionPairs.empty() &&
         selfCollision.selfContacts.empty() && constraints.attachments.empty() && collision.contacts.empty();
}

/// Whether the substep's particle pass (integrateAndPredict) can run inside the coloured pass's first copy in, each
/// range predicted just before it is padded: one dispatch to the threads fewer a substep, and p padded from the cache.
/// Nothing between the two may read or write the particles, or depend on the contacts: the pass is one pass (no rigid
/// damping, not BDF2), no collider or self-collision searches p, no free island (prepareIslandFrames reads x), no
/// HPBD pre-pass, and the copies' ranges are the boxes' runs (the prediction bounds p for the ground scan). The
/// ground's contacts, found after the pass, are none while no box is in its reach; so not when the last substep had
/// contacts, as it then would most likely stop after the copy in.
bool World::Impl::particlePassJoinsSolve(bool useBdf2) const {
  if (!fusePasses || settings.solver != Solver::ColouredGaussSeidel || useBdf2 || settings.rigidDamping > 0 ||
      !collision.colliders.empty() || !collision.contacts.empty() || settings.selfCollision.enabled ||
      !copyOutBoundsParticles()) {
    return false;
  }
  for (const SelfCollidingSurface& s : selfCollision.selfSurfaces) {
    if (s.settings.enabled) return false;
  }
  for (uint32_t k = 0; k + 1 < islands.islandBegin.size(); ++k) {
    if (!islandHasPin(k)) return false;
  }
  return true;
}

/// Whether the coloured pass's copy out can bound the particles (PaddedCopies::bound): it has batches, so it copies,
/// and its ranges start runs of kBoxParticles particles, as particleBoxes' runs do; banded, the bands' starts
/// (multiples of m) must then be such starts too.
bool World::Impl::copyOutBoundsParticles() const {
  if (!fusePasses) return false;
  const BlockSchedule& blocks = solverData.schedule.blocks;
  return !blocks.batches.empty() && (!blocks.banded || blocks.bandParticles % kBoxParticles == 0);
}

/// Whether this substep's commit can be left to the next substep's first pass over the particles, which then commits
/// each chunk before its own stages (one sweep and one dispatch to the threads instead of two): there is a next
/// substep, under implicit Euler, and no contact, self-collision pair or frozen particle whose velocity the passes
/// after the commit update (they read v as the commit leaves it).
bool World::Impl::commitJoinsNextPass(bool nextSubstep) const {
  return fusePasses && nextSubstep && settings.integrator == Integrator::ImplicitEuler && collision.contacts.empty() &&
         selfCollision.selfCollisionPairs.empty() && !selfCollision.selfFrozeThisSubstep;
}

}  // namespace pbd

// Where the step fuses passes over the particles: each decision, its condition and why the bits stay the same. All
// of them are made here, in one plan per substep (SubstepPlan, world/solver_data.h), and `fusePasses` (off only in
// tests) plans none, for the test that the fused and the unfused step give the same bits on every scene
// (tests/native/world/pass_fusion_test.cpp).
//   particlePassInSolve:  the substep's particle pass inside the coloured pass's first copy in;
//   blocksAlone:          the blocks' positions kept padded from the first iteration to the last;
//   copyOutBounds:        the last copy out bounds the particles for the late contact scan;
//   sweepBackPadded:      the distances' pass back starts from the forward pass's padded positions;
//   commitInNextPass:     the commit (v, x from p) left to the next substep's first pass over the particles.
#include "world/world_state.h"

namespace pbd {

/// The substep's plan: what the stages present allow, before anything moves. Static within a substep; the two
/// fusions that also depend on what the substep finds are confirmed where they are taken (below).
SubstepPlan World::Impl::planSubstep(bool useBdf2, size_t pass, bool nextSubstep) const {
  SubstepPlan plan;
  if (!fusePasses) return plan;
  // A distance pass back after each forward one moves the particles after the forward pass's copy out: neither
  // fusion below may bound or keep what that copy leaves.
  const bool sweepsBack = distancesSweepBack(useBdf2);
  plan.copyOutBounds = copyOutBoundsParticles();
  plan.particlePassInSolve = particlePassJoinsSolve(sweepsBack, plan.copyOutBounds);
  plan.blocksAlone = onlyBlocksProject(sweepsBack, pass);
  plan.sweepBackPadded = sweepsBack && distanceBatchesAlone();
  plan.commitInNextPass = nextSubstep && settings.integrator == Integrator::ImplicitEuler;
  return plan;
}

/// Whether nothing but the coloured solver's blocks moves a particle between two of its iterations in this substep:
/// the plan says no other constraint kind, guard or record touches p, and the substep found no contact, pair or free
/// island. The blocks' positions then stay in paddedP from the first iteration to the last (copied in once and out
/// once, not every iteration: two passes over the particles and two barriers fewer an iteration; copying out and in
/// again changes no bit).
bool World::Impl::blocksAloneMoveParticles(const SubstepPlan& plan) const {
  return plan.blocksAlone && !islands.anyFreeIsland && selfCollision.selfCollisionPairs.empty() &&
         selfCollision.selfContacts.empty() && collision.contacts.empty();
}

/// Whether this substep's commit can be left to the next substep's first pass over the particles, which then commits
/// each chunk before its own stages (one sweep and one dispatch to the threads instead of two): the plan says there
/// is a next substep, under implicit Euler, and the substep ended with no contact, self-collision pair or frozen
/// particle whose velocity the passes after the commit update, and no damping of non-rigid motion (they read v as
/// the commit leaves it).
bool World::Impl::commitJoinsNextPass(const SubstepPlan& plan) const {
  return plan.commitInNextPass && collision.contacts.empty() && selfCollision.selfCollisionPairs.empty() &&
         !selfCollision.selfFrozeThisSubstep && settings.rigidDamping == 0;
}

/// Whether the Gauss-Seidel solvers sweep the distances back after each forward pass: under BDF2 (whose recurrence
/// needs it, step.cpp) or when the settings ask (DistanceSweep::Symmetric).
bool World::Impl::distancesSweepBack(bool useBdf2) const {
  return useBdf2 || settings.distanceSweep == DistanceSweep::Symmetric;
}

/// Whether every distance constraint is in the coloured blocks' batches (no unbanded block, no overflow group): the
/// blocks' passes then read and write only the padded positions, and nothing touches p between a forward pass's
/// last block and the pass back's first (sweepBackPadded): copying out and in again there changes no bit.
bool World::Impl::distanceBatchesAlone() const {
  const ColourSchedule& schedule = solverData.schedule;
  return schedule.blocks.unbanded.empty() &&
         schedule.colourBegin[GraphColouring::kOverflow] == schedule.colourBegin[GraphColouring::kOverflow + 1];
}

/// The stages present, for blocksAlone: the coloured solver, every distance in a batch (no unbanded block, no
/// overflow), no other internal constraint, attachment, back sweep of the distances or residual record. Every stage
/// of solveConstraints' iteration loop has its term here or in blocksAloneMoveParticles: a stage added there needs
/// one.
bool World::Impl::onlyBlocksProject(bool sweepsBack, size_t pass) const {
  const bool coloured = settings.solver == Solver::ColouredGaussSeidel || settings.solver == Solver::Hierarchical;
  const ConstraintStore& c = constraints;
  return coloured && !sweepsBack && pass == kNoResiduals && distanceBatchesAlone() && c.triangleStrains.empty() &&
         c.dihedrals.empty() && c.volumes.empty() && c.neoHookeans.empty() && c.surfaceVolumes.empty() &&
         c.shapeMatchings.empty() && c.tethers.empty() && c.attachments.empty() &&
         c.skinned.empty() && rods.empty();
}

/// Whether the substep's particle pass (integrateAndPredict) can run inside the coloured pass's first copy in, each
/// range predicted just before it is padded: one dispatch to the threads fewer a substep, and p padded from the cache.
/// Nothing between the two may read or write the particles, or depend on the contacts: the pass is one pass (not
/// BDF2's, and no distance pass sweeps back after it), no collider or self-collision searches p, no free island
/// (prepareIslandFrames reads x), no HPBD pre-pass, and the copies' ranges are the boxes' runs (the prediction bounds
/// p for the ground scan). The ground's contacts, found after the pass, are none while no box is in its reach; so not
/// when the last substep had contacts, as it then would most likely stop after the copy in.
bool World::Impl::particlePassJoinsSolve(bool sweepsBack, bool copyOutBounds) const {
  if (settings.solver != Solver::ColouredGaussSeidel || sweepsBack || !collision.colliders.empty() ||
      !collision.contacts.empty() || settings.selfCollision.enabled || !copyOutBounds) {
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
/// in particle order (ranked, a range of ranks holds particles from all over; lattice-ordered, it copies out by
/// particles), and its ranges start runs of kBoxParticles particles, as particleBoxes' runs do; banded on the
/// particles' indices, the bands' starts (multiples of m) must then be such starts too.
bool World::Impl::copyOutBoundsParticles() const {
  const BlockSchedule& blocks = solverData.schedule.blocks;
  return !blocks.batches.empty() && !blocks.ranked &&
         (!blocks.banded || blocks.latticeOrdered || blocks.bandParticles % kBoxParticles == 0);
}

}  // namespace pbd

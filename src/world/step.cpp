// The step of Algorithm 1 (Müller et al. 2006), stage by stage, and the three constraint solvers.
#include <algorithm>
#include <atomic>
#include <cmath>

#include "constraints/attachment.h"
#include "constraints/distance.h"
#include "constraints/tet_volume.h"
#include "math/band_layout.h"
#include "math/wide_float.h"
#include "world/particle_advance.h"
#include "world/rigid_damping.h"
#include "world/symmetric_sweep.h"
#include "world/world_state.h"

namespace pbd {

void World::Impl::step(Real dt) {
  clock.start(timings);
  report = StepReport{};  // the substeps count dropped contacts into it
  saveState();
  const bool settleFirst = solveChangedSinceLastStep();
  runSubsteps(dt, settleFirst);
  if (stateIsFinite()) {
    hasStepped = true;
    steppedSettings = settings;
  } else {
    rollBack();  // and the next step settles again if this one did
  }
  clock.lap(timings.integrateMs);
  clock.finish(timings);
}

/// savedX, savedV = x, v for the non-finite guard's rollback: a copy split across threads (within the capacity
/// reserved with the particles: no allocation).
void World::Impl::saveState() {
  savedX.resize(x.size()), savedV.resize(v.size());
  const Real *pos = x.data(), *vel = v.data();
  Real *keptX = savedX.data(), *keptV = savedV.data();
  auto body = [=](size_t begin, size_t end) {
    std::copy(pos + 3 * begin, pos + 3 * end, keptX + 3 * begin);
    std::copy(vel + 3 * begin, vel + 3 * end, keptV + 3 * begin);
  };
  forEachParticleRange(body);
}

/// True when every position and velocity is finite. A flat reduction, split across threads; the answer does not
/// depend on how.
bool World::Impl::stateIsFinite() {
  std::atomic<bool> finite{true};
  auto body = [&](size_t begin, size_t end) {
    // Inf or NaN anywhere makes x - x NaN, and the sum NaN. Four sums at once: one sum through every float was a
    // chain of dependent adds (32 µs a frame for the 128² cloth).
    const Float4 zero = Float4::splat(0);
    Float4 sums = zero;
    size_t k = 3 * begin;
    for (; k + 4 <= 3 * end; k += 4) {
      const Float4 xs = Float4::load(x.data() + k), vs = Float4::load(v.data() + k);
      sums = sums + ((xs - xs) + (vs - vs));
    }
    Real sum = 0;
    for (; k < 3 * end; ++k) sum += (x[k] - x[k]) + (v[k] - v[k]);
    if (sum != 0 || !all(sums == zero)) finite.store(false, std::memory_order_relaxed);
  };
  forEachParticleRange(body);
  return finite.load();
}

/// The non-finite guard's policy: undo the step for the whole world, and stop every body that went non-finite.
void World::Impl::rollBack() {
  report.rolledBack = true;
  bool first = true;
  for (uint32_t b = 0; b < bodies.size(); ++b) {
    bool bad = false;
    for (uint32_t i = bodies[b].begin; i < bodies[b].end; ++i) {
      bool finiteParticle = true;
      for (int a = 0; a < 3; ++a) finiteParticle &= std::isfinite(x[3 * i + a]) && std::isfinite(v[3 * i + a]);
      if (finiteParticle) continue;
      ++report.nonFiniteCount;
      bad = true;
      if (first) report.particle = i, report.body = b, first = false;
    }
    if (!bad) continue;
    std::fill(savedV.begin() + 3 * size_t(bodies[b].begin), savedV.begin() + 3 * size_t(bodies[b].end), Real(0));
  }
  historyValid = false;
  markMeshInsideUnknown();  // the inside flags describe the undone step
  // Copy back, not swap: x and v must keep their addresses, callers hold views of them.
  std::copy(savedX.begin(), savedX.end(), x.begin());
  std::copy(savedV.begin(), savedV.end(), v.begin());
}

void World::Impl::runSubsteps(Real dt, bool settleFirst) {
  refreshDerivedData();
  if (settings.solver == Solver::Hierarchical) refreshHierarchy();
  forgetSelfCandidateLists();
  const Real h = dt / Real(settings.substeps);
  if (settleFirst) historyValid = false;  // BDF2 restarts from the settled positions (before PD factors for it)
  if (settings.solver == Solver::ProjectiveDynamics) {  // refactors only if something changed
    refreshProjective(substepInvH2(h, settings.integrator == Integrator::Bdf2 && historyValid));
  }
  if (settleFirst) settle(h);
  if (recordResiduals) residuals.assign(2 * size_t(settings.substeps) * size_t(settings.iterations), Real(0));
  for (int s = 0; s < settings.substeps; ++s) {
    // One substep of length h; the fraction says how far through the frame it ends, for kinematic targets.
    const Real stepFraction = Real(s + 1) / Real(settings.substeps);
    updateColliderPoses(Real(s) / Real(settings.substeps), stepFraction);
    const bool useBdf2 = settings.integrator == Integrator::Bdf2 && historyValid;
    const bool seedsBdf2 = settings.integrator == Integrator::Bdf2 && !historyValid;
    if (seedsBdf2) {  // this Euler substep's start becomes the history BDF2 starts from: (xⁿ⁻¹, vⁿ⁻¹) before any force
      std::copy(x.begin(), x.end(), xPrev.begin());
      std::copy(v.begin(), v.end(), vPrev.begin());
    }
    // Where the particle pass joins the solve's first copy in, the solve also generates the contacts (and its time
    // counts the pass's).
    const bool advanceInSolve = particlePassJoinsSolve(useBdf2);
    AdvanceStages advance;
    if (advanceInSolve) advance = advanceStages(h, {.accelerate = true, .damp = true, .clamp = true, .predict = true});
    else integrateAndPredict(h, useBdf2);
    clock.lap(timings.integrateMs);
    if (!advanceInSolve) generateContacts(h);
    clock.lap(timings.colliderContactsMs);
    findSelfCollisionPairs();
    findContinuousSelfContacts();  // cloth_self_collision.cpp: bodies with continuous self-collision on
    clock.lap(timings.broadPhaseMs);
    const Real invH2 = substepInvH2(h, useBdf2);
    solveConstraints(useBdf2, invH2, stepFraction,
                     recordResiduals ? size_t(s) * size_t(settings.iterations) : kNoResiduals,
                     advanceInSolve ? &advance : nullptr);
    clock.lap(timings.solveMs);
    addLateContacts(h);
    clock.lap(timings.colliderContactsMs);
    freezeFailedSelfContacts();  // cloth_self_collision.cpp
    if (useBdf2) {
      commitBdf2(h);
    } else {
      if (seedsBdf2) historyValid = true;
      // Nothing between this commit and the next substep's first pass over the particles reads or writes x or v
      // when there is no contact or self-collision velocity to update: that pass then commits each chunk before its
      // own stages (one sweep and one dispatch to the threads instead of two; the same bits).
      const bool nextSubstepCommits = s + 1 < settings.substeps && settings.integrator == Integrator::ImplicitEuler &&
                                      contacts.empty() && selfCollisionPairs.empty() && !selfFrozeThisSubstep;
      if (nextSubstepCommits) commitPending = true;
      else commitPositions(h);
    }
    updateSelfCollisionVelocities();
    stopFrozenParticles();  // cloth_self_collision.cpp
    clock.lap(timings.integrateMs);
    updateContactVelocities(h);
    clock.lap(timings.colliderContactsMs);
  }
  for (Attachment& a : attachments) a.startTarget = a.target;
  for (Collider& c : colliders) c.startPosition = c.def.position, c.startRotation = c.def.rotation;
}

/// What decides how far a step's solve converges, and to what. Gravity, damping, the ground and the like change the
/// forces, not the solve: no settling for those. Nor before the first step: nothing converged under other settings.
bool World::Impl::solveChangedSinceLastStep() const {
  const SolverSettings &now = settings, &was = steppedSettings;
  return hasStepped && (now.method != was.method || now.solver != was.solver || now.integrator != was.integrator ||
                        now.substeps != was.substeps || now.iterations != was.iterations ||
                        now.jacobiRelaxation != was.jacobiRelaxation || now.hierarchyLevels != was.hierarchyLevels ||
                        now.hierarchyParents != was.hierarchyParents || now.coarseIterations != was.coarseIterations);
}

/// After a change of the solver settings the state the old ones left is not a solution of the new ones: a balloon
/// squashed to 57% of its height by 4 substeps × 1 iteration, a rigid cloth stretched into a 1 m sag. Solved inside
/// ordinary substeps, the whole difference would become velocity (v = (p − x)/h): the first steps at 10 × 4 launched
/// that balloon upward at 11 m/s and a 40 × 40 rigid cloth at 10 m/s (kinetic energy 1.5 J → 19.5 J). So the first
/// step after a change settles first: one step's worth of substeps of the new settings from rest and without gravity
/// or forces, whose own motion carries over from substep to substep (it speeds up the contraction of a long chain:
/// from rest in every substep, 40 × 40 Gauss–Seidel left most of the sag for the step to launch); then the velocities
/// are put back as the step found them (plus, for an island without pins, the rigid spin that keeps its angular
/// momentum, which the moved positions would change). The error the old settings left goes into the positions
/// without turning into kinetic energy, as the pre-stabilization of Macklin et al. 2014 (Unified Particle Physics for
/// Real-Time Applications) does for contacts. A compliant constraint moves by C/(1 + α̃/w) at most per pass, little
/// for soft ones, whose stretch under load is real; a state that satisfies the constraints stays put. Colliders and
/// attachment targets stay where the last step left them. Costs one step's solve, once per change.
void World::Impl::settle(Real h) {
  std::fill(v.begin(), v.end(), Real(0));
  updateColliderPoses(0, 0);  // where the last step left them, for every settle substep
  for (int s = 0; s < settings.substeps; ++s) {
    advanceParticles(h, {.predict = true});
    generateContacts(h);
    findSelfCollisionPairs();
    findContinuousSelfContacts();
    solveConstraints(false, substepInvH2(h, false), 0, kNoResiduals, nullptr);
    addLateContacts(h);
    freezeFailedSelfContacts();
    commitPositions(h);
  }
  std::copy(savedV.begin(), savedV.end(), v.begin());  // step() saved x and v before the substeps
  keepIslandAngularMomenta(savedX);  // internal_momentum.cpp: moved positions under kept velocities change x × v
  clock.lap(timings.solveMs);
}

/// The constraint iterations of one substep: every multiplier back to 0, then HPBD's coarse pre-pass if on, then
/// `iterations` passes over every constraint kind, the contacts last. With `advance`, the first distance pass starts
/// with the particle pass and the contacts are generated after it (particlePassJoinsSolve).
void World::Impl::solveConstraints(bool useBdf2, Real invH2, Real stepFraction, size_t pass,
                                   const AdvanceStages* advance) {
  zeroDistanceMultipliers();
  std::fill(attachmentLambda.begin(), attachmentLambda.end(), Real(0));
  std::fill(dihedralLambda.begin(), dihedralLambda.end(), Real(0));
  std::fill(volumeLambda.begin(), volumeLambda.end(), Real(0));
  std::fill(globalVolumeLambda.begin(), globalVolumeLambda.end(), Real(0));
  std::fill(neoHookeanLambda.begin(), neoHookeanLambda.end(), Real(0));
  std::fill(triangleStrainLambda.begin(), triangleStrainLambda.end(), Real(0));
  std::fill(shapeMatchingLambda.begin(), shapeMatchingLambda.end(), Real(0));
  const bool xpbd = settings.method == Method::Xpbd;
  prepareIslandFrames(useBdf2);  // internal_momentum.cpp: the guard brackets every internal projection below
  // HPBD's pre-pass: the coarse levels move the particles once per substep, then the iterations refine.
  if (settings.solver == Solver::Hierarchical) {
    beginInternalProjections();
    hierarchy.solve(asVec3(p), w.data(), xpbd, invH2);
    endInternalProjections();
  }
  // The late contact pass scans p as the solve leaves it. When nothing moves p after the blocks' last copy out, that
  // copy bounds the particles as it writes them: one pass over them and one dispatch to the threads fewer a substep.
  auto boundInCopyOut = [&](bool keepPadded) { return keepPadded && scansParticles() && copiesBoundParticles(); };
  solveBoundParticles = false;
  // The particle pass and the first distance pass as one job. The contacts it would have generated before the
  // pass: none when no box reached the ground (the predicate leaves no other source); else the job stopped after
  // the prediction, and they are generated now, from it, before the first pass runs as usual.
  bool firstPassDone = false;
  if (advance) {
    contacts.clear();
    const bool onePass = settings.iterations == 1;
    firstPassDone = projectDistancesColoured(
        xpbd, invH2, false,
        {.bound = onePass && boundInCopyOut(blocksAloneMoveParticles(useBdf2, pass)), .advance = advance});
    if (!firstPassDone) {
      solveBoundParticles = false;
      generateContacts(advance->h);
    }
  }
  const bool keepPadded = blocksAloneMoveParticles(useBdf2, pass);
  for (int it = 0; it < settings.iterations; ++it) {
    // A first pass done with the particle pass copied out (paddedP still holds what it copied).
    const bool copyIn = !keepPadded || (it == 0 && !firstPassDone);
    const bool copyOut = !keepPadded || it + 1 == settings.iterations;
    beginInternalProjections();
    switch (settings.solver) {
      // Under BDF2 the distances sweep back as well (symmetric_sweep.h): its recurrence amplifies a one-way
      // sweep's complex eigenvalues (a 20×20 rigid cloth at 10×1 went from 9.6 J to 72 J).
      case Solver::GaussSeidel:
        projectDistancesGaussSeidel(xpbd, invH2);
        if (useBdf2) projectDistancesGaussSeidel(xpbd, invH2, true);
        break;
      case Solver::Jacobi: projectDistancesJacobi(xpbd, invH2); break;
      case Solver::ColouredGaussSeidel:
      case Solver::Hierarchical:  // level 0
        if (it > 0 || !firstPassDone) {
          projectDistancesColoured(xpbd, invH2, false, {copyIn, copyOut, boundInCopyOut(keepPadded) && copyOut});
        }
        if (useBdf2) projectDistancesColoured(xpbd, invH2, true);
        break;
      // One local/global solve of distances, dihedrals and tets (1/h_eff² = invH2); the rest PBD-style below.
      case Solver::ProjectiveDynamics: solveProjective(invH2); break;
    }
    projectTriangleStrains(xpbd, invH2);
    if (settings.solver != Solver::ProjectiveDynamics) {  // PD solved these in its global step
      projectDihedrals(xpbd, invH2);
      projectVolumes(xpbd, invH2);
      projectNeoHookeans(xpbd, invH2);
    }
    projectGlobalVolumes(xpbd, invH2);
    projectShapeMatchingClusters(xpbd, invH2);
    endInternalProjections();
    projectTethers();
    projectSelfCollisions();
    projectContinuousSelfContacts();
    projectAttachmentsAndContacts(xpbd, invH2, stepFraction);
    if (pass != kNoResiduals) {  // timed apart, so that a recording step's solveMs is the solver's alone
      clock.lap(timings.solveMs);
      recordResidual(pass + size_t(it), invH2);
      clock.lap(timings.residualMs);
    }
  }
}

/// Whether nothing but the coloured solver's blocks moves a particle between two of its iterations in this substep:
/// no other constraint, contact, guard or record touches p, and every distance is in a batch. The blocks' positions
/// then stay in paddedP from the first iteration to the last (copied in once and out once, not every iteration: two
/// passes over the particles and two barriers fewer an iteration; copying out and in again changes no bit). Every
/// stage of solveConstraints' iteration loop above has its term here: a stage added there needs one.
bool World::Impl::blocksAloneMoveParticles(bool useBdf2, size_t pass) const {
  const bool coloured = settings.solver == Solver::ColouredGaussSeidel || settings.solver == Solver::Hierarchical;
  const BlockSchedule& blocks = schedule.blocks;
  const bool batchesAlone = blocks.unbanded.empty() && schedule.colourBegin[GraphColouring::kOverflow] ==
                                                           schedule.colourBegin[GraphColouring::kOverflow + 1];
  return coloured && !useBdf2 && pass == kNoResiduals && !anyFreeIsland && batchesAlone && triangleStrains.empty() &&
         dihedrals.empty() && volumes.empty() && neoHookeans.empty() && globalVolumes.empty() &&
         shapeMatchings.empty() && tethers.empty() && selfCollisionPairs.empty() && selfContacts.empty() &&
         attachments.empty() && contacts.empty();
}

/// Whether the substep's particle pass (integrateAndPredict) can run inside the coloured pass's first copy in, each
/// range predicted just before it is padded: one dispatch to the threads fewer a substep, and p padded from the cache.
/// Nothing between the two may read or write the particles, or depend on the contacts: the pass is one pass (no rigid
/// damping, not BDF2), no collider or self-collision searches p, no free island (prepareIslandFrames reads x), no
/// HPBD pre-pass, and the copies' ranges are the boxes' runs (the prediction bounds p for the ground scan). The
/// ground's contacts, found after the pass, are none while no box is in its reach; so not when the last substep had
/// contacts, as it then would most likely stop after the copy in.
bool World::Impl::particlePassJoinsSolve(bool useBdf2) const {
  if (!joinParticlePass || settings.solver != Solver::ColouredGaussSeidel || useBdf2 || settings.rigidDamping > 0 ||
      !colliders.empty() || !contacts.empty() || settings.selfCollision.enabled || !copiesBoundParticles()) {
    return false;
  }
  for (const SelfCollidingSurface& s : selfSurfaces) {
    if (s.settings.enabled) return false;
  }
  for (uint32_t k = 0; k + 1 < islandBegin.size(); ++k) {
    if (!islandHasPin(k)) return false;
  }
  return true;
}

/// Whether the coloured pass's copy out can bound the particles (PaddedCopies::bound): it has batches, so it copies,
/// and its ranges start runs of kBoxParticles particles, as particleBoxes' runs do; banded, the bands' starts
/// (multiples of m) must then be such starts too.
bool World::Impl::copiesBoundParticles() const {
  const BlockSchedule& blocks = schedule.blocks;
  return !blocks.batches.empty() && (!blocks.banded || blocks.bandParticles % kBoxParticles == 0);
}

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
    for (GlobalVolumeConstraint& g : globalVolumes) g.kPrime = correctedStiffness(g.stiffness, kPrimeIterations);
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

/// (5)-(7): the damping, the forces, the speed clamp and the prediction. Each is per particle except Müller's damping
/// of non-rigid motion (a sum over each body), so without it they all run in one pass over the particles, with one
/// dispatch to the threads instead of four. Both dampings act on the velocity carried over, before the forces, so
/// neither moves a static equilibrium. BDF2 damps and clamps here, and predicts with its own formula.
void World::Impl::integrateAndPredict(Real h, bool bdf2) {
  if (settings.rigidDamping > 0) {
    advanceParticles(h, {.damp = true});
    dampNonRigidMotions();
    advanceParticles(h, {.accelerate = !bdf2, .clamp = true, .predict = !bdf2});
  } else {
    advanceParticles(h, {.accelerate = !bdf2, .damp = true, .clamp = true, .predict = !bdf2});
  }
  if (bdf2) predictBdf2(h);
}

/// One pass over the particles, in forEachParticleRange's ranges, each particle through `stages` in their order
/// (world/particle_advance.h). Every stage is per particle, so the result is the same for any split (and the same
/// as one pass per stage). The prediction also bounds the particles for generateContacts' scans, from the values it
/// writes.
void World::Impl::advanceParticles(Real h, AdvanceStages stages) {
  const AdvanceStages s = advanceStages(h, stages);
  if (!s.commit && !s.accelerate && !s.damp && !s.clamp && !s.predict) return;  // no dispatch to the threads
  const AdvancedParticles arrays = advancedParticles();
  auto body = [&s, &arrays](size_t begin, size_t end, ParticleBox* boxes) {
    advanceParticleRange(arrays, s, begin, end, boxes);
  };
  forEachParticleRangeWithBoxes(s.predict && scansParticles(), body);
}

AdvanceStages World::Impl::advanceStages(Real h, AdvanceStages s) {
  s.commit = commitPending;  // the last substep's, of the same h
  commitPending = false;
  s.damp &= settings.linearDamping > 0;
  s.clamp &= settings.maxSpeed > 0;
  s.g[0] = settings.gravity.x(), s.g[1] = settings.gravity.y(), s.g[2] = settings.gravity.z();
  s.h = h, s.keep = std::max(Real(0), 1 - settings.linearDamping * h), s.maxSpeed = settings.maxSpeed;
  return s;
}

/// (6) Müller's damping of non-rigid motion per body. k is per frame; per substep use 1 - (1-k)^(1/substeps) so the
/// frame's damping does not depend on substeps.
void World::Impl::dampNonRigidMotions() {
  const Real k = settings.rigidDamping >= 1
                     ? Real(1)
                     : 1 - std::pow(1 - settings.rigidDamping, Real(1) / Real(settings.substeps));
  for (const ParticleRange& b : bodies) dampNonRigidMotion(x.data(), v.data(), w.data(), b.begin, b.end, k);
}

namespace {

/// Projects constraints [begin, end) of `cs` in order (or in reverse), accumulating their multipliers; with
/// `picks`, constraints picks[begin, end) instead.
void projectRange(const DistanceConstraint* cs, Real* lambda, size_t begin, size_t end, Vec3* P, const Real* w,
                  bool xpbd, Real invH2, bool backward = false, const uint32_t* picks = nullptr) {
  for (size_t n = begin; n < end; ++n) {
    const size_t at = backward ? begin + end - 1 - n : n;
    const size_t k = picks ? picks[at] : at;
    const DistanceConstraint& d = cs[k];
    lambda[k] += projectDistance(P[d.i], P[d.j], w[d.i], w[d.j], d.minLength, d.maxLength, xpbd, d.kPrime,
                                 d.compliance * invH2, lambda[k]);
  }
}

}  // namespace

/// (9-11) Gauss-Seidel: each constraint in the order added (or in reverse), seeing the corrections of all before it.
void World::Impl::projectDistancesGaussSeidel(bool xpbd, Real invH2, bool backward) {
  projectRange(distances.data(), distanceLambda.data(), 0, distances.size(), asVec3(p), w.data(), xpbd, invH2,
               backward);
}

/// Gauss-Seidel over the block schedule (schedule/block_schedule.h): one phase per non-empty block colour, whose
/// blocks share no particle and so run on any thread; each block projects its constraints colour by colour (a
/// colour-major block: its run of one colour), four at a time in SIMD; the overflow group runs serially last. The
/// blocks work on paddedP, p with the inverse mass as a fourth float (one vector load per particle) or, banded, p in
/// the band layout (math/band_layout.h), copied in before the first block colour and back after the last, as phases
/// of the same job (as `copies` asks); the unbanded constraints then run serially on p, before the overflow group.
/// Backward (BDF2's return sweep) runs the same order reversed.
bool World::Impl::projectDistancesColoured(bool xpbd, Real invH2, bool backward, PaddedCopies copies) {
  BlockSchedule& blocks = schedule.blocks;
  constexpr uint32_t kGroups = BlockSchedule::kGroups;
  const bool banded = blocks.banded;
  const uint32_t n = count(), m = blocks.bandParticles;
  // What the copy in and out run over: particles, or banded the layout's blocks; no batch, nothing to copy. Their
  // phases count runs of kBoxParticles of them, so that every range starts a run of particleBoxes
  // (copiesBoundParticles).
  const size_t copied = blocks.batches.empty() ? 0 : banded ? m : n;
  const size_t copiedRuns = (copied + kBoxParticles - 1) / kBoxParticles;
  auto runStart = [copied](size_t run) { return std::min(copied, run * kBoxParticles); };
  ParticleBox* boxes = nullptr;
  const bool advanceBounds = copies.advance && copies.advance->predict && scansParticles();
  if ((copies.out && copies.bound && copied) || advanceBounds) {
    particleBoxes.resize((size_t(n) + kBoxParticles - 1) / kBoxParticles);  // within reserveContacts'
    boxes = particleBoxes.data();
    solveBoundParticles = copies.out && copies.bound && copied;
  }
  const AdvancedParticles advanced = advancedParticles();
  const Real groundReach = groundSurface() + largestBodyMargin;  // forEachBelowGround's, for any body
  std::atomic<bool> groundInReach{false};
  // The particle pass of particles [begin, end) with their boxes, and whether one reaches the ground.
  auto advanceRange = [&](size_t begin, size_t end) {
    advanceParticleRange(advanced, *copies.advance, begin, end, advanceBounds ? boxes : nullptr);
    if (!advanceBounds || !settings.ground.enabled) return;
    for (size_t run = begin / kBoxParticles; run * kBoxParticles < end; ++run) {
      if (!(boxes[run].lo[1] >= groundReach)) groundInReach.store(true, std::memory_order_relaxed);
    }
  };
  enum class Kind : uint8_t { Overflow, Unbanded, Pad, Blocks, Unpad };
  struct Phase {
    Kind kind;
    uint32_t group;
  };
  constexpr size_t kPhaseCount = kGroups + 4;
  Phase plan[kPhaseCount];
  size_t sizes[kPhaseCount], minRanges[kPhaseCount], phases = 0;
  auto add = [&](Kind kind, uint32_t group, size_t size, size_t minRange) {
    plan[phases] = {kind, group}, sizes[phases] = size, minRanges[phases++] = minRange;
  };
  const uint32_t* colourBegin = schedule.colourBegin;
  const uint32_t overflowBegin = colourBegin[GraphColouring::kOverflow];
  const size_t overflowSize = colourBegin[GraphColouring::kOverflow + 1] - overflowBegin;
  // The copies go a task's particles to a range, or a run when the blocks are shared out anyway: the job's barriers
  // are then paid whatever the copies do, and a copy left to one thread holds the others up at the next one.
  size_t groupMinRange[kGroups];
  bool blocksShared = false;
  for (uint32_t g = 0; g < kGroups; ++g) {
    groupMinRange[g] = blocks.minBlocksPerRange(g);
    blocksShared |= blocks.groupBegin[g + 1] - blocks.groupBegin[g] > std::max<size_t>(groupMinRange[g], 1);
  }
  const size_t copyPerTask = blocksShared ? 1 : (banded ? kBandBlocksPerTask : kParticlesPerTask) / kBoxParticles;
  if (backward) {
    add(Kind::Overflow, 0, overflowSize, TaskSystem::kOneRange);
    add(Kind::Unbanded, 0, blocks.unbanded.size(), TaskSystem::kOneRange);
  }
  if (copies.in) add(Kind::Pad, 0, copiedRuns, copyPerTask);
  for (uint32_t k = 0; k < kGroups; ++k) {
    const uint32_t g = backward ? kGroups - 1 - k : k;
    const size_t size = blocks.groupBegin[g + 1] - blocks.groupBegin[g];
    if (size) add(Kind::Blocks, g, size, groupMinRange[g]);
  }
  if (copies.out) add(Kind::Unpad, 0, copiedRuns, copyPerTask);
  if (!backward) {
    add(Kind::Unbanded, 0, blocks.unbanded.size(), TaskSystem::kOneRange);
    add(Kind::Overflow, 0, overflowSize, TaskSystem::kOneRange);
  }
  const DistanceBatch* batches = blocks.batches.data();
  const DistanceBatchStrength* strengths = blocks.strengths.data();
  Real* padded = paddedP.data();
  auto segment = [&](const BlockSchedule::Segment& s) {
    auto project = [&](size_t begin, size_t end, Real* lambda, BatchMethod method) {
      if (banded) projectBandedDistanceBatches(batches, strengths, begin, end, lambda, padded, method, invH2, s.shift);
      else projectDistanceBatches(batches, strengths, begin, end, lambda, padded, method, invH2);
    };
    if (!xpbd) return project(s.begin, s.end, nullptr, BatchMethod::Pbd);
    if (s.begin < s.rigidBegin) project(s.begin, s.rigidBegin, blocks.lambda.data(), BatchMethod::Xpbd);
    if (s.rigidBegin < s.end) project(s.rigidBegin, s.end, nullptr, BatchMethod::RigidXpbd);
  };
  auto body = [&](size_t phase, size_t b, size_t e) {
    // Stopped after the copy in: every range's prediction and boxes are done (the phase's barrier).
    if (plan[phase].kind != Kind::Pad && groundInReach.load(std::memory_order_relaxed)) return;
    switch (plan[phase].kind) {
      case Kind::Overflow:
        projectRange(schedule.constraints.data(), schedule.lambda.data(), overflowBegin + b, overflowBegin + e,
                     asVec3(p), w.data(), xpbd, invH2, backward);
        break;
      case Kind::Unbanded:
        projectRange(schedule.constraints.data(), schedule.lambda.data(), b, e, asVec3(p), w.data(), xpbd, invH2,
                     backward, blocks.unbanded.data());
        break;
      case Kind::Pad: {
        const size_t first = runStart(b), last = runStart(e);
        if (!banded) {
          if (copies.advance) advanceRange(first, last);
          padPositions(p.data(), w.data(), first, last, padded);
          break;
        }
        if (copies.advance) forEachBandSpan(n, m, first, last, advanceRange);  // the particles these blocks hold
        padBandsRange(p.data(), w.data(), n, m, first, last, padded);
        break;
      }
      case Kind::Blocks:
        for (size_t q = b; q < e; ++q) {
          const size_t at = blocks.groupBegin[plan[phase].group] + (backward ? b + e - 1 - q : q);
          const uint32_t first = blocks.segmentBegin[at], last = blocks.segmentBegin[at + 1];
          for (uint32_t k = first; k < last; ++k) segment(blocks.segments[backward ? first + last - 1 - k : k]);
        }
        break;
      case Kind::Unpad: {
        const size_t first = runStart(b), last = runStart(e);
        if (!banded) {
          unpadPositions(padded, first, last, p.data());
          if (boxes) boundParticles(p.data(), first, last, boxes);
          break;
        }
        unpadBandsRange(padded, n, m, first, last, p.data());
        if (boxes) forEachBandSpan(n, m, first, last, [&](size_t begin, size_t end) {
          boundParticles(p.data(), begin, end, boxes);
        });
        break;
      }
    }
  };
  tasks->parallelPhases(phases, sizes, minRanges, body);
  return !groundInReach.load(std::memory_order_relaxed);
}

/// Jacobi: every constraint is evaluated at the positions of the start of the iteration, and the corrections are
/// summed per particle. To keep momentum, a constraint's correction is divided by the larger constraint count of its
/// two particles (the same factor at both ends), not by each particle's own count; a particle thus moves by at most
/// the mean of its corrections, times ω. Colours fix the summation order, so the result is deterministic.
void World::Impl::projectDistancesJacobi(bool xpbd, Real invH2) {
  std::fill(jacobiDelta.begin(), jacobiDelta.end(), Real(0));
  const Vec3* P = asVec3(p);
  Vec3* D = asVec3(jacobiDelta);
  const DistanceConstraint* cs = schedule.constraints.data();
  const uint32_t* perParticle = schedule.constraintsPerParticle.data();
  Real* lambda = schedule.lambda.data();
  auto accumulate = [&](size_t begin, size_t end) {
    for (size_t k = begin; k < end; ++k) {
      const DistanceConstraint& d = cs[k];
      Vec3 p1 = P[d.i], p2 = P[d.j];
      lambda[k] += projectDistance(p1, p2, w[d.i], w[d.j], d.minLength, d.maxLength, xpbd, d.kPrime,
                                   d.compliance * invH2, lambda[k]);
      const Real share = Real(1) / Real(std::max(perParticle[d.i], perParticle[d.j]));
      D[d.i] += share * (p1 - P[d.i]);
      D[d.j] += share * (p2 - P[d.j]);
    }
  };
  // One phase per colour (the summation order per particle is the colour order, whatever the threads), the
  // overflow group serially, then the update of every particle.
  const uint32_t* begin = schedule.colourBegin;
  const Real omega = settings.jacobiRelaxation;
  constexpr size_t kApply = ColourSchedule::kPhases;
  size_t sizes[kApply + 1], minRanges[kApply + 1];
  schedule.phases(sizes, minRanges);
  sizes[kApply] = count();
  minRanges[kApply] = kParticlesPerTask;
  auto body = [&](size_t phase, size_t b, size_t e) {
    if (phase == kApply) axpyRange(p.data(), p.data(), omega, jacobiDelta.data(), 3 * b, 3 * e);
    else accumulate(begin[phase] + b, begin[phase] + e);
  };
  tasks->parallelPhases(kApply + 1, sizes, minRanges, body);
}

/// The symmetric sweep (symmetric_sweep.h) on paddedP: p and w copied in as its first phase, p copied back as its
/// last, so the batched element kernels load whole vectors.
template <class Batch, class One>
void World::Impl::sweepOnPaddedPositions(const ElementOrder& order, size_t batchesPerTask, Batch&& batch, One&& one) {
  Real* xyzw = paddedP.data();
  colouredSymmetricSweep(
      *tasks, order, batchesPerTask, batch, one, count(), kParticlesPerTask,
      [&](size_t b, size_t e) { padPositions(p.data(), w.data(), b, e, xyzw); },
      [&](size_t b, size_t e) { unpadPositions(xyzw, b, e, p.data()); });
}

/// Dihedral bending in a symmetric sweep in colour order: four at a time within a colour, on paddedP (p with the
/// inverse mass as a fourth float, as the coloured distance pass uses it). A batch then loads and stores each
/// particle as one vector; lane by lane (16 gathers and 12 scatters of four values) gallery:drape's solve took
/// 4.7 ms a frame against 4.2 (single-threaded build in Node).
void World::Impl::projectDihedrals(bool xpbd, Real invH2) {
  Real* xyzw = paddedP.data();
  sweepOnPaddedPositions(
      dihedralOrder, kDihedralBatchesPerTask,
      [&](uint32_t b, uint32_t e) {
        projectDihedralsBatched(dihedrals.data(), dihedralOrder.order().data(), b, e, dihedralLambda.data(), xyzw,
                                xpbd, invH2);
      },
      [&](uint32_t k) { projectDihedralPadded(dihedrals[k], xyzw, xpbd, invH2, dihedralLambda[k]); });
}

/// Tet volumes in a symmetric sweep in colour order (symmetric_sweep.h): four at a time within a colour, on paddedP
/// as the dihedrals are.
void World::Impl::projectVolumes(bool xpbd, Real invH2) {
  Real* xyzw = paddedP.data();
  sweepOnPaddedPositions(
      volumeOrder, kElementBatchesPerTask,
      [&](uint32_t b, uint32_t e) {
        projectTetVolumesBatched(volumes.data(), volumeOrder.order().data(), b, e, volumeLambda.data(), xyzw, xpbd,
                                 invH2);
      },
      [&](uint32_t k) { projectTetVolumePadded(volumes[k], xyzw, xpbd, invH2, volumeLambda[k]); });
}

/// Neo-Hookean tets in a symmetric sweep in colour order (symmetric_sweep.h), each with its two constraints solved
/// together; one at a time (no batched kernel), the colours shared out across threads all the same.
void World::Impl::projectNeoHookeans(bool xpbd, Real invH2) {
  Vec3* P = asVec3(p);
  auto one = [&](uint32_t k) {
    const NeoHookeanTet& e = neoHookeans[k];
    Vec3* ps[4] = {&P[e.p[0]], &P[e.p[1]], &P[e.p[2]], &P[e.p[3]]};
    const Real ws[4] = {w[e.p[0]], w[e.p[1]], w[e.p[2]], w[e.p[3]]};
    const Real kPrime[2] = {e.deviatoricKPrime, e.hydrostaticKPrime};
    const Real alphaTilde[2] = {e.deviatoricCompliance * invH2, e.hydrostaticCompliance * invH2};
    projectNeoHookean(ps, ws, e.restInverse, e.gamma, xpbd, kPrime, alphaTilde, &neoHookeanLambda[2 * k]);
  };
  const uint32_t* order = neoHookeanOrder.order().data();
  colouredSymmetricSweep(
      *tasks, neoHookeanOrder, kElementBatchesPerTask,
      [&](uint32_t b, uint32_t e) {
        for (uint32_t n = b; n < e; ++n) one(order[n]);
      },
      one);
}

/// Tethers after the distance constraints: whatever stretch the iteration left, no particle ends it further from
/// its anchor than allowed. Each tether moves only its own particle, so they run in parallel.
void World::Impl::projectTethers() {
  if (tethers.empty()) return;
  Vec3* P = asVec3(p);
  auto body = [&](size_t begin, size_t end) {
    for (size_t k = begin; k < end; ++k) {
      const Tether& t = tethers[k];
      if (w[t.particle] != 0) projectTether(P[t.particle], P[t.anchor], t.maxLength);
    }
  };
  tasks->parallelFor(tethers.size(), kParticlesPerTask, body);
}

/// Attachments, then contacts last, so that contacts hold when the iteration ends.
void World::Impl::projectAttachmentsAndContacts(bool xpbd, Real invH2, Real stepFraction) {
  Vec3* P = asVec3(p);
  for (size_t a = 0; a < attachments.size(); ++a) {
    const Attachment& at = attachments[a];
    if (!at.active) continue;
    const Vec3 target = at.startTarget + stepFraction * (at.target - at.startTarget);
    attachmentLambda[a] += projectAttachment(P[at.particle], w[at.particle], target, xpbd, at.kPrime,
                                             at.compliance * invH2, attachmentLambda[a]);
  }
  projectContacts();
}

/// Each solver's distance multipliers start every solve at 0. Coloured Gauss-Seidel zeroes only what it reads: its
/// compliant batches' multipliers and the overflow group's (rigid batches read none).
void World::Impl::zeroDistanceMultipliers() {
  switch (settings.solver) {
    case Solver::GaussSeidel: std::fill(distanceLambda.begin(), distanceLambda.end(), Real(0)); break;
    case Solver::ColouredGaussSeidel:
    case Solver::Hierarchical:
      std::fill(schedule.lambda.begin() + schedule.colourBegin[GraphColouring::kOverflow], schedule.lambda.end(),
                Real(0));
      if (schedule.blocks.anyCompliant) std::fill(schedule.blocks.lambda.begin(), schedule.blocks.lambda.end(), Real(0));
      for (uint32_t k : schedule.blocks.unbanded) schedule.lambda[k] = 0;
      break;
    case Solver::Jacobi:
    case Solver::ProjectiveDynamics: std::fill(schedule.lambda.begin(), schedule.lambda.end(), Real(0)); break;
  }
}

namespace {

/// Parts the residual record cuts a list of batches or constraints into.
constexpr size_t kResidualParts = 32;
/// Smallest part, in batches and in constraints: a world with fewer is summed in one part, on one thread.
constexpr size_t kMinResidualBatchesPerPart = 1024, kMinResidualConstraintsPerPart = 4096;
/// A thread's range holds at least this many smallest parts' worth of items: fewer are summed sooner on the calling
/// thread than handed out (gallery:stack's some 2,700 batches, 3 parts, took its record from 0.06 to 0.16 ms a
/// frame on 2 threads). It groups the parts, never changes them: the same bits.
constexpr size_t kMinResidualPartsPerRange = 4;

/// Adds addRange(begin, end, partSums) over [0, count) to `sums`: cut into at most kResidualParts parts of at least
/// minPart items, whose sizes depend on `count` only, each part summed on some thread into its own sums, then the
/// parts merged in order. So the record runs on every thread and gives the same bits on any number of them.
template <class AddRange>
void addResidualsInParts(TaskSystem& tasks, size_t count, size_t minPart, AddRange addRange, ResidualSums& sums) {
  const size_t partSize = std::max(minPart, (count + kResidualParts - 1) / kResidualParts);
  const size_t parts = (count + partSize - 1) / partSize;
  ResidualSums partSums[kResidualParts];
  auto body = [&](size_t begin, size_t end) {
    for (size_t q = begin; q < end; ++q) addRange(q * partSize, std::min(count, (q + 1) * partSize), partSums[q]);
  };
  tasks.parallelFor(parts, (kMinResidualPartsPerRange * minPart + partSize - 1) / partSize, body);
  for (size_t q = 0; q < parts; ++q) sums.merge(partSums[q]);
}

}  // namespace

/// Residual of the distance constraints after a pass: r = C (PBD) or C + α̃λ (XPBD, the multiplier's equation).
void World::Impl::recordResidual(size_t pass, Real invH2) {
  const bool gaussSeidel = settings.solver == Solver::GaussSeidel;
  const DistanceConstraint* cs = gaussSeidel ? distances.data() : schedule.constraints.data();
  const Real* lambda = gaussSeidel ? distanceLambda.data() : schedule.lambda.data();
  const bool blocked = settings.solver == Solver::ColouredGaussSeidel || settings.solver == Solver::Hierarchical;
  const bool xpbd = settings.method == Method::Xpbd;
  ResidualSums sums;
  if (blocked) {  // the batches, then the unbanded and the overflow group, whose constraints are in no batch
    const BlockSchedule& blocks = schedule.blocks;
    auto addBatches = [&](size_t begin, size_t end, ResidualSums& part) {
      addDistanceBatchResiduals(blocks.batches.data(), blocks.strengths.data(), blocks.lambda.data(), begin, end,
                                p.data(), count(), xpbd, invH2, part);
    };
    addResidualsInParts(*tasks, blocks.batches.size(), kMinResidualBatchesPerPart, addBatches, sums);
    for (uint32_t k : blocks.unbanded) addDistanceResiduals(cs, lambda, k, k + 1, p.data(), xpbd, invH2, sums);
    addDistanceResiduals(cs, lambda, schedule.colourBegin[GraphColouring::kOverflow],
                         schedule.colourBegin[GraphColouring::kOverflow + 1], p.data(), xpbd, invH2, sums);
  } else {
    auto addConstraints = [&](size_t begin, size_t end, ResidualSums& part) {
      addDistanceResiduals(cs, lambda, begin, end, p.data(), xpbd, invH2, part);
    };
    addResidualsInParts(*tasks, distances.size(), kMinResidualConstraintsPerPart, addConstraints, sums);
  }
  residuals[2 * pass] = Real(sums.maxAbs);
  residuals[2 * pass + 1] = distances.empty() ? Real(0) : Real(std::sqrt(sums.sumSq() / double(distances.size())));
}

/// BDF2's inertial prediction x̃ = 4/3 xⁿ - 1/3 xⁿ⁻¹ + 8/9 h vⁿ - 2/9 h vⁿ⁻¹ + 4/9 h² (g + w f); then, like
/// advanceParticles' prediction, the particles' boxes.
void World::Impl::predictBdf2(Real h) {
  const Vec3 g = settings.gravity;
  auto body = [&](size_t begin, size_t end, ParticleBox* boxes) {
    for (size_t i = begin; i < end; ++i) {
      for (int a = 0; a < 3; ++a) {
        const size_t k = 3 * i + a;
        const Real accel = w[i] == 0 ? Real(0) : g[a] + w[i] * force[k];
        const Real predicted = Real(4) / 3 * x[k] - Real(1) / 3 * xPrev[k] + Real(8) / 9 * h * v[k] -
                               Real(2) / 9 * h * vPrev[k] + Real(4) / 9 * h * h * accel;
        inertial[k] = w[i] == 0 ? x[k] + h * v[k] : predicted;
        p[k] = inertial[k];
      }
    }
    if (boxes) boundParticles(p.data(), begin, end, boxes);
  };
  forEachParticleRangeWithBoxes(scansParticles(), body);
}

/// BDF2's velocity vⁿ⁺¹ = (3/2 xⁿ⁺¹ - 2 xⁿ + 1/2 xⁿ⁻¹) / h, written (by substituting x̃) as
/// 4/3 vⁿ - 1/3 vⁿ⁻¹ + 2/3 h a + 3/2 (xⁿ⁺¹ - x̃) / h: the same value without the cancellation of three float32
/// positions, which would otherwise put ulp(x)/h of noise into v every substep. Then the history moves on.
void World::Impl::commitBdf2(Real h) {
  const Vec3 g = settings.gravity;
  const Real invH = 1 / h;
  auto body = [&](size_t begin, size_t end) {
    for (size_t i = begin; i < end; ++i) {
      for (int a = 0; a < 3; ++a) {
        const size_t k = 3 * i + a;
        const Real accel = w[i] == 0 ? Real(0) : g[a] + w[i] * force[k];
        const Real vNew = w[i] == 0 ? (p[k] - x[k]) * invH
                                    : Real(4) / 3 * v[k] - Real(1) / 3 * vPrev[k] + Real(2) / 3 * h * accel +
                                          Real(1.5) * (p[k] - inertial[k]) * invH;
        xPrev[k] = x[k];
        vPrev[k] = v[k];
        v[k] = vNew;
        x[k] = p[k];
      }
    }
  };
  forEachParticleRange(body);
}

/// (12-15) v = (p - x) / h, x = p.
void World::Impl::commitPositions(Real h) {
  const Real invH = 1 / h;
  auto body = [&](size_t begin, size_t end) {
    commitRange(x.data(), v.data(), p.data(), inertial.data(), invH, 3 * begin, 3 * end);
  };
  forEachParticleRange(body);
}

}  // namespace pbd

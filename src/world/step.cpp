// The step of Algorithm 1 (Müller et al. 2006), stage by stage: the substep loop, the settle, the solve's iterations,
// the particle pass and the commit. The solvers and passes it calls are in files of their own (distance_solvers.cpp,
// constraint_passes.cpp, bdf2.cpp, residual_record.cpp, schedule_refresh.cpp).
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>

#include "math/wide_float.h"
#include "world/particle_advance.h"
#include "world/rigid_damping.h"
#include "world/world_state.h"

namespace pbd {

namespace {

/// What PoolChoice's measurements hold for: the particle and constraint counts, the colliders and the settings that
/// set a step's work. Mixed as FNV-1a does, a change of any of them a different key (all but surely).
template <class... Counts>
uint64_t sceneKeyOf(Counts... counts) {
  uint64_t key = 1469598103934665603ull;
  ((key = (key ^ uint64_t(counts)) * 1099511628211ull), ...);
  return key;
}

}  // namespace

uint64_t World::Impl::sceneKey() const {
  const ConstraintStore& c = constraints;
  return sceneKeyOf(count(), c.distances.size(), c.dihedrals.size(), c.volumes.size(), c.tethers.size(),
                    c.neoHookeans.size(), c.surfaceVolumes.size(), c.triangleStrains.size(), c.shapeMatchings.size(),
                    c.attachments.size(), c.skinned.size(), rods.segments.size(), collision.colliders.size(),
                    settings.substeps, settings.iterations, int(settings.solver), int(settings.method),
                    int(settings.integrator), pool->concurrency());
}

void World::Impl::step(Real dt) {
  // PoolUse::Measured: this step on the pool or on this thread alone, as PoolChoice says; the same bits either way.
  const bool measured = poolUse == PoolUse::Measured && pool->concurrency() > 1;
  tasks = measured && !poolChoice.usePool() ? static_cast<TaskSystem*>(&serial) : pool;
  lastStepUsedPool = tasks->concurrency() > 1;
  struct BackOnThePool {  // also when the step throws (a hierarchy that cannot be built)
    Impl& m;
    ~BackOnThePool() { m.tasks = m.pool; }
  } backOnThePool{*this};
  const auto started = std::chrono::steady_clock::now();
  stepOn(dt);
  if (measured) {
    poolChoice.record(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count(),
                      sceneKey());
  }
}

void World::Impl::stepOn(Real dt) {
  diagnostics.clock.start(diagnostics.timings);
  islands.massesStale = true;  // w may have changed since the last step (setInverseMass, the inverseMasses() view)
  diagnostics.report = StepReport{};  // the substeps count dropped contacts into it
  saveState();
  const bool settleFirst = solveChangedSinceLastStep();
  runSubsteps(dt, settleFirst);
  if (stateIsFinite()) {
    hasStepped = true;
    steppedSettings = settings;
  } else {
    rollBack();  // and the next step settles again if this one did
  }
  diagnostics.clock.lap(diagnostics.timings.integrateMs);
  diagnostics.clock.finish(diagnostics.timings);
}

/// savedX, savedV = x, v for the non-finite guard's rollback: a copy split across threads (within the capacity
/// reserved with the particles: no allocation).
void World::Impl::saveState() {
  particles.savedX.resize(particles.x.size()), particles.savedV.resize(particles.v.size());
  const Real *pos = particles.x.data(), *vel = particles.v.data();
  Real *keptX = particles.savedX.data(), *keptV = particles.savedV.data();
  auto body = [=](size_t begin, size_t end) {
    std::copy(pos + 3 * begin, pos + 3 * end, keptX + 3 * begin);
    std::copy(vel + 3 * begin, vel + 3 * end, keptV + 3 * begin);
  };
  forEachParticleRange(body);
  saveRodFrames();  // rods.cpp
}

/// True when every position and velocity is finite. A flat reduction, split across threads; the answer does not
/// depend on how.
bool World::Impl::stateIsFinite() {
  std::atomic<bool> finite{true};
  auto body = [&](size_t begin, size_t end) {
    // Inf or NaN anywhere makes x - x NaN, and the sum NaN. Four sums at once: one sum through every float would be
    // a chain of dependent adds.
    const Float4 zero = Float4::splat(0);
    Float4 sums = zero;
    size_t k = 3 * begin;
    for (; k + 4 <= 3 * end; k += 4) {
      const Float4 xs = Float4::load(particles.x.data() + k), vs = Float4::load(particles.v.data() + k);
      sums = sums + ((xs - xs) + (vs - vs));
    }
    Real sum = 0;
    for (; k < 3 * end; ++k) sum += (particles.x[k] - particles.x[k]) + (particles.v[k] - particles.v[k]);
    if (sum != 0 || !all(sums == zero)) finite.store(false, std::memory_order_relaxed);
  };
  forEachParticleRange(body);
  return finite.load() && rodFramesAreFinite();
}

/// The non-finite guard's policy: undo the step for the whole world, and stop every body that went non-finite.
void World::Impl::rollBack() {
  diagnostics.report.rolledBack = true;
  bool first = true;
  for (uint32_t b = 0; b < particles.bodies.size(); ++b) {
    bool bad = false;
    for (uint32_t i = particles.bodies[b].begin; i < particles.bodies[b].end; ++i) {
      bool finiteParticle = true;
      for (int a = 0; a < 3; ++a)
        finiteParticle &= std::isfinite(particles.x[3 * i + a]) && std::isfinite(particles.v[3 * i + a]);
      if (finiteParticle) continue;
      ++diagnostics.report.nonFiniteCount;
      bad = true;
      if (first) diagnostics.report.particle = i, diagnostics.report.body = b, first = false;
    }
    if (!bad) continue;
    std::fill(particles.savedV.begin() + 3 * size_t(particles.bodies[b].begin),
              particles.savedV.begin() + 3 * size_t(particles.bodies[b].end), Real(0));
  }
  particles.historyValid = false;
  resetContactMomenta();  // the undone step gave no collider anything
  restoreDynamicColliders();  // collider_bodies.cpp
  restoreRodFrames();  // rods.cpp: before x and v are put back, it reads which went non-finite
  solverData.vbd.resetPenalties();  // they may have grown on the way to non-finite positions
  markMeshInsideUnknown();  // the inside flags describe the undone step
  // Copy back, not swap: x and v must keep their addresses, callers hold views of them.
  std::copy(particles.savedX.begin(), particles.savedX.end(), particles.x.begin());
  std::copy(particles.savedV.begin(), particles.savedV.end(), particles.v.begin());
}

void World::Impl::runSubsteps(Real dt, bool settleFirst) {
  refreshDerivedData();
  if (settings.solver == Solver::Hierarchical) refreshHierarchy();
  forgetSelfCandidateLists();
  const Real h = dt / Real(settings.substeps);
  if (settleFirst)
    particles.historyValid = false;  // BDF2 restarts from the settled positions (before PD factors for it)
  if (settings.solver == Solver::ProjectiveDynamics) {  // refactors only if something changed
    refreshProjective(substepInvH2(h, settings.integrator == Integrator::Bdf2 && particles.historyValid));
  }
  if (settings.solver == Solver::VertexBlockDescent) refreshVertexBlockDescent();
  if (settleFirst) settle(h);
  if (diagnostics.recordResiduals)
    diagnostics.residuals.assign(2 * size_t(settings.substeps) * size_t(settings.iterations), Real(0));
  resetContactMomenta();  // the settle's contacts gave nothing: its velocities are put back
  if (collision.anyDynamicCollider()) saveDynamicColliders();  // collider_bodies.cpp
  collision.contactInvH = 1 / h;
  // Attachments to dynamic colliders are solved with the body (projectAttachmentToBody), except under BDF2 (its
  // velocity is not the pose's change over h), PD and VBD (their iterations undo and redo the particles' pushes).
  collision.bodiesInSolve = collision.anyDynamicCollider() && settings.integrator == Integrator::ImplicitEuler &&
                            settings.solver != Solver::ProjectiveDynamics &&
                            settings.solver != Solver::VertexBlockDescent;
  for (int s = 0; s < settings.substeps; ++s) {
    // One substep of length h; the fraction says how far through the frame it ends, for kinematic targets.
    const Real stepFraction = Real(s + 1) / Real(settings.substeps);
    updateColliderPoses(Real(s) / Real(settings.substeps), stepFraction);
    if (collision.anyDynamicCollider()) moveDynamicColliders(h);  // collider_bodies.cpp
    const bool useBdf2 = settings.integrator == Integrator::Bdf2 && particles.historyValid;
    const bool seedsBdf2 = settings.integrator == Integrator::Bdf2 && !particles.historyValid;
    collision.contactBdf2 = useBdf2;
    if (seedsBdf2) {  // this Euler substep's start becomes the history BDF2 starts from: (xⁿ⁻¹, vⁿ⁻¹) before any force
      std::copy(particles.x.begin(), particles.x.end(), particles.xPrev.begin());
      std::copy(particles.v.begin(), particles.v.end(), particles.vPrev.begin());
      seedRodHistory();  // rods.cpp
    }
    const size_t pass = diagnostics.recordResiduals ? size_t(s) * size_t(settings.iterations) : kNoResiduals;
    const SubstepPlan plan = planSubstep(useBdf2, pass, s + 1 < settings.substeps);  // pass_fusion.cpp
    // Where the particle pass joins the solve's first copy in, the solve also generates the contacts (and its time
    // counts the pass's).
    AdvanceStages advance;
    if (plan.particlePassInSolve) {
      advance = advanceStages(h, {.accelerate = true, .damp = true, .clamp = true, .predict = true});
    } else {
      integrateAndPredict(h, useBdf2);
    }
    diagnostics.clock.lap(diagnostics.timings.integrateMs);
    if (!plan.particlePassInSolve) generateContacts(h);
    diagnostics.clock.lap(diagnostics.timings.colliderContactsMs);
    findSelfCollisionPairs();
    findContinuousSelfContacts();  // cloth_self_collision.cpp: bodies with continuous self-collision on
    diagnostics.clock.lap(diagnostics.timings.broadPhaseMs);
    prepareSkinnedFrames(stepFraction);
    predictRodFrames(h, true, useBdf2);  // rods.cpp
    solveConstraints(h, useBdf2, stepFraction, pass, plan, plan.particlePassInSolve ? &advance : nullptr);
    diagnostics.clock.lap(diagnostics.timings.solveMs);
    addLateContacts(h);
    projectSkinnedConstraints();  // the late pass may have pushed one out of its limits
    markTouchedIslands();  // internal_momentum.cpp
    diagnostics.clock.lap(diagnostics.timings.colliderContactsMs);
    freezeFailedSelfContacts();  // cloth_self_collision.cpp
    if (useBdf2) {
      commitBdf2(h);
    } else {
      if (seedsBdf2) particles.historyValid = true;
      if (commitJoinsNextPass(plan)) {
        particles.commitPending = true;  // the next substep's first pass commits this one
      } else {
        commitPositions(h);
      }
    }
    commitRodFrames(h, useBdf2);
    updateSelfCollisionVelocities();
    stopFrozenParticles();  // cloth_self_collision.cpp
    diagnostics.clock.lap(diagnostics.timings.integrateMs);
    updateContactVelocities(h);
    if (collision.anyDynamicCollider()) pushDynamicColliders();  // collider_bodies.cpp
    diagnostics.clock.lap(diagnostics.timings.colliderContactsMs);
    if (settings.rigidDamping > 0) {
      dampNonRigidMotions();
      diagnostics.clock.lap(diagnostics.timings.integrateMs);
    }
  }
  collision.bodiesInSolve = false;  // the settle moves no collider
  giveBackLostMomenta();  // internal_momentum.cpp: the last substep's round-off; the others' went back in the next
  for (Attachment& a : constraints.attachments) a.startTarget = a.target;
  for (SkinnedConstraint& c : constraints.skinned) c.startTarget = c.target, c.startNormal = c.normal;
  for (Collider& c : collision.colliders) c.startPosition = c.def.position, c.startRotation = c.def.rotation;
}

/// What decides how far a step's solve converges, and to what. Gravity, damping, the ground and the like change the
/// forces, not the solve: no settling for those. Nor before the first step: nothing converged under other settings.
bool World::Impl::solveChangedSinceLastStep() const {
  const SolverSettings &now = settings, &was = steppedSettings;
  return hasStepped && (now.method != was.method || now.solver != was.solver || now.integrator != was.integrator ||
                        now.substeps != was.substeps || now.iterations != was.iterations ||
                        now.jacobiRelaxation != was.jacobiRelaxation || now.hierarchyLevels != was.hierarchyLevels ||
                        now.hierarchyParents != was.hierarchyParents || now.coarseIterations != was.coarseIterations ||
                        now.chebyshevRho != was.chebyshevRho || now.distanceSweep != was.distanceSweep);
}

/// After a change of the solver settings the state the old ones left is not a solution of the new ones (a balloon
/// squashed by 4 substeps × 1 iteration, a rigid cloth stretched into a sag). Solved inside ordinary substeps, the
/// whole difference would become velocity (v = (p − x)/h) and launch the body (docs/architecture.md, "Settling after
/// a change of solver settings"). So the first step after a change settles first: one step's worth of substeps of the
/// new settings from rest and without gravity or forces, whose own motion carries over from substep to substep (it
/// speeds up the contraction of a long chain); then the velocities
/// are put back as the step found them (plus, for an island without pins, the rigid spin that keeps its angular
/// momentum, which the moved positions would change). The error the old settings left goes into the positions
/// without turning into kinetic energy, as the pre-stabilization of Macklin et al. 2014 (Unified Particle Physics for
/// Real-Time Applications) does for contacts. A compliant constraint moves by C/(1 + α̃/w) at most per pass, little
/// for soft ones, whose stretch under load is real; a state that satisfies the constraints stays put. Colliders and
/// attachment targets stay where the last step left them. Costs one step's solve, once per change.
void World::Impl::settle(Real h) {
  std::fill(particles.v.begin(), particles.v.end(), Real(0));
  std::fill(rods.angularVelocity.begin(), rods.angularVelocity.end(), Vec3::Zero());
  updateColliderPoses(0, 0);  // where the last step left them, for every settle substep
  // One plan for every settle substep: the settle never fuses its particle pass into the solve (the one part of a
  // plan that what a substep finds could change), and it has no next substep to leave a commit to.
  const SubstepPlan plan = planSubstep(false, kNoResiduals, false);
  for (int s = 0; s < settings.substeps; ++s) {
    advanceParticles(h, {.predict = true});
    generateContacts(h);
    findSelfCollisionPairs();
    findContinuousSelfContacts();
    prepareSkinnedFrames(0);
    predictRodFrames(h, false, false);
    solveConstraints(h, false, 0, kNoResiduals, plan, nullptr);
    addLateContacts(h);
    projectSkinnedConstraints();
    freezeFailedSelfContacts();
    commitPositions(h);
    commitRodFrames(h, false);
  }
  std::copy(particles.savedV.begin(), particles.savedV.end(),
            particles.v.begin());  // step() saved x and v before the substeps
  std::copy(rods.savedAngularVelocity.begin(), rods.savedAngularVelocity.end(), rods.angularVelocity.begin());
  forgetLostMomenta();
  keepIslandAngularMomenta(particles.savedX,
                           h);  // internal_momentum.cpp: moved positions under kept velocities change x × v
  diagnostics.clock.lap(diagnostics.timings.solveMs);
}

/// The constraint iterations of one substep: every multiplier back to 0, then HPBD's coarse pre-pass if on, then
/// `iterations` passes over every constraint kind, the contacts last. With `advance`, the first distance pass starts
/// with the particle pass and the contacts are generated after it (plan.particlePassInSolve).
void World::Impl::solveConstraints(Real h, bool useBdf2, Real stepFraction, size_t pass, const SubstepPlan& plan,
                                   const AdvanceStages* advance) {
  const Real invH2 = substepInvH2(h, useBdf2);
  zeroDistanceMultipliers();
  std::fill(constraints.attachmentLambda.begin(), constraints.attachmentLambda.end(), Real(0));
  std::fill(constraints.dihedralLambda.begin(), constraints.dihedralLambda.end(), Real(0));
  std::fill(constraints.volumeLambda.begin(), constraints.volumeLambda.end(), Real(0));
  std::fill(constraints.surfaceVolumeLambda.begin(), constraints.surfaceVolumeLambda.end(), Real(0));
  std::fill(constraints.neoHookeanLambda.begin(), constraints.neoHookeanLambda.end(), Real(0));
  std::fill(constraints.triangleStrainLambda.begin(), constraints.triangleStrainLambda.end(), Real(0));
  std::fill(constraints.shapeMatchingLambda.begin(), constraints.shapeMatchingLambda.end(), Real(0));
  std::fill(rods.stretchLambda.begin(), rods.stretchLambda.end(), Vec3::Zero());
  std::fill(rods.bendLambda.begin(), rods.bendLambda.end(), Vec3::Zero());
  const bool xpbd = settings.method == Method::Xpbd;
  const bool sweepsBack = distancesSweepBack(useBdf2);  // pass_fusion.cpp
  prepareIslandFrames(useBdf2, h);  // internal_momentum.cpp: the guard brackets every internal projection below
  // HPBD's pre-pass: the coarse levels move the particles once per substep, then the iterations refine.
  if (settings.solver == Solver::Hierarchical) {
    beginInternalProjections();
    solverData.hierarchy.solve(asVec3(particles.p), particles.w.data(), xpbd, invH2);
    endInternalProjections();
  }
  // The late contact pass scans p as the solve leaves it. When nothing moves p after the blocks' last copy out, that
  // copy bounds the particles as it writes them: one pass over them and one dispatch to the threads fewer a substep.
  auto boundInCopyOut = [&](bool keepPadded) { return keepPadded && scansParticles() && plan.copyOutBounds; };
  collision.solveBoundParticles = false;
  // The particle pass and the first distance pass as one job. The contacts it would have generated before the
  // pass: none when no box reached the ground (the predicate leaves no other source); else the job stopped after
  // the prediction, and they are generated now, from it, before the first pass runs as usual.
  bool firstPassDone = false;
  if (advance) {
    collision.contacts.clear();
    const bool onePass = settings.iterations == 1;
    firstPassDone = projectDistancesColoured(
        xpbd, invH2, false,
        {.bound = onePass && boundInCopyOut(blocksAloneMoveParticles(plan)), .advance = advance});
    if (!firstPassDone) {
      collision.solveBoundParticles = false;
      generateContacts(advance->h);
    }
  }
  // VBD's attachments, contacts and stiffnesses for the substep, before the guard's first sums: the islands they hold
  // leave the guard for it (releaseIslandsHeldInVertexSteps).
  if (settings.solver == Solver::VertexBlockDescent) beginVertexBlockDescent(invH2, stepFraction);
  const bool keepPadded = blocksAloneMoveParticles(plan);
  for (int it = 0; it < settings.iterations; ++it) {
    // A first pass done with the particle pass copied out (paddedP still holds what it copied).
    const bool copyIn = !keepPadded || (it == 0 && !firstPassDone);
    const bool copyOut = !keepPadded || it + 1 == settings.iterations;
    // PD's global step and VBD's vertex steps pull every particle back toward its inertial target, undoing the last
    // iteration's contact pushes, which then push again: only the last iteration's pushes stay in the result.
    collision.countContactPushes = (settings.solver != Solver::ProjectiveDynamics &&
                                    settings.solver != Solver::VertexBlockDescent) ||
                                   it + 1 == settings.iterations;
    beginInternalProjections();
    switch (settings.solver) {
      // Under BDF2 the distances sweep back as well (symmetric_sweep.h): its recurrence amplifies a one-way
      // sweep's complex eigenvalues (a 20×20 rigid cloth at 10×1 went from 9.6 J to 72 J). Under Euler they do when
      // the settings ask (DistanceSweep::Symmetric).
      case Solver::GaussSeidel:
        projectDistancesGaussSeidel(xpbd, invH2);
        if (sweepsBack) projectDistancesGaussSeidel(xpbd, invH2, true);
        break;
      case Solver::Jacobi: projectDistancesJacobi(xpbd, invH2); break;
      case Solver::ColouredGaussSeidel:
      case Solver::Hierarchical:  // level 0
        if (it > 0 || !firstPassDone) {
          const bool out = copyOut && !plan.sweepBackPadded;  // the plan takes it only where the pass sweeps back
          projectDistancesColoured(xpbd, invH2, false, {copyIn, out, boundInCopyOut(keepPadded) && out});
        }
        if (sweepsBack) projectDistancesColoured(xpbd, invH2, true, {.in = !plan.sweepBackPadded});
        break;
      // One local/global solve of distances, dihedrals and tets (1/h_eff² = invH2); the rest PBD-style below.
      case Solver::ProjectiveDynamics: solveProjective(invH2); break;
      // A Newton step per vertex on the energies of distances, dihedrals, tets, strain triangles, attachments and
      // contacts; the rest PBD-style below.
      case Solver::VertexBlockDescent:
        solveVertexBlockDescent(invH2);
        if (it + 1 == settings.iterations) bookVertexBlockDescentContacts();
        break;
    }
    // PD solved these in its global step, VBD in its vertex steps (VBD the strain triangles too).
    if (settings.solver != Solver::VertexBlockDescent) projectTriangleStrains(xpbd, invH2);
    if (settings.solver != Solver::ProjectiveDynamics && settings.solver != Solver::VertexBlockDescent) {
      projectDihedrals(xpbd, invH2);
      projectVolumes(xpbd, invH2);
      projectNeoHookeans(xpbd, invH2);
    }
    projectSurfaceVolumes(xpbd, invH2);
    projectShapeMatchingClusters(xpbd, invH2);
    endInternalProjections();
    // Outside the momentum guard: they trade angular momentum between the particles and the frames, which it does
    // not see.
    projectRods(invH2);
    projectTethers();
    projectSelfCollisions();
    projectContinuousSelfContacts();
    projectAttachmentsAndContacts(xpbd, invH2, stepFraction);
    projectRodSegmentContacts();  // rod_contacts.cpp
    if (pass != kNoResiduals) {  // timed apart, so that a recording step's solveMs is the solver's alone
      diagnostics.clock.lap(diagnostics.timings.solveMs);
      recordResidual(pass + size_t(it), invH2);
      diagnostics.clock.lap(diagnostics.timings.residualMs);
    }
  }
}

/// (5)-(7): the damping, the forces, the speed clamp and the prediction, each per particle, in one pass over the
/// particles with one dispatch to the threads. The damping acts on the velocity carried over, before the forces, so
/// it does not move a static equilibrium. BDF2 damps and clamps here, and predicts with its own formula.
void World::Impl::integrateAndPredict(Real h, bool bdf2) {
  advanceParticles(h, {.accelerate = !bdf2, .damp = true, .clamp = true, .predict = !bdf2});
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
  s.commit = particles.commitPending;  // the last substep's, of the same h
  particles.commitPending = false;
  s.damp &= settings.linearDamping > 0;
  s.clamp &= settings.maxSpeed > 0;
  s.g[0] = settings.gravity.x(), s.g[1] = settings.gravity.y(), s.g[2] = settings.gravity.z();
  s.h = h, s.keep = std::max(Real(0), 1 - settings.linearDamping * h), s.maxSpeed = settings.maxSpeed;
  return s;
}

/// (6) Müller's damping of non-rigid motion per body, at the end of a substep: of the velocity it carries over, with
/// its contacts and attachments known, whose particles are left out (world/rigid_damping.h). k is per frame; per
/// substep use 1 - (1-k)^(1/substeps) so the frame's damping does not depend on substeps.
void World::Impl::dampNonRigidMotions() {
  const Real k = settings.rigidDamping >= 1
                     ? Real(1)
                     : 1 - std::pow(1 - settings.rigidDamping, Real(1) / Real(settings.substeps));
  std::vector<uint8_t>& held = particles.held;
  held.assign(count(), 0);  // within the capacity reserved with the particles
  forEachHeldParticle([&held](uint32_t i) { held[i] = 1; });
  for (const ParticleRange& b : particles.bodies)
    dampNonRigidMotion(particles.x.data(), particles.v.data(), particles.w.data(), held.data(), b.begin, b.end, k);
}

/// (12-15) v = (p - x) / h, x = p.
void World::Impl::commitPositions(Real h) {
  const Real invH = 1 / h;
  auto body = [&](size_t begin, size_t end) {
    commitRange(particles.x.data(), particles.v.data(), particles.p.data(), particles.inertial.data(), invH, 3 * begin,
                3 * end);
  };
  forEachParticleRange(body);
}

}  // namespace pbd

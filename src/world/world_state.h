// The World's internals: World::Impl, composed of the subsystems of its state (particles, constraints, solver data,
// collision, self-collision, islands, diagnostics; one header each), and the stages of the step. Only src/world/*.cpp
// include this.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "math/band_layout.h"
#include "pbd/world.h"
#include "collision/shape_distance.h"
#include "world/collision_state.h"
#include "world/constraint_store.h"
#include "world/diagnostics.h"
#include "world/islands.h"
#include "world/particle_state.h"
#include "world/pool_choice.h"
#include "world/rod_state.h"
#include "world/self_collision_state.h"
#include "world/solver_data.h"
#include "world/substep_plan.h"
#include "world/tear_state.h"

namespace pbd {

struct BodyBlueprint;
struct ShapeMatchingBlueprint;

/// The world: its settings, its task system and the subsystems of its state, each in its own header; the stages
/// of the step are member functions implemented across src/world/*.cpp, each naming the subsystems it uses.
struct World::Impl {
  SolverSettings settings;
  SerialTaskSystem serial;
  TaskSystem* tasks = &serial;      // what the step's stages run on: pool, or serial for a step PoolChoice gave it
  TaskSystem* pool = &serial;       // the task system the world was given (setTaskSystem)
  PoolUse poolUse = PoolUse::Always;
  PoolChoice poolChoice;            // PoolUse::Measured: which of the two is faster, by measurement
  bool lastStepUsedPool = false;

  ParticleState particles;           // positions, velocities, masses and bodies
  ConstraintStore constraints;       // every constraint by kind, with its multipliers
  SolverData solverData;             // colours, blocks, hierarchy, PD factorization, sweep orders, working copies
  CollisionState collision;          // colliders, contacts, particle boxes
  SelfCollisionState selfCollision;  // particle pairs and continuous self-contacts
  IslandState islands;               // the momentum guard's islands
  RodState rods;                     // Cosserat rods' segments, joints and frames
  TearState tearing;                 // tearable bodies' triangles as torn
  Diagnostics diagnostics;           // report, timings, residuals, contact view

  bool hasStepped = false;            // a step has run; steppedSettings holds its settings
  SolverSettings steppedSettings;     // the last step's settings: a step whose solve differs settles first (settle)
  bool fusePasses = true;             // the step may fuse passes over the particles (pass_fusion.cpp); off
                                      // only in the tests that compare the fused step with the unfused one

  uint32_t count() const { return particles.count(); }

  // --- Building (world_particles.cpp, world_constraints.cpp; reserveResiduals in world.cpp) ---
  uint32_t appendParticles(const char* fn, const Real* xyz, const Real* invMass, size_t n);
  void reserveDistances(size_t extra);
  void appendDistance(const DistanceConstraintDef& def);  // after reserveDistances: never throws
  void reserveResiduals(int substeps, int iterations);
  BodyRange appendBody(const char* fn, const BodyBlueprint& blueprint, const ContactMaterial& contact = {});
  uint32_t bodyOf(uint32_t particle) const;  // body_materials.cpp: the body whose range holds the particle
  /// Calls f(i, margin) for every particle in order with its body's contact thickness (bodies tile the particles).
  template <class F>
  void forEachParticleWithMargin(F f) const {
    for (size_t b = 0; b < particles.bodies.size(); ++b) {
      const Real margin = particles.bodyMaterials[b].thickness;
      for (uint32_t i = particles.bodies[b].begin; i < particles.bodies[b].end; ++i) f(i, margin);
    }
  }
  /// Calls f(i, margin) for every free particle (w_i != 0) with its body's contact thickness, in parallel ranges of
  /// at least `perTask` particles: a call may touch particle i's own state only.
  template <class F>
  void forEachFreeParticleWithMarginInParallel(size_t perTask, F f) {
    auto range = [&](size_t begin, size_t end) {
      uint32_t body = bodyOf(uint32_t(begin));
      for (uint32_t i = uint32_t(begin); i < end; ++i) {
        while (i >= particles.bodies[body].end) ++body;  // bodies tile the particles
        if (particles.w[i] != 0) f(i, particles.bodyMaterials[body].thickness);
      }
    };
    tasks->parallelFor(count(), perTask, range);
  }
  void fillContactView();        // contact_view.cpp: contactView from the last substep's contacts
  // strength_setters.cpp: validates, then sets the strength (and k') of constraints [first, first+count) of `kind`
  void setStrength(const char* fn, ConstraintKind kind, uint32_t first, uint32_t count, const Strength& strength);
  size_t constraintsOfKind(const char* fn, ConstraintKind kind) const;  // throws naming "kind" if unknown

  // --- The step (step.cpp) ---
  void step(Real dt);    // on the pool or on this thread, as poolUse and poolChoice say; then stepOn
  void stepOn(Real dt);  // the step itself, on `tasks`
  uint64_t sceneKey() const;  // step.cpp: what PoolChoice's measurements hold for
  void runSubsteps(Real dt, bool settleFirst);
  void settle(Real h);
  // The constraint iterations of one substep on p, from the multipliers' reset to the last pass; `pass` numbers the
  // substep's first pass for the residual record (kNoResiduals: record none).
  // `plan`: the fusions it may take (pass_fusion.cpp); `advance`: the substep's particle pass, still to run, and then
  // the contact generation (plan.particlePassInSolve).
  void solveConstraints(Real h, bool useBdf2, Real stepFraction, size_t pass, const SubstepPlan& plan,
                        const AdvanceStages* advance);
  static constexpr size_t kNoResiduals = ~size_t(0);
  // True when the step about to run converges differently from the last one (step.cpp).
  bool solveChangedSinceLastStep() const;
  void saveState();
  bool stateIsFinite();
  void rollBack();
  void refreshDerivedData();
  // One pass over the particles running the stages whose flags `stages` sets (their values come from the
  // settings; damping and the clamp only where the settings ask for them), after the pending commit if any.
  void advanceParticles(Real h, AdvanceStages stages);
  /// `stages` with their values from the settings (damping and the clamp only where the settings ask for them) and
  /// the pending commit, which it takes over.
  AdvanceStages advanceStages(Real h, AdvanceStages stages);
  AdvancedParticles advancedParticles() {
    return {particles.x.data(),        particles.v.data(), particles.p.data(),
            particles.inertial.data(), particles.w.data(), particles.force.data()};
  }
  // (5)-(7) for every particle in as few passes as the settings allow (Euler; BDF2 predicts with its own formula).
  void integrateAndPredict(Real h, bool bdf2);
  void dampNonRigidMotions();
  void predictBdf2(Real h);
  void commitBdf2(Real h);
  void reserveContacts(size_t particles, size_t colliderCount);
  void updateColliderPoses(Real fractionStart, Real fractionEnd);
  void generateContacts(Real h);
  /// The ground or an analytic collider scans the particles: the passes that write p then bound them.
  bool scansParticles() const;  // contacts.cpp
  void boundAllParticles();     // contacts.cpp: particleBoxes from p as it is now, in parallel
  /// The late pass's move of particle i: p_i = `to`, and its run's box grown to hold it. The late pass pushes
  /// particles after the boxes were made, and the colliders after the push must still see where it went.
  /// The move counts as collider `collider`'s contact's (recordContactMomentum).
  void moveInLatePass(uint32_t i, const Vec3& to, uint32_t collider);
  /// contacts.cpp: adds to collider k's ContactMomentum what its contact just gave particle i (nothing for the ground).
  void recordContactMomentum(uint32_t k, uint32_t i, const Vec3& from, bool velocity);
  /// contacts.cpp: adds `momentum` (N·s, what a contact gave particle i) and its moment to collider k's sum.
  void bookContactMomentum(uint32_t k, uint32_t i, const Eigen::Vector3d& momentum, bool velocity);
  /// contacts.cpp: the momentum particle i got from a move from `from` to p_i (or a velocity change to v_i).
  Eigen::Vector3d momentumOfMove(uint32_t i, const Vec3& from, bool velocity) const;
  // Dynamic colliders (collider_bodies.cpp): their motion across a step's substeps.
  void saveDynamicColliders();     // at the step's start, for the rollback
  void moveDynamicColliders(Real h);  // a substep's free motion under gravity: the substep's poses
  void pushDynamicColliders();     // after the substep's contacts: minus what they gave the particles
  void restoreDynamicColliders();  // the rollback: poses and velocities as the step found them
  void resetContactMomenta();  // contacts.cpp: every collider's sum to zero, at a step's first substep
  /// body(begin, end) over the particles [0, count()) in ranges split across threads, each range's begin a multiple
  /// of kBoxParticles. Where the coloured solver runs on the band layout (math/band_layout.h), a task is a slice of
  /// that layout's blocks: the same span of each of the four bands (body called once per band), cut as the distance
  /// pass cuts its pad and unpad copies (kBandBlocksPerTask blocks). A thread's home ranges (ThreadPool::Job) are
  /// then the particles it pads, projects and copies back, so their cache lines stay in its core from pass to pass
  /// (with ranges of consecutive particles, half of them would cross to the other core and back every substep).
  /// Every pass given to it is per particle: any split gives the same
  /// bits, and m comes from the particle count, so a schedule not yet rebuilt changes the split only.
  template <class Body>
  void forEachParticleRange(Body body) {
    const size_t n = count(), m = bandParticles(uint32_t(n)), slice = kBandBlocksPerTask;
    const bool coloured = settings.solver == Solver::ColouredGaussSeidel || settings.solver == Solver::Hierarchical;
    const BlockSchedule& blocks = solverData.schedule.blocks;
    const bool sliced = coloured && blocks.banded && !blocks.latticeOrdered && m % kBoxParticles == 0;
    if (!sliced) {
      auto runs = [&](size_t first, size_t last) { body(first * kBoxParticles, std::min(n, last * kBoxParticles)); };
      return tasks->parallelFor((n + kBoxParticles - 1) / kBoxParticles, kParticlesPerTask / kBoxParticles, runs);
    }
    auto slices = [&](size_t first, size_t last) {
      forEachBandSpan(uint32_t(n), uint32_t(m), first * slice, std::min(m, last * slice), body);
    };
    tasks->parallelFor((m + slice - 1) / slice, 1, slices);
  }
  /// body(begin, end, boxes) over the particles in forEachParticleRange's ranges. With `bound`, boxes is
  /// particleBoxes (sized for the particles), and body must fill the boxes of its range's runs from p once it has
  /// written p (boundParticles, or as it writes them: advanceParticleRange), while its p is in cache; otherwise
  /// boxes is null.
  template <class Body>
  void forEachParticleRangeWithBoxes(bool bound, Body body) {
    if (bound)
      collision.particleBoxes.resize((count() + kBoxParticles - 1) / kBoxParticles);  // within reserveContacts'
    ParticleBox* boxes = bound ? collision.particleBoxes.data() : nullptr;
    forEachParticleRange([&](size_t begin, size_t end) { body(begin, end, boxes); });
  }
  void projectDistancesGaussSeidel(bool xpbd, Real invH2, bool backward = false);
  /// False only when copies.advance found the ground in reach and the pass stopped after its copy in (p is then the
  /// prediction, with its boxes).
  bool projectDistancesColoured(bool xpbd, Real invH2, bool backward = false, PaddedCopies copies = {});
  // pass_fusion.cpp: where passes over the particles are fused. The plan, before the substep moves anything (each
  // fusion off with fusePasses); then the two fusions that the substep's findings can still veto.
  SubstepPlan planSubstep(bool useBdf2, size_t pass, bool nextSubstep) const;
  bool blocksAloneMoveParticles(const SubstepPlan& plan) const;
  bool commitJoinsNextPass(const SubstepPlan& plan) const;
  bool distancesSweepBack(bool useBdf2) const;
  bool distanceBatchesAlone() const;
  bool onlyBlocksProject(bool sweepsBack, size_t pass) const;
  bool particlePassJoinsSolve(bool sweepsBack, bool copyOutBounds) const;
  bool copyOutBoundsParticles() const;
  void zeroDistanceMultipliers();
  void projectDistancesJacobi(bool xpbd, Real invH2);
  void refreshHierarchy();  // hierarchical_stage.cpp
  // projective_stage.cpp: elements from the constraints and the factorization for the first substep's 1/h_eff², once
  // per step before anything moves (throws InvalidArgument, world unchanged, if the matrix is not positive definite)
  void refreshProjective(Real firstInvH2);
  /// 1/h_eff² of a substep of length h: α̃ = α/h² (Euler); BDF2 weighs the constraint forces by 4/9 h², α̃ = α/(4/9 h²).
  static Real substepInvH2(Real h, bool useBdf2) { return useBdf2 ? Real(9) / (4 * h * h) : 1 / (h * h); }
  void solveProjective(Real invH2);       // one PD local/global iteration on p (distances, dihedrals, tets)
  // vertex_block_descent_stage.cpp
  VbdElements vertexBlockDescentElements() const;  // the constraint arrays VBD solves
  size_t vertexBlockDescentElementCount() const;   // how many elements those are (what VBD's penalties are sized for)
  void refreshVertexBlockDescent();                // rebuilds its colouring and incidences if the elements changed
  void fillVertexBlockDescentAttachments(Real stepFraction);  // their targets at that fraction of the step
  void beginVertexBlockDescent(Real invH2, Real stepFraction);  // targets, stiffness and the contacts
  void fillVertexBlockDescentContacts();  // the substep's contacts that VBD's vertex steps take as energies
  void bookVertexBlockDescentContacts();  // what their normal forces gave the colliders, at the last iteration
  void releaseIslandsHeldInVertexSteps();  // the momentum guard leaves the islands VBD's attachments or contacts hold
  void solveVertexBlockDescent(Real invH2);        // one VBD iteration on p
  void projectTethers();
  // internal_momentum.cpp: the momentum guard around the internal projections
  void reserveIslands(size_t bodyCount, size_t particleCount);  // room for the islands (may throw)
  void refreshIslands();                      // rebuilds them if dirty (never allocates after the reserve)
  void prepareIslandFrames(bool bdf2, Real h);  // per substep: free islands, their centres and inertia; gives back
                                                // what round-off took in the last substep
  void beginInternalProjections();            // T⁰, P⁰ per free island
  void endInternalProjections();              // removes the angular impulse the projections added since T⁰; keeps
                                              // what round-off took
  void giveBackLostMomenta();                 // after the last substep: what round-off took, into the velocities
  void forgetLostMomenta();                   // after the settle, whose velocities are dropped
  void markTouchedIslands();                  // after a substep's contacts: islands that exchanged momentum
  /// f(particle) for each particle something outside its body holds in this substep: a contact, an active
  /// attachment, a skinned constraint (a particle may come more than once).
  template <class F>
  void forEachHeldParticle(F f) const {
    for (const Contact& c : collision.contacts) f(c.particle);
    for (const Attachment& a : constraints.attachments)
      if (a.active) f(a.particle);
    for (const SkinnedConstraint& c : constraints.skinned) f(c.particle);
  }
  void keepIslandAngularMomenta(const std::vector<Real>& x0, Real h);  // after the settle: Σ m x × v as at x0
  LostMotion takeLostMotion(IslandFrame& frame, bool bdf2Next) const;
  Eigen::Vector3d shiftToGiveBack(IslandFrame& frame, const Eigen::Vector3d& lag, double reach);
  Eigen::Vector3d shiftParticle(uint32_t particle, const Eigen::Vector3d& shift,
                                std::initializer_list<std::vector<Real>*> positions);
  void addVelocity(uint32_t particle, const Eigen::Vector3d& dv);
  Eigen::Vector3d lever(uint32_t particle, bool bdf2, Real h) const;
  void sumChunk(GuardChunk& chunk) const;         // the chunk's part of T and P (IslandSums), into chunk.sums
  IslandSums islandSums(uint32_t island) const;  // its chunks' sums
  /// Σ over island k's chunks, in chunk order, of get(chunk) (the first chunk's value itself when it is alone).
  template <class Get>
  auto chunkTotal(uint32_t k, Get get) const {
    auto total = get(islands.chunks[islands.chunkBegin[k]]);
    for (uint32_t q = islands.chunkBegin[k] + 1; q < islands.chunkBegin[k + 1]; ++q) total += get(islands.chunks[q]);
    return total;
  }
  /// first(chunk) for every chunk of a free island, then between() once, then second(chunk) for each again: one job
  /// on the task system, whose barriers order the three (phaseCount 1: first alone). On the threads once the free
  /// islands have more than kGuardChunkMembers members (more than one chunk; docs/performance.md, "Tuned constants").
  template <class First, class Between, class Second>
  void forFreeChunks(First& first, Between& between, Second& second, size_t phaseCount = 3) {
    const size_t n = islands.chunks.size();
    const size_t minRange = islands.freeMembers > kGuardChunkMembers ? 1 : TaskSystem::kOneRange;
    const size_t sizes[3] = {n, 1, n}, minRanges[3] = {minRange, TaskSystem::kOneRange, minRange};
    auto run = [&](size_t phase, size_t begin, size_t end) {
      if (phase == 1) return between();
      for (size_t q = begin; q < end; ++q) {
        GuardChunk& c = islands.chunks[q];
        if (!islands.islandFrames[c.island].free) continue;
        if (phase == 0) first(c);
        else second(c);
      }
    };
    tasks->parallelPhases(phaseCount, sizes, minRanges, run);
  }
  template <class Pass>
  void forFreeChunks(Pass& pass) {
    auto none = [] {};
    forFreeChunks(pass, none, pass, 1);
  }
  bool islandHasPin(uint32_t island) const;
  /// f(member, particle) for each particle of island k that the guard covers, in the islands' fixed order; `member`
  /// indexes islandMass and islandLever.
  template <class F>
  void forEachIslandMember(uint32_t island, F f) const {
    for (uint32_t s = islands.memberBegin[island]; s < islands.memberBegin[island + 1]; ++s) f(s, islands.members[s]);
  }
  void projectDihedrals(bool xpbd, Real invH2);
  template <class Batch, class One>  // constraint_passes.cpp: colouredElementSweep on paddedP, copied in and out
  void sweepOnPaddedPositions(const ElementOrder& order, ElementSweep ways, size_t batchesPerTask, Batch&& batch,
                              One&& one, const std::vector<uint32_t>& atPlace = {},
                              const std::vector<uint32_t>& placeOf = {});
  void projectVolumes(bool xpbd, Real invH2);
  void projectSurfaceVolumes(bool xpbd, Real invH2);
  void projectNeoHookeans(bool xpbd, Real invH2);
  void appendSurfaceVolume(const BodyBlueprint& b, uint32_t first);  // after reserving: never throws
  void projectTriangleStrains(bool xpbd, Real invH2);
  void reserveTriangleStrains(const char* fn, size_t extra);
  void appendTriangleStrains(const BodyBlueprint& b, uint32_t first);  // after reserving: never throws
  void projectShapeMatchingClusters(bool xpbd, Real invH2);
  void reserveShapeMatching(const char* fn, const ShapeMatchingBlueprint& cluster);
  void appendShapeMatching(const ShapeMatchingBlueprint& cluster, uint32_t first);  // after reserving: never throws
  void findSelfCollisionPairs();
  /// The distance particles i and j of a self-collision pair are kept apart: `diameter` (2 radius), or less for two
  /// of one body that start closer than twice that (self_collision.cpp).
  Real selfCollisionDistance(uint32_t i, uint32_t j, Real diameter) const;
  void reserveSelfCollision(size_t particles);
  void projectSelfCollisions();
  // Continuous cloth self-collision (cloth_self_collision.cpp): surfaces added with their bodies, the stage.
  SelfCollidingSurface* selfSurfaceOf(uint32_t body);  // nullptr: the body has no triangles
  void reserveElementOrders(size_t particles);  // for the element vectors' capacities (may throw)
  void refreshElementOrders();                  // rebuilds them if dirty (never allocates after the reserve)
  void reserveSelfSurface(const SelfCollidingSurface& surface);  // room for it and its contacts (may throw)
  void reserveSelfContacts(const SelfCollidingSurface& surface); // its contacts, if it self-collides (may throw)
  void appendSelfSurface(SelfCollidingSurface&& surface);        // after reserveSelfSurface: never throws
  /// appendBody for cloth and mesh bodies: also their self-colliding surface (validated and built first).
  BodyRange appendSurfaceBody(const char* fn, const BodyBlueprint& blueprint, const ContactMaterial& contact,
                              const ContinuousSelfCollision& self, const Tearing& tearing);
  // tearing.cpp: a cloth or mesh body's tearable surface when `tearing` asks for one (checked, throws naming fn)
  std::optional<TearableSurface> makeTearableSurface(const char* fn, const BodyBlueprint& b, const Tearing& tearing) const;
  void checkTearEdges(const char* fn, uint32_t body, std::span<const uint32_t> edges);
  bool findOverstretchedEdges(TearableSurface& surface);  // into tearing.overstretched; allocates only when found
  void forgetSelfCandidateLists();  // at a step's start: what it computes then depends on the state alone
  void findContinuousSelfContacts();
  void testSelfCandidates();  // the narrow phase of the gathered batch; appends the contacts found, in order
  template <class Test>
  void testGatheredSelfCandidates(Test test);  // test(k, start, end) per gathered candidate, in parallel
  void freezeFailedSelfContacts();  // after the solve: freezes the particles of pairs that passed through or too close
  void stopFrozenParticles();       // after the commit: zero velocity for the particles frozen this substep
  void projectContinuousSelfContacts();
  void projectAttachmentsAndContacts(bool xpbd, Real invH2, Real stepFraction);
  Vec3 attachmentTarget(const Attachment& a, Real stepFraction) const;  // constraint_passes.cpp
  void projectAttachmentToBody(size_t a, bool xpbd, Real invH2);        // collider_bodies.cpp
  // Cosserat rods' frames (rods.cpp): the substep's prediction, the projection pass, the commit; the step's save
  // and rollback.
  // ω damped and torqued (with forces), q turned by Euler's or BDF2's prediction; q at the start kept
  void predictRodFrames(Real h, bool forces, bool bdf2);
  void projectRods(Real invH2);                // each rod's direct solve
  void commitRodFrames(Real h, bool bdf2);     // ω from the turn over the substep (and BDF2's history moves on)
  void seedRodHistory();                       // BDF2's history from the present, as the particles' seeding substep
  void projectRodSegmentContacts();            // rod_contacts.cpp: segments against every collider but planes
  void projectRodSegmentsOnMesh(uint32_t collider);  // the same against a triangle mesh's surface
  // One segment's contact at x(t) with collider k's surface at distance d (world normal), friction included.
  void projectRodSegmentContact(uint32_t collider, const RodSegment& s, Real t, const ShapeDistance& d, Real margin);
  void saveRodFrames();
  bool rodFramesAreFinite() const;
  void restoreRodFrames();                     // and no spin for a rod whose body went non-finite
  void prepareSkinnedFrames(Real stepFraction);  // skinned_constraints.cpp
  void projectSkinnedConstraints();
  void projectContacts();
  void recordResidual(size_t pass, Real invH2);
  void addLateContacts(Real h);
  // Triangle-mesh colliders (mesh_contacts.cpp): continuous contacts per substep, the late pass, state upkeep.
  void generateMeshContacts(uint32_t collider, Real h);
  void addLateMeshContacts(uint32_t collider, Real h);
  void markMeshInsideUnknown();  // particles moved or added outside the step: recompute who is inside a mesh
  MeshShape buildMeshShape(const char* fn, const ColliderDef& def) const;  // mesh_colliders.cpp; validates
  void commitPositions(Real h);
  void updateContactVelocities(Real h);
  void updateSelfCollisionVelocities();  // self_collision.cpp: after the commit, the pushed pairs' normal velocity
  Real contactFriction(const Contact& c) const;  // contacts.cpp: dynamic μ_d of the particle's body against the surface
  Real contactStaticFriction(const Contact& c) const;  // contacts.cpp: static μ_s, the same pair, the same mixing
  void holdStaticFriction(Contact& c);  // contacts.cpp: position-level static and dynamic friction of one contact
  void pushOut(Contact& c, const Vec3& pi, Real push, const Vec3& n);  // contacts.cpp: back onto the surface
  Real groundSurface() const { return settings.ground.height + settings.ground.thickness; }
};

}  // namespace pbd

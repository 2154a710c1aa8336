// The World's internals: runtime state in structure-of-arrays form, constraint arrays (one per kind), the colour
// schedule, and the stages of the step. Only src/world/*.cpp include this.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "constraints/dihedral.h"
#include "constraints/distance.h"
#include "constraints/surface_volume.h"
#include "constraints/neo_hookean.h"
#include "constraints/self_contact.h"
#include "constraints/shape_matching.h"
#include "constraints/tet_volume.h"
#include "constraints/tether.h"
#include "constraints/triangle_strain.h"
#include "math/band_layout.h"
#include "pbd/colliders.h"
#include "pbd/world.h"
#include "collision/mesh_collider.h"
#include "collision/particle_boxes.h"
#include "collision/particle_neighbours.h"
#include "schedule/block_schedule.h"
#include "schedule/element_order.h"
#include "schedule/graph_colouring.h"
#include "solvers/hierarchy.h"
#include "solvers/projective_dynamics.h"
#include "world/cloth_self_collision.h"
#include "world/particle_advance.h"
#include "world/step_clock.h"

namespace pbd {

struct BodyBlueprint;
struct ShapeMatchingBlueprint;

/// An xyz array seen as points: Vec3 is three unaligned floats, so the layouts agree.
inline Vec3* asVec3(std::vector<Real>& xyz) { return reinterpret_cast<Vec3*>(xyz.data()); }
inline const Vec3* asVec3(const std::vector<Real>& xyz) { return reinterpret_cast<const Vec3*>(xyz.data()); }

/// Particles per range handed to the task system: below this a loop stays on one thread.
inline constexpr size_t kParticlesPerTask = 4096;
/// Blocks of the band layout (math/band_layout.h) per range: a task's kParticlesPerTask particles, four to a block.
inline constexpr size_t kBandBlocksPerTask = kParticlesPerTask / 4;
static_assert(kBandBlocksPerTask % kBoxParticles == 0, "a slice of a band is whole runs");
/// Self-collision pairs reserved per particle; a denser pile keeps the first ones found (step() never allocates).
inline constexpr size_t kSelfCollisionPairsPerParticle = 8;
/// Particle self-collision's candidate pairs reserved per particle (ParticleNeighbours: the pairs within its reach).
inline constexpr size_t kSelfCollisionNeighboursPerParticle = 16;
/// One particle self-collision pair of a substep: C = |p_i - p_j| - distance >= 0.
struct SelfCollisionPair {
  uint32_t i, j;        ///< Particles, i < j.
  Real distance;        ///< m: 2 radius, or less for two particles of one body that start close (self_collision.cpp).
  bool pushed = false;  ///< The projection moved the pair apart in some iteration of this substep.
};
/// How the coloured pass (World::Impl::projectDistancesColoured) moves the positions between p and paddedP.
struct PaddedCopies {
  bool in = true;      ///< p into paddedP before the blocks (false: paddedP already holds p; see
                       ///< blocksAloneMoveParticles)
  bool out = true;     ///< back after them (false: paddedP keeps them for the next iteration)
  bool bound = false;  ///< with out: particleBoxes from p as each range is copied back (copyOutBoundsParticles)
  /// With in: the substep's particle pass, run on each range just before its copy in (particlePassJoinsSolve), with
  /// its boxes; null: none. When a box then reaches the ground, the pass stops after the copy in.
  const AdvanceStages* advance = nullptr;
};
/// Constraints per range when a colour is projected in parallel.
inline constexpr size_t kConstraintsPerTask = 1024;

struct Attachment {
  uint32_t particle;  ///< Particle index.
  Vec3 target;        ///< m, where the particle is pulled at the end of the next step.
  Vec3 startTarget;   ///< m, the target at the start of the step; substeps move linearly from it to `target`, so a
                      ///< dragged particle moves smoothly and keeps the drag's velocity when released.
  Real compliance;    ///< XPBD α, m/N.
  Real stiffness;     ///< PBD k.
  Real kPrime;        ///< Cached corrected stiffness.
  bool active;        ///< false = removed, slot free for reuse.
};

/// The collider index of a contact with the ground plane.
inline constexpr uint32_t kGroundCollider = ~0u;

/// A contact of the current substep, with the ground or a collider.
struct Contact {
  uint32_t particle;    ///< Particle index.
  uint32_t collider;    ///< Collider index, or kGroundCollider.
  Real approachSpeed;   ///< m/s, relative normal velocity when the contact was generated (negative = approaching).
  Real normalPush;      ///< m, total normal correction applied this substep (the normal impulse times h/m).
  Vec3 normal;          ///< Outward surface normal at the last projection (world frame).
  Real margin = 0;      ///< m, the particle's body's thickness (ContactMaterial::thickness), kept on top of the surface's.
  Vec3 point = Vec3::Zero();  ///< m, triangle-mesh contacts only: the contact plane's surface point (world frame, at
                              ///< the substep's end pose); with `normal` it fixes C(p) = (p - point)·normal - thickness.
  Vec3 kineticShift = Vec3::Zero();  ///< m, the tangential correction dynamic friction has made this substep (the
                                     ///< position-level part of μ_d d; contacts.cpp holdStaticFriction).
};

/// Collider::mesh of the shapes that are not triangle meshes.
inline constexpr uint32_t kNoMesh = ~0u;

/// A collider and its poses: `def` holds the pose at the end of the step; the substep poses are interpolated.
struct Collider {
  ColliderDef def;
  Vec3 startPosition;                  ///< Pose at the start of the step.
  Quat startRotation;
  Vec3 subStartPosition, subEndPosition;  ///< Pose at the start and end of the current substep.
  Quat subStartRotation, subEndRotation;
  uint32_t mesh = kNoMesh;             ///< TriangleMesh: index into World::Impl::meshShapes; kNoMesh otherwise.
};

struct ParticleRange {
  uint32_t begin, end;
};

/// Distance constraints regrouped by colour for the parallel solvers: derived from World::Impl::distances,
/// rebuilt (without allocating) at the next step after any change.
struct ColourSchedule {
  std::vector<DistanceConstraint> constraints;  ///< Sorted by colour, overflow last: Jacobi's order and the
                                                ///< overflow group's (which keeps the order added).
  std::vector<Real> lambda;                     ///< XPBD multipliers of `constraints` (Jacobi, overflow group).
  uint32_t colourBegin[GraphColouring::kColours + 2] = {};  ///< Colour c is [colourBegin[c], colourBegin[c+1]).
  BlockSchedule blocks;                         ///< Coloured Gauss-Seidel's layout of the colours (its own
                                                ///< multipliers; blocks.slotOf maps `constraints` to them).
  std::vector<uint32_t> constraintsPerParticle; ///< Jacobi's averaging divisor.
  bool dirty = true;

  /// The schedule as TaskSystem phases: one per colour, then the overflow group as a single serial range.
  static constexpr size_t kPhases = GraphColouring::kColours + 1;
  void phases(size_t* sizes, size_t* minRanges) const {
    for (uint32_t g = 0; g < kPhases; ++g) {
      sizes[g] = colourBegin[g + 1] - colourBegin[g];
      minRanges[g] = g == GraphColouring::kOverflow ? TaskSystem::kOneRange : kConstraintsPerTask;
    }
  }
};

struct World::Impl {
  SolverSettings settings;
  SerialTaskSystem serial;
  TaskSystem* tasks = &serial;

  // Particle state, xyz per particle. x is what callers read (positions()); p is the substep's solution, starting
  // from the inertial prediction x + h v, which is kept for the velocity update.
  std::vector<Real> x, p, inertial, v, force;
  std::vector<Real> w;                // inverse mass per particle
  std::vector<Real> jacobiDelta;      // xyz per particle: Jacobi's summed corrections of one iteration
  std::vector<Real> paddedP;          // xyzw per particle and a padding particle per block: the coloured pass's p
  std::vector<ParticleRange> bodies;  // particle ranges for rigid-motion damping and step reports
  std::vector<ContactMaterial> bodyMaterials;  // parallel to bodies: friction and restitution against surfaces
  Real largestBodyMargin = 0;                 // m, the largest bodyMaterials[].thickness, refreshed once per step
  std::vector<Real> savedX, savedV;   // x and v at the start of the step, for the non-finite guard's rollback
  std::vector<Real> xPrev, vPrev;     // BDF2 history: x and v one substep back
  bool historyValid = false;          // xPrev/vPrev describe the substep before the current state
  bool commitPending = false;         // the last substep's commit (v, x from p) is left to the next substep's first
                                      // pass over the particles (runSubsteps), which does it chunk by chunk first
  bool hasStepped = false;            // a step has run; steppedSettings holds its settings
  SolverSettings steppedSettings;     // the last step's settings: a step whose solve differs settles first (settle)
  StepReport report;
  StepClock clock;                    // World::setStepTimings: laps into `timings` when enabled
  StepTimings timings;

  std::vector<DistanceConstraint> distances;  // in the order added: the API's indices, and Gauss-Seidel's order
  std::vector<Real> distanceLambda;
  std::vector<uint32_t> distanceColour;       // colour of each distance constraint (GraphColouring::kOverflow too)
  GraphColouring colouring;
  ColourSchedule schedule;
  Hierarchy hierarchy;                        // Solver::Hierarchical's coarse levels, rebuilt when `dirty`
  ProjectiveSystem projective;                // Solver::ProjectiveDynamics: elements and factored matrix
  int kPrimeIterations = 0;                   // iteration count the cached k' were computed for

  std::vector<DihedralConstraint> dihedrals;
  std::vector<Real> dihedralLambda;
  std::vector<TetVolumeConstraint> volumes;
  std::vector<Real> volumeLambda;
  // The serial sweeps' orders over dihedrals, volumes and neoHookeans (element_order.h), rebuilt before the next
  // step when `elementOrdersDirty` (elements added or loaded); room reserved by reserveElementOrders.
  ElementOrder dihedralOrder, volumeOrder, neoHookeanOrder;
  bool elementOrdersDirty = true;
  std::vector<Tether> tethers;                // at most one per particle, so all independent
  std::vector<NeoHookeanTet> neoHookeans;
  std::vector<Real> neoHookeanLambda;         // 2 per tet: deviatoric, hydrostatic
  std::vector<SurfaceVolumeConstraint> surfaceVolumes;
  std::vector<Real> surfaceVolumeLambda;
  std::vector<uint32_t> surfaceVertices;      // particle indices: one slice per surface volume
  std::vector<uint32_t> surfaceTriangles;     // 3 per triangle, indices into its surface's slice of surfaceVertices
  std::vector<Vec3> volumeGradient;           // scratch as large as the largest surface (step() never allocates)
  std::vector<TriangleStrainConstraint> triangleStrains;  // in the order added (Gauss-Seidel's order)
  std::vector<Real> triangleStrainLambda;     // 3 per triangle, indexed by TriangleStrain
  std::vector<ShapeMatchingCluster> shapeMatchings;
  std::vector<uint32_t> shapeMatchingMembers;  // particle indices: one slice per cluster
  std::vector<Vec3> shapeMatchingRestOffsets;  // parallel to shapeMatchingMembers
  std::vector<Real> shapeMatchingMasses;       // parallel to shapeMatchingMembers
  std::vector<Real> shapeMatchingLambda;       // 1 per cluster

  std::vector<Attachment> attachments;
  std::vector<Real> attachmentLambda;
  std::vector<uint32_t> freeAttachments;
  std::vector<Real> restX;                    // xyz at creation: self-collision ignores pairs that start close
  ParticleNeighbours selfCollisionNeighbours;  // particle self-collision's candidates, searched when stale
  uint32_t selfCollisionSkinPause = 0;  // stale substeps left that search without a skin (self_collision.cpp)
  uint32_t selfCollisionListAge = UINT32_MAX;  // substeps since the last search with a skin (counted up to 4)
  std::vector<uint32_t> selfCollisionBody;  // each particle's body, for the search: rest shapes compare within one
  std::vector<SelfCollisionPair> selfCollisionPairs;  // this substep's: the pairs closer than their distance
  std::vector<SelfCollidingSurface> selfSurfaces;  // continuous self-collision: one per cloth/mesh body, by body
  std::vector<SelfContact> selfContacts;           // this substep's; capacity reserved, so step() never allocates
  std::vector<SelfContactCandidate> selfCandidates;  // the broad phase's batch (capacity kSelfCandidateBlock)
  std::vector<SelfContact> selfCandidateContacts;    // the narrow phase's result per candidate (same size) ...
  std::vector<uint8_t> selfCandidateHit;             // ... and whether it is a contact
  bool selfFrozeThisSubstep = false;                 // the failsafe froze a particle this substep
  std::vector<Collider> colliders;
  std::vector<MeshShape> meshShapes;          // the triangle meshes of TriangleMesh colliders (Collider::mesh)
  std::vector<Contact> contacts;              // capacity reserved (see reserveContacts), so step() never allocates
  std::vector<ParticleBox> particleBoxes;     // per kBoxParticles particles: the bounds of their p, for the
                                              // ground and collider scans (set by the prediction, by the coloured
                                              // pass's last copy out or by boundAllParticles; kept growing by the
                                              // late pass's pushes)
  bool solveBoundParticles = false;           // this substep's solve left particleBoxes bounding p as it left it
  bool fusePasses = true;                     // the step may fuse passes over the particles (pass_fusion.cpp); off
                                              // only in the tests that compare the fused step with the unfused one
  std::vector<Real> contactView;              // World::contacts(): x,y,z, nx,ny,nz per contact, filled on demand

  // The momentum guard of internal constraints (internal_momentum.cpp): islands of bodies joined by internal
  // constraints, rebuilt before the next step when `islandsDirty` (bodies or constraints added, removed or loaded).
  struct IslandSums {
    Eigen::Vector3d torque;  // T = Σ m a × (p − c), kg m²
    Eigen::Vector3d linear;  // P = Σ m p, kg m
  };
  struct IslandFrame {
    bool free = false;              // no pinned particle and at least two particles: the guard acts this substep
    bool touched = false;           // a contact or attachment acted on it this substep: nothing is given back
    bool bdf2 = false;              // the lever is (4x − x⁻)/3 (BDF2's velocity) rather than x
    Eigen::Vector3d centre;         // c: the mass-weighted centre of the levers, m
    Eigen::Matrix3d inverseInertia; // I⁺ of the levers about c, 1/(kg m²)
    double mass = 0;                // M = Σ m of the particles the guard covers, kg
    double velocityPerPosition = 0; // what the commit makes of a change of p in v: 1/h (Euler), 3/(2h) (BDF2), 1/s
    IslandSums before;              // T⁰, P⁰ before the internal projections
    Eigen::Vector3d lostLinear = Eigen::Vector3d::Zero();   // Σ m Δp round-off took this substep, kg m
    Eigen::Vector3d lostAngular = Eigen::Vector3d::Zero();  // Σ m a × Δp round-off took this substep, kg m²
    Eigen::Vector3d pendingShift = Eigen::Vector3d::Zero(); // M × the translation the positions are still owed, kg m
    uint32_t next = 0;              // scratch while listing the bodies by island
  };
  struct LostMotion {                // what round-off took from an island in a substep, as a rigid displacement
    bool any = false;
    Eigen::Vector3d translation;     // m, to every particle of the island
    Eigen::Vector3d rotation;        // rad: rotation × (x − c) to each particle
    double velocityPerPosition = 0;  // the substep's IslandFrame::velocityPerPosition
    bool shiftsPositions = false;    // the substep was implicit Euler's: the positions get the translation back too
  };
  std::vector<uint32_t> islandBodies;      // body indices, grouped by island, islands in the order of their first body
  std::vector<uint32_t> islandBegin;       // island k is islandBodies[islandBegin[k], islandBegin[k + 1])
  std::vector<uint32_t> islandOfBody;      // each body's island (union-find parents while building)
  std::vector<IslandFrame> islandFrames;   // one per island
  std::vector<uint8_t> islandConstrained;  // per particle: 1 = some internal constraint holds it (the guard skips 0)
  // Per particle of a free island, set once a substep (prepareIslandFrames) for the guard's passes of every iteration:
  // the mass 1 / w (kg) and the lever a = ℓ − c (m) about the island's centre.
  std::vector<double> islandMass;
  std::vector<Eigen::Vector3d> islandLever;
  bool islandsDirty = true;
  bool anyFreeIsland = false;              // some island is free this substep

  bool recordResiduals = false;
  std::vector<Real> residuals;                // (max |r|, rms r) per projection pass of the last step

  uint32_t count() const { return uint32_t(w.size()); }

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
    for (size_t b = 0; b < bodies.size(); ++b) {
      const Real margin = bodyMaterials[b].thickness;
      for (uint32_t i = bodies[b].begin; i < bodies[b].end; ++i) f(i, margin);
    }
  }
  /// Calls f(i, margin) for every free particle (w_i != 0) with its body's contact thickness, in parallel ranges of
  /// at least `perTask` particles: a call may touch particle i's own state only.
  template <class F>
  void forEachFreeParticleWithMarginInParallel(size_t perTask, F f) {
    auto range = [&](size_t begin, size_t end) {
      uint32_t body = bodyOf(uint32_t(begin));
      for (uint32_t i = uint32_t(begin); i < end; ++i) {
        while (i >= bodies[body].end) ++body;  // bodies tile the particles
        if (w[i] != 0) f(i, bodyMaterials[body].thickness);
      }
    };
    tasks->parallelFor(count(), perTask, range);
  }
  void fillContactView();        // contact_view.cpp: contactView from the last substep's contacts
  // strength_setters.cpp: validates, then sets the strength (and k') of constraints [first, first+count) of `kind`
  void setStrength(const char* fn, ConstraintKind kind, uint32_t first, uint32_t count, const Strength& strength);
  size_t constraintsOfKind(const char* fn, ConstraintKind kind) const;  // throws naming "kind" if unknown

  // --- The step (step.cpp) ---
  void step(Real dt);
  void runSubsteps(Real dt, bool settleFirst);
  void settle(Real h);
  // The constraint iterations of one substep on p, from the multipliers' reset to the last pass; `pass` numbers the
  // substep's first pass for the residual record (kNoResiduals: record none).
  // `advance`: the substep's particle pass, still to run, and then the contact generation (particlePassJoinsSolve).
  void solveConstraints(Real h, bool useBdf2, Real stepFraction, size_t pass, const AdvanceStages* advance);
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
    return {x.data(), v.data(), p.data(), inertial.data(), w.data(), force.data()};
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
  void moveInLatePass(uint32_t i, const Vec3& to);
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
    const bool sliced = coloured && schedule.blocks.banded && m % kBoxParticles == 0;
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
    if (bound) particleBoxes.resize((count() + kBoxParticles - 1) / kBoxParticles);  // within reserveContacts'
    ParticleBox* boxes = bound ? particleBoxes.data() : nullptr;
    forEachParticleRange([&](size_t begin, size_t end) { body(begin, end, boxes); });
  }
  void projectDistancesGaussSeidel(bool xpbd, Real invH2, bool backward = false);
  /// False only when copies.advance found the ground in reach and the pass stopped after its copy in (p is then the
  /// prediction, with its boxes).
  bool projectDistancesColoured(bool xpbd, Real invH2, bool backward = false, PaddedCopies copies = {});
  // pass_fusion.cpp: where passes over the particles are fused (each off with fusePasses).
  bool copyOutBoundsParticles() const;
  bool particlePassJoinsSolve(bool useBdf2) const;
  bool blocksAloneMoveParticles(bool useBdf2, size_t pass) const;
  bool commitJoinsNextPass(bool nextSubstep) const;
  void zeroDistanceMultipliers();
  void projectDistancesJacobi(bool xpbd, Real invH2);
  void refreshHierarchy();  // hierarchical_stage.cpp
  // projective_stage.cpp: elements from the constraints and the factorization for the first substep's 1/h_eff², once
  // per step before anything moves (throws InvalidArgument, world unchanged, if the matrix is not positive definite)
  void refreshProjective(Real firstInvH2);
  /// 1/h_eff² of a substep of length h: α̃ = α/h² (Euler); BDF2 weighs the constraint forces by 4/9 h², α̃ = α/(4/9 h²).
  static Real substepInvH2(Real h, bool useBdf2) { return useBdf2 ? Real(9) / (4 * h * h) : 1 / (h * h); }
  void solveProjective(Real invH2);       // one PD local/global iteration on p (distances, dihedrals, tets)
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
  void keepIslandAngularMomenta(const std::vector<Real>& x0, Real h);  // after the settle: Σ m x × v as at x0
  LostMotion takeLostMotion(IslandFrame& frame) const;
  void giveBack(const LostMotion& lost, uint32_t particle, const Eigen::Vector3d& lever);
  Eigen::Vector3d shiftToGiveBack(IslandFrame& frame, const Eigen::Vector3d& lag, double reach);
  Eigen::Vector3d shiftParticle(uint32_t particle, const Eigen::Vector3d& shift,
                                std::initializer_list<std::vector<Real>*> positions);
  void addVelocity(uint32_t particle, const Eigen::Vector3d& dv);
  Eigen::Vector3d lever(uint32_t particle, bool bdf2) const;
  IslandSums islandSums(uint32_t island) const;
  bool islandHasPin(uint32_t island) const;
  template <class F>
  void forEachIslandParticle(uint32_t island, F f) const {
    for (uint32_t k = islandBegin[island]; k < islandBegin[island + 1]; ++k)
      for (uint32_t i = bodies[islandBodies[k]].begin; i < bodies[islandBodies[k]].end; ++i)
        if (islandConstrained[i]) f(i);
  }
  void projectDihedrals(bool xpbd, Real invH2);
  template <class Batch, class One>  // constraint_passes.cpp: colouredSymmetricSweep on paddedP, copied in and out
  void sweepOnPaddedPositions(const ElementOrder& order, size_t batchesPerTask, Batch&& batch, One&& one);
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
                              const ContinuousSelfCollision& self);
  void forgetSelfCandidateLists();  // at a step's start: what it computes then depends on the state alone
  void findContinuousSelfContacts();
  void testSelfCandidates();  // the narrow phase of the gathered batch; appends the contacts found, in order
  template <class Test>
  void testGatheredSelfCandidates(Test test);  // test(k, start, end) per gathered candidate, in parallel
  void freezeFailedSelfContacts();  // after the solve: freezes the particles of pairs that passed through or too close
  void stopFrozenParticles();       // after the commit: zero velocity for the particles frozen this substep
  void projectContinuousSelfContacts();
  void projectAttachmentsAndContacts(bool xpbd, Real invH2, Real stepFraction);
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

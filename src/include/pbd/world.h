// World: particles, constraints and the step of Algorithm 1 of Müller et al. 2006 ("Position Based Dynamics").
//
// Every mutating function validates all of its input first and throws pbd::InvalidArgument (or std::bad_alloc)
// before touching anything, so a failed call leaves the world unchanged.
//
// Memory: positions(), velocities() and inverseMasses() point into the world's own arrays. They stay valid
// until the next call that may add particles (addParticle(s), addCloth, addRope), loadSnapshot, or the world is
// destroyed.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "pbd/bodies.h"
#include "pbd/colliders.h"
#include "pbd/constraint_kind.h"
#include "pbd/real.h"
#include "pbd/settings.h"
#include "pbd/task_system.h"

namespace pbd {

/// Refuses requests above these sizes before allocating (an absurd count is bad input, not an OOM).
inline constexpr uint32_t kMaxParticles = 1u << 24;
inline constexpr uint32_t kMaxConstraints = 1u << 26;

class World {
 public:
  /// `tasks` runs the batched loops; it must outlive the world. nullptr = serial on the calling thread.
  explicit World(TaskSystem* tasks = nullptr);
  ~World();
  World(const World&) = delete;
  World& operator=(const World&) = delete;
  World(World&&) noexcept;             ///< The moved-from world is empty and may only be destroyed or assigned.
  World& operator=(World&&) noexcept;

  // --- Settings --------------------------------------------------------------------------------------------
  const SolverSettings& settings() const;
  /// Validates every field (finite, substeps/iterations in [1, 1000], damping and restitution in range).
  void setSettings(const SolverSettings& settings);
  void setGravity(const Vec3& g);
  void setMethod(Method m);
  void setSubsteps(int n);
  void setIterations(int n);
  void setLinearDamping(Real perSecond);
  void setRigidDamping(Real k);
  /// SolverSettings::chebyshevRho: ρ in [0, 1) accelerates Solver::VertexBlockDescent's iterations; 0 = off.
  void setChebyshevRho(Real rho);
  void setGround(const GroundSettings& ground);
  void setSolver(Solver solver);
  void setIntegrator(Integrator integrator);
  /// SolverSettings::distanceSweep: forward (the default) or symmetric; see DistanceSweep.
  void setDistanceSweep(DistanceSweep sweep);
  void setSelfCollision(const SelfCollisionSettings& selfCollision);
  /// SolverSettings::maxSpeed: m/s, finite, >= 0; 0 turns the velocity clamp off.
  void setMaxSpeed(Real metresPerSecond);
  /// ω in (0, 2) for the Jacobi solver.
  void setJacobiRelaxation(Real omega);
  /// Solver::Hierarchical: levels in [1, 16] (including the finest), parents k in [1, 16], coarse Gauss-Seidel
  /// passes in [1, 1000] (see SolverSettings). The hierarchy is rebuilt at the next step.
  void setHierarchy(int levels, int parents, int coarseIterations);
  /// When on, every step records the distance constraints' residual after each projection pass (see residuals()).
  /// Costs one extra evaluation of the constraints per pass.
  void setRecordResiduals(bool record);
  /// Replaces the task system (nullptr = serial). Results do not depend on it.
  void setTaskSystem(TaskSystem* tasks);
  /// Whether every step runs on the task system or on the faster of it and this thread alone (see PoolUse). Default
  /// PoolUse::Always.
  void setPoolUse(PoolUse use);
  PoolUse poolUse() const;
  /// Whether the last step ran on the task system (false: on the calling thread alone, or a serial task system).
  bool lastStepUsedPool() const;

  // --- Particles -------------------------------------------------------------------------------------------
  /// Adds one particle; returns its index. inverseMass 0 pins it.
  uint32_t addParticle(const Vec3& position, Real inverseMass, const Vec3& velocity = Vec3::Zero());
  /// Adds `count` particles from xyz triples and per-particle inverse masses (nullptr = all 1);
  /// returns the index of the first. They form one body for rigid-motion damping.
  uint32_t addParticles(const Real* xyz, const Real* inverseMasses, size_t count);
  void setInverseMass(uint32_t particle, Real inverseMass);  ///< 0 pins the particle and zeroes its velocity.
  void setVelocity(uint32_t particle, const Vec3& v);
  void setPosition(uint32_t particle, const Vec3& x);
  void setExternalForce(uint32_t particle, const Vec3& f);   ///< N, stays until changed.

  // --- Constraints -----------------------------------------------------------------------------------------
  /// Returns the distance constraint's index (distance constraints are numbered 0, 1, ... in order of addition).
  uint32_t addDistanceConstraint(const DistanceConstraintDef& def);
  /// Adds a bilateral distance constraint between particles pairs[2k] and pairs[2k + 1] for each k, in that order, at
  /// restLengths[k] (m, finite, >= 0) or, with restLengths empty, at the particles' current distance, all with
  /// `strength`. Everything is checked first (an InvalidArgument names the element, e.g. "pairs[7]"), so a bad call
  /// adds none. Returns the first one's index; the others follow it. O(pairs): one call for a whole mesh's edges.
  uint32_t addDistanceConstraints(std::span<const uint32_t> pairs, std::span<const Real> restLengths,
                                  const Strength& strength);
  /// Sets the strength of `count` distance constraints starting at `first`.
  void setDistanceStrength(uint32_t first, uint32_t count, const Strength& strength);
  /// Sets the strength of `count` constraints of `kind` starting at `first` (numbered per kind, see ConstraintKind):
  /// compliance finite >= 0, stiffness in [0, 1], first+count within that kind's count. Takes effect at the next step
  /// (PBD's corrected k' are updated; Solver::ProjectiveDynamics refactors only if a value differs). Setting the
  /// values a body was built with changes nothing.
  void setConstraintStrength(ConstraintKind kind, uint32_t first, uint32_t count, const Strength& strength);
  /// The strength of constraint `constraint` of `kind` as setConstraintStrength or the builder took it (for strain
  /// triangles the compliance per unit area, as given). Throws InvalidArgument naming `kind` or `constraint`.
  Strength constraintStrength(ConstraintKind kind, uint32_t constraint) const;
  /// A Neo-Hookean soft body's material (as SoftBodyDef::youngsModulus, poissonRatio, materialStiffness): every
  /// Neo-Hookean tet of `body` gets the compliances addSoftBody would give it. E > 0 Pa, ν in (-1, 0.5), stiffness
  /// (PBD) in [0, 1]; throws if the body has no Neo-Hookean tets. Takes effect at the next step.
  void setSoftBodyMaterial(uint32_t body, Real youngsModulus, Real poissonRatio, Real materialStiffness);
  /// Removes a distance constraint by moving the last one into its slot (swap-with-last): the constraint numbered
  /// distanceConstraintCount() - 1 becomes number `constraint`, all others keep their numbers. So a BodyRange's
  /// constraint range stays valid only if the removed and the last constraint lie outside it (e.g. remove, in any
  /// order, constraints added after the bodies). O(1): the removed constraint's colour is freed at its two particles,
  /// no constraint changes colour, and adds after it reuse the freed colours.
  void removeDistanceConstraint(uint32_t constraint);
  /// Adds a tet volume constraint (ConstraintKind::TetVolume, C = V - V0) on particles tets[4k .. 4k+3] for each k,
  /// in that order, all with `strength` (compliance in m⁶/J): the elements of a soft body of your own topology over
  /// particles you added. V0 is the tet's volume at the particles' current positions, which must be a shape
  /// addSoftBody accepts (positive orientation, not flat). Everything is checked first (an InvalidArgument names the
  /// element, e.g. "tets[3]"), so a bad call adds none. Returns the first one's index (numbered per kind, as
  /// tetVolumeCount() counts them); the others follow it. O(tets).
  uint32_t addTetVolumeConstraints(std::span<const uint32_t> tets, const Strength& strength);
  /// Returns the dihedral constraint's index. Dihedral constraints are projected after the distance constraints.
  uint32_t addDihedralConstraint(const DihedralConstraintDef& def);
  uint32_t dihedralConstraintCount() const;
  /// Returns an attachment handle, valid until removeAttachment(); handles of removed attachments are reused.
  uint32_t addAttachment(const AttachmentDef& def);
  /// The particle is moved to `target` over the next step, linearly across its substeps (kinematic driving).
  void setAttachmentTarget(uint32_t attachment, const Vec3& target);
  void removeAttachment(uint32_t attachment);
  /// What the attachment gave its target over the last step (N·s, world frame): minus the momentum its pushes gave
  /// the particle, booked as colliderImpulse books contacts. Applied at the target to the body that holds it (a
  /// rigid body of another engine: pbd-wasm/rapier's attach), momentum is exchanged, not created. Zero before any
  /// step and after a rolled-back one; under Vertex Block Descent, whose vertex steps solve the attachment with the
  /// particle's other elements, it throws.
  Vec3 attachmentImpulse(uint32_t attachment) const;

  /// Adds skinned constraints (character cloth; see SkinnedConstraintDef), in the order given; returns the first one's
  /// index (numbered per kind, as skinnedConstraintCount() counts them). Each starts with its skinned position at its
  /// particle's current position and no normal (no backstop) until setSkinnedTargets gives them. A particle has at most
  /// one. Everything is checked first (an InvalidArgument names the element, e.g. "constraints[3].maxDistance"), so a
  /// bad call adds none.
  uint32_t addSkinnedConstraints(std::span<const SkinnedConstraintDef> constraints);
  /// The skinned positions (m, xyz each) and surface normals (xyz each, normalized here; a zero normal turns the
  /// backstop off) of skinned constraints first, first + 1, ..., one per xyz triple: where the animated mesh puts them
  /// at the end of the next step. Across its substeps they move linearly from where the last step left them, so the
  /// cloth feels the character's motion. `normals` empty keeps the current normals. Everything is checked first.
  void setSkinnedTargets(uint32_t first, std::span<const Real> positions, std::span<const Real> normals);
  uint32_t skinnedConstraintCount() const;

  // --- Colliders -------------------------------------------------------------------------------------------
  /// Adds a static or kinematic collider; returns its index. A TriangleMesh's arrays are validated (finite,
  /// indices in range, no degenerate triangle named by its index) and copied, and its BVH is built here.
  uint32_t addCollider(const ColliderDef& def);
  /// Moves a collider: over the next step it goes linearly from its current pose to this one, and drags the
  /// particles touching it along (friction acts on the velocity relative to it).
  void setColliderPose(uint32_t collider, const Vec3& position, const Quat& rotation);
  /// Deforms a TriangleMesh collider: new local-frame vertex positions (xyz per vertex, as many as it has; finite,
  /// no triangle becoming degenerate). Its BVH is refitted (same tree) and who is inside is recomputed at the next
  /// step. The change is instantaneous (not swept across the step, and its speed is not felt by friction): move the
  /// whole mesh with setColliderPose, which is continuous. Throws for other shapes.
  void setColliderMeshVertices(uint32_t collider, std::span<const Real> positions);
  /// Removes a collider. The colliders after it move down one index (as in an array): collider k + 1 becomes k.
  /// The last step's contacts (contactCount, contacts) are cleared with it.
  void removeCollider(uint32_t collider);
  uint32_t colliderCount() const;
  /// The impulse the particles' contacts gave collider `collider` over the last step (see ColliderImpulse): zero
  /// before any step, after a step rolled back by the non-finite guard, and after loadSnapshot. For two-way coupling
  /// with a rigid body: set the collider's pose to the body's new pose, step, then apply this to the body.
  ColliderImpulse colliderImpulse(uint32_t collider) const;
  /// Makes a collider dynamic within the steps (see ColliderBody), or kinematic again with mass 0; call it before each
  /// step with the velocities the body's engine has now. A dynamic collider's setColliderPose puts it there at once
  /// (no sweep across the next step). Not saved in snapshots: loadSnapshot makes every collider kinematic (removeBody
  /// keeps them). Throws for a negative or non-finite mass, a non-positive inertia with a mass, a triangle mesh.
  void setColliderBody(uint32_t collider, const ColliderBody& body);
  /// The collider's body: its velocities as the last step left them (kinematic: all zero).
  ColliderBody colliderBody(uint32_t collider) const;
  /// The collider as it is now: its shape, material and pose (a dynamic one's as the last step left it; the rotation
  /// normalized). A triangle mesh's meshPositions and meshTriangles are empty.
  ColliderDef colliderDef(uint32_t collider) const;

  // --- Bodies ----------------------------------------------------------------------------------------------
  BodyRange addCloth(const ClothDef& def);
  BodyRange addRope(const RopeDef& def);
  /// A soft body from a tet mesh; rejects inverted or degenerate tets and vertices in no tet.
  BodyRange addSoftBody(const SoftBodyDef& def);
  /// Cloth, shell or balloon from a render mesh (welded); rejects degenerate triangles, and open or non-manifold
  /// meshes when def.pressure > 0.
  MeshBody addTriangleMesh(const TriangleMeshDef& def);
  /// A Cosserat rod (see RodDef): its particles, one orientation per segment, a stretch–shear constraint per segment
  /// and a bend–twist constraint per pair of neighbouring segments, with compliances from the material (solved as
  /// XPBD under either Method, each rod in one direct solve). Under every solver and integrator, after each
  /// iteration's other internal constraints. Throws InvalidArgument naming the field (e.g. "points[3]") and adds
  /// nothing.
  BodyRange addRod(const RodDef& def);
  /// Rod segments in the world (numbered 0, 1, ... across rods in the order added; BodyRange::firstSegment).
  uint32_t segmentCount() const;
  /// x, y, z, w per segment (unit quaternions, segmentCount() of them): each segment's frame; its third axis d3 =
  /// q e3 q̄ runs along the segment, its first (d1) and second carry the twist. Valid as positions() is, and until
  /// the next addRod or removeBody.
  const Real* segmentOrientations() const;
  /// x, y, z per segment: each frame's angular velocity, rad/s, world frame.
  const Real* segmentAngularVelocities() const;
  /// Turns a segment's frame to `rotation` (normalized here; zero or non-finite throws) at once, keeping its angular
  /// velocity: drives a clamped segment, or sets a free one's start.
  void setSegmentOrientation(uint32_t segment, const Quat& rotation);
  void setSegmentAngularVelocity(uint32_t segment, const Vec3& omega);  ///< rad/s, world frame (0 on a clamped one).
  /// A torque on a segment's frame (N m, world frame), kept until changed, as setExternalForce's force is.
  void setSegmentTorque(uint32_t segment, const Vec3& torque);

  /// Removes body `body` (0 .. bodyCount() - 1, else InvalidArgument and no change) with everything that touches its
  /// particles: constraints of every kind (also those added between it and another body), closed surfaces and shape
  /// matching clusters with a member in it, tethers, its self-collision; an attachment on it frees its handle. What
  /// comes after moves down and keeps its order (see BodyRemoval), so particle, body and constraint indices after it
  /// change, and the views (positions() and the like) must be taken again. The world is then as loadSnapshot of its
  /// snapshot without the body would make it (the last step's contacts are cleared). O(size of the world).
  BodyRemoval removeBody(uint32_t body);
  /// Tears the edges (edges[2k], edges[2k+1]) of a tearable body (see Tearing), each two particles of one of its
  /// triangles, then splits the vertices where the surface came apart. InvalidArgument (naming the edge) and no change
  /// for a body that is not tearable or a pair that is no edge of it. Like removeBody, O(size of the world): particle
  /// and constraint indices after the body change as the report says.
  TearReport tearEdges(uint32_t body, std::span<const uint32_t> edges);
  /// What the last step tore (one report per torn body, in body order; empty when nothing tore). A step that tears
  /// rebuilds the world as tearEdges does (and allocates); a step that tears nothing never does.
  const std::vector<TearReport>& lastTears() const;
  /// A tearable body's triangles as torn so far (3 world particle indices each, counter-clockwise as given): what a
  /// renderer draws. InvalidArgument for a body that is not tearable.
  std::vector<uint32_t> bodyTriangles(uint32_t body) const;
  /// Bodies added so far: every addCloth, addRope, addSoftBody, addTriangleMesh, addParticle and addParticles call
  /// adds one (numbered 0, 1, ... in that order; BodyRange::body).
  uint32_t bodyCount() const;
  /// A body's friction and restitution against colliders and the ground, combined with the surface's by the rule
  /// in pbd/contact_material.h (μ = sqrt(μ_body μ_surface), e = max(e_body, e_surface)). friction: >= 0, or
  /// kSurfaceFriction (-1) for the surface's own; restitution in [0, 1]. Takes effect at the next step.
  void setBodyMaterial(uint32_t body, const ContactMaterial& material);
  const ContactMaterial& bodyMaterial(uint32_t body) const;
  /// Turns a cloth or triangle-mesh body's continuous self-collision on or off, or changes its thickness (see
  /// ContinuousSelfCollision; thickness finite > 0, and when enabled < shortest rest edge / √2). Throws for a body
  /// without triangles (ropes, soft bodies, particles). Takes effect at the next step.
  void setContinuousSelfCollision(uint32_t body, const ContinuousSelfCollision& settings);
  /// A cloth or triangle-mesh body's continuous self-collision settings (throws for a body without triangles).
  const ContinuousSelfCollision& continuousSelfCollision(uint32_t body) const;
  /// Point–triangle and edge–edge pairs the last substep's continuous self-collision kept apart (all bodies).
  uint32_t continuousSelfContactCount() const;
  /// A shape matching cluster over existing particles (rest shape: their current positions); returns its index.
  /// Rejects fewer than 2 particles, repeated or out-of-range indices, and clusters whose members are all pinned.
  /// Clusters are projected after the per-element constraints, serially in the order added.
  uint32_t addShapeMatching(const ShapeMatchingDef& def);
  uint32_t shapeMatchingCount() const;  ///< Clusters: addShapeMatching and SoftBodyDef::shapeMatching.
  uint32_t tetVolumeCount() const;
  /// Strain triangles (ClothModel::StrainTriangles), projected right after the distance constraints.
  uint32_t triangleStrainCount() const;
  uint32_t neoHookeanCount() const;    ///< Neo-Hookean tets (SoftMaterial::NeoHookean).
  uint32_t surfaceVolumeCount() const;  ///< Closed-surface volume constraints (TriangleMeshDef::pressure > 0).
  /// The volume the k-th closed surface encloses now, and at rest (m³).
  Real surfaceVolume(uint32_t k) const;
  Real surfaceRestVolume(uint32_t k) const;

  // --- Simulation ------------------------------------------------------------------------------------------
  /// Advances by dt seconds (> 0, finite, at most 1 s) in settings().substeps substeps.
  /// Non-finite guard: if the step leaves any position or velocity NaN or Inf (extreme forces or parameters), it is
  /// undone for the whole world, every body that had such a particle loses its velocity (so the next step starts
  /// from rest rather than repeating the blow-up), and lastStepReport() says which particle and body. The world
  /// never carries NaN.
  void step(Real dt);
  const StepReport& lastStepReport() const;
  /// When on, every step measures where its time goes (see StepTimings; a clock read per stage and substep, and per
  /// batch of self-collision candidates). Off by default.
  void setStepTimings(bool on);
  /// The last step's stage times (all 0 while timings are off). Not saved in snapshots.
  const StepTimings& lastStepTimings() const;

  // --- State (zero-copy) -----------------------------------------------------------------------------------
  const Real* positions() const;      ///< xyz per particle, 3 * particleCount() floats.
  const Real* velocities() const;     ///< xyz per particle, m/s.
  const Real* inverseMasses() const;  ///< 1/kg per particle, 0 = pinned.
  uint32_t particleCount() const;
  /// Every constraint: distances, dihedrals, tet volumes, Neo-Hookean tets, strain triangles, shape-matching clusters,
  /// surface volumes, tethers and active attachments; contacts are generated per step and not counted.
  uint32_t constraintCount() const;
  /// Long-range attachments added by body builders (ClothDef::tethers).
  uint32_t tetherCount() const;
  uint32_t distanceConstraintCount() const;
  /// Contacts generated by the last substep (ground and colliders).
  uint32_t contactCount() const;
  /// The contacts of the last substep of the last step, for debug drawing: 6 floats per contact (contactCount() of
  /// them), the contact point x, y, z on the surface (m, world frame; ground: below the particle at the ground's
  /// height) and the surface's outward unit normal nx, ny, nz. Computed on call from the current positions and the
  /// colliders' last substep poses, so call it right after step(). Valid until the next step() or contacts().
  std::span<const Real> contacts() const;
  /// Particle pairs the last substep's self-collision kept apart.
  uint32_t selfCollisionPairCount() const;
  /// A distance constraint as stored: particles, resolved min/max lengths (never -1) and strength.
  DistanceConstraintDef distanceConstraint(uint32_t constraint) const;
  /// The colour of a distance constraint in the parallel schedule: constraints of one colour share no particle.
  /// GraphColouring::kOverflow (32) = the serial overflow group.
  uint32_t distanceConstraintColour(uint32_t constraint) const;

  // --- Convergence -----------------------------------------------------------------------------------------
  /// Pairs (max |r|, RMS r) over the distance constraints, one per projection pass of the last step
  /// (substeps x iterations passes, in order); r = C for PBD and C + α̃λ for XPBD. Empty unless recording is on.
  const Real* residuals() const;
  uint32_t residualCount() const;  ///< Number of passes recorded (pairs in residuals()).
  /// Solver::ProjectiveDynamics: how many times its system matrix has been factored. It refactors only when the
  /// topology, masses, strengths, method or substep length change, so this stays put while they do not.
  uint64_t projectiveFactorizationCount() const;

  // --- Snapshots -------------------------------------------------------------------------------------------
  /// The world's whole state as a versioned little-endian blob (format in src/world/snapshot.cpp): settings,
  /// particles, integrator history, bodies, every constraint with its rest data and strength, attachments (removed
  /// slots too, so handles stay the same) and colliders with their poses (triangle meshes as deformed last, with who is
  /// inside them). A world loaded from it continues bit-identically to this one, with the same solver, integrator and
  /// any thread count. Not saved: the task system, lastStepReport(), residuals() and the contacts of the last substep
  /// (regenerated by the next step).
  std::vector<uint8_t> saveSnapshot() const;
  /// Replaces the whole state with a blob from saveSnapshot() (of this or another world). The blob is validated
  /// completely first (magic, version, checksum, every section, every value as the add* functions would) and then
  /// swapped in; on any problem it throws pbd::SnapshotError naming it and the world is unchanged. The task system
  /// is kept. Invalidates the positions(), velocities(), inverseMasses() and residuals() pointers.
  void loadSnapshot(const uint8_t* data, size_t size);

 private:
  struct Impl;
  template <class Edit> auto rebuildWith(Edit edit);  // snapshot.cpp: removeBody's and tearEdges' rebuild
  void tearOverstretchedEdges();                      // after a step: tears what stretched past its strain
  friend struct WorldInternals;  ///< White-box tests' access to Impl (tests only; not part of the API).
  std::unique_ptr<Impl> impl_;
};

}  // namespace pbd

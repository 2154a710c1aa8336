// Solver settings of a world: what the step does, and how often.
#pragma once

#include <cstdint>

#include "pbd/contact_material.h"
#include "pbd/real.h"

namespace pbd {

/// How a constraint's strength is expressed and applied.
enum class Method {
  Pbd,   ///< Müller et al. 2006: stiffness k in [0,1], corrected for the iteration count as k' = 1 - (1-k)^(1/n).
  Xpbd,  ///< Macklin et al. 2016: compliance alpha >= 0 (inverse stiffness), Lagrange multiplier reset each substep.
};

/// Time integration of each substep.
enum class Integrator {
  ImplicitEuler,  ///< First order: the variational form of Algorithm 1 (x̃ = x + h v + h² a).
  Bdf2,           ///< Second order BDF: x̃ = 4/3 xⁿ - 1/3 xⁿ⁻¹ + 8/9 h vⁿ - 2/9 h vⁿ⁻¹ + 4/9 h² a, compliance
                  ///< weighted by 4/9 h², vⁿ⁺¹ = (3/2 xⁿ⁺¹ - 2 xⁿ + 1/2 xⁿ⁻¹) / h. Falls back to Euler for one substep
                  ///< whenever there is no history (first step, added or moved particles, a rollback).
};

/// The order in which Gauss-Seidel projects the distance constraints within an iteration (Solver::GaussSeidel,
/// ColouredGaussSeidel, Hierarchical; the other solvers ignore it). Dihedrals, Neo-Hookean tets and tet volumes always
/// sweep symmetrically (but volumes whose tets' edges are all rigid, which sweep forward), and under Integrator::Bdf2
/// the distances do too, whatever this says.
enum class DistanceSweep {
  Forward,    ///< One pass in the solver's order: the cheapest. Stiff constraints that cannot all hold (a cloth's
              ///< bending and stretch where it folds over an edge) can keep a fold ringing at a few cm/s, damped or
              ///< not: the one-way pass's map has complex eigenvalues that implicit Euler's recurrence amplifies.
  Symmetric,  ///< The same pass, then back in reverse order: the iteration's map is symmetric with eigenvalues in
              ///< [0, 1], so such folds come to rest under damping. About 1.5 times a cloth's solve (both passes
              ///< accumulate XPBD's multipliers; PBD's stiffness acts in each, as under BDF2).
};

/// How the constraint projections of one iteration are ordered and combined.
enum class Solver {
  GaussSeidel,          ///< Non-linear Gauss-Seidel in the order constraints were added; serial. The reference.
  Jacobi,               ///< Every constraint from the same positions; corrections averaged per particle, times ω.
  ColouredGaussSeidel,  ///< Gauss-Seidel block by block, each block colour by colour; the blocks of one block colour
                        ///< in parallel (schedule/block_schedule.h); colour by colour, each colour's runs in parallel,
                        ///< for a body numbered at random. Bit-identical for any thread count.
  Hierarchical,         ///< Müller 2008 HPBD: each substep first solves coarse particle levels with long-range
                        ///< stretch-only constraints (coarsest first, corrections prolongated down), then the coloured
                        ///< Gauss-Seidel of every constraint. Bit-identical for any thread count.
  ProjectiveDynamics,   ///< Bouaziz et al. 2014 (src/solvers/projective_dynamics.h): distances, dihedrals, tet volumes
                        ///< and Neo-Hookean tets as one local/global solve per iteration against a sparse matrix
                        ///< factored once (again only when topology, masses, strengths, method or substep change).
                        ///< Compliance α maps to the weight w = 1/α (rigid: capped at 1e6 × the particles' inertia);
                        ///< PBD stiffness k to w = k/(1-k) m/h². Everything PD does not solve (attachments, contacts,
                        ///< self-collision, tethers, shape matching, strain triangles, surface volumes) is projected
                        ///< PBD-style after each global solve, as with the other solvers. Bit-identical for any
                        ///< thread count.
  VertexBlockDescent,   ///< Chen, Macklin et al. 2024 (src/solvers/vertex_block_descent.h): each iteration a Newton
                        ///< step per vertex on the implicit-Euler incremental potential of the distance constraints,
                        ///< dihedrals, tet volumes, Neo-Hookean tets, strain triangles and attachments around it,
                        ///< the vertices of one colour in parallel. A compliant element is the energy ½ C²/α (PBD stiffness k: k/(1-k)
                        ///< times its particles' inertia); a rigid one's stiffness grows where it is violated, up to
                        ///< 1e6 times that inertia (the penalty ramp of Giles et al. 2025, AVBD), warm-started across
                        ///< substeps and steps. Neo-Hookean tets use their material (μ, λ) in either method. Everything
                        ///< else is projected PBD-style after each iteration, as with PD.
};

/// The ground: an infinite plane y = height with normal +Y, colliding with every particle.
struct GroundSettings {
  bool enabled = true;     ///< false: no ground contacts are generated.
  Real height = 0;         ///< m, the plane's y coordinate.
  Real thickness = 0;      ///< m, particles are kept at least this far above the plane (their radius).
  Real friction = 0.5f;    ///< Dynamic Coulomb coefficient μ_d (>= 0): the velocity pass brakes sliding by at most
                           ///< μ_d times the normal velocity change.
  Real staticFriction = kSameAsFriction;  ///< Static coefficient μ_s (>= 0): a contact is held in place while its
                                          ///< tangential slip < μ_s × normal correction; -1 (default) = `friction`.
  Real restitution = 0;    ///< [0,1], fraction of the approach speed kept after impact.
  Real restitutionThreshold = 0.5f;  ///< m/s, approach speeds below this bounce inelastically (no jitter at rest).
};

/// Particle-particle collision between all dynamic particles (cloth on itself, cloth on cloth), checked every
/// substep; the candidates come from a neighbour list that a spatial hash refreshes once a particle has moved
/// 0.4 radius (collision/particle_neighbours.h). Pairs that are already closer than 2 radius in the rest shape
/// (neighbours in one cloth) are ignored, so a fine cloth does not fight itself; two particles of one body that
/// start d apart, 2 radius <= d < 4 radius, are kept d / 2 apart instead, so that a soft body squeezed by its
/// weight does not fight its own collision either. Pairs are kept within a margin of 0.2 radius beyond their distance
/// (others may pull them together during the solve), and a pair pushed apart leaves the substep without relative
/// velocity along its normal (restitution 0). Its room (about 260 bytes a particle) is reserved when it is switched
/// on (setSettings, setSelfCollision).
struct SelfCollisionSettings {
  bool enabled = false;
  Real radius = 0.01f;  ///< m, > 0: particles are kept 2 radius apart.
};

/// What the last World::step(dt) did about non-finite values and full contact buffers, and how much continuous
/// self-collision work it found (see World::lastStepReport).
struct StepReport {
  bool rolledBack = false;     ///< true: the step produced NaN or Inf and was undone (the world is as before it).
  uint32_t nonFiniteCount = 0; ///< Particles whose position or velocity became non-finite.
  uint32_t particle = 0;       ///< The first of them (lowest index); valid when rolledBack.
  uint32_t body = 0;           ///< The body it belongs to (bodies are numbered in the order they were added).
  /// Contacts found but not kept because their buffer was full, summed over the step's substeps (step() never
  /// allocates; the first ones found are kept). 0 in any sane scene; > 0 means a tangle denser than the room
  /// reserved, and those contacts went unresolved for that substep.
  uint32_t droppedContacts = 0;            ///< Ground and collider contacts kept for the velocity pass (room: 2 per
                                           ///< particle and surface; a dropped one was still projected).
  uint32_t droppedSelfCollisionPairs = 0;  ///< Particle-particle self-collision pairs (room: 8 per particle).
  uint32_t droppedSelfContacts = 0;        ///< Continuous self-collision contacts (room: 4 per vertex and per edge).
  /// Continuous self-collision work, summed over the step's substeps: what the cost of the narrow phase follows
  /// (each candidate is one continuous test), and how much of it was contact.
  uint32_t selfCandidates = 0;     ///< Point-triangle and edge-edge pairs the broad phase passed to the narrow phase.
  uint32_t selfContactsFound = 0;  ///< Of those, the pairs that came within the thickness (kept or dropped).
  /// Particles the continuous self-collision failsafe froze for a substep (put back where the substep started)
  /// because the solve carried a pair of elements through each other or within half the thickness, summed over the
  /// substeps. 0 in a calm scene; a crumpling rigid cloth at 1 iteration needs a few.
  uint32_t selfFrozenParticles = 0;
  /// Continuous self-collision's broad phase, summed over the step's substeps and surfaces: candidate lists made
  /// (the pairs of one walk of the BVH for every place each vertex may reach while the list holds; one per surface
  /// and step in a calm scene) and walks of the BVH without a list (the contacts' and the failsafe's, when a vertex
  /// moved out of the list's reach or the list did not fit its room; 0 while the list holds).
  uint32_t selfCandidateLists = 0;
  uint32_t selfTreeWalks = 0;
  /// Particle self-collision's pair searches (a spatial-hash build and a query per particle), summed over the
  /// step's substeps: 0 while its neighbour list holds (a resting scene), one in a substep whose list went stale, two
  /// where a search with the skin did not fit and was followed by one without.
  uint32_t selfCollisionSearches = 0;
  /// Of those, the searches without a skin (pairs within 2 radius only; the list is stale again after any move): the
  /// fallback for 64 stale substeps after a list with a skin went stale within 4 substeps or did not fit its room.
  uint32_t selfCollisionSearchesWithoutSkin = 0;
};

/// Whether World::step runs on the task system it was given (World::setTaskSystem) or may run on the calling thread
/// alone. The results are the same bits either way; only the time differs.
enum class PoolUse {
  Always,    ///< Every step on the task system (the default natively: the caller chose it).
  Measured,  ///< The world times steps both ways after each change of scene (again 60 steps later, then less often,
             ///< up to every 600 steps), and runs on the faster: a step with little work per thread (a small tet
             ///< body) is often faster on one thread. The default of the npm package.
};

/// Where the last World::step(dt) spent its time, in ms of wall clock, when World::setStepTimings(true) (else all
/// 0). The stages partition the step: they add up to totalMs (to rounding).
struct StepTimings {
  double integrateMs = 0;         ///< Forces, damping, prediction, velocity and position updates, the guard's check,
                                  ///< and the once-per-step refreshes (colour schedule, hierarchy, PD factorization).
  double colliderContactsMs = 0;  ///< Ground and collider contacts: generation (mesh colliders: BVH query and
                                  ///< continuous test together), the late pass and the velocity pass.
  double broadPhaseMs = 0;        ///< Self-collision broad phase: the particle hash, and the self-colliding
                                  ///< surfaces' BVH refit and walk against itself (candidate pairs).
  double narrowPhaseMs = 0;       ///< Self-collision narrow phase: continuous point-triangle and edge-edge tests of
                                  ///< the candidates.
  double solveMs = 0;             ///< The constraint iterations (every constraint and contact projection), with
                                  ///< the substep's reset of the multipliers. Where the coloured solver runs the
                                  ///< substep's prediction in its first pass (no collider, self-collision or free
                                  ///< body, nothing near the ground), that prediction and the ground scan count here.
  double residualMs = 0;          ///< The convergence record (World::setRecordResiduals): the sweep over the
                                  ///< distance constraints after each pass. 0 in a step that does not record.
  double totalMs = 0;             ///< The whole step.

  /// The stages' sum, which should equal totalMs (to rounding): a stage added above belongs in it.
  double stagesMs() const {
    return integrateMs + colliderContactsMs + broadPhaseMs + narrowPhaseMs + solveMs + residualMs;
  }
};

/// Everything that controls one call of World::step(dt).
struct SolverSettings {
  Method method = Method::Xpbd;   ///< PBD (stiffness) or XPBD (compliance).
  Solver solver = Solver::ColouredGaussSeidel;  ///< Projection order; see Solver.
  Integrator integrator = Integrator::ImplicitEuler;  ///< Time integration; see Integrator.
  DistanceSweep distanceSweep = DistanceSweep::Forward;  ///< Gauss-Seidel's order over the distances (see
                                                         ///< DistanceSweep).
  Real jacobiRelaxation = 1;      ///< ω in (0, 2): Jacobi's averaged correction is scaled by it (SOR).
  int hierarchyLevels = 3;        ///< Hierarchical: levels in [1, 16] including the finest (all particles); 1 = no
                                  ///< coarse level (coloured solve alone). Fewer if one would have < 4 particles
                                  ///< or not shrink; none at all: step() throws why (world/hierarchical_stage.cpp).
  int hierarchyParents = 2;       ///< Hierarchical: k in [1, 16], the parents (kept neighbours on the next coarser
                                  ///< level) every dropped particle needs; min(k, its neighbour count) where fewer.
  int coarseIterations = 2;       ///< Hierarchical: Gauss-Seidel passes over each coarse level per substep, [1, 1000].
  int substeps = 10;              ///< >= 1, the frame dt is split into this many equal substeps of Algorithm 1.
  int iterations = 1;             ///< >= 1, constraint projection passes per substep.
  Vec3 gravity{0, -9.81f, 0};     ///< m/s^2, applied to every particle with inverse mass > 0.
  Real linearDamping = 0;         ///< 1/s, v *= max(0, 1 - linearDamping * h) each substep of length h.
  Real rigidDamping = 0;          ///< [0,1], Müller 2006 damping of non-rigid motion per frame (0 = off, 1 = fully rigid).
  Real chebyshevRho = 0;          ///< VertexBlockDescent: ρ in [0, 1), the spectral radius estimate of its Chebyshev
                                  ///< acceleration across a substep's iterations (Chen et al. 2024, §3.8; Wang 2015):
                                  ///< iterate n is ω_n (x̄_n - x_{n-2}) + x_{n-2}, x̄_n the vertex sweep's result,
                                  ///< ω_1 = 1, ω_2 = 2/(2 - ρ²), ω_n = 4/(4 - ρ² ω_{n-1}). 0 = off (the default);
                                  ///< it acts from the second iteration of a substep on. Other solvers ignore it.
  GroundSettings ground;          ///< The ground plane.
  SelfCollisionSettings selfCollision;  ///< Particle-particle collision.
  Real maxSpeed = 0;              ///< m/s, >= 0; 0 = off. A last guard against tunnelling: before each substep's
                                  ///< prediction x + h v, |v| is clamped to this (direction kept), so free flight moves
                                  ///< a particle at most maxSpeed·h per substep. For a collider of thickness t use
                                  ///< t / (k h), k >= 1. Constraint and contact corrections are not limited by it.
                                  ///< (BDF2 predicts from v and the previous substep's velocity, which is clamped
                                  ///< too, so there the bound holds for steady flight, not exactly every substep.)
};

}  // namespace pbd

// Vertex Block Descent (Chen, Macklin et al. 2024, "Vertex Block Descent", SIGGRAPH) over the world's distance
// constraints, dihedral bending, tet volumes, Neo-Hookean tets, strain triangles, attachments and contacts.
//
// A substep minimizes the implicit-Euler incremental potential  G(x) = Σ_i m_i/(2h²) |x_i - y_i|² + Σ_e E_e(x)
// (y the inertial prediction) by block coordinate descent: one vertex at a time, a Newton step on G with every other
// vertex held,
//   H_i Δx_i = -g_i,   g_i = m_i/h² (x_i - y_i) + Σ_{e ∋ i} ∂E_e/∂x_i,   H_i = m_i/h² I + Σ_{e ∋ i} ∂²E_e/∂x_i²
// with each element's terms from its kernel, every block positive semi-definite: constraints/energy_spring.h (the
// compressive geometric stiffness dropped), energy_dihedral.h (its Gauss-Newton block), energy_tet_volume.h
// and energy_neo_hookean.h (PSD as they are), energy_triangle_strain.h (made PSD term by term); an attachment's
// ½ k |x - t|² adds k (x - t) and k I, a contact its one-sided energy (below). Vertices of one colour share no
// element, so a colour is solved in parallel, in any order, with the same bits; colours run in sequence. The springs
// (most bodies' commonest element) are summed four vertices of a colour at a time in float lanes
// (addSpringVertexBlockLanes), the other elements one vertex at a time in double; the 3×3 solve of four vertices
// whose elements are all springs in double pairs (math/wide_double.h), of the others one vertex at a time.
//
// Stiffness. An element with compliance α is the energy ½ C²/α (k = 1/α; Neo-Hookean: μ = 1/(α_D V0), λ' = 1/(α_H V0),
// the material its XPBD pair stores, in either method). PBD stiffness s gives k = s/(1-s) s_e, the mapping
// Projective Dynamics uses, with s_e = m̄/(h² ḡ) the element's inertia: m̄ the mean mass of its free particles, ḡ the
// mean |∇_v C|² over them at rest (1 for a spring). Every k is capped at kVbdMaxStiffnessRatio s_e. A rigid element
// (α = 0, s = 1; a Neo-Hookean tet's incompressible volume; a strain triangle's stretch or shear) has a penalty for k
// that grows where it is violated, as in Augmented VBD (Giles, Diaz, Yuksel 2025, Eq. 16, made scale-free): after
// every iteration by β s_e |C|/C_ref (C_ref: the rest length, the rest volume, 1 rad, 1, 1 m; a triangle's largest
// rigid |C| of its three, C_ref 1), up to the same cap, carried over to the next substep and step decayed by γ
// (Eq. 19). A triangle's ḡ is its stretches' (the mean over its vertices of |a_v|²/2, energy_triangle_strain.h).
// Contacts (Chen et al. 2024, §3.6): a particle's contacts with the ground and colliders, found once a substep, add
// their normal energies to its vertex step (constraints/energy_contact.h). The energy is one-sided, so the step is
// solved with the contacts the vertex starts inside of, then again with those its result is inside of while that
// changes (an active set, at most four rounds); each contact keeps its normal force's move, λ h²/m. Friction stays
// the position-level Coulomb hold the caller applies after each iteration, bounded by that move, as with the
// projected contacts: IPC's friction energy (VBD §3.7) was tried and held a rigid 8×8 patch on a 17° incline with
// μ = 0.5 at no iteration count (it slid 0.35 m in 1 s at 1, 4 and 10 iterations): a vertex step cannot move a stiff
// cloth's sliding as a whole, which the hold undoes at once. Which contacts are energies (not a dynamic collider's)
// is the caller's choice.
// Chebyshev acceleration (SolverSettings::chebyshevRho, ρ > 0; Chen et al. 2024, §3.8, after Wang 2015): from a
// substep's second iteration on, x_n = ω_n (x̄_n - x_{n-2}) + x_{n-2} for the particles VBD solves, x̄_n the
// colours' result. x_{n-2} is the iterate as the iteration before the last began, after the PBD-style projections
// that follow every iteration (contacts and the kinds VBD does not solve), so their moves are extrapolated too.
// AVBD's multiplier λ (E = ½ k C² + λ C, λ ← λ + k C) is not used: warm-started across substeps it made a rigid
// cloth whose shear diagonals are rigid too diverge within a second at 10 substeps × 1 iteration (48² and 3²
// alike), and reset every substep it still diverged at 1 substep × 10 iterations on the 48² cloth. Such constraints
// are redundant, λ is not unique, and with inexact primal sweeps the multipliers drift along the redundant
// directions. So a rigid constraint holds to m g/k_max, not exactly (measurements in docs/performance.md).
#pragma once

#include <cstdint>
#include <vector>

#include "constraints/dihedral.h"
#include "constraints/distance.h"
#include "constraints/neo_hookean.h"
#include "constraints/tet_volume.h"
#include "constraints/triangle_strain.h"
#include "pbd/real.h"
#include "pbd/task_system.h"

namespace pbd {

/// Stiffness cap: an element at most this many times stiffer than the inertia s_e of its particles (as PD's cap).
inline constexpr double kVbdMaxStiffnessRatio = 1e6;
/// A rigid element's penalty starts at this times s_e (AVBD's PENALTY_MIN, made scale-free).
inline constexpr double kVbdStartPenaltyRatio = 1;
/// β: a rigid element's penalty grows by β s_e per unit of relative violation |C|/C_ref per iteration.
inline constexpr double kVbdPenaltyGrowth = 1e4;
/// γ: how much of a rigid element's penalty carries over to the next substep (AVBD's warm start).
inline constexpr double kVbdWarmStartDecay = 0.99;

/// A contact's normal stiffness k = kVbdContactStiffnessRatio m/h² (m the particle's mass): a particle pressed by
/// its own weight stays within g h²/10⁴ of the surface (3 nm at h = 1/600 s).
inline constexpr double kVbdContactStiffnessRatio = 1e4;

/// An attachment as VBD solves it: E = ½ k |x - target|², k = 1/α (rigid, α = 0: a penalty), target where the
/// attachment's target is at the end of this substep.
struct VbdAttachment {
  uint32_t particle;
  Real target[3];    ///< m
  Real compliance;   ///< XPBD α, m/N
  Real stiffness;    ///< PBD k
  uint32_t active;   ///< 0: a removed attachment's free slot, which adds nothing
};

/// A contact as VBD solves it: its particle's normal energy (constraints/energy_contact.h) against the surface
/// linearized for the substep. Friction is not an energy here (see the top of this file).
struct VbdContact {
  uint32_t particle;
  uint32_t surface;  ///< the caller's name for what it touches (the world's collider index), not read here
  Real point[3];     ///< m, q: a point of the contact plane (the surface moved out by both margins)
  Real normal[3];    ///< n, unit, out of the surface
  Real push;         ///< m, written by the particle's vertex step: its normal force's move over the substep, λ h²/m
};

/// A substep's contacts grouped by particle: particle i's are contacts[begin[i], begin[i + 1]). begin null: none.
struct VbdContacts {
  VbdContact* contacts = nullptr;  ///< their `push` written by the vertex steps
  const uint32_t* begin = nullptr;
};

/// The elements VBD solves, as the world stores them: numbered springs first, then dihedrals, volumes, Neo-Hookean
/// tets, strain triangles, attachments (the pointers are read during one call only).
struct VbdElements {
  const DistanceConstraint* springs = nullptr;
  uint32_t springCount = 0;
  const DihedralConstraint* dihedrals = nullptr;
  uint32_t dihedralCount = 0;
  const TetVolumeConstraint* volumes = nullptr;
  uint32_t volumeCount = 0;
  const NeoHookeanTet* neoHookeans = nullptr;
  uint32_t neoHookeanCount = 0;
  const TriangleStrainConstraint* triangles = nullptr;
  uint32_t triangleCount = 0;
  const VbdAttachment* attachments = nullptr;
  uint32_t attachmentCount = 0;

  uint32_t count() const {
    return springCount + dihedralCount + volumeCount + neoHookeanCount + triangleCount + attachmentCount;
  }
};

class VertexBlockDescent {
 public:
  /// Rebuilds the vertex colouring, the vertex → element incidences and each element's rest gain ḡ from the rest
  /// positions restX (allocates). The penalties are kept when the element count is unchanged (a change of strength),
  /// else they start over.
  void build(const VbdElements& elements, const Real* restX, size_t particleCount);
  /// Before a step's substeps: the stiffnesses are recomputed at its first substep if the inverse masses w differ
  /// from the last step's (compared here) or strengthsChanged() was called.
  void beginStep(const Real* w);
  /// The elements' strengths changed (World's strength setters): the next substep recomputes every stiffness.
  void strengthsChanged() { stiffnessValid_ = false; }
  /// Before a substep's iterations: each element's stiffness for this method and h (invH2 = 1/h²; recomputed at the
  /// first substep of a step and when h or the method change), and the warm start of the rigid ones' penalties.
  /// w: inverse masses. rho: the Chebyshev acceleration's ρ in [0, 1) for this substep's iterations (0 = off).
  /// Element by element on `tasks`.
  void beginSubstep(const VbdElements& elements, const Real* w, bool xpbd, double invH2, double rho,
                    TaskSystem& tasks);
  /// One iteration: every colour's vertices, the Chebyshev extrapolation (ρ > 0, from the second iteration of the
  /// substep), then the rigid elements' penalties. p: positions (xyz per particle, moved), inertial: y. A vertex with
  /// contacts adds their energies (its particle must be one that solves()).
  void iterate(Real* p, const Real* inertial, const Real* w, const VbdElements& elements,
               const VbdContacts& contacts, double invH2, TaskSystem& tasks);
  /// Whether particle i is in an element, so that its vertex steps solve it (as of the last build).
  bool solves(uint32_t i) const {
    return i + 1 < incidenceBegin_.size() && incidenceBegin_[i] < incidenceBegin_[i + 1];
  }
  /// Forgets the penalties (after a rollback: they may have grown on the way to non-finite positions).
  void resetPenalties();
  /// The rigid elements' penalties (0 for the others), per element in VbdElements' numbering: what a snapshot keeps.
  /// Empty, or sized for other elements, until the next build.
  const std::vector<Real>& penalties() const { return penalty_; }
  /// Penalties saved by penalties() (a snapshot's); build() keeps them if they are sized for its elements.
  void setPenalties(std::vector<Real> penalties) { penalty_ = std::move(penalties); }
  size_t colourCount() const { return colourBegin_.empty() ? 0 : colourBegin_.size() - 1; }
  /// The particles of colour c, in the order they are solved.
  std::vector<uint32_t> colour(size_t c) const {
    return {order_.begin() + colourBegin_[c], order_.begin() + colourBegin_[c + 1]};
  }

  bool dirty = true;

 private:
  struct Incidence {
    uint32_t element;  // the element's global number
    uint32_t other;    // a spring's other particle; for the others, which of its particles this one is (0..3)
  };
  // The vertex steps of group q (four vertices of one colour): their springs' sums in float lanes, then each
  // vertex's solveVertex with those sums.
  void solveGroup(uint32_t q, Real* p, float* padded, const Real* inertial, const Real* w,
                  const VbdElements& elements, const VbdContacts& contacts, double invH2) const;
  // One vertex step, its result written to p and padded; springG and springH: its springs' gradient and Hessian
  // sums (H00 H01 H02 H11 H12 H22).
  void solveVertex(uint32_t i, const float springG[3], const float springH[6], Real* p, float* padded,
                   const Real* inertial, const Real* w, const VbdElements& elements, const VbdContacts& contacts,
                   double invH2) const;
  void buildGroups(const VbdElements& elements);
  void growPenalty(uint32_t e, const Real* p, const VbdElements& elements);
  // Element g's stiffness, s_e and penalty for this method and h (beginSubstep's, element by element).
  void refreshStiffness(uint32_t g, const VbdElements& elements, const Real* w, bool xpbd, double invH2);

  std::vector<uint32_t> order_;           // the particles in any element, colour by colour
  std::vector<uint32_t> colourBegin_;     // colour c is order_[colourBegin_[c], colourBegin_[c+1])
  std::vector<uint32_t> incidenceBegin_;  // per particle, into incidences_ (CSR)
  std::vector<Incidence> incidences_;
  // The springs' part of the vertex steps runs four vertices of a colour at a time, one per float lane: colour c's
  // groups are [groupBegin_[c], groupBegin_[c + 1]), group q's vertices groupVertex_[4q .. 4q+3] (the colour's last
  // group padded with copies of its first vertex, groupLanes_[q] of them real) and its springs the slots
  // [slotBegin_[q], slotBegin_[q + 1]), each four lanes wide: slotOther_ (the other end; a lane with fewer springs
  // pairs its vertex with itself, which adds nothing), slotSpring_ (the spring's number), slotMin_, slotMax_.
  std::vector<uint32_t> groupBegin_, groupVertex_, slotBegin_, slotOther_, slotSpring_;
  std::vector<uint8_t> groupLanes_;
  std::vector<uint8_t> groupSpringsOnly_;   // per group: 1 where its vertices are in springs only (springVertexSteps)
  std::vector<uint8_t> groupFixedLengths_;  // per group: 1 where all its slots' springs have min = max length
  std::vector<float> slotMin_, slotMax_;
  std::vector<uint32_t> firstNonSpring_;  // per particle: where its incidences past its springs begin
  // The springs as flat arrays, for the lanes: their k this iteration (stiffness_, or penalty_ if rigid), and what
  // their penalties' growth and decay read four at a time (ends, lengths, 1/C_ref, s_e).
  struct Springs {
    std::vector<float> stiffness, minLength, maxLength, invScale, inertia;
    std::vector<uint32_t> i, j;
  };
  Springs springs_;
  // The warm start's decay and the growth of springs' penalties [begin, end), four at a time.
  void decaySpringPenalties(size_t begin, size_t end);
  void growSpringPenalties(size_t begin, size_t end, const float* padded);
  // This iteration's positions as xyzw (the inverse mass in w), which the lanes load a vector per particle from;
  // the vertex steps and the extrapolation write both.
  std::vector<float> padded_;
  std::vector<double> restGain_;   // per element, ḡ: the mean |∇_v C|² over its free particles at rest (1/m², ...)
  std::vector<double> stiffness_;  // per element, this substep's k (Neo-Hookean: μ); -1 marks a rigid one
  std::vector<double> bulk_;       // per Neo-Hookean tet, this substep's λ' (Pa); -1: the penalty's
  std::vector<double> shear_;      // per strain triangle, this substep's shear k_sh (J); -1: the penalty's
  std::vector<double> inertia_;    // per element, s_e = m̄/(h² ḡ)
  std::vector<Real> penalty_;  // per element, a rigid one's current k (0: not rigid); float, as snapshots keep it
  // An iteration's phases in order: the padded copy of the positions, the copy of the iterate for the acceleration,
  // the colours, the extrapolation, the penalties (the second and the fourth only with ρ > 0).
  enum class PhaseKind : uint8_t { Pad, SaveIterate, Colour, Extrapolate, Penalties };
  struct Phase {
    PhaseKind kind;
    uint32_t colour;
  };
  std::vector<Phase> phases_;
  std::vector<size_t> phaseSizes_, phaseMinRanges_;
  // Chebyshev acceleration: the iterates x_{n-1} (this iteration's start) and x_{n-2}, xyz per particle.
  std::vector<Real> iterate_, olderIterate_;
  double rho_ = 0, omega_ = 1;  // this substep's ρ, and ω of the last iteration
  int iteration_ = 0;           // iterations of this substep so far
  std::vector<Real> stiffnessMasses_;  // the inverse masses stiffness_ and inertia_ were computed from
  bool stiffnessValid_ = false;  // stiffness_, bulk_ and inertia_ hold the values for stiffnessInvH2_, stiffnessXpbd_
  double stiffnessInvH2_ = 0;
  bool stiffnessXpbd_ = true;
};

}  // namespace pbd

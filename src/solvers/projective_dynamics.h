// Projective Dynamics (Bouaziz, Martin, Liu, Kavan and Pauly 2014, "Projective Dynamics: Fusing Constraint
// Projections for Fast Simulation", SIGGRAPH 2014): the elements, the local projections (stateless kernels), and the
// prefactored global system. World's stage (src/world/projective_stage.cpp) builds the elements from its constraints.
//
// One substep of length h, from the inertial prediction s = x̃ that every solver uses, minimizes
//   1/(2 h²) ‖q - s‖²_M + Σ_i w_i/2 ‖A_i q - p_i‖²,   p_i = the projection of A_i q onto constraint set i,
// alternating `iterations` times
//   local:  p_i = P_i(A_i q)                                    every element alone: parallel, own output slot
//   global: (M/h² + Σ w_i A_iᵀA_i) q = M/h² s + Σ w_i A_iᵀ p_i    one sparse n×n matrix, the same for x, y and z
// BDF2 substeps use h_eff² = 4/9 h² in place of h²: BDF2's variational form weighs the inertia by 1/(4/9 h²)
// (settings.h), so the caller passes 1/h_eff², the α̃ = α/h_eff² scale the XPBD kernels use as well.
//
// Elements. A_i maps the element's particles to `rows` 3-vectors, row j = Σ_k G[k][j] x_k, one coefficient per
// particle and row, the same for x, y and z, so A_iᵀA_i adds w_i G Gᵀ to the scalar n×n matrix.
//   Edge       distance constraint i-j   G = [1; -1],   p = clamp(|e|, Lmin, Lmax) e/|e|,  e = x_i - x_j
//   Bending    dihedral p0..p3           G = I - 11ᵀ/4 (the stencil about its centroid),  p = the stencil moved onto
//              φ = φ0 by up to kPdBendingSteps equal-mass Newton steps Δx_k = -C ∇_kφ / Σ_l |∇_lφ|², about its
//              centroid (the steps keep it, Σ_k ∇_kφ = 0). A projection of the 4-particle stencil onto its rest angle,
//              chosen over Bouaziz's per-vertex mean-curvature energy because it reuses the dihedral constraints as
//              they are stored.
//   TetStrain  Neo-Hookean tet           G = [-1ᵀDm⁻¹; Dm⁻¹] (A x = the columns of F = Ds Dm⁻¹),
//              p = R of the polar decomposition F = R S (the closest rotation; SVD with the reflection flipped)
//   TetVolume  volume tet, Neo-Hookean   the same G,  p = U Σ' Vᵀ where F = U Σ Vᵀ and Σ' are the singular values
//              tet                       closest to Σ with σ'1 σ'2 σ'3 = 1 (unilateral: >= 1), found by
//                                        kPdVolumeSteps Newton steps (the projection of ShapeOp's volume constraint)
// Every G has columns that sum to zero (A_i ignores translations), so Σ_k m_k q_k = Σ_k m_k s_k: internal elements
// keep linear momentum exactly, to the round-off of the solve.
//
// Weights. w_i in the units that make w/2 ‖A x - p‖² an energy (J). XPBD: w = 1/α', α' the constraint's compliance
// converted so that the two energies agree to second order at rest (the conversions are at the element builders in
// projective_dynamics.cpp); α = 0 (rigid) is capped at w = kPdMaxStiffnessRatio m̄/(h² g) with m̄ the mean mass of
// the element's free particles and g = Σ_kj G[k][j]² / size, the mean squared gain of A per particle (1 for an edge):
// a rigid element is 1e6 times stiffer than the inertia of its particles, which keeps the matrix well conditioned
// in double. PBD: w = k/(1-k) m̄/(h² g), capped the same way (k = 1 is rigid). For a particle hanging from a pin by
// one edge this is PBD's own answer: the static stretch of PBD with stiffness k is (1-k) h² g / k, and PD's is m g / w.
//
// Pinned particles are not in the system: it is reduced to the free particles (inverse mass > 0), and a pinned
// particle's share of A_i x moves into the projection (p' = p - Σ_{pinned k} G[k] x_k), so pinning is exact (no huge
// mass). Whatever PD does not solve (attachments, contacts, self-collision, tethers, shape matching, strain triangles,
// surface volumes) the world projects PBD-style after each global solve (see settings.h).
//
// The matrix is factored once (Eigen SimplicialLDLT, AMD ordering) and refactored only when the elements (topology,
// strengths, rest shape), the inverse masses, the method or h change. Everything inside is double; positions are float.
// After a (re)factorization the iterations never allocate: the solve runs the factor's triangular solves on
// preallocated vectors (SimplicialLDLT::solve would allocate for the permutation).
#pragma once

#include <Eigen/SparseCholesky>
#include <Eigen/SparseCore>
#include <cstdint>
#include <vector>

#include "constraints/dihedral.h"
#include "constraints/distance.h"
#include "constraints/neo_hookean.h"
#include "constraints/tet_volume.h"
#include "pbd/real.h"
#include "pbd/task_system.h"

namespace pbd {

/// A rigid element (α = 0, or PBD k = 1) is this many times stiffer than its particles' inertia m̄/(h² g).
inline constexpr double kPdMaxStiffnessRatio = 1e6;
/// Newton steps of the bending projection onto the rest angle (it stops earlier when |φ - φ0| < 1e-6 rad).
inline constexpr int kPdBendingSteps = 4;
/// Newton steps of the singular values' projection onto σ1 σ2 σ3 = 1 (stops earlier at |Πσ - 1| < 1e-12).
inline constexpr int kPdVolumeSteps = 10;
/// Elements per range of the parallel local step, and system rows per range of the right-hand side and write-back.
inline constexpr size_t kPdElementsPerTask = 1024;
inline constexpr size_t kPdRowsPerTask = 4096;
/// A particle index that is not in the reduced system (pinned).
inline constexpr uint32_t kPdPinned = ~0u;

enum class PdKind : uint8_t { Edge, Bending, TetStrain, TetVolume };

/// One PD element. Padding-free (checked in the .cpp), so two elements compare with memcmp: that is how the system
/// sees that nothing changed and keeps its factorization.
struct PdElement {
  uint32_t particle[4];  ///< Stencil particle indices; the first `size` are used, the rest 0.
  PdKind kind;           ///< Which projection (see the top of this file).
  uint8_t size;          ///< Particles in the stencil: 2 (Edge) or 4.
  uint8_t rows;          ///< 3-vectors in A x: 1 (Edge), 3 (tets), 4 (Bending).
  uint8_t unilateral;    ///< TetVolume: 1 = only det F >= 1 is enforced (the volume may grow); else 0.
  Real param[2];         ///< Edge: Lmin, Lmax (m). Bending: φ0 (rad), 0. Tets: 0, 0.
  Real compliance;       ///< XPBD α' = 1/w in the element's units (1/J per unit² of A x); 0 = rigid (capped), +∞ = off.
  Real stiffness;        ///< PBD k in [0,1]: w = k/(1-k) massScale/h², capped; 0 = off, 1 = rigid.
  uint32_t source;       ///< Index of the constraint in its world array (distances, dihedrals, volumes, Neo-Hookeans).
  double massScale;      ///< m̄/g: kg for an edge or the bending stencil, kg m² for a tet (G is in 1/m there).
  double G[4][4];        ///< G[k][j]: coefficient of stencil particle k in row j of A x; 0 past size and rows.
};

// --- Element builders: false when the element has no free particle (or a degenerate rest shape): leave it out. ---
bool pdEdgeElement(const DistanceConstraint& d, uint32_t source, const Real* inverseMasses, PdElement& out);
/// `rest` = rest positions, for Σ|∇φ|² at rest (the XPBD compliance's conversion).
bool pdBendingElement(const DihedralConstraint& d, uint32_t source, const Real* inverseMasses, const Vec3* rest,
                      PdElement& out);
/// Dm from `rest`: a volume tet stores no rest shape of its own.
bool pdTetVolumeElement(const TetVolumeConstraint& t, uint32_t source, const Real* inverseMasses, const Vec3* rest,
                        PdElement& out);
/// A Neo-Hookean tet as a TetStrain element (w = 2 μ V0) and a TetVolume element (w = 3 λ V0); returns how many of
/// out[0..1] it wrote (0 when every vertex is pinned; no volume element when λ <= 0).
int pdNeoHookeanElements(const NeoHookeanTet& t, uint32_t source, const Real* inverseMasses, PdElement out[2]);

/// w of an element for the method and 1/h² (see the top of this file); 0 = switched off.
double pdWeight(const PdElement& e, bool xpbd, double invH2);

// --- Local projections (stateless) ---
/// The edge vector e moved to the closest length in [Lmin, Lmax]: clamp(|e|, Lmin, Lmax) e/|e|; e when |e| = 0.
Eigen::Vector3d pdProjectEdge(const Eigen::Vector3d& e, double minLength, double maxLength);
/// The rotation closest to F (Frobenius): U Vᵀ from F = U Σ Vᵀ, with U's last column negated if det(U Vᵀ) < 0.
Eigen::Matrix3d pdClosestRotation(const Eigen::Matrix3d& F);
/// The matrix closest to F among those with det = 1 (unilateral: det >= 1, F itself when det F >= 1), through
/// the singular values (negative ones clamped to 0 first, so an inverted tet is pushed back out).
Eigen::Matrix3d pdClosestUnitDeterminant(const Eigen::Matrix3d& F, bool unilateral);
/// The 4-particle stencil moved onto dihedral angle φ0 (see the top of this file), about its centroid.
void pdProjectBending(const Vec3 x[4], Real restAngle, Eigen::Vector3d out[4]);

/// The elements, the reduced system and its factorization.
class ProjectiveSystem {
 public:
  /// Where the caller builds this step's elements (cleared, capacity kept: no allocation while the count holds).
  std::vector<PdElement>& scratch() { return scratch_; }
  /// Takes the elements built in scratch() if they or the inverse masses differ from the current ones (then the
  /// next prepare() refactors; allocates). Returns true when they changed.
  bool update(const std::vector<Real>& inverseMasses);
  /// Factors M/h² + Σ w A ᵀA for the method and 1/h² unless that is the current factorization. Throws
  /// InvalidArgument if the factor shows the matrix is not positive definite (then nothing is factored).
  void prepare(bool xpbd, double invH2);
  /// One local/global iteration on the positions p (xyz per particle): local projections from p, then the global
  /// solve with inertial prediction s, written to p's free particles.
  void iterate(Vec3* p, const Vec3* s, TaskSystem& tasks);
  /// Numeric factorizations so far (a diagnostic: it grows only when something the matrix depends on changes).
  uint64_t factorizations() const { return factorizations_; }
  size_t elementCount() const { return elements_.size(); }

 private:
  void rebuildLayout();
  void project(size_t e, const Vec3* p);
  void assembleRow(size_t row, const Vec3* s);
  void solveColumns();
  /// Throws InvalidArgument (naming the pivot) unless the factorization succeeded with every pivot of D finite and > 0.
  void checkPositiveDefinite();

  std::vector<PdElement> elements_;        // the factored elements, in the world's constraint order
  std::vector<PdElement> scratch_;         // the caller's next candidate (swapped in by update)
  std::vector<Real> inverseMasses_;        // per particle, at the last update: the free set and M
  std::vector<uint32_t> row_;              // per particle: its row in the reduced system, or kPdPinned
  std::vector<uint32_t> particleOfRow_;    // per row: the particle
  std::vector<uint32_t> incidenceBegin_;   // per row + 1: CSR start of the row's (element, slot) pairs
  std::vector<uint32_t> incidence_;        // 4 * element + stencil slot, in element order (a fixed summation order)
  std::vector<double> weight_;             // per element, w for the factored method and h
  std::vector<Eigen::Vector3d> projection_;  // 4 per element: p'_j of the last local step
  Eigen::VectorXd solution_[3];            // per axis: right-hand side in, q out (rows)
  std::vector<double> permuted_;           // xyz per row: the solve's work array in the factor's ordering
  Eigen::SimplicialLDLT<Eigen::SparseMatrix<double>, Eigen::Lower> ldlt_;
  bool built_ = false;                     // update() has built a layout (rows, incidences, buffers)
  bool analyzed_ = false;                  // ldlt_ holds the symbolic analysis of the current layout
  bool factored_ = false;                  // ldlt_ holds the factor for (factoredXpbd_, factoredInvH2_)
  bool factoredXpbd_ = false;
  double factoredInvH2_ = 0;               // 1/s², the 1/h² of the factorization
  double invH2_ = 0;                       // 1/s², the same, for the right-hand side
  uint64_t factorizations_ = 0;
};

}  // namespace pbd

// Vertex Block Descent (Chen, Macklin et al. 2024, "Vertex Block Descent", SIGGRAPH) over the distance
// constraints, with hard constraints as augmented-Lagrangian terms (Giles, Diaz, Yuksel 2025, "Augmented Vertex Block
// Descent", SIGGRAPH).
//
// A substep minimizes the implicit-Euler incremental potential  G(x) = Σ_i m_i/(2h²) |x_i - y_i|² + Σ_e E_e(x)
// (y the inertial prediction) by block coordinate descent: one vertex at a time, a Newton step on G with every other
// vertex held,
//   H_i Δx_i = -g_i,   g_i = m_i/h² (x_i - y_i) + Σ_{e ∋ i} ∂E_e/∂x_i,   H_i = m_i/h² I + Σ_{e ∋ i} ∂²E_e/∂x_i²
// (constraints/energy_spring.h gives each spring's terms, the Hessian projected to PSD there). Vertices of one colour
// share no spring, so a colour is solved in parallel, in any order, with the same bits; colours run in sequence.
//
// Springs. A compliant spring is the energy ½ k C² with k = 1/α (XPBD) or k = s/(1-s) m̄/h² (PBD stiffness s, the
// mapping Projective Dynamics uses), capped at kMaxStiffnessRatio m̄/h², m̄ the mean mass of its free particles. A
// rigid one (α = 0, s = 1) is a stiff spring whose stiffness is a penalty that grows where it is violated, as in
// Augmented VBD (Giles, Diaz, Yuksel 2025, Eq. 16, made scale-free): after every iteration it grows by
// β m̄/h² |C|/L, up to the same cap, and carries over to the next substep and step decayed by γ (Eq. 19).
// AVBD's multiplier λ (E = ½ k C² + λ C, λ ← λ + k C) is not used: warm-started across substeps it made a rigid
// cloth whose shear diagonals are rigid too diverge within a second at 10 substeps × 1 iteration (48² and 3²
// alike), and reset every substep it still diverged at 1 substep × 10 iterations on the 48² cloth. Such constraints
// are redundant, λ is not unique, and with inexact primal sweeps the multipliers drift along the redundant
// directions. So a rigid constraint holds to m g/k_max, not exactly (measurements in docs/performance.md).
#pragma once

#include <cstdint>
#include <vector>

#include "constraints/distance.h"
#include "pbd/real.h"
#include "pbd/task_system.h"

namespace pbd {

/// Penalty cap: a spring at most this many times stiffer than the inertia m̄/h² of its particles (as PD's cap).
inline constexpr double kVbdMaxStiffnessRatio = 1e6;
/// A rigid constraint's penalty starts at this times m̄/h² (AVBD's PENALTY_MIN, made scale-free).
inline constexpr double kVbdStartPenaltyRatio = 1;
/// β: a rigid constraint's penalty grows by β m̄/h² per unit of relative violation |C|/L per iteration.
inline constexpr double kVbdPenaltyGrowth = 1e4;
/// γ: how much of a rigid constraint's penalty carries over to the next substep (AVBD's warm start).
inline constexpr double kVbdWarmStartDecay = 0.99;

class VertexBlockDescent {
 public:
  /// Rebuilds the vertex colouring and the vertex → spring adjacency for `count` springs over `particleCount`
  /// particles (allocates). The penalties are kept when the spring count is unchanged (a change of strength), else
  /// they start over.
  void build(const DistanceConstraint* springs, size_t count, size_t particleCount);
  /// Before a substep's iterations: each spring's stiffness for this method and h (invH2 = 1/h²), and the warm start
  /// of the rigid ones' penalties. w: inverse masses.
  void beginSubstep(const DistanceConstraint* springs, const Real* w, bool xpbd, double invH2);
  /// One iteration: every colour's vertices, then the rigid constraints' penalties. p: positions (xyz per particle,
  /// moved), inertial: y.
  void iterate(Real* p, const Real* inertial, const Real* w, const DistanceConstraint* springs, double invH2,
               TaskSystem& tasks);
  /// Forgets the penalties (after a rollback, or a snapshot that does not hold them).
  void resetPenalties();
  size_t colourCount() const { return colourBegin_.empty() ? 0 : colourBegin_.size() - 1; }
  /// The particles of colour c, in the order they are solved.
  std::vector<uint32_t> colour(size_t c) const {
    return {order_.begin() + colourBegin_[c], order_.begin() + colourBegin_[c + 1]};
  }

  bool dirty = true;

 private:
  struct Neighbour {
    uint32_t spring, other;
  };
  void solveVertex(uint32_t i, Real* p, const Real* inertial, const Real* w, const DistanceConstraint* springs,
                   double invH2) const;
  void growPenalty(uint32_t s, const Real* p, const DistanceConstraint* springs);

  std::vector<uint32_t> order_;          // the particles with springs, colour by colour
  std::vector<uint32_t> colourBegin_;    // colour c is order_[colourBegin_[c], colourBegin_[c+1])
  std::vector<uint32_t> neighbourBegin_;  // per particle, into neighbours_ (CSR)
  std::vector<Neighbour> neighbours_;
  std::vector<double> stiffness_;  // per spring, this substep's k; -1 marks a rigid one (penalty_ instead)
  std::vector<double> inertia_;    // per spring, m̄/h²
  std::vector<double> penalty_;    // per spring, a rigid one's current stiffness
  std::vector<size_t> phaseSizes_, phaseMinRanges_;
};

}  // namespace pbd

// What the solvers derive from the constraints and keep between steps: the colouring and its block schedule, the
// hierarchy, Projective Dynamics' factorization, the serial sweeps' orders, and the solvers' working copies of p.
#pragma once

#include <cstdint>
#include <vector>

#include "constraints/distance.h"
#include "constraints/tet_volume.h"
#include "pbd/world.h"
#include "schedule/block_schedule.h"
#include "schedule/element_order.h"
#include "schedule/graph_colouring.h"
#include "solvers/hierarchy.h"
#include "solvers/projective_dynamics.h"
#include "solvers/vertex_block_descent.h"
#include "world/particle_advance.h"
#include "world/volume_sweep.h"

namespace pbd {

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

/// Distance constraints regrouped by colour for the parallel solvers: derived from ConstraintStore::distances,
/// rebuilt (without allocating) at the next step after any change.
struct ColourSchedule {
  std::vector<DistanceConstraint> constraints;  ///< Sorted by colour, overflow last: Jacobi's order and the
                                                ///< overflow group's (which keeps the order added).
  std::vector<Real> lambda;                     ///< XPBD multipliers of `constraints` (Jacobi, overflow group).
  uint32_t colourBegin[GraphColouring::kColours + 2] = {};  ///< Colour c is [colourBegin[c], colourBegin[c+1]).
  BlockSchedule blocks;                                     ///< Coloured Gauss-Seidel's layout of the colours (its own
                                                            ///< multipliers; blocks.slotOf maps `constraints` to them).
  std::vector<uint32_t> constraintsPerParticle;             ///< Jacobi's averaging divisor.
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

/// The solvers' derived data, rebuilt when marked dirty (before the next step, never inside it).
struct SolverData {
  std::vector<Real> jacobiDelta;  // xyz per particle: Jacobi's summed corrections of one iteration
  std::vector<Real> paddedP;      // xyzw per particle and a padding particle per block: the coloured pass's p
  GraphColouring colouring;
  ColourSchedule schedule;
  Hierarchy hierarchy;          // Solver::Hierarchical's coarse levels, rebuilt when `dirty`
  ProjectiveSystem projective;  // Solver::ProjectiveDynamics: elements and factored matrix
  VertexBlockDescent vbd;       // Solver::VertexBlockDescent: colouring, incidences, penalties; rebuilt when dirty
  std::vector<VbdAttachment> vbdAttachments;  // the attachments as VBD reads them, targets at the substep's end
  std::vector<VbdContact> vbdContacts;  // the substep's contacts VBD solves as energies, grouped by particle
  std::vector<uint32_t> vbdContactBegin;  // per particle, where its contacts start in vbdContacts (count() + 1)
  // The serial sweeps' orders over dihedrals, volumes, neoHookeans and strain triangles (element_order.h), rebuilt
  // before the next step when `elementOrdersDirty` (elements added or loaded); room reserved by reserveElementOrders.
  ElementOrder dihedralOrder, volumeOrder, neoHookeanOrder, triangleStrainOrder;
  bool elementOrdersDirty = true;
  // The tet volumes in volumeOrder's order, as the sweep reads them; packed again before the next step when
  // `volumePackDirty` (the order rebuilt, a strength or k' changed).
  PackedTetVolumes volumePack;
  bool volumePackDirty = true;
  VolumeSweepChoice volumeSweep;  // one way or forward and back, derived again when volumePackDirty or schedule.dirty
  // Where the volume and the Neo-Hookean sweeps' padded positions put the particles (ElementOrder::placeHalvesApart:
  // a split body numbered without locality has its halves' particles apart, so that its two threads write cache
  // lines of their own), and the inverses; empty: the numbering.
  // Computed when the orders are rebuilt; off only in tests (placeHalvesApart), to compare the bits.
  std::vector<uint32_t> volumeParticleAtPlace, volumePlaceOfParticle;
  std::vector<uint32_t> neoHookeanParticleAtPlace, neoHookeanPlaceOfParticle;
  bool placeHalvesApart = true;
};

}  // namespace pbd

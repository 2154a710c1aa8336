// How one substep fuses its passes over the particles: planned by World::Impl::planSubstep (pass_fusion.cpp) before
// the substep moves anything, from the stages present.
#pragma once

namespace pbd {

/// The fusions a substep may take; all false when World::Impl::fusePasses is (tests). Each changes no bit.
struct SubstepPlan {
  bool particlePassInSolve = false;  ///< The particle pass runs inside the coloured pass's first copy in.
  bool blocksAlone = false;          ///< No stage but the coloured blocks projects: if the substep also finds no
                                     ///< contact, pair or free island, p stays padded from the first iteration to the
                                     ///< last (blocksAloneMoveParticles).
  bool copyOutBounds = false;        ///< The coloured pass's last copy out can bound the particles for the late scan.
  bool sweepBackPadded = false;      ///< The coloured distances' pass back (BDF2, DistanceSweep::Symmetric) starts
                                     ///< from the forward pass's padded positions, with no copy out and in between.
  bool commitInNextPass = false;     ///< A next substep under implicit Euler: if this one ends with no contact, pair or
                                     ///< frozen particle, its commit is left to that substep's first pass
                                     ///< (commitJoinsNextPass).
};

}  // namespace pbd

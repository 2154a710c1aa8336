// A soft body's Neo-Hookean material (Young's modulus E, Poisson's ratio ν, PBD stiffness) turned into per-tet
// constants: one check and one conversion, shared by addSoftBody (soft_body_builder.cpp) and
// World::setSoftBodyMaterial (strength_setters.cpp), so a body set at run time to the values it was built with is
// bit-identical to it.
#pragma once

#include "constraints/neo_hookean.h"
#include "base/checks.h"

namespace pbd {

/// E: finite, > 0 (Pa); ν: in (-1, 0.5) (0.5 would make λ infinite, the hydrostatic compliance 0);
/// stiffness (PBD): in [0, 1]. `names` are the arguments as the caller calls them.
inline void checkNeoHookeanMaterial(const char* fn, Real youngsModulus, Real poissonRatio, Real stiffness,
                                    const char* const (&names)[3]) {
  check::positive(fn, names[0], youngsModulus);
  check::finite(fn, names[1], poissonRatio);
  if (!(poissonRatio > -1 && poissonRatio < Real(0.5))) check::fail(fn, names[1], "must be in (-1, 0.5)", poissonRatio);
  check::inRange(fn, names[2], stiffness, 0, 1);
}

/// Writes γ and the XPBD compliances α_D = 1/(μ V0), α_H = 1/(λ' V0) of tet `e` (its restVolume must be set) from
/// the Lamé parameters, and both PBD stiffnesses. The corrected k' are the caller's (they depend on the iterations).
inline void applyNeoHookeanMaterial(NeoHookeanTet& e, const LameParameters& lame, Real stiffness) {
  const NeoHookeanMaterial m = neoHookeanMaterial(lame, e.restVolume);
  e.gamma = m.gamma;
  e.deviatoricCompliance = m.deviatoricCompliance;
  e.hydrostaticCompliance = m.hydrostaticCompliance;
  e.deviatoricStiffness = e.hydrostaticStiffness = stiffness;
}

}  // namespace pbd

// The constraint kinds whose strength World::setConstraintStrength changes at run time.
#pragma once

#include <cstdint>

namespace pbd {

/// A kind of constraint, and the index space its `first`/`count` range refers to (each kind is numbered 0, 1, ... in
/// the order added, as its World::...Count() counts it). Neo-Hookean tets are not here: their strength is a material
/// (World::setSoftBodyMaterial).
enum class ConstraintKind : uint32_t {
  Distance = 0,         ///< distanceConstraintCount(); compliance in m/N.
  Dihedral = 1,         ///< dihedralConstraintCount(); compliance in 1/(N m) per rad².
  TetVolume = 2,        ///< tetVolumeCount(); compliance in m⁶/J.
  TriangleStretch = 3,  ///< triangleStrainCount(): the two stretches of each strain triangle; compliance per unit
                        ///< area (1 / stretch modulus, m/N), divided by each triangle's rest area as the builder does.
  TriangleShear = 4,    ///< triangleStrainCount(): the shear of each strain triangle; compliance per unit area.
  ShapeMatching = 5,    ///< shapeMatchingCount(); compliance in s².
  SurfaceVolume = 6,    ///< surfaceVolumeCount() (closed-surface volume / pressure); compliance in m⁶/J.
};

/// One past the last ConstraintKind, for validation and loops.
inline constexpr uint32_t kConstraintKindCount = 7;

}  // namespace pbd

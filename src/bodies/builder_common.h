// Steps shared by the body builders: argument checks, pins, rods, masses and tethers on a BodyBlueprint.
#pragma once

#include <cstdint>
#include <vector>

#include "bodies/body_builders.h"

namespace pbd {

/// compliance finite >= 0, stiffness in [0, 1]; named "<name>.compliance" etc. ("compliance" when name is "").
void checkStrength(const char* fn, const char* name, const Strength& s);
/// Validates a body's tether mode (a known TetherMode) and slack (in [1, 1e6]), naming "tethers" and "tetherSlack".
void checkTethers(const char* fn, TetherMode mode, Real slack);
/// Validates the pinned indices and the pin regions against the body's built `positions` (xyz); returns every pinned
/// particle once, in increasing order.
std::vector<uint32_t> resolvePins(const char* fn, const std::vector<uint32_t>& pinned,
                                  const std::vector<PinRegion>& regions, const std::vector<Real>& positions);
Vec3 pointAt(const BodyBlueprint& b, uint32_t i);
/// A bilateral distance constraint (a link) between two particles at their current distance.
void addLink(BodyBlueprint& b, uint32_t i, uint32_t j, const Strength& s);
void spreadMass(BodyBlueprint& b, size_t count, Real mass, const std::vector<uint32_t>& pinned);
/// Tethers every free particle of `b` to its nearest pinned particle (Euclidean, or geodesic over the body's
/// constraint edges by multi-source Dijkstra), with the limit slack x that distance.
void addTethers(BodyBlueprint& b, TetherMode mode, Real slack);

}  // namespace pbd
